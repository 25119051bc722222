"""fits_memory: weights (+ KV at the stated context) against the card's memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.fits_memory import fits_memory
from tests.checks.test_physics import extra_ref
from tests.seed_claims import headline_claim, headline_evidence


@pytest.fixture
def xref(tmp_path: Path) -> Reference:
    return extra_ref(tmp_path)


def _fit(ref: Reference, claim: Claim) -> Answer:
    return fits_memory(Evidence(claim=claim), ref, {})


def test_seed_13_9_gb_fits_in_a_32_gb_rtx5090(ref: Reference) -> None:
    a = fits_memory(headline_evidence(), ref, {})
    assert a.status == "ok"
    assert a.figures["weights_gb"] == pytest.approx(13.9)
    assert a.figures["memory_gb"] == pytest.approx(32 * 2**30 / 1e9)  # 34.4 GB: "32 GB" is GiB
    assert a.figures["ratio"] == pytest.approx(13.9 / 34.36, abs=0.01)


def test_27b_on_a_stated_8_gb_card_is_judged_offloaded(xref: Reference) -> None:
    """The seed's card is stated: weights that do not fit it are read from system memory."""
    a = _fit(xref, headline_claim(hardware="Test 8GB card"))
    assert a.status == "ok"
    assert "do not fit one Test 8GB card's 8.59 GB: the roofline judges the offloaded ceiling" in a.summary


def test_70b_bf16_needs_two_h100s(xref: Reference) -> None:
    one = _fit(xref, Claim(model="Llama-3.1-70B", weight_format="BF16", hardware="H100 SXM", hardware_count=1))
    two = _fit(xref, Claim(model="Llama-3.1-70B", weight_format="BF16", hardware="H100 SXM", hardware_count=2))
    assert one.status == two.status == "ok"  # 141.1 GB vs 85.9 / 171.8 GB
    assert "141.1 GB of BF16 weights do not fit one H100 SXM's 85.9 GB" in one.summary
    assert "it fits" in two.summary and two.figures["memory_gb"] == pytest.approx(2 * 80 * 2**30 / 1e9)


def test_moe_must_hold_every_expert(xref: Reference) -> None:
    a = _fit(xref, Claim(model="Qwen3-30B-A3B", weight_format="BF16", hardware="RTX 5090",
                         hardware_count=1))
    assert a.status == "ok" and a.figures["weights_gb"] == pytest.approx(61.06)
    assert "61.1 GB of BF16 weights do not fit one RTX 5090's 34.4 GB" in a.summary


def test_a_named_card_with_no_count_is_one_card_and_the_rest_offloaded(xref: Reference) -> None:
    """'on an RTX 5090': one card; what does not fit is read from system memory, no card invented."""
    a = _fit(xref, Claim(model="Qwen3-30B-A3B", weight_format="BF16", hardware="RTX 5090"))
    assert a.status == "ok" and a.figures["ratio"] == pytest.approx(61.06 / 34.36, abs=0.01)
    assert "61.1 GB of BF16 weights do not fit one RTX 5090's 34.4 GB: the roofline judges the offloaded" in a.summary


@pytest.mark.parametrize("words", [{"notes": "2x RTX 5090"}, {"launch_command": "llama-server -ts 1,1 -ngl 99"},
                                   {"notes": "dual 5090 build"}, {"env": {"CUDA_VISIBLE_DEVICES": "0,1"}}])
def test_a_model_that_needs_several_cards_with_more_cards_said_is_unanswerable(xref: Reference,
                                                                               words: dict[str, object]) -> None:
    a = _fit(xref, Claim(model="Qwen3-30B-A3B", weight_format="BF16", hardware="RTX 5090", **words))
    assert a.status == "unanswerable" and a.missing == ["card count"]
    assert "needs at least 2 cards" in a.summary and a.figures["ratio"] == pytest.approx(61.06 / 34.36, abs=0.01)


def test_a_datacenter_card_with_no_count_is_never_read_as_one_overflowing_card(xref: Reference) -> None:
    """Sold on 4- and 8-GPU boards: a 70B BF16 on 'H100 SXM' most likely ran on several."""
    a = _fit(xref, Claim(model="Llama-3.1-70B", weight_format="BF16", hardware="H100 SXM"))
    assert a.status == "unanswerable" and a.missing == ["card count"]


def test_the_record_s_own_larger_card_memory_picks_the_variant(ref: Reference) -> None:
    """LocalScore's accel_ram 16 GB beside 'RTX 4060 Ti' (the table's 8 GB row): the 16 GB card."""
    c = Claim(model="gemma2", params_total_b=10.2, weight_format="Q8_0", hardware="NVIDIA GeForce RTX 4060 Ti",
              hardware_memory_gb=16.0)
    a = _fit(ref, c)
    assert a.status == "ok" and a.figures["memory_gb"] == pytest.approx(16 * 2**30 / 1e9)
    assert "it fits" in a.summary


def test_kv_at_long_context_and_batch_can_overflow(xref: Reference) -> None:
    base = {"model": "Llama-3.1-8B", "weight_format": "BF16", "hardware": "H100 SXM", "kv_dtype": "bf16",
            "hardware_count": 1}
    short = _fit(xref, Claim(**base, batch=1, context_length=8192))
    long = _fit(xref, Claim(**base, batch=64, context_length=131072))
    assert short.status == "ok" and long.status == "flag"
    assert long.figures["kv_gb"] == pytest.approx(64 * 131072 * 131072 / 1e9)


def test_no_hardware_or_model_size_is_unanswerable(ref: Reference) -> None:
    a = _fit(ref, Claim(tok_s=50.0))
    assert a.status == "unanswerable" and a.missing == ["hardware", "total params"]


def test_card_not_in_the_table_is_unanswerable(ref: Reference) -> None:
    a = _fit(ref, headline_claim(hardware="Imaginary X9000"))
    assert a.missing == ["reference row for hardware 'Imaginary X9000'"]


@pytest.mark.parametrize(("said", "status"), [({"offload": True}, "ok"), ({"system_ram_gb": 64.0}, "ok"),
                                              ({}, "ok"), ({"offload": False}, "flag"),
                                              ({"gpu_layers": 99}, "flag")])
def test_a_stated_offload_is_carried_by_the_roofline_not_flagged(xref: Reference, said: dict[str, object],
                                                                 status: str) -> None:
    """Llama-3.1-70B at 4 bits (35.3 GB) on one 24 GB RTX 3090 does not fit; "+ 64GB RAM offload"
    says where the rest lives, and Q7 reads it at system-memory bandwidth."""
    c = Claim(model="Llama-3.1-70B", weight_format="Q4_K_M", hardware="RTX 3090", hardware_count=1, **said)
    a = _fit(xref, c)
    assert a.status == status and a.figures["ratio"] == pytest.approx(35.275 / (24 * 2**30 / 1e9), abs=0.001)
    assert ("the record says it offloads" in a.summary) == (status == "ok" and bool(said))
    # Unsaid, the stated card is still the card: the rest is offloaded, never a second card.
    assert ("judges the offloaded ceiling" in a.summary) == (not said)


@pytest.mark.parametrize(("fmt", "weights_gb"), [("Q8", 671.0), ("8-bit", 671.0), ("Q6_K_XL", 503.25)])
def test_weights_of_a_format_named_by_its_bits_that_overflow_the_cards_are_offloaded(
        ref: Reference, fmt: str, weights_gb: float) -> None:
    # "DeepSeek R1 671B Q8 on 8x RTX 3090: 5 t/s" was `suspicious` (671 GB does not fit 206.2 GB)
    # while Q7 judged it at the on-card ceiling: a format whose bits its name says sizes the weights
    # as a table row does, so what does not fit is read from system memory and Q7 carries it
    from checks.runner import audit
    c = Claim(model="DeepSeek-R1", weight_format=fmt, hardware="RTX 3090", hardware_count=8, tok_s=5.0)
    a = _fit(ref, c)
    assert a.status == "ok" and a.figures["weights_gb"] == pytest.approx(weights_gb, rel=1e-3)
    assert "the roofline judges the offloaded ceiling" in a.summary
    report = audit(Evidence(claim=c), ref)
    roof = next(q for q in report.questions if q.key == "roofline")
    assert report.verdict == "consistent" and roof.figures["system_fraction"] > 0
