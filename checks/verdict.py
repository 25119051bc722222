"""Verdict rules and the one-line headline.

The verdict is about the number's plausibility, decided by these rules in order:
1. `implausible`: any answer is `stop` (a ceiling broken, a forced statistic).
2. `suspicious`: any `flag` among the plausibility checks (`registry.PLAUSIBILITY_KEYS`).
3. `insufficient`: any check raised (`error`): a check that could not run cannot vouch for the
   number, so the verdict is never `consistent`; the headline names the failed check(s).
4. `insufficient`: Q5, Q6 and Q7 all `unanswerable`, `n/a` or `error`: too little to judge.
5. `insufficient`: Q7 could not judge the claim although a reading it could not rule out puts the
   figure above a ceiling (`dense_ratio` > 1: a dense reading of a model that may be a MoE): a
   report never says `consistent` while it shows a figure above a ceiling.
6. `consistent`: answered, nothing wrong (still circumstantial).

The headline is built from data only: statuses, typed figures and each answer's reason code and
label (`checks.render.reason_text`); no answer's summary is read back.

One story per report: the headline prints a ratio only from a Q7 that judged the claim (`ok`,
`flag`, `stop`); a `consistent` claim above the plain-decode ceiling is shown against the bound
that does hold it (ceiling × AL, the honest speculative range, the serving bound).
A failed check is named in every headline, whatever the verdict. Provenance answers (Q1 evidence,
Q2 config, Q4 fork, a record that contradicts itself, a parameter count against its model's row)
never make a number implausible; the headline names them beside the verdict, in the spirit of
X
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from checks.models import Answer, Evidence, Question, Verdict
from checks.registry import PLAUSIBILITY_KEYS
from checks.render import reason_text

__all__ = ["headline", "verdict"]

_PHYSICS = ("acceptance", "power", "roofline")
_STATUS, _KEY = attrgetter("status"), attrgetter("key")


def verdict(questions: Sequence[Question], findings: Sequence[Answer], ev: Evidence) -> Verdict:
    """The rules of the module docstring, in order."""
    answers = [*questions, *findings]
    statuses = list(map(_STATUS, answers))  # asked once, in C: most answers are ok or n/a
    if "stop" in statuses:
        return "implausible"
    if "flag" in statuses and any(a.status == "flag" and a.key in PLAUSIBILITY_KEYS for a in answers):
        return "suspicious"
    if "error" in statuses:
        return "insufficient"
    physics = [q for q in questions if q.key in _PHYSICS]
    if all(q.status in ("unanswerable", "n/a", "error") for q in physics):
        return "insufficient"
    roof = next((q for q in questions if q.key == "roofline"), None)
    if roof is not None and roof.status == "unanswerable" and roof.figures.get("dense_ratio", 0) > 1:
        return "insufficient"
    return "consistent"


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def _provenance_notes(answers: Sequence[Answer]) -> list[str]:
    by_key = dict(zip(map(_KEY, answers), answers, strict=True))
    notes = []
    if by_key.get("evidence") and by_key["evidence"].status == "flag":
        notes.append("no evidence in the post")
    if by_key.get("config") and by_key["config"].status == "unanswerable":
        notes.append("no config found")
    if by_key.get("fork") and by_key["fork"].status == "flag":
        notes.append("engine is a fork")
    for key in ("field_conflict", "param_count", "suspect_field"):
        a = by_key.get(key)
        if a is not None and a.status == "flag":
            note = reason_text(a)
            notes.append(note[0].lower() + note[1:])
    return notes


def _failed(answers: Sequence[Answer]) -> list[str]:
    if "error" not in map(_STATUS, answers):
        return []
    return [a.key for a in answers if a.status == "error"]


def _ceiling_name(roof: Answer) -> str:
    """'batch-1', 'batch-8 aggregate', the serving bound or the compute roof (prompt processing):
    the ceiling the decisive ratio used."""
    if roof.figures.get("compute_roof"):
        return "compute (prompt processing)"
    if roof.figures.get("serving"):
        if "memory_bound_tok_s" not in roof.figures:
            return "compute (at any batch)"
        if "server_slots" in roof.figures:
            return f"serving ({int(roof.figures['server_slots'])} parallel slots)"
        return f"serving (at most {int(roof.figures.get('max_batch', 0))} sequences fit)"
    batch = int(roof.figures.get("ceiling_batch", 1))
    return "batch-1" if batch == 1 else f"batch-{batch} aggregate"


def _judged_ratio(roof: Answer | None) -> float | None:
    """The ratio of a Q7 that judged the claim; None when it could not (no ratio to print)."""
    if roof is None or roof.status not in ("ok", "flag", "stop"):
        return None
    return roof.figures.get("ratio")


def _judged(c_tok_s: float | None, roof: Answer) -> str:
    """The figure Q7 judged: the claim's tok/s, or the per-request rate or aggregate it derived."""
    claimed = roof.figures.get("claimed_tok_s")
    if claimed is None or (c_tok_s is not None and abs(claimed - c_tok_s) < 0.05):
        return f"{_fmt(c_tok_s)} tok/s" if c_tok_s is not None else "the claim"
    if roof.figures.get("ceiling_batch", 1) == 1 and "per_user_tok_s" in roof.figures:
        return f"the per-request rate of {_fmt(claimed)} tok/s"
    return f"the aggregate {_fmt(claimed)} tok/s"


# Short names for a decisive answer, for the headline; the full sentence is in the answer itself.
_SHORT = {
    "acceptance": lambda a: (
        f"AL / window = {a.figures['ratio']:.3f}" if "ratio" in a.figures else "impossible acceptance length"
    ),
    "roofline": lambda a: ("beyond the cards' arithmetic at any batch"
                           if a.figures.get("compute_ratio", 0) > 1 else "above the roofline"),
    "forced_acceptance": lambda a: "acceptance was forced, not measured",
    "compute_ceiling": lambda a: "beyond the card's arithmetic",
}


def _short(a: Answer) -> str:
    fn = _SHORT.get(a.key)
    return fn(a) if fn else reason_text(a)


def _setup(ev: Evidence, roof: Answer | None, card_name: str | None) -> str:
    c = ev.claim
    if not c.hardware:
        return ""
    count = c.hardware_count or 1
    name = card_name or c.hardware
    # A rig or system row names its cards already ("RTX 4090 + RTX 3090 Ti", "p5.48xlarge (8× H100 SXM)").
    card = f"one {name}" if count == 1 else name if ("×" in name or " + " in name) else f"{count}× {name}"
    if roof is not None and roof.figures.get("layer_split"):
        card += " read one after another"  # the ceiling is one card's bandwidth, not their sum
    gb = roof.figures.get("weights_gb") if roof is not None else None
    if not gb or roof is None:
        return f" of {card}"
    # The format the roofline read (checks.physics.weights): named, else the file's size, else
    # the record's bits per weight, else 4-bit assumed.
    what = (f"{c.weight_format} weights" if c.weight_format
            else "weights, the stated size" if c.model_size_bytes
            else f"{c.bits_per_weight:g}-bit weights" if c.bits_per_weight else "assumed 4-bit weights")
    dense, moe = roof.figures.get("dense_ceiling_tok_s"), roof.figures.get("ceiling_tok_s")
    if roof.figures.get("moe_reading") and isinstance(dense, float) and isinstance(moe, float) and moe > 0:
        # Judged at the MoE reading of an unnamed architecture: the bytes that reading reads per
        # token, not the dense total, are what the ratio divides.
        return (f" of {card} (read as the sparsest published MoE of its size: "
                f"{gb * dense / moe:.1f} GB of {what} per token)")
    off = roof.figures.get("system_fraction")
    if isinstance(off, float) and off > 0:
        # An offloaded ceiling: the share read at system-memory speed is what brought it down.
        return f" of {card} ({gb:.1f} GB of {what}, {off:.2f} of them read from system memory)"
    return f" of {card} ({gb:.1f} GB of {what})"


def headline(v: Verdict, questions: Sequence[Question], findings: Sequence[Answer], ev: Evidence,
             card_name: str | None = None) -> str:
    """'implausible — 2103.6 tok/s is 16.3× the batch-1 ceiling of one RTX 5090 (…)'; names the
    ceiling Q7 used, any check that failed, and the provenance notes. `card_name` is the reference
    row's name for the claim's hardware ("RTX 5090" for a board's "NVIDIA GeForce RTX 5090")."""
    c = ev.claim
    answers = [*questions, *findings]
    roof = next((a for a in answers if a.key == "roofline"), None)
    number = f"{_fmt(c.tok_s)} tok/s" if c.tok_s is not None else "the claim"
    ratio = _judged_ratio(roof)
    failed = _failed(answers)
    if v == "implausible":
        decisive = [a for a in answers if a.status == "stop"]
        parts = []
        compute = roof.figures.get("compute_ratio", 0) if roof is not None else 0
        if roof is not None and roof.status == "stop" and compute > 1:
            parts.append(f"{_judged(c.tok_s, roof)} is {compute:.1f}× the compute bound of "
                         f"{_fmt(roof.figures['compute_bound_tok_s'])} tok/s at any batch"
                         f"{_setup(ev, roof, card_name)}")
            decisive = [a for a in decisive if a.key != "compute_ceiling"]
        elif roof is not None and ratio is not None and ratio > 1:
            parts.append(f"{_judged(c.tok_s, roof)} is {ratio:.1f}× the {_ceiling_name(roof)} ceiling"
                         f"{_setup(ev, roof, card_name)}")
        parts += [_short(a) for a in decisive if a.key != "roofline" or not parts]
        text = "implausible — " + "; ".join(dict.fromkeys(parts))
    elif v == "suspicious":
        flags = [a for a in answers if a.status == "flag" and a.key in PLAUSIBILITY_KEYS]
        # Q7's ratio is over the figure it judged: a per-stream rate × the streams is the aggregate.
        judged = _judged(c.tok_s, flags[0]) if flags[0].key == "roofline" else number
        text = f"suspicious — {judged}: {reason_text(flags[0])}"
        if len(flags) > 1:
            text += f" (+{len(flags) - 1} more flag{'s' if len(flags) > 2 else ''})"
    elif v == "insufficient" and failed:
        errors = [a for a in answers if a.status == "error"]
        text = (f"insufficient — the {', '.join(failed)} check{'s' if len(failed) > 1 else ''} failed, "
                f"so {number} cannot be called consistent ({reason_text(errors[0])})")
        failed = []  # said once
    elif v == "insufficient":
        missing = [m for q in questions if q.key in _PHYSICS for m in q.missing]
        need = ", ".join(dict.fromkeys(missing)) or "hardware and model"
        text = f"insufficient — too little to judge {number}; missing: {need}"
    elif roof is not None and ratio is not None and ratio > 1:
        # Above the plain-decode ceiling and still consistent: the bound that holds it is named.
        bound = roof.figures.get("bound_tok_s") or roof.figures.get("honest_high_tok_s")
        within = f"within the speculative bound of {_fmt(bound)} tok/s, " if bound else ""
        text = (f"consistent — {_judged(c.tok_s, roof)} is {within}{ratio:.1f}× the plain-decode "
                f"{_ceiling_name(roof)} ceiling{_setup(ev, roof, card_name)}")
    elif roof is not None and ratio is not None and roof.figures.get("serving") and (
            "memory_bound_tok_s" not in roof.figures):
        text = (f"consistent — {_judged(c.tok_s, roof)} is {ratio:.2f} of the compute bound at any "
                f"batch{_setup(ev, roof, card_name)}")
    elif roof is not None and ratio is not None:
        text = (f"consistent — {_judged(c.tok_s, roof)} is {ratio:.2f} of the generous "
                f"{_ceiling_name(roof)} ceiling{_setup(ev, roof, card_name)}")
    else:
        text = f"consistent — nothing in the record contradicts {number}"
    if failed:
        text += f"; the {', '.join(failed)} check{'s' if len(failed) > 1 else ''} failed"
    notes = _provenance_notes(answers)
    if notes:
        text += "; " + "; ".join(notes)
    return text
