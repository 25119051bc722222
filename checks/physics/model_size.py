"""A model's parameter count read from its name, for models with no reference row.

Model names carry their size the way their authors publish them: "Llama-3.1-8B", "Qwen3-30B-A3B"
(30B total, 3B active: Qwen's MoE naming, https://huggingface.co/Qwen/Qwen3-30B-A3B),
"Mixtral-8x7B" (eight experts of a 7B-class shape, https://huggingface.co/mistralai/Mixtral-8x7B-v0.1),
"gpt-oss-120b". A size read this way is a label, not a count: the caller says it was inferred.

For an `NxM B` name only the expert count and shape are known: the total is at most N × M (shared
attention and embeddings are counted once in the real model, so the true total is lower) and the
active share depends on the routing, so it is left unknown.

A record's own size that sits 10× or more from a sourced figure (its model's reference row, else
the size its own model name states) is a units or typing error, not a model: `sourced_claim` puts
the sourced value in its place before any check reads the claim, and keeps the record's value in
`Claim.suspect_fields` for the `suspect_field` finding. The same goes for the accelerator memory a
record states against the hardware row, and a weight file no real width of the model's
parameters could fill (that one is dropped: the physics derives the bytes from the row).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from checks.models import Claim, Provenance, SuspectField
from checks.reference import ModelRow, Reference

__all__ = ["SUSPECT_FACTOR", "NameSize", "size_from_name", "sourced_claim", "suspect_fields"]

# Linear-time on any input: each alternative is anchored on a digit run bounded by non-digits,
# and no two adjacent quantifiers can match the same characters.
_NUM = r"(\d{1,4}(?:\.\d{1,3})?)"
# "235B-A22" (kvcache-ai/ktransformers doc/en/AMX.md) drops the second B; only after a hyphen or an
# underscore, where a card name cannot stand ("70B A40" may be a 70B model on an A40).
_ACTIVE = re.compile(r"(?<![\w.])" + _NUM + r"[bB](?:[-_ ]?[aA]" + _NUM + r"[bB](?![a-zA-Z])|"
                     r"[-_][aA]" + _NUM + r"(?![\w.]))")
_EXPERTS = re.compile(r"(?<![\w.])(\d{1,3})\s?[xX×]\s?" + _NUM + r"[bB](?![a-zA-Z])")
_PLAIN = re.compile(r"(?<![\w.])" + _NUM + r"[bB](?![a-zA-Z])")
_MILLIONS = re.compile(r"(?<![\w.])" + _NUM + r"[mM](?![a-zA-Z])")


class NameSize(BaseModel):
    """Billions of parameters as a model's name states them."""

    model_config = ConfigDict(frozen=True)

    total_b: float
    active_b: float | None = None
    is_moe: bool = False
    span: str  # the part of the name it was read from


def size_from_name(name: str | None) -> NameSize | None:
    """'Qwen3-30B-A3B' → 30B total, 3B active; 'Llama 3 70B' → 70B; 'Mixtral 8x7B' → ≤ 56B MoE."""
    if not name:
        return None
    text = name[:200]
    if m := _ACTIVE.search(text):
        total, active = float(m.group(1)), float(m.group(2) or m.group(3))
        if 0 < active < total:
            return NameSize(total_b=total, active_b=active, is_moe=True, span=m.group(0))
    if m := _EXPERTS.search(text):
        experts, each = int(m.group(1)), float(m.group(2))
        if experts > 1 and each > 0:
            return NameSize(total_b=experts * each, is_moe=True, span=m.group(0))
    if m := _PLAIN.search(text):
        total = float(m.group(1))
        if total > 0:
            return NameSize(total_b=total, span=m.group(0))
    if m := _MILLIONS.search(text):
        total = float(m.group(1)) / 1000
        if total > 0:
            return NameSize(total_b=total, span=m.group(0))
    return None


# ------------------------------------------------------------------------- suspect record fields

# A record field this far from a sourced figure is no rounding, no vision tower and no tied
# embedding: it is a unit read wrong (8000 M as 8000 B, a GiB figure as bytes) or a typing error.
# The largest honest gaps seen between a record and its row are ~1.3× (a "56B" for Mixtral 8x7B's
# 46.7B; a client's 23.59 GB for a 24 GB card); a unit slip is 1000× or 1024×.
SUSPECT_FACTOR = 10.0
# Bits per weight a real weight file can hold: BitNet's ternary 1.58 (IQ1_BN packs ~1.7) to FP32.
_FILE_BITS = (1.58, 32.0)


def _off(record: float, sourced: float) -> bool:
    return sourced > 0 and record > 0 and not (
        1 / SUSPECT_FACTOR < record / sourced < SUSPECT_FACTOR)


def _num(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def suspect_fields(claim: Claim, ref: Reference) -> list[SuspectField]:
    """Every field of the record 10× or more away from a sourced figure (the model row, the
    hardware row, the record's own model name), each with both values."""
    out: list[SuspectField] = []
    model = ref.model(claim.model)
    named = size_from_name(claim.model) if model is None else None
    if not claim.size_inferred:
        for field, row_value in (("params_total_b", model.params_total_b if model else None),
                                 ("params_active_b", model.params_active_b if model else None)):
            mine = getattr(claim, field)
            if mine is None:
                continue
            if row_value and _off(mine, row_value):
                assert model is not None
                out.append(SuspectField(
                    field=field, record_value=mine, record_from=claim.source_of(field),
                    sourced_value=row_value, sourced_from=model.cite(), ratio=mine / row_value,
                    unit="B params"))
            elif model is None and named is not None:
                name_value = named.total_b if field == "params_total_b" else named.active_b
                if name_value and _off(mine, name_value):
                    out.append(SuspectField(
                        field=field, record_value=mine, record_from=claim.source_of(field),
                        sourced_value=name_value,
                        sourced_from=f"the record's own model name '{claim.model}' ('{named.span}')",
                        ratio=mine / name_value, unit="B params"))
    hw = ref.gpu(claim.hardware)
    if hw is not None and claim.hardware_memory_gb and _off(claim.hardware_memory_gb, hw.memory_gb):
        out.append(SuspectField(
            field="hardware_memory_gb", record_value=claim.hardware_memory_gb,
            record_from=claim.source_of("hardware_memory_gb"), sourced_value=hw.memory_gb,
            sourced_from=hw.cite(), ratio=claim.hardware_memory_gb / hw.memory_gb, unit="GB"))
    if (hw is not None and hw.kind in ("cpu", "unified") and claim.system_bandwidth_gbs
            and _off(claim.system_bandwidth_gbs, hw.bandwidth_gbs)):
        out.append(SuspectField(
            field="system_bandwidth_gbs", record_value=claim.system_bandwidth_gbs,
            record_from=claim.source_of("system_bandwidth_gbs"), sourced_value=hw.bandwidth_gbs,
            sourced_from=hw.cite(), ratio=claim.system_bandwidth_gbs / hw.bandwidth_gbs,
            unit="GB/s"))
    file_size = _suspect_file(claim, ref, model)
    if file_size is not None:
        out.append(file_size)
    return out


def _suspect_file(claim: Claim, ref: Reference, model: ModelRow | None) -> SuspectField | None:
    """A weight file far outside what the model's parameters can fill at any real width."""
    if not claim.model_size_bytes or model is None or claim.size_inferred:
        return None
    bits = claim.model_size_bytes * 8 / (model.params_total_b * 1e9)
    fmt = ref.format(claim.weight_format)
    low, high = (fmt.nominal_bits, fmt.nominal_bits) if fmt is not None else _FILE_BITS
    if low / SUSPECT_FACTOR < bits < high * SUSPECT_FACTOR:
        return None
    width = f"{_num(low)} bits ({fmt.cite()})" if fmt is not None else (
        f"{_num(low)} to {_num(high)} bits per weight (BitNet ternary to FP32)")
    expected = model.params_total_b * 1e9 * (low if bits < low else high) / 8
    return SuspectField(
        field="model_size_bytes", record_value=claim.model_size_bytes,
        record_from=claim.source_of("model_size_bytes"), sourced_value=None,
        sourced_from=f"{model.cite()}: {_num(model.params_total_b)}B params at {width}",
        ratio=claim.model_size_bytes / expected, unit="bytes")


def sourced_claim(claim: Claim, ref: Reference) -> Claim:
    """The claim with every suspect field replaced by its sourced value (a file size that cannot
    be the weights is dropped, so the physics derives it from the row), the record's own values
    kept in `suspect_fields`. Every check reads this claim, so none rests on a suspect field."""
    found = suspect_fields(claim, ref)
    if not found:
        return claim
    update: dict[str, object] = {"suspect_fields": found}
    provenance = dict(claim.provenance)
    for s in found:
        update[s.field] = s.sourced_value
        if s.sourced_value is None:
            provenance.pop(s.field, None)
        else:
            provenance[s.field] = Provenance(
                source=s.sourced_from, field="reference row (the record's value is suspect)",
                span=f"the record's {_num(s.record_value)} {s.unit} ({s.record_from}) is "
                     f"{_num(s.ratio)}× this")
    update["provenance"] = provenance
    return claim.model_copy(update=update)
