"""full_ratio: a statistic sitting exactly on its ceiling — fed in, not measured."""

from __future__ import annotations

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.full_ratio import full_ratio
from tests.seed_claims import headline_evidence


def _run(ref: Reference, **fields: object) -> Answer:
    return full_ratio(Evidence(claim=Claim(**fields)), ref, {})


def test_seed_al_on_the_window_is_flagged(ref: Reference) -> None:
    a = full_ratio(headline_evidence(), ref, {})
    assert a.key == "full_ratio"
    assert a.status == "flag"
    assert a.figures["acceptance_length"] == 56.0 and a.figures["spec_window"] == 56.0
    assert "AL 56.0 on a window of 56" in a.summary
    assert "fed in, not measured" in a.summary


def test_seed_full_acceptance_rate_over_2048_tokens_is_named(ref: Reference) -> None:
    a = full_ratio(headline_evidence(), ref, {})
    assert "100% acceptance rate over 2048 tokens" in a.summary


def test_sane_al_beside_the_window_is_ok(ref: Reference) -> None:
    a = full_ratio(headline_evidence(acceptance_length=5.46, acceptance_rate=None), ref, {})
    assert a.status == "ok"


def test_equal_accept_counts_are_flagged(ref: Reference) -> None:
    a = _run(ref, ratios=[(383, 383), (767, 767)])
    assert a.status == "flag"
    assert "383/383" in a.summary and "767/767" in a.summary
    assert a.figures["full_ratios"] == 2.0


def test_unequal_accept_counts_are_ok(ref: Reference) -> None:
    a = _run(ref, ratios=[(383, 400)])
    assert a.status == "ok"
    assert "383/400" in a.summary


def test_small_equal_ratio_is_not_a_red_flag(ref: Reference) -> None:
    assert _run(ref, ratios=[(4, 4)]).status == "ok"


def test_equal_accepted_and_drafted_counts_are_flagged(ref: Reference) -> None:
    a = _run(ref, accepted_tokens=767, drafted_tokens=767)
    assert a.status == "flag"
    assert "767/767" in a.summary


def test_full_ratio_written_in_notes_is_flagged(ref: Reference) -> None:
    a = _run(ref, notes="accepted 383/383 draft tokens")
    assert a.status == "flag"
    assert any('"383/383"' in b for b in a.lines())


def test_dates_and_partial_ratios_in_notes_are_ok(ref: Reference) -> None:
    a = _run(ref, notes="run 2026/11/20, accepted 383/400, 1/1 GPUs, 25/25/25 split")
    assert a.status == "ok"


def test_full_rate_over_few_tokens_is_ok(ref: Reference) -> None:
    assert _run(ref, acceptance_rate=1.0, drafted_tokens=8).status == "ok"


def test_full_rate_over_unstated_tokens_is_flagged(ref: Reference) -> None:
    a = _run(ref, acceptance_rate=1.0)
    assert a.status == "flag"
    assert "unstated" in a.summary


def test_nothing_to_inspect_is_unanswerable(ref: Reference) -> None:
    a = _run(ref, tok_s=2103.6, speculative=True)
    assert a.status == "unanswerable"
    assert "acceptance_length" in a.missing


def test_plain_decode_without_statistics_is_not_applicable(ref: Reference) -> None:
    assert _run(ref, tok_s=79.0, speculative=False).status == "n/a"
