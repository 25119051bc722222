"""arithmetic: recompute tok/s from tokens ÷ seconds.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, formula
from checks.models import Answer, Basis, Claim, Evidence
from checks.reference import Reference

# A mismatch above 1% is a flag: wide enough for figures rounded to 2-3 significant digits, narrow
# enough to catch the seed's 2048 tokens in 0.969 s = 2113.5, not the 2103.6 reported (0.47%
# apart is within it; the implied timing is still stated, see ROUNDING_PCT).
MISMATCH_PCT = 1.0
# Below this, the quoted figures' own rounding (0.969 s is ±0.05%) explains the gap; above it,
# the implied timing is worth stating even when the mismatch is within MISMATCH_PCT.
ROUNDING_PCT = 0.1


def _rounding_pct(reported: float) -> float:
    """How far a figure printed to its own last digit can sit from the value it rounds (3.7 tok/s
    stands for anything in 3.65-3.75, i.e. ±1.35%): a gap that size is the record's rounding."""
    text = repr(float(reported))
    if "e" in text or reported == 0:
        return 0.0
    decimals = len(text.split(".")[1].rstrip("0"))
    return 0.5 * 10 ** (-decimals) / abs(reported) * 100


def _limit(reported: float) -> float:
    """The mismatch a reported figure may show before it is a flag: the 1% margin plus its rounding."""
    return MISMATCH_PCT + _rounding_pct(reported)


def _pct(computed: float, reported: float) -> float:
    """|computed - reported| as a percentage of the reported figure."""
    if reported == 0:
        return 0.0 if computed == 0 else 100.0
    return abs(computed - reported) / abs(reported) * 100


def _g(x: float, digits: int = 1) -> str:
    """2113.519 -> '2113.5'; 2048.0 -> '2048'."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.{digits}f}"


def _tok_s(c: Claim, figures: dict[str, float], basis: list[Basis | str]) -> tuple[str, bool] | None:
    if c.tokens_generated is None or not c.wall_seconds or c.tok_s is None:
        return None
    computed = c.tokens_generated / c.wall_seconds
    pct = _pct(computed, c.tok_s)
    figures.update(
        computed_tok_s=round(computed, 2), reported_tok_s=c.tok_s, mismatch_pct=round(pct, 2)
    )
    tokens, secs, rep = _g(c.tokens_generated), f"{c.wall_seconds:g}", _g(c.tok_s)
    basis += [field(c, "tokens_generated", f"= {tokens}"), field(c, "wall_seconds", f"= {secs} s"),
              formula(f"tokens ÷ seconds = {tokens} ÷ {secs} = {computed:.1f} tok/s"),
              field(c, "tok_s", f"= {rep} tok/s")]
    limit = _limit(c.tok_s)
    basis.append(formula(f"|{computed:.2f} − {rep}| ÷ {rep} = {pct:.2f}% (flag above {limit:.2f}%: "
                         f"{MISMATCH_PCT:g}% plus the reported figure's own rounding)"))
    if pct > limit:
        text = (
            f"{tokens} tokens ÷ {secs} s = {computed:.1f} tok/s, but {rep} tok/s is reported "
            f"({pct:.1f}% apart)"
        )
        return text, True
    text = (
        f"{tokens} tokens ÷ {secs} s = {computed:.1f} tok/s against {rep} reported "
        f"({pct:.2f}% apart, within {limit:.2f}%)"
    )
    if pct >= ROUNDING_PCT and c.tok_s > 0:
        implied = c.tokens_generated / c.tok_s
        figures["implied_seconds"] = round(implied, 4)
        basis.append(formula(f"{tokens} ÷ {rep} = {implied:.4f} s implied by the reported rate"))
        text += (
            f"; {tokens} ÷ {rep} = {implied:.3f} s, so the reported rate was timed over "
            f"{implied:.3f} s, not the quoted {secs} s"
        )
    return text, False


def _acceptance_rate(
    c: Claim, figures: dict[str, float], basis: list[Basis | str]
) -> tuple[str, bool] | None:
    if c.acceptance_rate is None or c.accepted_tokens is None or not c.drafted_tokens:
        return None
    computed = c.accepted_tokens / c.drafted_tokens
    pct = _pct(computed, c.acceptance_rate)
    figures.update(
        computed_acceptance_rate=round(computed, 4),
        reported_acceptance_rate=c.acceptance_rate,
        acceptance_rate_mismatch_pct=round(pct, 2),
    )
    basis += [field(c, "accepted_tokens", f"= {c.accepted_tokens}"),
              field(c, "drafted_tokens", f"= {c.drafted_tokens}"),
              field(c, "acceptance_rate", f"= {c.acceptance_rate:g}"),
              formula(f"accepted ÷ drafted = {c.accepted_tokens} ÷ {c.drafted_tokens} = {computed:.4f}, "
                      f"{pct:.2f}% from the reported {c.acceptance_rate:g}")]
    counts = f"{c.accepted_tokens}/{c.drafted_tokens} accepted = {computed:.1%}"
    if pct > _limit(c.acceptance_rate):
        return f"{counts}, but an acceptance rate of {c.acceptance_rate:.1%} is reported", True
    return f"{counts}, matching the reported {c.acceptance_rate:.1%}", False


def _speedup(c: Claim, figures: dict[str, float], basis: list[Basis | str]) -> tuple[str, bool] | None:
    if c.speedup is None or c.tok_s is None or not c.baseline_tok_s:
        return None
    computed = c.tok_s / c.baseline_tok_s
    pct = _pct(computed, c.speedup)
    figures.update(
        computed_speedup=round(computed, 3),
        reported_speedup=c.speedup,
        speedup_mismatch_pct=round(pct, 2),
    )
    basis += [field(c, "tok_s", f"= {_g(c.tok_s)} tok/s"), field(c, "baseline_tok_s", f"= {_g(c.baseline_tok_s)} tok/s"),
              field(c, "speedup", f"= {c.speedup:g}×"),
              formula(f"tok/s ÷ baseline = {_g(c.tok_s)} ÷ {_g(c.baseline_tok_s)} = {computed:.2f}×, "
                      f"{pct:.2f}% from the reported {c.speedup:g}×")]
    ratio = f"{_g(c.tok_s)} ÷ {_g(c.baseline_tok_s)} tok/s = {computed:.2f}×"
    if pct > _limit(c.speedup):
        return f"{ratio}, but a {c.speedup:g}× speedup is reported", True
    return f"{ratio}, matching the reported {c.speedup:g}× speedup", False


def arithmetic(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """arithmetic: recompute tok/s from tokens ÷ seconds.

    Seed, section 4 and the worked example: "2048 tokens in 0.969 seconds. 2103.6 tok/s."
    (2048 ÷ 0.969 = 2113.5, not 2103.6.)

    Every ratio the record states is recomputed from the record's own fields:
    - tok/s = tokens_generated ÷ wall_seconds, against the reported tok_s;
    - acceptance_rate = accepted_tokens ÷ drafted_tokens, against the reported rate;
    - speedup = tok_s ÷ baseline_tok_s, against the reported speedup.
    AL is not recomputed: the record model holds no count of draft rounds, and AL from rate × draft
    length depends on the engine's window convention (Q5 bounds AL by the window instead).

    Statuses:
    - `flag`: a recomputed figure differs from the reported one by more than 1%; both are stated.
    - `ok`: every recomputed figure is within 1%. When the tok/s gap is above rounding, the
      summary also gives the time the reported rate implies (2048 ÷ 2103.6 = 0.974 s, not the
      quoted 0.969 s).
    - `n/a`: the record states no figure that its own fields can recompute; `missing` names the
      fields that would let tok/s be recomputed.

    Reference rows: none; only the record's own fields.
    """
    c = ev.claim
    figures: dict[str, float] = {}
    basis: list[Basis | str] = []
    results = [
        r
        for r in (
            _tok_s(c, figures, basis),
            _acceptance_rate(c, figures, basis),
            _speedup(c, figures, basis),
        )
        if r is not None
    ]
    if not results:
        missing = [
            n for n in ("tokens_generated", "wall_seconds", "tok_s") if getattr(c, n) is None
        ]
        return answer(
            key="arithmetic",
            status="n/a",
            missing=missing,
            summary="nothing to recompute: the record gives no tok/s with its tokens and seconds, "
            "and no rate or speedup with the counts behind it",
        )
    wrong = [text for text, bad in results if bad]
    if wrong:
        return answer(
            key="arithmetic",
            status="flag",
            figures=figures,
            basis=basis,
            reason="does_not_add_up",
            label="the record's own arithmetic does not add up",
            summary="the record's own arithmetic does not add up: " + "; ".join(wrong),
        )
    return answer(
        key="arithmetic",
        status="ok",
        figures=figures,
        basis=basis,
        summary="; ".join(text for text, _ in results),
    )
