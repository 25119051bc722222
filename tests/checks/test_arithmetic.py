"""arithmetic: recompute tok/s (and the record's other ratios) from its own fields."""

from __future__ import annotations

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.arithmetic import arithmetic
from tests.seed_claims import headline_evidence


def _run(ref: Reference, **fields: object) -> Answer:
    return arithmetic(Evidence(claim=Claim(**fields)), ref, {})


def test_seed_tokens_over_seconds_is_2113_5(ref: Reference) -> None:
    a = arithmetic(headline_evidence(), ref, {})
    assert a.key == "arithmetic"
    assert a.status == "ok"  # 0.47% apart: within 1%
    assert a.figures["computed_tok_s"] == 2113.52
    assert a.figures["reported_tok_s"] == 2103.6
    assert a.figures["mismatch_pct"] == 0.47
    assert "2113.5" in a.summary and "2103.6" in a.summary


def test_seed_summary_gives_the_timing_the_reported_rate_implies(ref: Reference) -> None:
    a = arithmetic(headline_evidence(), ref, {})
    assert a.figures["implied_seconds"] == 0.9736
    assert "0.974 s" in a.summary and "0.969 s" in a.summary


def test_seed_basis_names_fields_and_formula(ref: Reference) -> None:
    a = arithmetic(headline_evidence(), ref, {})
    assert "claim.tokens_generated = 2048" in a.lines()
    assert "tokens ÷ seconds = 2048 ÷ 0.969 = 2113.5 tok/s" in a.lines()
    assert [b.kind for b in a.basis[:3]] == ["record-field", "record-field", "formula"]
    assert any("claim.tok_s (board://seed: tok_s)" in b for b in a.lines())


def test_tok_s_more_than_one_percent_off_is_flagged(ref: Reference) -> None:
    a = _run(ref, tokens_generated=2048, wall_seconds=0.9, tok_s=2103.6)
    assert a.status == "flag"
    assert "2275.6" in a.summary and "2103.6" in a.summary
    assert a.figures["mismatch_pct"] > 1


def test_tok_s_that_adds_up_is_ok_without_a_timing_note(ref: Reference) -> None:
    a = _run(ref, tokens_generated=2048, wall_seconds=1.0, tok_s=2048.0)
    assert a.status == "ok"
    assert a.figures["mismatch_pct"] == 0.0
    assert "implied_seconds" not in a.figures


def test_acceptance_rate_that_disagrees_with_its_counts_is_flagged(ref: Reference) -> None:
    a = _run(ref, accepted_tokens=383, drafted_tokens=400, acceptance_rate=0.99)
    assert a.status == "flag"
    assert a.figures["computed_acceptance_rate"] == 0.9575
    assert "95.8%" in a.summary and "99.0%" in a.summary


def test_acceptance_rate_matching_its_counts_is_ok(ref: Reference) -> None:
    a = _run(ref, accepted_tokens=383, drafted_tokens=400, acceptance_rate=0.9575)
    assert a.status == "ok"


def test_speedup_that_disagrees_with_the_two_speeds_is_flagged(ref: Reference) -> None:
    a = _run(ref, tok_s=300.0, baseline_tok_s=100.0, speedup=3.4)
    assert a.status == "flag"
    assert a.figures["computed_speedup"] == 3.0
    assert "3.4" in a.summary


def test_speedup_matching_the_two_speeds_is_ok(ref: Reference) -> None:
    a = _run(ref, tok_s=300.0, baseline_tok_s=100.0, speedup=3.0)
    assert a.status == "ok"


def test_one_bad_figure_flags_even_when_others_agree(ref: Reference) -> None:
    a = _run(
        ref,
        tokens_generated=1000,
        wall_seconds=10.0,
        tok_s=100.0,
        accepted_tokens=50,
        drafted_tokens=100,
        acceptance_rate=0.8,
    )
    assert a.status == "flag"
    assert "80.0%" in a.summary


def test_nothing_to_recompute_is_not_applicable(ref: Reference) -> None:
    a = _run(ref, tok_s=79.0)
    assert a.status == "n/a"
    assert a.missing == ["tokens_generated", "wall_seconds"]


def test_zero_seconds_is_not_a_division(ref: Reference) -> None:
    a = _run(ref, tokens_generated=10, wall_seconds=0.0, tok_s=5.0)
    assert a.status == "n/a"


def test_a_gap_inside_the_reported_figures_own_rounding_is_ok(ref: Reference) -> None:
    # 256 ÷ 70.116 = 3.651; "3.7" stands for 3.65-3.75, so 1.3% apart is the record's rounding.
    a = arithmetic(Evidence(claim=Claim(tokens_generated=256, wall_seconds=70.116, tok_s=3.7)), ref, {})
    assert a.status == "ok"


def test_a_gap_beyond_rounding_is_still_flagged(ref: Reference) -> None:
    a = arithmetic(Evidence(claim=Claim(tokens_generated=256, wall_seconds=70.116, tok_s=3.75)), ref, {})
    assert a.status == "flag"


def test_a_speedup_quoted_to_one_decimal_is_held_to_its_rounding(ref: Reference) -> None:
    # 326 ÷ 100 = 3.26×; "3.3×" stands for 3.25-3.35, so 1.2% apart is the record's rounding.
    ok = arithmetic(Evidence(claim=Claim(tok_s=326.0, baseline_tok_s=100.0, speedup=3.3)), ref, {})
    assert ok.status == "ok"
    off = arithmetic(Evidence(claim=Claim(tok_s=326.0, baseline_tok_s=100.0, speedup=3.4)), ref, {})
    assert off.status == "flag"
