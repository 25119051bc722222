"""GuideLLM benchmarks.json -> one Claim per benchmark."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.guidellm import GuideLLM

FIXTURES = Path(__file__).parents[1] / "fixtures" / "guidellm"
REPORT = "benchmarks.json"


def load() -> RawDocument:
    return RawDocument((FIXTURES / REPORT).read_bytes(), source=REPORT)


def obj() -> dict:
    return json.loads((FIXTURES / REPORT).read_text())


def test_fixture_is_detected_as_guidellm() -> None:
    found = detect(load())
    assert found is not None and found.name == "guidellm"


def test_concurrent_benchmark_fields_and_provenance() -> None:
    (claim,) = GuideLLM().parse(load())
    assert claim.model == "Qwen/Qwen3-8B"
    assert claim.concurrency == 8
    assert claim.tok_s == pytest.approx(936.2841)
    assert claim.tok_s_kind == "aggregate"
    assert claim.ttft_ms == pytest.approx(71.4407)
    assert (claim.input_tokens, claim.output_tokens) == (512, 256)
    assert claim.tokens_generated is None and claim.wall_seconds is None
    assert claim.date == "2025-09-09T11:22:01Z"
    assert claim.notes is not None
    assert "per-user decode speed 121.1 tok/s (1000 / mean ITL)" in claim.notes
    assert "strategy concurrent" in claim.notes
    prov = claim.provenance
    assert prov["tok_s"].field == "benchmarks[0].metrics.output_tokens_per_second.successful.mean"
    assert prov["concurrency"].field == "benchmarks[0].config.strategy.streams"
    assert prov["model"].field == "args.model"
    assert set(claim.filled()) - {"notes"} <= set(prov)


def test_synchronous_is_one_stream_output_kind() -> None:
    data = obj()
    data["benchmarks"][0]["config"]["strategy"] = {"type_": "synchronous"}
    (claim,) = GuideLLM().parse(RawDocument.from_text(json.dumps(data)))
    assert claim.concurrency == 1
    assert claim.tok_s_kind == "output"


def test_rate_strategy_uses_measured_concurrency() -> None:
    data = obj()
    data["benchmarks"][0]["config"]["strategy"] = {"type_": "constant", "rate": 3.5}
    (claim,) = GuideLLM().parse(RawDocument.from_text(json.dumps(data)))
    assert claim.concurrency == 8
    assert claim.provenance["concurrency"].field == (
        "benchmarks[0].metrics.request_concurrency.successful.mean")
    assert claim.notes is not None
    assert "at 3.5 req/s" in claim.notes


def test_each_benchmark_is_a_claim() -> None:
    data = obj()
    second = copy.deepcopy(data["benchmarks"][0])
    second["config"]["strategy"] = {"type_": "concurrent", "streams": 1}
    data["benchmarks"].append(second)
    claims = GuideLLM().parse(RawDocument.from_text(json.dumps(data)))
    assert [c.concurrency for c in claims] == [8, 1]
    assert claims[1].provenance["tok_s"].field is not None
    assert claims[1].provenance["tok_s"].field.startswith("benchmarks[1].")


def test_missing_output_rate_is_invalid_input() -> None:
    data = obj()
    data["benchmarks"][0]["metrics"]["output_tokens_per_second"]["successful"]["mean"] = None
    with pytest.raises(InvalidInput, match=r"g\.json: GuideLLM benchmark 1 has no usable "
                                           r"output_tokens_per_second\.successful\.mean"):
        GuideLLM().parse(RawDocument.from_text(json.dumps(data), source="g.json"))
