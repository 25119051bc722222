"""Q5 acceptance: AL over draft window (seed §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.acceptance import acceptance
from tests.checks.test_physics import extra_ref
from tests.seed_claims import (
    headline_claim,
    headline_evidence,
    real_decode_claim,
    wide_window_siblings,
)


def _q5(ref: Reference, claim: Claim) -> Answer:
    return acceptance(Evidence(claim=claim), ref, {})


def _dflash(**kw: object) -> Claim:
    """A DFlash run at a published block size with a sane AL; each test changes one thing."""
    base: dict[str, object] = {"acceptance_length": 5.2, "acceptance_rate": None, "spec_window": 16,
                                   "spec_window_convention": None}
    base.update(kw)
    return headline_claim(**base)


def test_al_equal_to_window_is_stop(ref: Reference) -> None:
    a = acceptance(headline_evidence(), ref, {})
    assert a.status == "stop"
    assert a.figures == {"al": 56.0, "window": 56.0, "ratio": 1.0}
    assert "56.0 / window 56 = 1.000" in a.summary
    assert "hit rate on predictable text, not generation speed" in a.summary
    assert "published DFlash AL on real tasks 4.39–5.46 (official), up to 8.24 (third-party)" in a.summary
    assert "0.08–0.10 of a 56 window" in a.summary
    assert "--speculative-dflash-block-size 56" in " ".join(a.lines())  # the window convention


def test_sane_al_at_a_published_window_is_ok(ref: Reference) -> None:
    a = _q5(ref, _dflash())
    assert a.status == "ok"
    assert a.figures["ratio"] == pytest.approx(5.2 / 16)


def test_al_above_window_is_stop_as_impossible(ref: Reference) -> None:
    a = _q5(ref, _dflash(acceptance_length=18.0))
    assert a.status == "stop" and "impossible" in a.summary


def test_ratio_at_095_is_stop(ref: Reference) -> None:
    assert _q5(ref, _dflash(acceptance_length=15.2)).status == "stop"  # 0.95
    assert _q5(ref, _dflash(acceptance_length=9.5)).status == "ok"  # 0.59, under 1.25 × 8.24


def test_acceptance_rate_of_100_percent_is_stop_even_without_al(ref: Reference) -> None:
    a = _q5(ref, _dflash(acceptance_length=None, acceptance_rate=1.0))
    assert a.status == "stop" and "100%" in a.summary


def test_accepted_equal_to_drafted_is_stop(ref: Reference) -> None:
    a = _q5(ref, _dflash(acceptance_length=None, accepted_tokens=383, drafted_tokens=383))
    assert a.status == "stop" and "383/383" in a.summary


def test_accepted_below_drafted_is_not_stop(ref: Reference) -> None:
    assert _q5(ref, _dflash(accepted_tokens=301, drafted_tokens=383)).status == "ok"


def test_al_far_above_best_published_is_flag(ref: Reference) -> None:
    a = _q5(ref, wide_window_siblings()[0])  # window 512, AL 231-292
    assert a.status == "flag"
    assert a.figures["al"] == 292.0 and a.figures["ratio"] == pytest.approx(292 / 512)
    assert "AL 231.0–292.0 (high end 292.0 used)" in a.summary


def test_al_within_25_percent_of_best_published_is_ok(ref: Reference) -> None:
    assert _q5(ref, _dflash(acceptance_length=10.2)).status == "ok"  # 1.24 × 8.24
    assert _q5(ref, _dflash(acceptance_length=10.4)).status == "flag"  # 1.26 × 8.24


def test_window_24_sibling_without_al_is_unanswerable(ref: Reference) -> None:
    a = _q5(ref, wide_window_siblings()[2])
    assert a.status == "unanswerable"
    assert a.missing == ["acceptance length (AL)"]
    assert a.figures == {"window": 24.0}


def test_al_without_window_is_unanswerable(ref: Reference) -> None:
    a = _q5(ref, _dflash(spec_window=None))
    assert a.status == "unanswerable" and a.missing == ["draft window (num draft tokens / block size)"]


def test_no_speculative_decoding_is_na(ref: Reference) -> None:
    assert _q5(ref, real_decode_claim()).status == "n/a"
    assert _q5(ref, Claim(tok_s=79)).status == "n/a"


def test_window_convention_comes_from_the_method_row_when_the_record_has_none(ref: Reference) -> None:
    a = _q5(ref, _dflash())
    assert "vLLM num_speculative_tokens + 1" in " ".join(a.lines())


def test_method_not_in_the_table_still_gets_the_ratio(tmp_path: Path) -> None:
    ref = extra_ref(tmp_path)
    a = _q5(ref, _dflash(spec_method="Blockwise-X", acceptance_length=3.1, spec_window=6))
    assert a.status == "ok" and "no published AL for 'Blockwise-X'" in a.summary


def test_eagle3_al_at_window_8_is_ok(tmp_path: Path) -> None:
    ref = extra_ref(tmp_path)
    a = _q5(ref, _dflash(spec_method="EAGLE-3", acceptance_length=3.5, spec_window=8))
    assert a.status == "ok" and "published EAGLE-3 AL on real tasks 6.13 (official)" in a.summary
