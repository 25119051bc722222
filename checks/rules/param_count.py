"""param_count: a record's parameter count against its model's reference row.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, formula, row
from checks.models import Answer, Basis, Evidence
from checks.physics import num
from checks.reference import Reference

__all__ = ["param_count"]

# A count this far from the row is no rounding: "8B" for 8.03B, 27.8B with vision for a 26.9B text
# model and 56B for "8x7B" (46.7B) all sit inside it; 7.0B for a Mixtral 8x7B does not.
CONTRADICTION = 0.25


def param_count(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """param_count: the record's parameter count contradicts its model's reference row.

    Seed, section 4: the roofline divides by the weight footprint, so the parameter count is one of
    its two inputs. A record that lists a Mixtral 8x7B (46.7B total, 12.9B active) as 7.0B has
    mislabelled its model or its model's size, and whichever it is, the claim's physics rests on a
    number the record itself gets wrong.

    The record's own count (`params_total_b`, and `params_active_b` for a MoE) is compared with the
    row of the model it names; a size the extractors read from the name (`size_inferred`) is a
    label, not the record's count, and is not compared.

    Statuses:
    - `flag`: a count more than 25% away from the row's (either way); the summary gives both with
      their sources.
    - `ok`: the record's counts agree with the row within 25%.
    - `n/a`: the record states no count of its own, or the model has no reference row.

    Not a plausibility flag (not in `PLAUSIBILITY_KEYS`): a wrong label says the record's metadata
    is wrong, not that the tok/s is impossible; the headline names it beside the verdict. The
    physics reads the row's count when the record's is within 5% of it (a rounded name) and the
    record's own otherwise, so this finding is where a reader learns the two disagree. A count 10×
    or more off the row (8000 for 8.03B: a unit read wrong) is `suspect_field`'s finding, and the
    physics uses the row's count in its place; it is not compared here.

    Reference rows read: `models` (params_total_b, params_active_b).
    """
    c = ev.claim
    model = ref.model(c.model)
    pairs = [("total", c.params_total_b, model.params_total_b if model else None, "params_total_b"),
             ("active", c.params_active_b, model.params_active_b if model else None, "params_active_b")]
    suspect = {s.field for s in c.suspect_fields}  # 10x off: suspect_field's finding, not ours
    compared = [(what, mine, row, name) for what, mine, row, name in pairs
                if mine is not None and row and not c.size_inferred and name not in suspect]
    if model is None or not compared:
        why = ("the model has no reference row" if model is None
               else "the record states no parameter count of its own")
        return answer(key="param_count", status="n/a", summary=f"Nothing to compare: {why}.",
                      basis=[row(model)] if model is not None else [])
    figures: dict[str, float] = {}
    basis: list[Basis] = [row(model)]
    off = []
    for what, mine, sourced, name in compared:
        assert mine is not None and sourced is not None
        ratio = mine / sourced
        figures[f"record_{what}_b"], figures[f"row_{what}_b"], figures[f"{what}_ratio"] = mine, sourced, ratio
        basis += [field(c, name, f"= {num(mine)}B"),
                  row(model, f"{num(sourced)}B {what}"),
                  formula(f"{num(mine)} ÷ {num(sourced)} = {ratio:.2f}")]
        if abs(ratio - 1) > CONTRADICTION:
            off.append(f"{num(mine)}B {what} where {model.name} has {num(sourced)}B")
    if off:
        return answer(key="param_count", status="flag", figures=figures, basis=basis, reason="mislabelled",
                      label=f"The record lists {'; '.join(off)}", summary=(
            f"The record lists {'; '.join(off)}: more than {CONTRADICTION:.0%} off its model's reference "
            "row, so its model or its size is mislabelled."))
    return answer(key="param_count", status="ok", figures=figures, basis=basis, summary=(
        f"The record's parameter count agrees with {model.name}'s reference row (within {CONTRADICTION:.0%})."))
