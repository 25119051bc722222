"""SGLang `bench_one_batch` result.jsonl -> Claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.sglang_bench_one_batch import SglangBenchOneBatch

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sglang_bench_one_batch"
RESULT = "llama31_8b_h100_result.jsonl"


def load() -> RawDocument:
    return RawDocument((FIXTURES / RESULT).read_bytes(), source=RESULT)


def rows() -> list[dict]:
    return [json.loads(line) for line in (FIXTURES / RESULT).read_text().splitlines() if line]


def test_fixture_is_detected_as_bench_one_batch() -> None:
    found = detect(load())
    assert found is not None and found.name == "sglang_bench_one_batch"


def test_batch_one_is_decode_and_batch_sixteen_aggregate() -> None:
    one, sixteen = SglangBenchOneBatch().parse(load())
    assert one.engine == "sglang"
    assert one.batch == 1
    assert one.tok_s == pytest.approx(1 / 0.0061204)
    assert one.tok_s_kind == "decode"
    assert (one.tokens_generated, one.wall_seconds) == (1, pytest.approx(0.0061204))
    assert (one.input_tokens, one.output_tokens) == (1024, 128)
    assert one.ttft_ms == pytest.approx(41.203)
    assert one.speculative is False
    assert one.provenance["tok_s"].field == "[0].median_decode_throughput"
    assert one.provenance["batch"].field == "[0].batch_size"
    assert one.provenance["ttft_ms"].field == "[0].prefill_latency"

    assert sixteen.batch == 16
    assert sixteen.tok_s_kind == "aggregate"
    assert sixteen.tok_s == pytest.approx(16 / 0.0073118)
    assert sixteen.notes is not None
    assert "136.77 tok/s per sequence" in sixteen.notes
    for claim in (one, sixteen):
        assert set(claim.filled()) - {"notes"} <= set(claim.provenance)


def test_output_len_one_falls_back_to_prefill() -> None:
    row = rows()[0]
    for key in ("median_decode_latency", "median_decode_throughput"):
        row.pop(key)
    (claim,) = SglangBenchOneBatch().parse(RawDocument.from_text(json.dumps(row)))
    assert claim.tok_s_kind == "prefill"
    assert claim.provenance["tok_s"].field == "prefill_throughput"


def test_bad_decode_throughput_is_invalid_input() -> None:
    row = rows()[1]
    row["median_decode_throughput"] = "fast"
    with pytest.raises(InvalidInput, match=r"r\.jsonl: bench_one_batch result has no usable "
                                           r"median_decode_throughput \(got 'fast'\)"):
        SglangBenchOneBatch().parse(RawDocument.from_text(json.dumps(row), source="r.jsonl"))


def test_zero_batch_size_is_invalid_input() -> None:
    row = rows()[0]
    row["batch_size"] = 0
    with pytest.raises(InvalidInput, match="no usable batch_size"):
        SglangBenchOneBatch().parse(RawDocument.from_text(json.dumps(row)))
