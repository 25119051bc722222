"""AIPerf `profile_export_aiperf.json` and GenAI-Perf `profile_export_genai_perf.json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.aiperf import AiPerf

FIXTURES = Path(__file__).parents[1] / "fixtures" / "aiperf"
AIPERF = "profile_export_aiperf.json"
GENAI = "profile_export_genai_perf.json"


def load(name: str) -> RawDocument:
    return RawDocument((FIXTURES / name).read_bytes(), source=name)


def obj(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


@pytest.mark.parametrize("name", [AIPERF, GENAI])
def test_fixture_is_detected_as_aiperf(name: str) -> None:
    found = detect(load(name))
    assert found is not None and found.name == "aiperf"


def test_aiperf_aggregate_throughput_power_and_config() -> None:
    (claim,) = AiPerf().parse(load(AIPERF))
    assert claim.model == "Qwen/Qwen3-8B"
    assert claim.concurrency == 16
    assert claim.tok_s == pytest.approx(327680 / 178.8219)
    assert claim.tok_s_kind == "aggregate"
    assert (claim.tokens_generated, claim.wall_seconds) == (327680, pytest.approx(178.8219))
    assert claim.ttft_ms == pytest.approx(142.713)
    assert (claim.input_tokens, claim.output_tokens) == (1024, 512)
    assert claim.hardware == "NVIDIA H100 80GB HBM3"
    assert claim.hardware_count == 1
    assert claim.power_w == pytest.approx(612.38)
    assert claim.notes is not None
    assert "per-user decode speed 118.33 tok/s" in claim.notes
    prov = claim.provenance
    assert prov["tok_s"].field == "output_token_throughput.avg"
    assert prov["ttft_ms"].field == "time_to_first_token.avg"
    assert prov["concurrency"].field == "input_config.loadgen.concurrency"
    assert prov["model"].field == "input_config.endpoint.model_names[0]"
    assert prov["power_w"].field == (
        "telemetry_data.endpoints.localhost:9400.gpus.gpu_0.metrics.gpu_power_usage.avg")
    assert set(claim.filled()) - {"notes"} <= set(prov)


def test_genai_perf_single_stream_is_output_kind() -> None:
    (claim,) = AiPerf().parse(load(GENAI))
    assert claim.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert claim.provenance["model"].field == "input_config.model[0]"
    assert claim.concurrency == 1
    assert claim.tok_s == pytest.approx(85.7291)
    assert claim.tok_s_kind == "output"
    assert claim.power_w == pytest.approx(231.42)
    assert claim.provenance["power_w"].field == "telemetry_stats.gpu_power_usage.gpu0.avg"
    assert claim.notes is not None
    assert "GenAI-Perf" in claim.notes


def test_total_gpu_power_wins_and_unit_is_converted() -> None:
    data = obj(AIPERF)
    data["total_gpu_power"] = {"unit": "kW", "avg": 0.61}
    (claim,) = AiPerf().parse(RawDocument.from_text(json.dumps(data)))
    assert claim.power_w == pytest.approx(610.0)
    assert claim.provenance["power_w"].field == "total_gpu_power.avg"


def test_per_user_figure_used_when_aggregate_is_absent() -> None:
    data = obj(AIPERF)
    data.pop("output_token_throughput")
    (claim,) = AiPerf().parse(RawDocument.from_text(json.dumps(data)))
    assert claim.tok_s == pytest.approx(1000 / 8.4512)
    assert claim.tok_s_kind == "per_user"


def test_negative_throughput_is_invalid_input() -> None:
    data = obj(AIPERF)
    data["output_token_throughput"]["avg"] = -1832.4
    with pytest.raises(InvalidInput, match=r"p\.json: AIPerf output_token_throughput\.avg is not "
                                           r"usable \(got -1832\.4\)"):
        AiPerf().parse(RawDocument.from_text(json.dumps(data), source="p.json"))


def test_failed_run_without_throughput_is_invalid_input() -> None:
    failed = {"records": {"error_request_count": {"unit": "requests", "avg": 5.0}},
              "time_to_first_token": {"unit": "ms", "avg": None}}
    data = {"records": {"time_to_first_token": {"unit": "ms", "avg": 20.0}}, **failed}
    with pytest.raises(InvalidInput, match="no usable output_token_throughput"):
        AiPerf().parse(RawDocument.from_text(json.dumps(data)))


def test_null_ttft_is_reported_empty() -> None:
    data = obj(AIPERF)
    data["time_to_first_token"] = {"unit": "ms", "avg": None}
    (claim,) = AiPerf().parse(RawDocument.from_text(json.dumps(data)))
    assert claim.ttft_ms is None
    assert claim.ttft_empty is True
