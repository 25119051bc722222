"""Q6 power: watts over board power, against the decode band (seed §3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.power import power
from checks.runner import audit
from tests.checks.test_physics import extra_ref
from tests.seed_claims import headline_claim, headline_evidence


@pytest.fixture
def xref(tmp_path: Path) -> Reference:
    return extra_ref(tmp_path)


def _q6(ref: Reference, claim: Claim) -> Answer:
    return power(Evidence(claim=claim), ref, {})


def _h200(**kw: object) -> Claim:
    base: dict[str, object] = {"hardware": "H200", "hardware_count": 1, "batch": 1, "tok_s": 60.0,
                                   "tok_s_kind": "decode"}
    base.update(kw)
    return Claim(**base)


def test_seed_99_6_w_of_575_is_flag_waiting_not_computing(ref: Reference) -> None:
    a = power(headline_evidence(), ref, {})
    assert a.status == "flag"
    assert a.figures["ratio"] == pytest.approx(0.17, abs=0.005)
    assert a.figures["watts"] == 99.6 and a.figures["tdp_w"] == 575 and a.figures["watts_high"] == 100
    assert "0.17" in a.summary and "waiting, not computing" in a.summary
    assert "hardest figure to fake" in a.summary


def test_rtx5090_saturated_at_560_w_is_ok(xref: Reference) -> None:
    a = _q6(xref, headline_claim(power_w=560.0, power_w_high=None))
    assert a.status == "ok" and a.figures["ratio"] == pytest.approx(560 / 575)


def test_700_w_on_a_575_w_card_is_probably_wall_power_and_judged_nothing(xref: Reference) -> None:
    a = _q6(xref, headline_claim(power_w=700.0, power_w_high=None))
    assert a.status == "unanswerable" and "probably whole-system (wall) power" in a.summary
    # The RTX 5090 row's highest known board limit is 600 W; 700 W is past 1.1 × that.
    assert a.figures["ratio"] == pytest.approx(700 / 575) and a.figures["max_power_w"] == 600


def _with_3090_limit(ref: Reference, limit: float) -> Reference:
    rows = [r.model_copy(update={"max_power_w": limit}) if r.name == "RTX 3090" else r
            for r in ref.hardware]
    return ref.model_copy(update={"hardware": rows})


def _qwen_q6k_on_3090(watts: float) -> Claim:
    """Issue 10: "Qwen3.6-27B Q6_K on one RTX 3090 (450 W): 15.5 tok/s", an ordinary run."""
    return Claim(model="Qwen3.6-27B", weight_format="Q6_K", hardware="RTX 3090", hardware_count=1,
                 tok_s=15.5, power_w=watts)


def test_450_w_on_a_3090_whose_boards_allow_450_is_ok_with_a_note(ref: Reference) -> None:
    a = _q6(_with_3090_limit(ref, 450.0), _qwen_q6k_on_3090(450.0))
    assert a.status == "ok" and a.figures["max_power_w"] == 450
    assert a.figures["ratio"] == pytest.approx(450 / 350)
    assert "above the reference board power but within the limits partner boards" in a.summary


def test_600_w_on_a_3090_whose_boards_allow_450_is_probably_wall_power(ref: Reference) -> None:
    a = _q6(_with_3090_limit(ref, 450.0), _qwen_q6k_on_3090(600.0))  # > 1.1 × 450
    assert a.status == "unanswerable" and "probably whole-system (wall) power" in a.summary


def test_qwen_q6k_on_a_3090_at_450_w_is_not_suspicious(ref: Reference) -> None:
    """With or without the card's known limit in the table, high power never flags the speed."""
    for r in (ref, _with_3090_limit(ref, 450.0)):
        report = audit(Evidence(claim=_qwen_q6k_on_3090(450.0)), r)
        assert report.question("power").status in ("ok", "unanswerable")
        assert report.verdict not in ("suspicious", "implausible"), report.headline


def test_h200_batch1_decode_at_25_to_40_percent_is_ok(xref: Reference) -> None:
    for watts in (175.0, 280.0):
        a = _q6(xref, _h200(power_w=watts))
        assert a.status == "ok", a.summary
    assert _q6(xref, _h200(power_w=175.0, power_w_high=280.0)).figures["ratio"] == pytest.approx(0.25)


def test_h200_at_90_w_is_flag_below_the_datacenter_band(xref: Reference) -> None:
    a = _q6(xref, _h200(power_w=90.0))  # 0.13 < 0.19 × 0.8
    assert a.status == "flag" and "waiting, not computing" in a.summary


def test_low_power_without_a_throughput_claim_is_not_a_flag(xref: Reference) -> None:
    assert _q6(xref, headline_claim(tok_s=None)).status == "ok"


def test_range_is_judged_by_its_high_end_for_the_waiting_flag(xref: Reference) -> None:
    # 200-300 W: the low end alone (0.35) would flag; the high end (0.52) sits in the band.
    assert _q6(xref, headline_claim(power_w=200.0, power_w_high=300.0)).status == "ok"


def test_how_power_was_measured_is_said(xref: Reference) -> None:
    a = _q6(xref, headline_claim(power_method="nvidia-smi board power"))
    assert "measured as nvidia-smi board power" in a.summary


def test_multi_gpu_total_is_divided_per_gpu(xref: Reference) -> None:
    total = _q6(xref, _h200(hardware_count=4, power_w=1200.0, power_method="total of all GPUs"))
    above_one_card = _q6(xref, _h200(hardware_count=4, power_w=1200.0))
    per_gpu = _q6(xref, _h200(hardware_count=4, power_w=300.0))
    assert total.figures["watts"] == above_one_card.figures["watts"] == 300.0
    assert per_gpu.figures["watts"] == 300.0
    assert "read as the total" in " ".join(total.lines()) and "per GPU" in " ".join(per_gpu.lines())
    assert {total.status, above_one_card.status, per_gpu.status} == {"ok"}


def test_no_power_figure_is_unanswerable(ref: Reference) -> None:
    a = _q6(ref, headline_claim(power_w=None, power_w_high=None))
    assert a.status == "unanswerable" and a.missing == ["power draw (W)"]


def test_apple_soc_without_board_power_is_unanswerable(xref: Reference) -> None:
    a = _q6(xref, Claim(hardware="Apple M2 Max", power_w=60.0, tok_s=30.0))
    assert a.status == "unanswerable" and a.missing == ["board power (TDP) of Apple M2 Max"]


def test_unknown_card_is_unanswerable_naming_it(ref: Reference) -> None:
    a = _q6(ref, headline_claim(hardware="Imaginary X9000"))
    assert a.status == "unanswerable" and a.missing == ["reference row for hardware 'Imaginary X9000'"]


def test_no_hardware_is_unanswerable(ref: Reference) -> None:
    assert _q6(ref, headline_claim(hardware=None)).missing == ["hardware"]


def test_a_unified_box_drawing_above_its_soc_tdp_reads_as_system_power(ref: Reference) -> None:
    from checks.rules.power import power

    claim = Claim(hardware="DGX Spark", power_w=177.2, tok_s=30.0)
    a = power(Evidence(claim=claim), ref, {})
    assert a.status == "ok" and "whole-system power" in a.summary
    assert a.figures["ratio"] == pytest.approx(177.2 / 140, abs=0.01)


def test_a_unified_box_above_its_power_supply_judges_nothing(ref: Reference) -> None:
    a = power(Evidence(claim=Claim(hardware="DGX Spark", power_w=300.0, tok_s=30.0)), ref, {})
    assert a.status == "unanswerable" and "probably whole-system (wall) power" in a.summary
