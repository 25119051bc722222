"""Q5 acceptance: AL over draft window.

Seed §2/§8: "Five, compute AL over window width. Approaching 1.0, stop. No need to read further."

The window is the most tokens one verify pass can emit (DFlash block size, SGLang
`--speculative-num-draft-tokens`, vLLM `num_speculative_tokens` + 1); the extractors have already
converted the flag, and the convention applied is quoted. `ratio = AL / window`. When only an AL
range is reported ("AL 231-292") the high end is used, and said.

Statuses:
- `stop`: AL > window (impossible: a pass cannot emit more than the window); or ratio >= 0.95, an
  acceptance rate of 100%, or accepted == drafted tokens (the draft never missed: it is measuring
  the draft's hit rate on predictable text, not generation speed).
- `flag`: AL more than 25% above the best AL published for the method (third-party included).
- `ok`: a scattered AL well inside the window and within reach of published ALs.
- `unanswerable`: speculative decoding, but no AL (or an AL and no window to divide by).
- `n/a`: no speculative decoding (or nothing in the record says it was used).

Reference rows read: `methods` (published ALs per task, official or third-party; window convention).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, formula, row
from checks.models import Answer, Basis, Claim, Evidence
from checks.physics import num
from checks.physics.figures import per_reference
from checks.reference import MethodRow, PublishedAL, Reference

__all__ = ["acceptance", "method_als", "published_al_text"]

# A ratio this close to 1.0 means the draft (almost) never missed: real drafts land at 0.08-0.10
# of a 56 window (published DFlash ALs 4-6, arXiv 2602.06036).
FORCED_RATIO = 0.95
# An AL more than 25% above the best AL published for the method is a red flag: production ALs
# run at 50-90% of paper ALs (vllm-project/vllm issue #26191; sgl-project/sglang PR #4247).
BEST_AL_MARGIN = 1.25


@per_reference  # a fact of the method table: read by Q5 and Q7 of every speculative claim
def _als_of(ref: Reference) -> dict[int, tuple[tuple[float, ...], PublishedAL | None]]:
    """Each method row's official ALs and its best published one, by the row's identity (the
    reference holds its rows for as long as this fact lives)."""
    return {id(m): (tuple(m.official_als()), m.best_published_al()) for m in ref.methods}


def method_als(ref: Reference | None, method: MethodRow) -> tuple[list[float], PublishedAL | None]:
    """`method.official_als()` and `method.best_published_al()`, read once per reference."""
    known = _als_of(ref).get(id(method)) if ref is not None else None
    if known is None:  # a row of no loaded reference (a test's own)
        return method.official_als(), method.best_published_al()
    return list(known[0]), known[1]


def published_al_text(method: MethodRow, window: float | None = None, ref: Reference | None = None) -> str:
    """'published DFlash AL on real tasks 4.39–5.46 (official), up to 8.24 (third-party), i.e. …'."""
    official, best = method_als(ref, method)
    parts = []
    if official:
        lo, hi = min(official), max(official)
        parts.append(f"{num(lo)}–{num(hi)} (official)" if lo != hi else f"{num(hi)} (official)")
    if best is not None and not best.official and (not official or best.al > max(official)):
        parts.append(f"up to {num(best.al)} (third-party)")
    if not parts:
        return f"no published {method.name} AL in the reference"
    text = f"published {method.name} AL on real tasks " + ", ".join(parts)
    if window and official:
        lo, hi = min(official) / window, max(official) / window
        digits = 2 if hi >= 0.05 else 3
        text += f", i.e. {lo:.{digits}f}–{hi:.{digits}f} of a {num(window)} window"
    return text


def _a(x: float) -> str:
    """An AL as records print it: 56.0, 5.46, 231.0."""
    return f"{x:.1f}" if x == int(x) else f"{x:g}"


def _al(c: Claim) -> tuple[float | None, Basis | None, str]:
    """(AL used, basis line, how the summary names it); a range gives its high end, said."""
    if c.acceptance_length is not None:
        al = c.acceptance_length
        return al, field(c, "acceptance_length", f"= {_a(al)}"), f"AL {_a(al)}"
    if c.acceptance_length_high is not None:
        hi, lo = c.acceptance_length_high, c.acceptance_length_low
        rng = f"{_a(lo)}–{_a(hi)}" if lo is not None else _a(hi)
        return hi, field(c, "acceptance_length_high", f": AL {rng}, high end {_a(hi)} used"), (
            f"AL {rng} (high end {_a(hi)} used)")
    return None, None, ""


def _never_missed(c: Claim) -> str | None:
    if c.acceptance_rate is not None and c.acceptance_rate >= 1.0:
        return f"acceptance rate {c.acceptance_rate:.0%}"
    if c.accepted_tokens and c.drafted_tokens and c.accepted_tokens == c.drafted_tokens:
        return f"{c.accepted_tokens}/{c.drafted_tokens} drafted tokens accepted"
    return None


def acceptance(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q5 acceptance: AL over draft window."""
    c = ev.claim
    al, al_basis, al_name = _al(c)
    window = c.spec_window
    if c.speculative is False or (c.speculative is None and not c.spec_method and window is None
                                  and al is None and _never_missed(c) is None):
        return answer(key="acceptance", status="n/a",
                      summary="No speculative decoding in the record, so there is no AL to divide.",
                      basis=[field(c, "speculative")] if c.speculative is False else [], reason="plain_decode")

    method = ref.method(c.spec_method)
    convention = c.spec_window_convention or (method.window_convention if method else None)
    basis: list[Basis | str] = [b for b in [al_basis] if b is not None]
    figures: dict[str, float] = {}
    if window is not None:
        basis.append(field(c, "spec_window", f"= {window}" + (f" ({convention})" if convention else "")))
        figures["window"] = float(window)
    if method is not None:
        basis.append(row(method))
        published = "; " + published_al_text(method, window, ref)
    else:
        published = (f"; no published AL for '{c.spec_method}' in the reference" if c.spec_method
                     else "; speculative method not named")
    if al is not None:
        figures["al"] = al

    missed = _never_missed(c)
    if al is not None and window:
        ratio = al / window
        figures["ratio"] = ratio
        basis.append(formula(f"ratio = {_a(al)} / {window} = {ratio:.3f}"))
        if al > window:
            return answer(key="acceptance", status="stop", figures=figures, basis=basis,
                          reason="al_above_window", summary=(
                f"{al_name} / window {window} = {ratio:.3f}: more tokens accepted per pass than "
                f"the window can emit, which is impossible{published}."))
        if ratio >= FORCED_RATIO or missed:
            why = f", {missed}" if missed else ""
            return answer(key="acceptance", status="stop", figures=figures, basis=basis,
                          reason="al_equals_window", summary=(
                f"{al_name} / window {window} = {ratio:.3f}{why}: the draft never missed, so it "
                f"is measuring the draft's hit rate on predictable text, not generation speed"
                f"{published}."))
    elif missed:
        return answer(key="acceptance", status="stop", figures=figures, basis=[*basis, missed],
                      reason="never_missed", label=f"{missed}: the draft never missed", summary=(
            f"{missed[0].upper() + missed[1:]}: the draft never missed, so it is measuring the draft's "
            f"hit rate on predictable text, not generation speed{published}."))

    if al is None:
        return answer(key="acceptance", status="unanswerable", figures=figures, basis=basis,
                      missing=["acceptance length (AL)"] + ([] if window else ["draft window"]),
                      summary=f"Speculative decoding, but the record reports no AL to divide by the "
                              f"window{published}.")

    best = method_als(ref, method)[1] if method else None
    if best is not None and al > BEST_AL_MARGIN * best.al:
        figures["best_published_al"] = best.al
        basis.append(formula(f"best published AL {num(best.al)} ({best.task}, "
                             f"{'official' if best.official else 'third-party'}: {best.source}) × "
                             f"{BEST_AL_MARGIN} = {num(BEST_AL_MARGIN * best.al)}"))
        ratio_text = f" / window {window} = {figures['ratio']:.3f}" if "ratio" in figures else ""
        return answer(key="acceptance", status="flag", figures=figures, basis=basis, reason="above_best_al",
                      label=f"AL {num(al)} is {al / best.al:.1f}× the best published AL", summary=(
            f"{al_name}{ratio_text} is {al / best.al:.1f}× the best AL anyone has published for "
            f"{method.name if method else c.spec_method} ({num(best.al)}){published}."))

    if not window:
        return answer(key="acceptance", status="unanswerable", figures=figures, basis=basis,
                      missing=["draft window (num draft tokens / block size)"],
                      summary=f"{al_name} is reported but no draft window to divide it by{published}.")
    return answer(key="acceptance", status="ok", figures=figures, basis=basis, summary=(
        f"{al_name} / window {window} = {figures['ratio']:.3f}: a draft that misses like a real "
        f"one{published}."))
