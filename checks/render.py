"""Plain-text rendering of the checks' data: basis entries and reason codes as sentences.

The checks return data (`checks.models.Answer`: status, reason, typed figures, basis entries that
point at sources by id); this module turns it into the words a person reads. The bot's renderers
(bot/render/*) call it for their plain text. Nothing here is read back by any code path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from checks.models import Answer, Basis, Cited, Difference, Step

__all__ = ["REASONS", "answer_lines", "basis_line", "basis_lines", "plan_lines", "reason_text"]


def _citation(b: Basis, refs: Mapping[str, Cited] | None) -> str | None:
    if b.cite is not None:
        return b.cite.citation
    if b.source is None:
        return None
    found = (refs or {}).get(b.source)
    return found.citation if found is not None else b.source


def basis_line(b: Basis, refs: Mapping[str, Cited] | None = None) -> str:
    """One entry as a sentence: 'claim.power_w (board.json: records[2].power_w) = 99.6 W',
    'RTX 5090 (spheron.network/…; checked 2026-11-29): board power 575 W', or the formula itself.
    `refs` are the report's references (an entry read back from JSON carries only the id)."""
    citation = _citation(b, refs)
    if b.kind in ("record-field", "stated-by-user"):
        where = ""
        if b.kind == "stated-by-user":
            where = " (stated by the user" + (f": {b.at}" if b.at else "") + ")"
        elif citation is not None:
            where = f" ({citation}{': ' + b.at if b.at else ''})"
        head = f"claim.{b.field}{where}"
        if not b.states:
            return head
        sep = "" if b.states[0] in ",:;)" else " "
        return f"{head}{sep}{b.states}"
    if b.kind in ("reference-row", "document") and citation is not None:
        return f"{citation}: {b.states}" if b.states else citation
    return b.states


def basis_lines(a: Answer | Sequence[Basis | str], refs: Mapping[str, Cited] | None = None) -> list[str]:
    """Every basis entry of an answer (or of a physics figure's basis) as a sentence."""
    entries = a.basis if isinstance(a, Answer) else a
    return [b if isinstance(b, str) else basis_line(b, refs) for b in entries]


def answer_lines(a: Answer, refs: Mapping[str, Cited] | None = None) -> list[str]:
    """What an answer rests on, as sentences: Q8's plan (differences, experiments) then its basis."""
    return [*plan_lines(a.differences, a.steps), *(basis_line(b, refs) for b in a.basis)]


def plan_lines(differences: Sequence[Difference], steps: Sequence[Step]) -> list[str]:
    """Q8's plan as lines: 'difference: spec_window: 56 vs published 16', then 'experiment 1: …'."""
    lines = [f"difference: {d.knob}: {d.claimed} vs {d.reference}" for d in differences]
    lines += [f"experiment {i}: {s.knob or 'baseline'}: {s.run}" for i, s in enumerate(steps, start=1)]
    return lines


def _f(a: Answer, name: str, fmt: str = "{:.1f}") -> str:
    v = a.figures.get(name)
    return fmt.format(v) if isinstance(v, (int, float)) else "?"


def _moe_reading(a: Answer) -> str:
    return " (even read as the sparsest published MoE of its size)" if a.figures.get("moe_reading") else ""


# The words of each (check, reason) a headline names: short, built from the answer's figures.
# A check without an entry here is named by its key and status (never by parsing its summary).
def _over(a: Answer, ceiling: str) -> str:
    """'16.3× the generous ceiling of 128.9 tok/s': the ratio over the named ceiling."""
    return f"{_f(a, 'ratio')}× the {ceiling} ceiling of {_f(a, 'ceiling_tok_s')} tok/s"


REASONS: dict[tuple[str, str], Callable[[Answer], str]] = {
    ("acceptance", "al_equals_window"): lambda a: f"AL / window = {_f(a, 'ratio', '{:.3f}')}",
    ("acceptance", "al_above_window"): lambda a: "impossible acceptance length",
    ("acceptance", "impossible"): lambda a: "impossible acceptance length",
    ("roofline", "above_compute"): lambda a: "beyond the cards' arithmetic at any batch",
    ("roofline", "above_ceiling"): lambda a: "above the roofline",
    ("forced_acceptance", "forced"): lambda a: "acceptance was forced, not measured",
    ("compute_ceiling", "above_peak"): lambda a: "beyond the card's arithmetic",
    ("roofline", "prefill"): lambda a: "prompt processing: the decode roofline does not apply",
    ("peer_outlier", "outlier"): lambda a: (
        f"{_f(a, 'ratio_to_highest', '{:.1f}')}× the highest of {_f(a, 'peers', '{:g}')} other records of its setup"),
    ("machine_outlier", "outlier"): lambda a: (
        f"{_f(a, 'ratio_to_bound', '{:.1f}')}× what {_f(a, 'machine_peers', '{:g}')} other records of its "
        "machine allow"),
    ("machine_outlier", "outlier_shallower"): lambda a: (
        f"{_f(a, 'ratio_to_typical', '{:.1f}')}× the typical of {_f(a, 'shallower_peers', '{:g}')} rows of its "
        "machine with the same weights at a shallower cache"),
    ("roofline", "prefill_above_compute"): lambda a: (
        f"{_f(a, 'claimed_tok_s')} tok/s of prompt processing is beyond the cards' arithmetic"),
    ("roofline", "prefill_near_compute"): lambda a: (
        f"{_f(a, 'claimed_tok_s')} tok/s of prompt processing is {_f(a, 'ratio', '{:.2f}')} of the compute roof"),
    ("roofline", "near_ceiling"): lambda a: (f"{_f(a, 'claimed_tok_s')} tok/s is {_f(a, 'ratio', '{:.2f}')} of the "
                                             f"generous ceiling of {_f(a, 'ceiling_tok_s')} tok/s, above where "
                                             "real decode lands"),
    ("roofline", "needs_unstated_speculation"): lambda a: (
        f"{_over(a, 'generous')}{_moe_reading(a)}: only speculative decoding, which the record does not "
        "mention, could reach it"),
    ("roofline", "unlabelled_aggregate"): lambda a: (
        f"{_over(a, 'batch-1')}: possible only as an aggregate of many streams, and the record does not say "
        "how many it counts"),
    ("roofline", "unlabelled_above_one_stream"): lambda a: (
        f"{_over(a, 'batch-1')}{_moe_reading(a)}: only speculative decoding or many streams could reach it, "
        "and the record says neither"),
    ("roofline", "above_honest_range"): lambda a: (
        f"{_f(a, 'claimed_tok_s')} tok/s is above the honest speculative range of "
        f"{_f(a, 'honest_low_tok_s', '{:.0f}')}–{_f(a, 'honest_high_tok_s', '{:.0f}')} tok/s"),
    ("power", "waiting"): lambda a: (f"{_f(a, 'watts')} W is {_f(a, 'ratio', '{:.2f}')} of board power, "
                                     "below the decode band: the GPU is waiting, not computing"),
}


def reason_text(a: Answer) -> str:
    """The short words for why an answer has its status: REASONS, the check's own label, else the
    key and the reason code or status."""
    fn = REASONS.get((a.key, a.reason))
    if fn is not None:
        return fn(a)
    if a.label:
        return a.label
    label = a.key.replace("_", " ")
    return f"{label}: {a.reason.replace('_', ' ')}" if a.reason else f"{label} {a.status}"
