"""Verdict rules and the one-line headline (SPEC §3).

The verdict is about the number's plausibility. Provenance answers (Q1 evidence, Q2 config,
Q4 fork) never make a number implausible; the headline names them beside the verdict, in the
spirit of Community Notes' "needs more info".
"""

from __future__ import annotations

from collections.abc import Sequence

from checks.models import Answer, Evidence, Question, Verdict
from checks.registry import PLAUSIBILITY_KEYS

__all__ = ["headline", "verdict"]

_PHYSICS = ("acceptance", "power", "roofline")


def verdict(questions: Sequence[Question], findings: Sequence[Answer], ev: Evidence) -> Verdict:
    answers = [*questions, *findings]
    if any(a.status == "stop" for a in answers):
        return "implausible"
    if any(a.status == "flag" and a.key in PLAUSIBILITY_KEYS for a in answers):
        return "suspicious"
    physics = [q for q in questions if q.key in _PHYSICS]
    if all(q.status in ("unanswerable", "n/a", "error") for q in physics):
        return "insufficient"
    return "consistent"


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def _provenance_notes(questions: Sequence[Question]) -> list[str]:
    by_key = {q.key: q for q in questions}
    notes = []
    if by_key.get("evidence") and by_key["evidence"].status == "flag":
        notes.append("no evidence in the post")
    if by_key.get("config") and by_key["config"].status == "unanswerable":
        notes.append("no config found")
    if by_key.get("fork") and by_key["fork"].status == "flag":
        notes.append("engine is a fork")
    return notes


# Short names for a decisive answer, for the headline; the full sentence is in the answer itself.
_SHORT = {
    "acceptance": lambda a: (
        f"AL / window = {a.figures['ratio']:.3f}" if "ratio" in a.figures else "impossible acceptance length"
    ),
    "roofline": lambda a: "above the roofline",
    "forced_acceptance": lambda a: "acceptance was forced, not measured",
    "compute_ceiling": lambda a: "beyond the card's arithmetic",
}


def _short(a: Answer) -> str:
    fn = _SHORT.get(a.key)
    return fn(a) if fn else a.summary.split(":")[0].rstrip(".")


def _setup(ev: Evidence, roof: Answer | None) -> str:
    c = ev.claim
    if not c.hardware:
        return ""
    count = c.hardware_count or 1
    card = f"one {c.hardware}" if count == 1 else f"{count}× {c.hardware}"
    gb = roof.figures.get("weights_gb") if roof is not None else None
    if gb:
        return f" of {card} ({gb:.1f} GB of {c.weight_format or 'assumed 4-bit'} weights)"
    return f" of {card}"


def headline(v: Verdict, questions: Sequence[Question], findings: Sequence[Answer], ev: Evidence) -> str:
    """'implausible — 2103.6 tok/s is 16.3× the batch-1 ceiling of one RTX 5090 (27.8B NVFP4 weights); …'."""
    c = ev.claim
    answers = [*questions, *findings]
    roof = next((a for a in answers if a.key == "roofline"), None)
    number = f"{_fmt(c.tok_s)} tok/s" if c.tok_s is not None else "the claim"
    ratio = roof.figures.get("ratio") if roof is not None else None
    if v == "implausible":
        decisive = [a for a in answers if a.status == "stop"]
        parts = []
        if ratio is not None and ratio > 1:
            parts.append(f"{number} is {ratio:.1f}× the batch-1 ceiling{_setup(ev, roof)}")
        parts += [_short(a) for a in decisive if a.key != "roofline" or not parts]
        text = "implausible — " + "; ".join(dict.fromkeys(parts))
    elif v == "suspicious":
        flags = [a for a in answers if a.status == "flag" and a.key in PLAUSIBILITY_KEYS]
        text = f"suspicious — {number}: {flags[0].summary.rstrip('.')}"
        if len(flags) > 1:
            text += f" (+{len(flags) - 1} more flag{'s' if len(flags) > 2 else ''})"
    elif v == "insufficient":
        missing = [m for q in questions if q.key in _PHYSICS for m in q.missing]
        need = ", ".join(dict.fromkeys(missing)) or "hardware and model"
        text = f"insufficient — too little to judge {number}; missing: {need}"
    elif ratio is not None:
        text = f"consistent — {number} is {ratio:.2f} of the generous batch-1 ceiling{_setup(ev, roof)}"
    else:
        text = f"consistent — nothing in the record contradicts {number}"
    notes = _provenance_notes(questions)
    if notes:
        text += "; " + "; ".join(notes)
    return text
