"""compute_ceiling: 2 × active params × tok/s against the card's dense peak."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.compute_ceiling import compute_ceiling
from tests.checks.test_physics import extra_ref
from tests.seed_claims import headline_claim, headline_evidence


@pytest.fixture
def xref(tmp_path: Path) -> Reference:
    return extra_ref(tmp_path)


def _cc(ref: Reference, claim: Claim) -> Answer:
    return compute_ceiling(Evidence(claim=claim), ref, {})


def test_seed_needs_117_tflops_well_under_the_peak(ref: Reference) -> None:
    a = compute_ceiling(headline_evidence(), ref, {})
    assert a.status == "ok"
    assert a.figures["required_tflops"] == pytest.approx(2 * 27.8 * 2103.6 / 1e3)  # 116.96
    rtx = ref.gpu("RTX 5090")
    assert rtx is not None and a.figures["peak_tflops"] == rtx.peak_tflops["fp4"]
    assert "117.0 TFLOPS" in a.summary


def test_speculative_claim_above_the_peak_is_stop(xref: Reference) -> None:
    # 27.8B dense BF16 on one H100 SXM (989 TFLOPS): 2 × 27.8e9 × 20000 = 1112 TFLOPS.
    a = _cc(xref, headline_claim(hardware="H100 SXM", weight_format="BF16", tok_s=20000.0))
    assert a.status == "stop" and a.figures["ratio"] > 1


def test_same_claim_on_enough_cards_is_ok(xref: Reference) -> None:
    a = _cc(xref, headline_claim(hardware="H100 SXM", weight_format="BF16", tok_s=20000.0, hardware_count=2))
    assert a.status == "ok" and a.figures["peak_tflops"] == 2 * 989


def test_batched_aggregate_is_per_user_times_batch(xref: Reference) -> None:
    c = Claim(model="Llama-3.1-8B", weight_format="BF16", hardware="H100 SXM", hardware_count=1, batch=256,
              tok_s=300.0, tok_s_kind="per_user")  # 76800 tok/s × 2 × 8.03e9 = 1233 TFLOPS
    a = _cc(xref, c)
    assert a.status == "stop"
    assert a.figures["required_tflops"] == pytest.approx(2 * 8.03 * 76800 / 1e3)


def test_above_one_cards_peak_with_no_card_count_is_unanswerable(xref: Reference) -> None:
    """Negative control for the stop above: more cards do more arithmetic, so a count nobody
    stated cannot condemn."""
    c = Claim(model="Llama-3.1-8B", weight_format="BF16", hardware="H100 SXM", batch=256,
              tok_s=300.0, tok_s_kind="per_user")
    a = _cc(xref, c)
    assert a.status == "unanswerable" and a.missing == ["card count"]


def test_moe_uses_active_params(xref: Reference) -> None:
    c = Claim(model="Qwen3-30B-A3B", weight_format="BF16", hardware="H100 SXM", batch=1, tok_s=200.0)
    assert _cc(xref, c).figures["required_tflops"] == pytest.approx(2 * 3.35 * 200 / 1e3)


def test_unknown_format_uses_the_cards_highest_peak_and_says_so(ref: Reference) -> None:
    a = _cc(ref, headline_claim(weight_format=None))
    rtx = ref.gpu("RTX 5090")
    assert rtx is not None and a.figures["peak_tflops"] == max(rtx.peak_tflops.values())
    assert "highest dense peak" in a.summary


def test_no_tok_s_is_unanswerable(ref: Reference) -> None:
    assert _cc(ref, headline_claim(tok_s=None)).missing == ["tok/s"]


def test_card_without_a_peak_for_the_family_is_unanswerable(xref: Reference) -> None:
    a = _cc(xref, headline_claim(hardware="Test 8GB card"))
    assert a.status == "unanswerable" and a.missing == ["dense fp4 peak TFLOPS of Test 8GB card"]


def test_an_a100_with_the_format_unstated_is_bounded_at_its_int8_peak(ref: Reference) -> None:
    # An A100 computes INT8 at 624 dense TOPS (NVIDIA's datasheet), twice its 312 BF16: with the
    # weight format unstated a W8A8 run may use it, so the generous compute bound reads it.
    # 10k tok/s of Llama 3 70B on four is 1411 TOPS, under 4 × 624 = 2496.
    c = Claim(model="Llama 3 70B", hardware="A100 80GB SXM", hardware_count=4, tok_s=10000.0,
              tok_s_kind="aggregate")
    a = compute_ceiling(Evidence(claim=c), ref, {})
    assert a.status == "ok"
    assert a.figures["peak_tflops"] == pytest.approx(4 * 624)
