"""fits_memory: do the weights (and the KV cache) fit in the card's memory?

Seed §4: "Generating each token requires reading the weights out of memory at least once" — the
roofline assumes that memory is the card's own. Weights that do not fit are offloaded over PCIe or
to system RAM, which streams an order of magnitude slower than the bandwidth the roofline used.

Sizes favour the claim: the record's file size, else every parameter (MoE experts included) ×
nominal bits / 8; KV at the stated context in the claim's KV dtype (FP8 when not stated) × batch;
memory is read in GiB (cards are sized in binary units: "32 GB" = 34.4e9 bytes) × card count.

Statuses:
- `flag`: weights + KV larger than memory × count where the roofline could not carry the offload
  (only the KV cache overflows, or weights of a stated size with no offload the roofline can read).
- `ok`: it fits; or it does not and the record says so (offload, `-ngl`, system RAM), or the
  weights of a known format do not fit the stated cards ("on one RTX 5090"): Q7 then reads the
  offloaded share at system-memory bandwidth, so the roofline already carries it; or the format is
  unknown and only the assumed 4-bit would not fit: a smaller format or an unstated offload
  explains it, so it is no evidence against the number.
- `unanswerable`: no hardware, a card not in the table, or no model size.

Reference rows read: `hardware` (memory_gb), `models` (params, KV geometry), `formats` (bits).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from checks.basis import answer, formula, row
from checks.models import Answer, Assumption, Evidence
from checks.physics import (
    GB,
    MEMORY_UNIT_BYTES,
    Missing,
    OffloadSplit,
    batch_size,
    card_gib,
    card_memory_gb,
    hardware_row,
    kv_gb_per_sequence,
    num,
    offload_split,
    resident_weight_gb,
    resolve_format,
    says_offload,
)
from checks.reference import HardwareRow, Reference

__all__ = ["fits_memory"]

_A_GIB = Assumption(name="card memory unit", value="GiB (2^30 bytes)", unit="",
                    source="GPU memory is sized in binary units; the larger reading favours the claim")


def fits_memory(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """fits_memory: do the weights (and the KV cache) fit in the card's memory?"""
    c = ev.claim
    hw = hardware_row(c, ref)
    model = ref.model(c.model)
    fmt = resolve_format(c, ref)
    weights = resident_weight_gb(c, model, fmt)
    missing = [m for x in (hw, weights) if isinstance(x, Missing) for m in x.what]
    if missing:
        return answer(key="fits_memory", status="unanswerable", missing=missing,
                      summary=f"Cannot size the model against the card: no {', '.join(missing)}.")
    assert isinstance(hw, HardwareRow) and not isinstance(weights, Missing)
    count = c.hardware_count or 1
    batch = batch_size(c) or 1
    kv = kv_gb_per_sequence(c, model, generous=True)
    kv_total = kv.value * batch
    need = weights.value + kv_total
    memory = card_memory_gb(hw, count, c.hardware_memory_gb)
    per = card_gib(hw, c.hardware_memory_gb)
    ratio = need / memory
    basis = [*weights.basis, *kv.basis,
             row(hw, f"{num(hw.memory_gb)} GB (GiB) = {num(hw.memory_gb * MEMORY_UNIT_BYTES / GB)} GB"
                 + (f"; the record's {num(per)} GB ({c.source_of('hardware_memory_gb')}), the larger, "
                    f"= {num(per * MEMORY_UNIT_BYTES / GB)} GB" if per > hw.memory_gb else "")
                 + (f" × {count} cards = {num(memory)} GB" if count > 1 else "")),
             formula(f"need = {num(weights.value)} GB weights + {num(kv_total)} GB KV"
                     + (f" ({batch} × {num(kv.value)} GB)" if batch > 1 and kv.value else "")
                     + f" = {num(need)} GB; {num(need)} ÷ {num(memory)} = {ratio:.2f}")]
    figures = {"weights_gb": weights.value, "kv_gb": kv_total, "required_gb": need,
               "memory_gb": memory, "ratio": ratio}
    notes = [n for n in (*weights.notes, *kv.notes) if "KV reads not counted" not in n]
    tail = f" ({'; '.join(notes)})" if notes else ""
    cards = hw.on(count)
    kv_text = f" + {num(kv_total)} GB KV" if kv_total else ""
    total = f" = {num(need)} GB" if kv_total else ""
    lead = (f"{num(weights.value)} GB of {fmt.name} weights{kv_text}{total} against "
            f"{num(memory)} GB on {cards} ({ratio:.2f})")
    kw: dict[str, Any] = {"figures": figures, "basis": basis,
              "assumptions": [_A_GIB, *weights.assumptions, *kv.assumptions]}
    if need > memory and says_offload(c, model):
        return answer(key="fits_memory", status="ok", **kw,
                      summary=f"{lead}: it does not fit and the record says it offloads, so the "
                              f"roofline reads the offloaded share at system-memory bandwidth{tail}.")
    if need > memory and hw.weights_across_devices and not c.hardware_count:
        return answer(key="fits_memory", status="unanswerable", missing=["device count"], **kw,
                      summary=f"{lead}: {hw.name} systems spread a model over many devices' on-chip "
                              "memory, and the record does not say how many.")
    if need > memory and isinstance(offload_split(c, hw, model, fmt), OffloadSplit):
        # The stated cards are the cards: the roofline reads what does not fit at system-memory
        # speed (checks/physics/offload.py), so the ceiling already carries the offload.
        return answer(key="fits_memory", status="ok", **kw,
                      summary=f"{num(weights.value)} GB of {fmt.name} weights do not fit {cards}'s "
                              f"{num(memory)} GB: the roofline judges the offloaded ceiling, the rest "
                              f"read at system-memory bandwidth{tail}.")
    if need > memory and c.hardware_count is None:
        cards_needed = math.ceil(need / card_memory_gb(hw, 1, c.hardware_memory_gb))
        return answer(key="fits_memory", status="unanswerable", missing=["card count"], **kw,
                      summary=f"{lead}: it needs at least {cards_needed} cards, and the record does "
                              "not say how many it ran on; one card was never claimed.")
    if need > memory and fmt.assumed and c.model_size_bytes is None:
        # The format is a guess (the smallest in common use): a smaller one may fit, or the run
        # offloads (llama.cpp's -ot exps=CPU, KTransformers) and says so where this record does
        # not. Either way not fitting is no evidence against the number, and the roofline's
        # on-card ceiling stays the generous bound.
        return answer(key="fits_memory", status="ok", **kw,
                      summary=f"{lead}: at the assumed format it does not fit, so the run used a "
                              f"smaller format or offloaded part of it; the roofline's on-card "
                              f"ceiling stays the generous bound{tail}.")
    if need > memory:
        return answer(key="fits_memory", status="flag", **kw, reason="does_not_fit",
                      label=f"{num(need)} GB does not fit the {num(memory)} GB of {cards}",
                      summary=f"{lead}: it does not fit, so part of it is offloaded and streams far "
                              f"slower than the bandwidth the roofline assumed{tail}.")
    return answer(key="fits_memory", status="ok", **kw,
                  summary=f"{lead}: it fits in the card's memory{tail}.")
