"""Q3 cell: which cell is it reporting?"""

from __future__ import annotations

from checks.models import Claim, Evidence
from checks.reference import Reference
from checks.rules.cell import cell
from tests.seed_claims import headline_evidence


def _ev(**fields: object) -> Evidence:
    return Evidence(claim=Claim(**fields), kind="record")


def test_seed_batch_1_decode_is_ok_and_says_nothing_about_serving(ref: Reference) -> None:
    a = cell(headline_evidence(), ref, {})
    assert a.status == "ok"
    assert a.summary.startswith("batch 1, single stream")
    assert "decode" in a.summary
    assert "says nothing about serving" in a.summary
    assert a.figures["batch"] == 1


def test_batch_1_offered_as_serving_evidence_is_flagged(ref: Reference) -> None:
    a = cell(headline_evidence(serving_claim=True), ref, {})
    assert a.status == "flag"
    assert "cannot support a conclusion about multi-user serving" in a.summary
    assert "net loss under high concurrency" in a.summary


def test_batch_32_offered_as_serving_evidence_is_ok(ref: Reference) -> None:
    a = cell(_ev(batch=32, tok_s=3000.0, tok_s_kind="aggregate", serving_claim=True), ref, {})
    assert a.status == "ok"
    assert "32 concurrent streams" in a.summary


def test_concurrency_1_alone_counts_as_single_stream(ref: Reference) -> None:
    a = cell(_ev(concurrency=1, tok_s=90.0, tok_s_kind="output", serving_claim=True), ref, {})
    assert a.status == "flag"


def test_unknown_batch_and_concurrency_is_unanswerable(ref: Reference) -> None:
    a = cell(_ev(tok_s=2103.6, tok_s_kind="decode"), ref, {})
    assert a.status == "unanswerable"
    assert "batch size or concurrency" in a.missing


def test_aggregate_offered_as_one_users_speed_is_flagged(ref: Reference) -> None:
    a = cell(_ev(concurrency=8, tok_s=800.0, tok_s_kind="aggregate", serving_claim=False), ref, {})
    assert a.status == "flag"
    assert "aggregate over 8 streams" in a.summary
    assert a.figures["per_stream_tok_s"] == 100.0


def test_aggregate_not_offered_as_per_user_is_stated_with_its_share(ref: Reference) -> None:
    a = cell(_ev(concurrency=8, tok_s=800.0, tok_s_kind="aggregate"), ref, {})
    assert a.status == "ok"
    assert "100.0 tok/s per stream" in a.summary


def test_cell_states_context_and_figures(ref: Reference) -> None:
    a = cell(
        _ev(batch=1, input_tokens=1024, output_tokens=256, tok_s=79.0, tok_s_kind="decode"), ref, {}
    )
    assert "1024 in / 256 out tokens" in a.summary
    assert a.figures["input_tokens"] == 1024
    assert a.figures["output_tokens"] == 256


def test_total_tok_s_is_stated_not_judged(ref: Reference) -> None:
    a = cell(_ev(batch=1, tok_s=2500.0, tok_s_kind="total"), ref, {})
    assert a.status == "ok"
    assert "input+output total" in a.summary


def test_unstated_tok_s_kind_is_named_as_missing(ref: Reference) -> None:
    a = cell(_ev(batch=1, tok_s=79.0), ref, {})
    assert a.status == "ok"
    assert a.missing == ["which tok/s (decode, end-to-end, total)"]
