"""prefill_excluded: TTFT empty or prefill from cache — input processing left out."""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.prefill_excluded import prefill_excluded
from tests.seed_claims import headline_evidence


def _run(ref: Reference, **fields: object) -> Answer:
    return prefill_excluded(Evidence(claim=Claim(**fields)), ref, {})


def test_seed_empty_ttft_and_cached_prefill_is_flagged(ref: Reference) -> None:
    # The seed's record does not say which tok/s it is: 2048 tokens over 0.969 s of wall time.
    a = prefill_excluded(headline_evidence(tok_s_kind=None), ref, {})
    assert a.key == "prefill_excluded"
    assert a.status == "flag"
    assert "input processing never entered the denominator" in a.summary
    assert "TTFT field is empty" in a.summary and "prefill from cache" in a.summary
    assert "2103.6 tok/s" in a.summary
    assert a.figures["signals"] == 3.0


def test_a_decode_labelled_seed_still_flags_on_its_notes(ref: Reference) -> None:
    a = prefill_excluded(headline_evidence(), ref, {})
    assert a.status == "flag" and "prefill from cache" in a.summary
    assert a.figures["signals"] == 1.0  # empty TTFT and cache marker say nothing of a decode-only rate


def test_an_empty_ttft_under_a_decode_only_rate_is_ok(ref: Reference) -> None:
    a = _run(ref, tok_s=120.0, tok_s_kind="decode", ttft_empty=True)
    assert a.status == "ok" and "decode-only" in a.summary


def test_recorded_ttft_without_cache_note_is_ok(ref: Reference) -> None:
    a = prefill_excluded(
        headline_evidence(ttft_empty=False, prefill_cached=False, ttft_ms=180.0, notes="width 56"),
        ref,
        {},
    )
    assert a.status == "ok"
    assert "180 ms" in a.summary


def test_empty_ttft_alone_is_flagged(ref: Reference) -> None:
    assert _run(ref, ttft_empty=True).status == "flag"


def test_cached_prefill_marker_alone_is_flagged(ref: Reference) -> None:
    assert _run(ref, prefill_cached=True, ttft_ms=12.0).status == "flag"


def test_zero_ttft_is_flagged(ref: Reference) -> None:
    a = _run(ref, ttft_ms=0.0)
    assert a.status == "flag"
    assert "0 ms" in a.summary


@pytest.mark.parametrize(
    "notes",
    [
        "prefill came from cache",
        "Prefill was served from the prefix cache",
        "cached prefill, decode only",
        "prefix cache hit rate: 100%",
        "TTFT excluded from the timing",
        "tok/s excluding the first token",
    ],
)
def test_notes_saying_prefill_was_left_out_are_flagged(ref: Reference, notes: str) -> None:
    a = _run(ref, notes=notes, ttft_ms=200.0)
    assert a.status == "flag"


@pytest.mark.parametrize(
    "notes",
    [
        "prefill not from cache; cold start",
        "no cached prefill: every prompt fresh",
        "ran without prefill caching",
        "prefix cache hit rate 12%",
    ],
)
def test_notes_saying_the_opposite_are_ok(ref: Reference, notes: str) -> None:
    assert _run(ref, notes=notes, ttft_ms=200.0).status == "ok"


def test_prefill_marked_not_cached_is_ok(ref: Reference) -> None:
    assert _run(ref, prefill_cached=False).status == "ok"


def test_nothing_known_is_unanswerable(ref: Reference) -> None:
    a = _run(ref, tok_s=79.0)
    assert a.status == "unanswerable"
    assert a.missing == ["ttft_ms"]


def test_cached_prompt_under_a_decode_only_rate_is_ok(ref: Reference) -> None:
    claim = Claim(tok_s=32.2, tok_s_kind="decode", prefill_cached=True, ttft_ms=40.0)
    a = prefill_excluded(Evidence(claim=claim, kind="tool-output"), ref, {})
    assert a.status == "ok" and "decode-only" in a.summary


def test_cached_prompt_under_an_end_to_end_rate_is_flagged(ref: Reference) -> None:
    claim = Claim(tok_s=32.2, tok_s_kind="output", prefill_cached=True, ttft_ms=40.0)
    a = prefill_excluded(Evidence(claim=claim, kind="tool-output"), ref, {})
    assert a.status == "flag"
