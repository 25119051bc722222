"""suspect_field: a record field 10× or more away from a sourced figure (a units or typing error).

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer
from checks.models import Answer, Evidence, SuspectField
from checks.physics.model_size import SUSPECT_FACTOR
from checks.reference import Reference

__all__ = ["suspect_field"]

_WHAT = {"params_total_b": "total parameters", "params_active_b": "active parameters",
         "hardware_memory_gb": "accelerator memory", "system_bandwidth_gbs": "memory bandwidth",
         "model_size_bytes": "weight file size"}


def _g(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _line(s: SuspectField) -> str:
    sourced = (f"{_g(s.sourced_value)} {s.unit} from {s.sourced_from}" if s.sourced_value is not None
               else f"expected from {s.sourced_from}")
    used = ("the sourced value is used" if s.sourced_value is not None
            else "the record's figure is set aside and the bytes derived from the row")
    return (f"{_WHAT.get(s.field, s.field)}: the record's {_g(s.record_value)} {s.unit} "
            f"({s.record_from}) vs {sourced}: {_g(s.ratio)}× — {used}")


def suspect_field(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """suspect_field: a record field disagrees with a sourced figure by 10× or more.

    Seed, section 4: "bandwidth ÷ bytes read per token" — the roofline is only as good as its
    inputs. A record whose parameter count is 8000 where its model has 8.03B (LocalScore's
    `model_params` = 8000 with `model_params_unit` = M, read without its unit), whose card has
    24 576 GB, or whose weight file is 4.35 bytes has read a unit wrong or mistyped a figure; it
    has not found a model 1000× larger. Condemning the claim on that figure would be a false alarm.

    The fields compared, each with the sourced figure it is compared with: total and active
    parameters against the model's reference row (else against the size the record's own model
    name states, "8B"); the accelerator memory the record states against the hardware row; a
    stated memory bandwidth against a CPU or unified-memory row; the weight file size against the
    model's parameters at the format's nominal bits (1.58 to 32 bits when the format is unknown).
    A sourced value is used in the suspect field's place for every check (the runner applies
    `checks.physics.model_size.sourced_claim` before any check runs), so no `stop` rests on it.

    Statuses:
    - `flag`: at least one field 10× or more from its sourced figure; the summary names each with
      both values and which one the computation used.
    - `ok`: the record states sizes and none is 10× from its sourced figure.
    - `n/a`: nothing to compare (no stated size with a reference row or a size in the name).

    Not a plausibility flag (not in `PLAUSIBILITY_KEYS`): a units slip says the record's metadata
    is wrong, not that the tok/s is; the headline names it beside the verdict. Gaps under 10×
    (a rounded name, a vision tower) are `param_count`'s to judge.

    Reference rows read: `models` (params_total_b, params_active_b), `hardware` (memory_gb,
    bandwidth_gbs), `formats` (nominal_bits).
    """
    suspects = ev.claim.suspect_fields
    if suspects:
        fields = ", ".join(dict.fromkeys(_WHAT.get(s.field, s.field) for s in suspects))
        first = suspects[0]
        figures = {"suspect_fields": len(suspects), "ratio": first.ratio,
                   "record_value": first.record_value}
        if first.sourced_value is not None:
            figures["sourced_value"] = first.sourced_value
        return answer(
            key="suspect_field", status="flag", figures=figures, basis=[_line(s) for s in suspects],
            reason="units_slip", label=f"The record's {fields} is {SUSPECT_FACTOR:.0f}× or more off its sourced figure",
            summary=(f"The record's {fields} is {SUSPECT_FACTOR:.0f}× or more off its sourced "
                     f"figure ({_g(first.record_value)} {first.unit} vs "
                     + (f"{_g(first.sourced_value)} {first.unit}" if first.sourced_value is not None
                        else "what the model's weights can fill")
                     + "): a units or typing error: the computation uses the sourced value and "
                     "no verdict rests on the record's."))
    c = ev.claim
    stated = any(v is not None for v in (c.params_total_b, c.params_active_b,
                                         c.hardware_memory_gb, c.model_size_bytes))
    if not stated or (ref.model(c.model) is None and ref.gpu(c.hardware) is None):
        return answer(key="suspect_field", status="n/a",
                      summary="Nothing to compare: the record states no size with a reference row.")
    return answer(key="suspect_field", status="ok",
                  summary=(f"No size the record states is {SUSPECT_FACTOR:.0f}× or more off its "
                           "sourced figure."))
