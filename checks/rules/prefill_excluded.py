"""prefill_excluded: TTFT empty or prefill from cache — input processing left out.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, note
from checks.models import Answer, Basis, Evidence
from checks.parsing import parsed
from checks.reference import Reference


def prefill_excluded(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """prefill_excluded: TTFT empty or prefill from cache — input processing left out.

    Seed, section 5: "the 2103.6 entry has an empty time-to-first-token field, with a note saying
    prefill came from cache. Input processing never entered the denominator."

    Signals, any of which is enough:
    - the record's TTFT field exists and is empty (`ttft_empty`) and the rate is not decode-only,
      or TTFT is recorded as 0 ms;
    - the record marks prefill as cached (`prefill_cached`) and the rate is not decode-only;
    - the notes say so: "prefill (came) from cache", "cached prefill", "prefix cache hit 100%",
      "TTFT excluded", "excluding the first token", "prefill skipped" (a "no"/"not" just before the
      phrase disarms it).

    Statuses:
    - `flag`: a signal is present ("input processing never entered the denominator").
    - `ok`: a TTFT is recorded (or prefill is marked not cached) and nothing says it was excluded;
      or the rate is decode-only (prefill is outside it by definition) and only the cache marker is set.
    - `unanswerable`: no TTFT, no cache marker and no note either way (`missing` = ttft_ms).

    Reference rows: none; only the record's own fields.
    """
    c = ev.claim
    reasons: list[str] = []
    basis: list[Basis] = []
    # Like a cached prompt, an empty TTFT says nothing about a decode-only rate.
    decode_only = c.tok_s_kind in ("decode", "prefill")
    if c.ttft_empty and not decode_only:
        reasons.append("the TTFT field is empty")
        basis.append(field(c, "ttft_empty", "= true: the record has a TTFT field and it is empty"))
    if c.ttft_ms is not None and c.ttft_ms <= 0:
        reasons.append(f"TTFT is recorded as {c.ttft_ms:g} ms")
        basis.append(field(c, "ttft_ms", f"= {c.ttft_ms:g} ms"))
    # A decode-only rate (TPOT-based, llama-server's predicted_per_second) leaves prefill out by
    # definition, so a cached prompt alone does not inflate it; it still counts for a rate that
    # reads as end-to-end.
    cached_matters = c.prefill_cached and not decode_only
    if cached_matters:
        reasons.append("the record marks prefill as cached")
        basis.append(field(c, "prefill_cached", "= true"))
    phrases = list(parsed(ev).prefill_phrases)  # the phrases and their negations: checks.switches
    if phrases:
        reasons.append(f'the notes say "{phrases[0]}"')
        basis += [field(c, "notes", f': "{p}"') for p in phrases]
    number = f"{c.tok_s:g} tok/s" if c.tok_s is not None else "the claimed tok/s"
    if reasons:
        said = reasons[0] if len(reasons) == 1 else ", ".join(reasons[:-1]) + " and " + reasons[-1]
        return answer(
            key="prefill_excluded",
            status="flag",
            basis=basis,
            figures={"signals": len(reasons)},
            reason="prefill_left_out",
            label=f"{said}: input processing never entered the denominator of {number}",
            summary=f"{said}: input processing never entered the denominator of {number}",
        )
    if (c.prefill_cached or c.ttft_empty) and c.tok_s_kind == "decode":
        return answer(
            key="prefill_excluded",
            status="ok",
            basis=[field(c, "prefill_cached" if c.prefill_cached else "ttft_empty", "= true"),
                   field(c, "tok_s_kind", "= decode")],
            summary=f"{number} is a decode-only rate, which leaves prefill out by definition; a "
            "cached or untimed prompt does not inflate it (quote it as decode speed, not end-to-end)",
        )
    if c.ttft_ms is not None:
        return answer(
            key="prefill_excluded",
            status="ok",
            figures={"ttft_ms": c.ttft_ms},
            basis=[field(c, "ttft_ms", f"= {c.ttft_ms:g} ms"),
                   note("no note says prefill was cached or excluded")],
            summary=f"a TTFT of {c.ttft_ms:g} ms is recorded and nothing says prefill was "
            "cached or excluded",
        )
    if c.prefill_cached is False:
        return answer(
            key="prefill_excluded",
            status="ok",
            basis=[field(c, "prefill_cached", "= false")],
            summary="the record marks prefill as not cached and nothing says it was excluded",
        )
    return answer(
        key="prefill_excluded",
        status="unanswerable",
        missing=["ttft_ms"],
        summary="no TTFT and no word on prefill caching: cannot tell whether prefill was timed",
    )
