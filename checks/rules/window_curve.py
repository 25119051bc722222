"""window_curve: the submitter's own runs, lined up by window width.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from checks.basis import answer, formula, note
from checks.basis import row as cited
from checks.models import Answer, Basis, Claim, Evidence
from checks.reference import Reference
from checks.rules.acceptance import method_als
from checks.stats import spearman

# tok/s rising monotonically with window width (Spearman ρ ≥ 0.9) says it is measuring the window
# (seed, section 5); the same bar for AL tracking the window.
RHO_THRESHOLD = 0.9
# The seed's section 5: a curve needs at least three points.
MIN_RUNS = 3
MIN_AL_RUNS = 3
# An AL more than 25% above the best published AL for the method is a flag (acceptance.py).
PUBLISHED_MARGIN = 1.25


@dataclass(frozen=True)
class _Run:
    label: str
    window: int
    tok_s: float
    al: float | None
    al_text: str
    rigor: int


def _al(c: Claim) -> tuple[float | None, str]:
    if c.acceptance_length is not None:
        return c.acceptance_length, f"AL {c.acceptance_length:g}"
    lo, hi = c.acceptance_length_low, c.acceptance_length_high
    if lo is not None and hi is not None:
        mid = (lo + hi) / 2
        return mid, f"AL {lo:g}–{hi:g} (midpoint {mid:g})"
    if lo is not None or hi is not None:
        one = lo if lo is not None else hi
        return one, f"AL {one:g}"
    return None, "AL not reported"


def _rigor(c: Claim) -> int:
    return int(c.temperature == 0) + int((c.repeats or 0) > 1) + int((c.cooldown_s or 0) > 0)


def _runs(ev: Evidence) -> list[_Run]:
    runs: list[_Run] = []
    seen_ids: set[str] = set()
    for i, c in enumerate([ev.claim, *ev.siblings]):
        if c.spec_window is None or c.tok_s is None:
            continue
        if c.record_id is not None:
            if c.record_id in seen_ids:
                continue
            seen_ids.add(c.record_id)
        al, al_text = _al(c)
        label = c.record_id or ("the claim" if i == 0 else f"sibling {i}")
        runs.append(_Run(label, c.spec_window, c.tok_s, al, al_text, _rigor(c)))
    return runs


def _published_ceiling(ev: Evidence, ref: Reference) -> tuple[float | None, Basis]:
    """The highest published AL for the runs' method, else for any method in the table."""
    for c in [ev.claim, *ev.siblings]:
        row = ref.method(c.spec_method)
        best = method_als(ref, row)[1] if row is not None else None
        if row is not None and best is not None:
            return best.al, cited(row, f"best published {row.name} AL {best.al:g} ({best.task})")
    best_any = [(p.al, row) for row in ref.methods for p in row.published_als]
    if not best_any:
        return None, note("no published AL in the reference table")
    al, row = max(best_any, key=lambda t: t[0])
    return (
        al,
        cited(row, f"highest published AL of any method {al:g}; the runs' method is not listed"),
    )


def _rigor_note(runs: list[_Run], figures: dict[str, float], basis: list[Basis | str]) -> str:
    top = max(r.rigor for r in runs)
    best = [r for r in runs if r.rigor == top]
    if top == 0 or len(best) != 1:
        return ""
    rigorous = best[0]
    slowest = min(runs, key=lambda r: r.tok_s)
    is_slowest = rigorous is slowest and sum(r.tok_s == slowest.tok_s for r in runs) == 1
    figures["rigorous_is_slowest"] = is_slowest
    basis.append(
        f"most rigorous run: {rigorous.label} (score {rigorous.rigor}/3: temperature 0, "
        "repeats > 1, cooldown > 0)"
    )
    if not is_slowest:
        return ""
    return (
        f"; the most rigorous run (window {rigorous.window}, rigor {rigorous.rigor}/3) is also "
        f"the slowest at {rigorous.tok_s:g} tok/s: rigor runs against the size of the number"
    )


def window_curve(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """window_curve: the submitter's own runs, lined up by window width.

    Seed, section 5: "tok/s rises monotonically with window width, and AL trails right behind it.
    It's measuring the window." And: "the window-24 run has the most rigorous methodology ... and
    it's also the slowest."

    The runs are the primary claim and its siblings that state a draft window and a tok/s (one per
    record id). AL per run is `acceptance_length`, else the midpoint of a reported range (231–292 →
    261.5). Spearman's ρ (ties averaged, `checks.stats.spearman`) is taken for tok/s against window
    and for AL against window.

    Statuses:
    - `flag`: ρ(tok/s, window) ≥ 0.9 and ρ(AL, window) ≥ 0.9 over ≥ 3 runs with an AL, and the ALs
      climb past what drafters achieve (the largest is more than 25% above the best published AL for
      the method, or for any method when the method is not in the table): "it's measuring the
      window". The last condition keeps an ordinary tuning sweep (windows 2/4/8, AL 1.8/2.9/3.8,
      tok/s rising) from being flagged: at small windows a real AL does track the window.
    - `ok`: tok/s does not follow the window, AL does not track it, or the ALs stay within the
      published range.
    - `unanswerable`: tok/s follows the window but fewer than 3 runs report an AL, so whether AL
      tracks the window cannot be told (`missing` says so).
    - `n/a`: fewer than 3 runs at different windows ("needs ≥ 3 runs by the same submitter at
      different windows").
    In every case with ≥ 3 runs, when the most rigorous run (one point each for temperature 0,
    repeats > 1, cooldown > 0; a unique top score) is also the slowest, the summary says so and
    `rigorous_is_slowest` is true (false when it is not the slowest).

    Reference rows: the method's published ALs (`methods`), or every method's when it is not listed.
    """
    runs = _runs(ev)
    if len({r.window for r in runs}) < MIN_RUNS:
        return answer(
            key="window_curve",
            status="n/a",
            figures={"runs": len(runs)},
            basis=[f"runs with a window and a tok/s: the claim and {len(ev.siblings)} sibling "
                   f"record(s) by the same submitter on the same setup; {len(runs)} usable"],
            missing=["sibling runs at different windows"],
            summary=f"needs ≥ {MIN_RUNS} runs by the same submitter at different windows "
            f"(found {len(runs)})",
        )
    runs.sort(key=lambda r: -r.window)
    figures: dict[str, float] = {"runs": len(runs)}
    basis: list[Basis | str] = [f"{r.label}: window {r.window}, {r.tok_s:g} tok/s, {r.al_text}" for r in runs]
    rho_tok = spearman([r.window for r in runs], [r.tok_s for r in runs])
    with_al = [r for r in runs if r.al is not None]
    rho_al = (
        spearman([r.window for r in with_al], [r.al for r in with_al if r.al is not None])
        if len(with_al) >= MIN_AL_RUNS
        else None
    )
    if rho_tok is not None:
        figures["rho_tok_s_window"] = round(rho_tok, 3)
        basis.append(
            f"Spearman ρ(tok/s, window) over {len(runs)} runs = {rho_tok:.2f} "
            f"(flag at ≥ {RHO_THRESHOLD})"
        )
    figures["al_runs"] = len(with_al)
    if rho_al is not None:
        figures["rho_al_window"] = round(rho_al, 3)
        basis.append(
            f"Spearman ρ(AL, window) over {len(with_al)} runs = {rho_al:.2f} "
            f"(flag at ≥ {RHO_THRESHOLD})"
        )
    rigor = _rigor_note(runs, figures, basis)
    windows = "/".join(str(r.window) for r in runs)
    speeds = "/".join(f"{r.tok_s:g}" for r in runs)
    curve = f"windows {windows} give {speeds} tok/s"
    if rho_tok is None or rho_tok < RHO_THRESHOLD:
        shown = (
            "does not vary"
            if rho_tok is None
            else f"does not follow the window (ρ = {rho_tok:.2f})"
        )
        return answer(
            key="window_curve",
            status="ok",
            figures=figures,
            basis=basis,
            summary=f"{curve}: tok/s {shown}{rigor}",
        )
    if rho_al is None:
        return answer(
            key="window_curve",
            status="unanswerable",
            figures=figures,
            basis=basis,
            missing=[f"acceptance_length on at least {MIN_AL_RUNS} runs"],
            summary=f"{curve}: tok/s rises with the window (ρ = {rho_tok:.2f}), but only "
            f"{len(with_al)} run(s) report an AL, so whether AL tracks the window is unknown"
            f"{rigor}",
        )
    if rho_al < RHO_THRESHOLD:
        return answer(
            key="window_curve",
            status="ok",
            figures=figures,
            basis=basis,
            summary=f"{curve}: tok/s rises with the window (ρ = {rho_tok:.2f}) but AL does not "
            f"track it (ρ = {rho_al:.2f}){rigor}",
        )
    max_al = max(r.al for r in with_al if r.al is not None)
    published, cite = _published_ceiling(ev, ref)
    figures["max_al"] = max_al
    if published is not None:
        figures["best_published_al"] = published
        basis += [cite, formula(f"largest AL {max_al:g} against {published:g}; flag above × {PUBLISHED_MARGIN}")]
        if max_al <= published * PUBLISHED_MARGIN:
            return answer(
                key="window_curve",
                status="ok",
                figures=figures,
                basis=basis,
                summary=f"{curve}: tok/s and AL rise with the window (ρ = {rho_tok:.2f}, "
                f"{rho_al:.2f}), but the largest AL {max_al:g} stays within the published "
                f"{published:g}: an ordinary tuning curve{rigor}",
            )
    return answer(
        key="window_curve",
        status="flag",
        figures=figures,
        basis=basis,
        reason="measuring_the_window",
        label=f"AL tracks the window up to {max_al:g} over {len(runs)} runs: it's measuring the window",
        summary=f"{curve}, and AL tracks the window up to {max_al:g} (ρ = {rho_tok:.2f} for tok/s, "
        f"{rho_al:.2f} for AL over {len(runs)} runs): it's measuring the window{rigor}",
    )
