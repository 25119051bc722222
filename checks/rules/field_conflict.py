"""field_conflict: the record contradicts itself.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer
from checks.models import Answer, Evidence, FieldConflict
from checks.reference import Reference

__all__ = ["field_conflict"]


def _line(c: FieldConflict) -> str:
    return f"{c.field}: {c.structured} ({c.structured_from}) vs {c.text} ({c.text_from})"


def field_conflict(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """field_conflict: the record's structured fields and its own words disagree.

    Seed, section 8: "Two, which page has the real config" — a record whose structured field says
    one thing and whose launch command or notes say another (a window of 16 in one field,
    `--speculative-num-draft-tokens 56` in its command) has two configs, and only one of them ran.
    The extractors keep the structured value (it is what the board validated) and list every
    disagreement in `Claim.conflicts`; this check shows each with both values and where each came
    from.

    Statuses:
    - `flag`: at least one claim field where the record contradicts itself; the summary names the
      fields, the basis gives both values with their JSON key and text span.
    - `ok`: a record or tool output with no contradiction found between its fields and its words.
    - `n/a`: a pasted post or text: there are no structured fields to contradict.

    Not a plausibility flag (not in `PLAUSIBILITY_KEYS`): a contradiction says the record is
    unreliable as a description of the run, not that the number is impossible, and the physics
    checks already judge the structured value, the one the board validated. Like a private fork
    (Q4) it is provenance: the headline names it beside the verdict. Which value really ran is
    for a re-run to settle, not for the checks to guess.

    Reads no reference rows.
    """
    conflicts = ev.claim.conflicts
    figures = {"conflicts": len(conflicts)}
    if not conflicts:
        if ev.kind == "post":
            return answer(key="field_conflict", status="n/a",
                          summary="A pasted post has no structured fields for its words to contradict.")
        return answer(key="field_conflict", status="ok",
                      summary="No field of the record contradicts its own launch command or notes.")
    fields = list(dict.fromkeys(c.field for c in conflicts))
    first = conflicts[0]
    more = f" (+{len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
    return answer(
        key="field_conflict", status="flag", figures=figures, basis=[_line(c) for c in conflicts],
        reason="contradicts_itself", label=f"The record contradicts itself on {', '.join(fields)}",
        summary=(f"The record contradicts itself on {', '.join(fields)}: {first.structured} in "
                 f"{first.structured_from} vs {first.text} in {first.text_from}{more}; the structured "
                 "value was used and only a re-run can say which one ran."))
