"""full_ratio: a statistic sitting exactly on its ceiling — fed in, not measured.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, formula, note
from checks.models import Answer, Basis, Claim, Evidence, ParsedConfig
from checks.parsing import parsed
from checks.reference import Reference

# A full a/b is a red flag only once b is large: at a per-token acceptance of 0.8 (above the
# average acceptance of published drafters: EAGLE-3 production AL 2.4-3.8 at 2-8 drafts in
# SemiAnalysisAI/InferenceX golden_al_distribution), 20 straight hits has chance
# 0.8**20 ≈ 1%, while 4/4 happens all the time. The seed's examples are 383/383 and 767/767.
LARGE_DENOMINATOR = 20
# An AL reported to one decimal place (56.0) equals the window when it is within rounding.
AL_TOLERANCE = 0.05


def _ratios(c: Claim, text: ParsedConfig, basis: list[Basis | str]) -> tuple[list[tuple[int, int]], int]:
    """Full ratios (a == b, b large) and how many ratios were looked at."""
    # (a, b, the claim field it was read from, the quoted text)
    seen: list[tuple[int, int, str, str]] = [(a, b, "ratios", "") for a, b in c.ratios]
    if c.accepted_tokens is not None and c.drafted_tokens is not None:
        seen.append((c.accepted_tokens, c.drafted_tokens, "accepted_tokens", ""))
    # "a/b" in the notes' sentences about acceptance (checks.parsing.accept_ratios)
    seen += [(a, b, "notes", f' "{raw}"') for a, b, raw in text.accept_ratios]
    full: list[tuple[int, int]] = []
    for a, b, name, quoted in seen:
        if a == b and b >= LARGE_DENOMINATOR and (a, b) not in full:
            full.append((a, b))
            if name == "accepted_tokens":
                basis.append(field(c, "drafted_tokens", f"= {b}"))
            basis.append(field(c, name, f":{quoted} {a}/{b} — numerator equals denominator "
                                        f"(b ≥ {LARGE_DENOMINATOR})"))
    return full, len(seen)


def full_ratio(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """full_ratio: a statistic sitting exactly on its ceiling — fed in, not measured.

    Seed, section 2: "when a metric lands exactly on its theoretical ceiling, suspect it was fed in
    rather than measured ... acceptance stats written as 383/383 or 767/767, numerator identical to
    denominator — always a red flag."

    A full ratio is accepted ÷ proposed draft tokens in an acceptance context, never two lengths:
    an input/output pair ("ISL/OSL 128/128", "128/128 in/out") is the cell, not a statistic.

    Looked at:
    - every "a/b" statistic the extractors found (`claim.ratios`), the accepted/drafted counts, and
      "a/b" written in the notes in a sentence about accepting, drafting or verifying tokens:
      a == b with b ≥ 20 is full;
    - AL against the draft window: AL == window means every round accepted every draft;
    - the acceptance rate: exactly 100% over ≥ 20 tokens (or over an unstated number of tokens).

    Statuses:
    - `flag`: any of the above sits on its ceiling ("fed in, not measured"); the summary lists them.
    - `ok`: statistics were there to look at and none is full (383/400 is a measurement).
    - `n/a`: nothing to look at and the record says speculative decoding was not used.
    - `unanswerable`: speculative (or unknown) with no ratio, AL with window, rate or notes.

    Reference rows: none; only the record's own fields.
    """
    c = ev.claim
    basis: list[Basis | str] = []
    figures: dict[str, float] = {}
    found: list[str] = []
    full, n_ratios = _ratios(c, parsed(ev), basis)
    if full:
        figures["full_ratios"] = len(full)
        found.append(", ".join(f"{a}/{b}" for a, b in full))
    looked = n_ratios
    if c.acceptance_length is not None and c.spec_window:
        looked += 1
        if abs(c.acceptance_length - c.spec_window) <= AL_TOLERANCE:
            figures.update(acceptance_length=c.acceptance_length, spec_window=c.spec_window)
            found.append(f"AL {c.acceptance_length:.1f} on a window of {c.spec_window}")
            basis += [field(c, "acceptance_length", f"= {c.acceptance_length:g}"),
                      field(c, "spec_window", f"= {c.spec_window}"),
                      formula(f"AL {c.acceptance_length:g} = window {c.spec_window}: every round "
                              "accepted every draft")]
    if c.acceptance_rate is not None:
        looked += 1
        count = c.drafted_tokens or c.tokens_generated
        if c.acceptance_rate >= 1.0 and (count is None or count >= LARGE_DENOMINATOR):
            figures["acceptance_rate"] = c.acceptance_rate
            over = f"over {count} tokens" if count else "over an unstated number of tokens"
            found.append(f"a 100% acceptance rate {over}")
            basis.append(field(c, "acceptance_rate", f"= {c.acceptance_rate:g} {over}"))
    if found:
        return answer(
            key="full_ratio",
            status="flag",
            figures=figures,
            basis=basis,
            reason="on_its_ceiling",
            label=f"{' and '.join(found)}: exactly on its ceiling",
            summary=(
                f"{' and '.join(found)}: {'each sits' if len(found) > 1 else 'it sits'} "
                "exactly on its ceiling — fed in, not measured"
            ),
        )
    if looked or c.notes:
        return answer(
            key="full_ratio",
            status="ok",
            figures={"full_ratios": 0},
            basis=[note(f"looked at {looked} statistic(s): the ratios, the AL/window, the "
                        "acceptance rate and the notes"), field(c, "ratios"), field(c, "notes")],
            summary="no statistic sits exactly on its ceiling"
            + (
                f"; ratios seen: {', '.join(f'{a}/{b}' for a, b in c.ratios[:5])}"
                if c.ratios
                else ""
            ),
        )
    if c.speculative is False:
        return answer(
            key="full_ratio",
            status="n/a",
            summary="no speculative decoding and no a/b statistic to inspect",
        )
    return answer(
        key="full_ratio",
        status="unanswerable",
        missing=["acceptance_length", "spec_window", "acceptance_rate", "ratios"],
        summary="no acceptance statistic in the record to compare with its ceiling",
    )
