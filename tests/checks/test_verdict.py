"""The verdict rules, one test each, and the headline that names what decided it."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import checks.runner as runner
from checks.models import Answer, Claim, Evidence, Question, Status
from checks.reference import Reference
from checks.registry import CHECKS, Check
from checks.verdict import headline, verdict
from tests.seed_claims import headline_evidence, real_decode_claim

_Q = ("evidence", "config", "cell", "fork", "acceptance", "power", "roofline", "measure")


def _questions(**status: Status) -> list[Question]:
    """Eight answers, `ok` unless given (measure is always `plan`)."""
    out = []
    for n, key in enumerate(_Q, start=1):
        st = status.get(key, "plan" if key == "measure" else "ok")
        figures = {"ratio": 0.61, "ceiling_tok_s": 128.9, "claimed_tok_s": 79.0} if key == "roofline" else {}
        out.append(Question(n=n, key=key, status=st, summary=f"{key} says {st}", figures=figures))
    return out


def _ev() -> Evidence:
    return Evidence(claim=real_decode_claim())


def test_any_stop_is_implausible_even_beside_an_error() -> None:
    qs = _questions(acceptance="stop")
    assert verdict(qs, [Answer(key="arithmetic", status="error", summary="boom")], _ev()) == "implausible"


def test_a_plausibility_flag_is_suspicious() -> None:
    assert verdict(_questions(power="flag"), [], _ev()) == "suspicious"


@pytest.mark.parametrize("key", ["evidence", "fork"])
def test_a_provenance_flag_alone_stays_consistent(key: str) -> None:
    flagged: dict[str, Status] = {key: "flag"}
    assert verdict(_questions(**flagged), [], _ev()) == "consistent"


def test_a_provenance_finding_flag_stays_consistent() -> None:
    findings = [Answer(key="field_conflict", status="flag", summary="The record contradicts itself on batch: …")]
    assert verdict(_questions(), findings, _ev()) == "consistent"


def test_an_error_in_any_check_is_never_consistent() -> None:
    findings = [Answer(key="compute_ceiling", status="error", summary="the compute_ceiling check failed: KeyError")]
    assert verdict(_questions(), findings, _ev()) == "insufficient"
    assert verdict(_questions(fork="error"), [], _ev()) == "insufficient"


def test_physics_all_unanswerable_is_insufficient() -> None:
    qs = _questions(acceptance="n/a", power="unanswerable", roofline="unanswerable")
    assert verdict(qs, [], _ev()) == "insufficient"


def test_answered_and_nothing_wrong_is_consistent() -> None:
    assert verdict(_questions(acceptance="n/a", power="unanswerable"), [], _ev()) == "consistent"


def test_headline_names_the_failed_check_when_it_decides() -> None:
    findings = [Answer(key="compute_ceiling", status="error", reason="raised", label="KeyError: 'fp8'",
                       summary="the compute_ceiling check failed: KeyError: 'fp8'")]
    text = headline("insufficient", _questions(), findings, _ev())
    assert text.startswith("insufficient — the compute_ceiling check failed, so 79.0 tok/s cannot be "
                           "called consistent (KeyError: 'fp8')")


@pytest.mark.parametrize(("reason", "label", "words"), [
    ("waiting", "", "99.6 W is 0.17 of board power, below the decode band: the GPU is waiting, not computing"),
    ("odd", "the check's own words", "the check's own words"),
    ("odd", "", "power: odd"),
    ("", "", "power flag"),
])
def test_a_suspicious_headline_reads_the_reason_never_the_summary(reason: str, label: str, words: str) -> None:
    qs = [q if q.key != "power" else q.model_copy(update={
        "reason": reason, "label": label, "figures": {"watts": 99.6, "ratio": 0.1732},
        "summary": "NOT THIS: a summary is never read back"}) for q in _questions(power="flag")]
    text = headline(verdict(qs, [], _ev()), qs, [], _ev())
    assert text == f"suspicious — 79.0 tok/s: {words}"


def test_headline_names_the_failed_check_beside_a_stronger_verdict() -> None:
    qs = _questions(power="flag")
    findings = [Answer(key="arithmetic", status="error", summary="the arithmetic check failed: ValueError")]
    text = headline(verdict(qs, findings, _ev()), qs, findings, _ev())
    assert text.startswith("suspicious — 79.0 tok/s: power flag") and "the arithmetic check failed" in text


def test_consistent_headline_names_the_batch_1_ceiling() -> None:
    text = headline("consistent", _questions(acceptance="n/a"), [], _ev())
    assert text.startswith("consistent — 79.0 tok/s is 0.61 of the generous batch-1 ceiling of one RTX 5090")


def _boom(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    raise KeyError("fp8")


def test_a_crashing_check_is_named_in_the_report(ref: Reference, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed's real-decode claim is consistent; with compute_ceiling crashing it is not."""
    crashing = tuple(Check(c.key, _boom, c.question) if c.key == "compute_ceiling" else c for c in CHECKS)
    assert runner.audit(_ev(), ref).verdict == "consistent"
    monkeypatch.setattr(runner, "CHECKS", crashing)
    report = runner.audit(_ev(), ref)
    assert report.finding("compute_ceiling").status == "error"
    assert report.verdict == "insufficient"
    assert report.headline.startswith("insufficient — the compute_ceiling check failed")


def test_the_seed_stays_implausible_at_16_32(ref: Reference) -> None:
    report = runner.audit(headline_evidence(), ref)
    roof = report.question("roofline")
    assert report.verdict == "implausible"
    assert roof.figures["ceiling_tok_s"] == pytest.approx(128.9, abs=0.05)
    assert roof.figures["ratio"] == pytest.approx(16.32, abs=0.01)
    assert report.headline.startswith("implausible — 2103.6 tok/s is 16.3× the batch-1 ceiling")




@pytest.mark.parametrize(("fields", "label"), [
    ({"weight_format": "Q4_K_M"}, "4.0 GB of Q4_K_M weights"),
    ({"bits_per_weight": 6.0}, "6.0 GB of 6-bit weights"),  # an EXL2 "6.0bpw" with no format named
    ({}, "4.0 GB of assumed 4-bit weights"),
])
def test_the_headline_names_the_weights_the_roofline_read(ref: Reference, fields: dict[str, object],
                                                          label: str) -> None:
    c = Claim(model="Llama 3 8B", hardware="RTX 4090", tok_s=100.0, **fields)
    r = runner.audit(Evidence(claim=c), ref)
    assert f"of one RTX 4090 ({label})" in r.headline
