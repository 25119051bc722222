"""compute_ceiling: the FLOPs the claim needs against the card's dense tensor peak.

Seed §4 bounds decode by memory; this bounds every cell by arithmetic: each token through the model
costs at least one multiply-add per weight it uses, 2 × active params FLOPs, whatever the batch and
with or without speculative decoding (a verify pass computes every position it checks).

`required_tflops = 2 × params per token × aggregate tok/s`; `ratio = required ÷ peak`, the peak
being the card's dense (no 2:4 sparsity) figure for the weight format's family × card count (the
card's highest peak when the format is unknown, and the higher of bf16 and int8 for a weight-only
quantised format, whose matmuls may run in INT8: both favour the claim; checks/physics/compute.py).

Statuses:
- `stop`: ratio > 1 (more arithmetic per second than the silicon can do), the card count stated.
- `ok`: otherwise.
- `unanswerable`: no tok/s, no hardware or a card not in the table, no model size, no dense
  peak in the table for the format's family, or no card count where the weights need more than
  one card (one card is assumed only where they fit on one); above one card's peak with no card
  count stated (more cards do more arithmetic).

Reference rows read: `hardware` (peak_tflops), `models` (params, MoE), `formats` (family).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checks.basis import answer, formula, row
from checks.models import Answer, Evidence
from checks.physics import (
    Missing,
    aggregate_tok_s,
    compute_peak,
    hardware_row,
    num,
    one_card_fits,
    params_per_token,
    required_tflops,
    resolve_format,
)
from checks.reference import HardwareRow, Reference

__all__ = ["compute_ceiling"]

# Above the dense peak is impossible: the peak is the silicon's arithmetic limit.
STOP_RATIO = 1.0


def compute_ceiling(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """compute_ceiling: the FLOPs the claim needs against the card's dense tensor peak."""
    c = ev.claim
    hw = hardware_row(c, ref)
    model = ref.model(c.model)
    fmt = resolve_format(c, ref)
    params = params_per_token(c, model, ref)
    tok = aggregate_tok_s(c)
    missing = [m for x in (tok, hw, params) if isinstance(x, Missing) for m in x.what]
    if missing:
        return answer(key="compute_ceiling", status="unanswerable", missing=missing,
                      summary=f"Cannot set the claim against the card's arithmetic: no {', '.join(missing)}.")
    assert isinstance(hw, HardwareRow) and not isinstance(params, Missing) and not isinstance(tok, Missing)
    peak = compute_peak(c, hw, fmt)
    if isinstance(peak, Missing):
        return answer(key="compute_ceiling", status="unanswerable", missing=list(peak.what),
                      basis=[row(hw)],
                      summary=f"The reference has no {peak.what[0]} to set the claim against.")
    # One card is assumed only where the weights fit on one (as Q7 does): a model that needs
    # several runs on several, and a stop must not rest on a count nobody stated.
    count = one_card_fits(c, hw, model, fmt)
    if count is not None:
        what = count.what[0]
        return answer(key="compute_ceiling", status="unanswerable", missing=[what],
                      summary=f"Cannot set the claim against the cards' arithmetic: no {what}.")
    need = required_tflops(params.value, tok.value)
    ratio = need / peak.value
    basis = [*tok.basis, *params.basis, *peak.basis,
             formula(f"required = 2 × {num(params.value)}e9 × {round(tok.value, 1):g} tok/s = {num(need)} TFLOPS"),
             formula(f"ratio = {num(need)} ÷ {num(peak.value)} = {ratio:.2f}")]
    figures = {"required_tflops": need, "peak_tflops": peak.value, "ratio": ratio}
    notes = [*params.notes, *fmt.notes, *peak.notes]
    tail = f" ({'; '.join(notes)})" if notes else ""
    lead = (f"{round(tok.value, 1):g} tok/s × 2 × {num(params.value)}B params = {num(need)} TFLOPS, "
            f"{ratio:.2f} of the {hw.name}{' ×' + str(c.hardware_count) if (c.hardware_count or 1) > 1 else ''}'s "
            f"dense peak of {num(peak.value)} {peak.unit}")
    kw: dict[str, Any] = {"figures": figures, "basis": basis, "assumptions": list(fmt.assumptions)}
    if ratio > STOP_RATIO and c.hardware_count is None:
        # More cards do more arithmetic: a stop must not rest on a count the record never gave.
        return answer(key="compute_ceiling", status="unanswerable", **kw, missing=["card count"],
                      summary=f"{lead}: more than one card can do, and the record does not say how "
                              f"many ran it{tail}.")
    if ratio > STOP_RATIO:
        return answer(key="compute_ceiling", status="stop", **kw, reason="above_peak",
                      summary=f"{lead}: more arithmetic per second than the card can do{tail}.")
    return answer(key="compute_ceiling", status="ok", **kw,
                  summary=f"{lead}: within the card's arithmetic{tail}.")
