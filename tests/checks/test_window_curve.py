"""window_curve: the submitter's own runs, lined up by window width."""

from __future__ import annotations

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.window_curve import window_curve
from tests.seed_claims import headline_claim, headline_evidence, wide_window_siblings


def _sweep(ref: Reference, runs: list[Claim]) -> Answer:
    return window_curve(Evidence(claim=runs[0], siblings=runs[1:]), ref, {})


def test_seed_wide_windows_measure_the_window(ref: Reference) -> None:
    a = window_curve(headline_evidence(), ref, {})
    assert a.key == "window_curve"
    assert a.status == "flag"
    assert a.figures["runs"] == 4.0
    assert a.figures["rho_tok_s_window"] == 1.0
    assert a.figures["rho_al_window"] == 1.0
    assert "measuring the window" in a.summary
    assert "512/256/56/24" in a.summary and "4691/4547/2103.6/1074" in a.summary


def test_seed_al_ranges_use_their_midpoints(ref: Reference) -> None:
    a = window_curve(headline_evidence(), ref, {})
    assert a.figures["al_runs"] == 3.0
    assert a.figures["max_al"] == 261.5  # (231 + 292) / 2
    assert any("AL 231–292 (midpoint 261.5)" in b for b in a.lines())


def test_seed_most_rigorous_run_is_the_slowest(ref: Reference) -> None:
    a = window_curve(headline_evidence(), ref, {})
    assert a.figures["rigorous_is_slowest"] == 1.0
    assert "most rigorous run (window 24" in a.summary and "1074 tok/s" in a.summary


def test_tok_s_that_does_not_follow_the_window_is_ok(ref: Reference) -> None:
    a = _sweep(
        ref,
        [
            Claim(spec_window=4, tok_s=180.0, acceptance_length=3.1),
            Claim(spec_window=8, tok_s=210.0, acceptance_length=3.9),
            Claim(spec_window=16, tok_s=170.0, acceptance_length=4.3),
            Claim(spec_window=32, tok_s=120.0, acceptance_length=4.4),
        ],
    )
    assert a.status == "ok"
    assert a.figures["rho_tok_s_window"] < 0.9


def test_ordinary_tuning_sweep_within_published_al_is_ok(ref: Reference) -> None:
    a = _sweep(
        ref,
        [
            Claim(spec_window=2, tok_s=110.0, acceptance_length=1.8, spec_method="EAGLE-3"),
            Claim(spec_window=4, tok_s=150.0, acceptance_length=2.9, spec_method="EAGLE-3"),
            Claim(spec_window=8, tok_s=170.0, acceptance_length=3.8, spec_method="EAGLE-3"),
        ],
    )
    assert a.status == "ok"
    assert a.figures["rho_tok_s_window"] == 1.0 and a.figures["rho_al_window"] == 1.0
    assert "ordinary tuning curve" in a.summary


def test_al_that_does_not_track_the_window_is_ok(ref: Reference) -> None:
    a = _sweep(
        ref,
        [
            Claim(spec_window=16, tok_s=300.0, acceptance_length=40.0),
            Claim(spec_window=32, tok_s=400.0, acceptance_length=30.0),
            Claim(spec_window=64, tok_s=500.0, acceptance_length=20.0),
        ],
    )
    assert a.status == "ok"
    assert a.figures["rho_al_window"] == -1.0


def test_rising_tok_s_with_too_few_als_is_unanswerable(ref: Reference) -> None:
    a = _sweep(
        ref,
        [
            Claim(spec_window=24, tok_s=1074.0),
            Claim(spec_window=56, tok_s=2103.6, acceptance_length=56.0),
            Claim(spec_window=512, tok_s=4691.0),
        ],
    )
    assert a.status == "unanswerable"
    assert a.missing == ["acceptance_length on at least 3 runs"]


def test_fewer_than_three_runs_is_not_applicable(ref: Reference) -> None:
    ev = Evidence(claim=headline_claim(), siblings=wide_window_siblings()[:1])
    a = window_curve(ev, ref, {})
    assert a.status == "n/a"
    assert "needs ≥ 3 runs" in a.summary


def test_runs_at_only_two_windows_are_not_a_curve(ref: Reference) -> None:
    a = _sweep(
        ref,
        [
            Claim(spec_window=8, tok_s=100.0),
            Claim(spec_window=8, tok_s=110.0),
            Claim(spec_window=16, tok_s=120.0),
        ],
    )
    assert a.status == "n/a"


def test_primary_repeated_among_siblings_counts_once(ref: Reference) -> None:
    ev = headline_evidence()
    ev.siblings.append(headline_claim())  # same record id r-56
    assert window_curve(ev, ref, {}).figures["runs"] == 4.0


def test_most_rigorous_run_that_is_not_the_slowest_is_recorded(ref: Reference) -> None:
    a = _sweep(
        ref,
        [
            Claim(spec_window=4, tok_s=180.0, temperature=0.0, repeats=5, cooldown_s=10.0),
            Claim(spec_window=8, tok_s=150.0),
            Claim(spec_window=16, tok_s=120.0),
        ],
    )
    assert a.figures["rigorous_is_slowest"] == 0.0
    assert "most rigorous" not in a.summary
