"""drafter_regime: the draft window against the drafter's published windows."""

from __future__ import annotations

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.drafter_regime import drafter_regime
from tests.seed_claims import (
    headline_claim,
    headline_evidence,
    real_decode_claim,
    wide_window_siblings,
)


def _dr(ref: Reference, claim: Claim) -> Answer:
    return drafter_regime(Evidence(claim=claim), ref, {})


def test_dflash_at_window_56_is_flag(ref: Reference) -> None:
    a = drafter_regime(headline_evidence(), ref, {})
    assert a.status == "flag"
    assert "DFlash drafters published at block 8/16, run at 56" in a.summary
    assert a.figures["ratio"] == 3.5


def test_dflash_at_a_published_block_16_is_ok(ref: Reference) -> None:
    assert _dr(ref, headline_claim(spec_window=16)).status == "ok"


def test_window_24_within_twice_the_largest_is_ok(ref: Reference) -> None:
    assert _dr(ref, wide_window_siblings()[2]).status == "ok"


def test_no_speculative_decoding_is_na(ref: Reference) -> None:
    assert _dr(ref, real_decode_claim()).status == "n/a"


def test_speculative_without_window_is_unanswerable(ref: Reference) -> None:
    assert _dr(ref, headline_claim(spec_window=None)).missing == ["draft window"]


def test_method_not_in_the_table_is_unanswerable(ref: Reference) -> None:
    a = _dr(ref, headline_claim(spec_method="Hydra++"))
    assert a.status == "unanswerable" and a.missing == ["published draft windows for 'Hydra++'"]


def test_method_not_named_is_unanswerable(ref: Reference) -> None:
    assert _dr(ref, headline_claim(spec_method=None)).missing == ["speculative method"]
