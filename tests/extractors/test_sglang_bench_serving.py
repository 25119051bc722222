"""SGLang `bench_serving --output-file` JSON Lines -> Claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.sglang_bench_serving import SglangBenchServing

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sglang_bench_serving"
RUNS = "llama31_8b_eagle3_two_runs.jsonl"


def load(name: str = RUNS) -> RawDocument:
    return RawDocument((FIXTURES / name).read_bytes(), source=name)


def lines() -> list[dict]:
    return [json.loads(line) for line in (FIXTURES / RUNS).read_text().splitlines() if line]


def test_fixture_is_detected_as_sglang_bench_serving() -> None:
    found = detect(load())
    assert found is not None and found.name == "sglang_bench_serving"


def test_two_runs_give_two_claims_with_fields_and_provenance() -> None:
    one, eight = SglangBenchServing().parse(load())
    assert one.engine == "sglang"
    assert one.concurrency == 1
    assert one.tok_s == pytest.approx(248.296)
    assert one.tok_s_kind == "output"
    assert one.tokens_generated == 8192
    assert one.wall_seconds == pytest.approx(32.9929)
    assert (one.input_tokens, one.output_tokens) == (1024, 512)
    assert one.ttft_ms == pytest.approx(38.214)
    assert one.speculative is True
    assert one.acceptance_length == pytest.approx(3.12)
    assert one.provenance["acceptance_length"].field == "[0].accept_length"
    assert one.provenance["tok_s"].field == "[0].output_throughput"
    assert one.provenance["input_tokens"].field == "[0].total_input_tokens/[0].completed"

    assert eight.concurrency == 8
    assert eight.tok_s_kind == "aggregate"
    assert eight.tok_s == pytest.approx(1133.0095)
    assert eight.acceptance_length == pytest.approx(2.98)
    assert eight.provenance["concurrency"].field == "[1].max_concurrency"
    assert eight.notes is not None
    assert "measured mean concurrency 7.94" in eight.notes
    assert "per-user decode speed" in eight.notes
    for claim in (one, eight):
        assert set(claim.filled()) - {"notes"} <= set(claim.provenance)


def test_infinity_request_rate_is_read_not_used() -> None:
    assert lines()[0]["request_rate"] == float("inf")
    (claim,) = SglangBenchServing().parse(
        RawDocument((FIXTURES / RUNS).read_text().splitlines()[0].encode(), source="one.jsonl"))
    assert claim.concurrency == 1


def test_null_accept_length_leaves_speculative_unknown() -> None:
    run = lines()[0]
    run["accept_length"] = None
    (claim,) = SglangBenchServing().parse(RawDocument.from_text(json.dumps(run)))
    assert claim.speculative is None
    assert claim.acceptance_length is None
    assert claim.notes is not None
    assert "accept_length is null" in claim.notes


def test_broken_throughput_in_second_run_is_invalid_input() -> None:
    a, b = lines()
    b["output_throughput"] = float("nan")
    text = json.dumps(a) + "\n" + json.dumps(b) + "\n"
    with pytest.raises(InvalidInput, match=r"runs\.jsonl: SGLang bench_serving run 2 has no "
                                           r"usable output_throughput \(got nan\)"):
        SglangBenchServing().parse(RawDocument.from_text(text, source="runs.jsonl"))


def test_vllm_result_is_not_claimed() -> None:
    vllm = json.loads((FIXTURES.parent / "vllm_bench" / "llama31_8b_eagle3_conc4.json").read_text())
    assert not SglangBenchServing().sniff(RawDocument.from_text(json.dumps(vllm)))
