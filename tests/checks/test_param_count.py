"""param_count: a record's parameter count against its model's reference row."""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.registry import PLAUSIBILITY_KEYS
from checks.rules.param_count import param_count
from checks.runner import audit

_MIXTRAL = "mistralai/Mixtral-8x7B-Instruct-v0.1"


def _q(ref: Reference, **kw: object) -> Answer:
    base: dict[str, object] = {"model": _MIXTRAL, "weight_format": "BF16", "hardware": "H200 SXM",
                               "hardware_count": 8, "tok_s": 3000.0, "tok_s_kind": "aggregate",
                               "concurrency": 32, "speculative": False}
    base.update(kw)
    return param_count(Evidence(claim=Claim(**base), kind="record"), ref, {})


def test_mixtral_8x7b_listed_as_7b_is_flag(ref: Reference) -> None:
    a = _q(ref, params_total_b=7.0)
    row = ref.model(_MIXTRAL)
    assert row is not None
    assert a.status == "flag"
    assert a.figures["record_total_b"] == 7.0 and a.figures["row_total_b"] == row.params_total_b
    assert a.figures["total_ratio"] == pytest.approx(7.0 / row.params_total_b)  # 0.15
    assert f"lists 7B total where {row.name} has {row.params_total_b:g}B" in a.summary


def test_mixtral_listed_at_its_published_46_7b_is_ok(ref: Reference) -> None:
    a = _q(ref, params_total_b=46.7)
    assert a.status == "ok" and a.figures["total_ratio"] == pytest.approx(1.0, abs=0.01)


def test_a_size_read_from_the_name_is_not_compared(ref: Reference) -> None:
    assert _q(ref, params_total_b=56.0, size_inferred=True).status == "n/a"


def test_no_count_or_no_row_is_na(ref: Reference) -> None:
    assert _q(ref).status == "n/a"
    assert _q(ref, model="SomeUnknownModel-9B", params_total_b=9.0).status == "n/a"


def test_a_mislabelled_count_is_named_in_the_headline_not_a_plausibility_flag(ref: Reference) -> None:
    report = audit(Evidence(claim=Claim(model=_MIXTRAL, params_total_b=7.0, tok_s=40.0), kind="record"), ref)
    assert "param_count" not in PLAUSIBILITY_KEYS
    assert report.finding("param_count").status == "flag"
    assert report.verdict not in ("suspicious", "implausible")
    assert "the record lists 7B total where" in report.headline
