"""suspect_field: a record field 10× or more from its sourced figure is a units or typing error."""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence, Report
from checks.physics.model_size import sourced_claim, suspect_fields
from checks.reference import Reference
from checks.registry import PLAUSIBILITY_KEYS, PROVENANCE_FINDINGS
from checks.runner import audit

_L8 = "Meta Llama 3.1 8B Instruct"


def _audit(ref: Reference, **kw: object) -> Report:
    base: dict[str, object] = {"model": _L8, "weight_format": "Q4_K - Medium",
                               "hardware": "NVIDIA GeForce RTX 4090", "tok_s": 131.42,
                               "tok_s_kind": "decode", "batch": 1, "speculative": False}
    base.update(kw)
    return audit(Evidence(claim=Claim(**base), kind="record"), ref)


def _finding(report: Report, key: str = "suspect_field") -> tuple[str, dict[str, float]]:
    a = next(f for f in report.findings if f.key == key)
    return a.status, a.figures


@pytest.mark.parametrize(("params", "status", "verdict"), [
    (8000.0, "flag", "consistent"),  # LocalScore's 8000 M read without its unit
    (8030263296.0 / 1e6, "flag", "consistent"),  # a count in millions
    (8.0, "ok", "consistent"),  # negative control: the rounded name
    (8.03, "ok", "consistent"),
])
def test_a_count_1000x_off_its_row_is_named_and_the_row_used(ref: Reference, params: float,
                                                             status: str, verdict: str) -> None:
    report = _audit(ref, params_total_b=params)
    got, figures = _finding(report)
    assert (got, report.verdict) == (status, verdict)
    assert report.question("roofline").status == "ok"
    if status == "flag":
        assert figures["record_value"] == params and figures["sourced_value"] == 8.03
        assert figures["ratio"] == pytest.approx(params / 8.03)
        assert report.claim.params_total_b == 8.03
        assert report.claim.suspect_fields[0].record_value == params
        assert "total parameters is 10× or more off" in report.headline
        # the count is suspect_field's: param_count does not compare the replaced value
        assert _finding(report, "param_count")[0] == "n/a"


def test_a_count_under_10x_off_is_param_counts_finding_not_this_one(ref: Reference) -> None:
    report = _audit(ref, params_total_b=70.0)  # 8.7x: a mislabelled model, not a unit slip
    assert _finding(report)[0] == "ok"
    assert _finding(report, "param_count")[0] == "flag"
    assert report.claim.params_total_b == 70.0


def test_an_absurd_figure_is_still_condemned_on_the_sourced_count(ref: Reference) -> None:
    # 2000 tok/s for 8B Q4 on one 4090 breaks the row-based ceiling (1008 GB/s / 4.0 GB = 252)
    report = _audit(ref, params_total_b=8000.0, tok_s=2000.0)
    assert report.verdict == "implausible"
    assert report.question("roofline").status == "stop"
    assert _finding(report)[0] == "flag"


def test_an_unknown_model_is_compared_with_the_size_its_own_name_states(ref: Reference) -> None:
    claim = Claim(model="Acme-Chat-8B-v2", params_total_b=8000.0, hardware="RTX 4090",
                  tok_s=100.0)
    [s] = suspect_fields(claim, ref)
    assert (s.field, s.record_value, s.sourced_value) == ("params_total_b", 8000.0, 8.0)
    assert "own model name 'Acme-Chat-8B-v2' ('8B')" in s.sourced_from
    assert sourced_claim(claim, ref).params_total_b == 8.0


@pytest.mark.parametrize(("memory", "status"), [(24576.0, "flag"), (23.99, "ok"), (2.4, "flag")])
def test_the_stated_card_memory_is_compared_with_the_hardware_row(ref: Reference, memory: float,
                                                                  status: str) -> None:
    report = _audit(ref, hardware_memory_gb=memory)
    got, figures = _finding(report)
    assert got == status
    if status == "flag":
        assert figures["sourced_value"] == 24.0
        assert figures["ratio"] == pytest.approx(memory / 24.0)


@pytest.mark.parametrize(("size", "status"), [
    (4.35, "flag"),  # "4.35 GiB" read as 4.35 bytes
    (4.35 * 2**50, "flag"),  # read as PiB
    (4.92e9, "ok"),  # the real Q4_K_M file of Llama 3.1 8B
])
def test_a_weight_file_no_real_width_can_fill_is_set_aside(ref: Reference, size: float,
                                                           status: str) -> None:
    report = _audit(ref, model_size_bytes=size)
    assert _finding(report)[0] == status
    assert report.question("roofline").status == "ok"
    if status == "flag":
        assert report.claim.model_size_bytes is None  # the physics derives the bytes from the row
        assert report.claim.suspect_fields[0].sourced_value is None


def test_nothing_to_compare_is_na(ref: Reference) -> None:
    assert _finding(_audit(ref))[0] == "n/a"
    assert _finding(_audit(ref, model="Unknown", params_total_b=3.0,
                           hardware="Unknown card"))[0] == "n/a"


def test_a_units_slip_is_provenance_never_a_plausibility_flag() -> None:
    assert "suspect_field" in PROVENANCE_FINDINGS
    assert "suspect_field" not in PLAUSIBILITY_KEYS


def test_a_clean_claim_is_passed_through_unchanged(ref: Reference) -> None:
    claim = Claim(model=_L8, params_total_b=8.03, tok_s=1.0)
    assert sourced_claim(claim, ref) is claim
