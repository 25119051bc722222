"""Verdict rules and the one-line headline (SPEC §3).

The verdict is about the number's plausibility. Provenance answers (Q1 evidence, Q2 config,
Q4 fork) never make a number implausible; the headline names them beside the verdict, in the
spirit of Community Notes' "needs more info".
"""

from __future__ import annotations

from typing import Sequence

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


def headline(v: Verdict, questions: Sequence[Question], findings: Sequence[Answer], ev: Evidence) -> str:
    """'implausible — 2103.6 tok/s is 16.3× the batch-1 ceiling of one RTX 5090 …; engine is a fork'."""
    c = ev.claim
    by_key = {a.key: a for a in [*questions, *findings]}
    roof = by_key.get("roofline")
    number = f"{_fmt(c.tok_s)} tok/s" if c.tok_s is not None else "the claim"
    decisive = [a for a in [*questions, *findings] if a.status == "stop"]
    if v == "implausible":
        lead = decisive[0]
        reason = lead.summary.rstrip(".")
        if roof is not None and "ratio" in roof.figures and lead.key in ("roofline", "acceptance"):
            reason = (
                f"{number} is {roof.figures['ratio']:.1f}× the batch-1 ceiling"
                + (f" of {c.hardware}" if c.hardware else "")
                + (f"; {lead.summary.rstrip('.')}" if lead.key != "roofline" else "")
            )
        text = f"implausible — {reason}"
    elif v == "suspicious":
        flags = [a for a in [*questions, *findings] if a.status == "flag" and a.key in PLAUSIBILITY_KEYS]
        text = f"suspicious — {number}: {flags[0].summary.rstrip('.')}"
    elif v == "insufficient":
        missing = [m for q in questions if q.key in _PHYSICS for m in q.missing]
        need = ", ".join(dict.fromkeys(missing)) or "hardware and model"
        text = f"insufficient — too little to judge {number}; missing: {need}"
    else:
        if roof is not None and "ratio" in roof.figures:
            text = (
                f"consistent — {number} is {roof.figures['ratio']:.2f} of the generous ceiling"
                + (f" of {c.hardware}" if c.hardware else "")
            )
        else:
            text = f"consistent — nothing in the record contradicts {number}"
    notes = _provenance_notes(questions)
    if notes:
        text += "; " + "; ".join(notes)
    return text
