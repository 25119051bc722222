"""MLPerf: result_summary.json, summary records (JSON and CSV), systems/*.json, loadgen logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checks.models import Claim
from extractors.document import RawDocument
from extractors.errors import InvalidInput, NoClaimFound
from extractors.formats import detect
from extractors.formats.mlperf import MLPerf

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mlperf"
SUMMARY_PATH = ("closed/Atlas_Inference/results/DGX_Spark_GB10/qwen3.6-27b/SingleStream/"
                "performance/result_summary.json")


def load(name: str, source: str | None = None) -> RawDocument:
    return RawDocument((FIXTURES / name).read_bytes(), source=source or name)


def obj(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def parse_value(value: object, source: str = "x.json") -> tuple[list[Claim], RawDocument]:
    doc = RawDocument(json.dumps(value).encode(), source=source)
    return MLPerf().parse(doc), doc


@pytest.mark.parametrize("name", ["result_summary.json", "summary_results.json", "summary.csv",
                                  "system_dgx_spark_gb10.json", "mlperf_log_summary.txt"])
def test_fixture_is_detected_as_mlperf(name: str) -> None:
    found = detect(load(name))
    assert found is not None and found.name == "mlperf"


def test_result_summary_single_stream() -> None:
    (c,) = MLPerf().parse(load("result_summary.json", SUMMARY_PATH))
    assert (c.tok_s, c.tok_s_kind) == (pytest.approx(20.0825, abs=1e-4), "output")
    assert (c.concurrency, c.batch) == (1, 1)
    assert c.ttft_ms == pytest.approx(1153.658196)
    assert (c.tokens_generated, c.wall_seconds) == (77005, pytest.approx(3834.4365, abs=1e-3))
    assert c.tokens_generated is not None and c.wall_seconds is not None
    assert c.tokens_generated / c.wall_seconds == pytest.approx(c.tok_s, rel=1e-4)
    assert c.model == "qwen3.6-27b" and c.provenance["model"].field == "(source path)"
    assert c.provenance["tok_s"].field == "tps"
    assert c.provenance["tok_s"].span is not None
    assert "per stream 1/median TPOT = 30.4 tok/s" in c.provenance["tok_s"].span
    assert c.provenance["ttft_ms"].field == "ttft.median"
    assert c.provenance["concurrency"].field == "run_config.load_pattern.target_concurrency"


def test_result_summary_elsewhere_has_no_model() -> None:
    (c,) = MLPerf().parse(load("result_summary.json", "stdin"))
    assert c.model is None and c.hardware is None


def test_final_report_records_skip_sample_rates_and_read_power() -> None:
    doc = load("summary_results.json")
    claims = MLPerf().parse(doc)
    assert len(claims) == 4
    server = claims[0]
    assert (server.tok_s, server.tok_s_kind) == (34029.38, "aggregate")
    assert (server.hardware, server.hardware_count) == ("H200 SXM", 8)
    assert (server.engine, server.engine_version) == ("TensorRT-LLM", "1.0.0")
    assert (server.model, server.weight_format, server.submitter) == ("llama2-70b-99.9", "fp8", "Nebius")
    assert server.record_id == "5.1-0042"
    assert server.source_url is not None
    assert server.source_url.endswith("/closed/Nebius/results/H200-SXM-141GBx8_TRT")
    assert server.provenance["tok_s"].field == "[0].Performance_Result"
    assert claims[2].notes == "quantized with Quark"
    power = claims[3]
    assert (power.power_w, power.tok_s) == (10412.7, 142087.6)
    assert power.power_method is not None
    assert "wall" in power.power_method
    assert any("1 MLPerf record(s) not in tokens/s skipped" in w for w in doc.warnings)


def test_checker_csv_rows() -> None:
    claims = MLPerf().parse(load("summary.csv"))
    assert len(claims) == 2
    spark = claims[1]
    assert (spark.hardware, spark.hardware_count, spark.model) == ("GB10", 1, "qwen3.6-27b")
    assert (spark.tok_s, spark.tok_s_kind) == (20.08, "output")
    assert spark.notes == "chain-widened MTP verify K=4 (3 drafts)"
    assert spark.provenance["tok_s"].field == "row 3.Result"


def test_system_description_is_a_configuration_without_a_number() -> None:
    (c,) = MLPerf().parse(load("system_dgx_spark_gb10.json"))
    assert (c.hardware, c.hardware_count, c.submitter) == ("GB10", 1, "Atlas_Inference")
    assert c.engine == "Atlas (spark), CUDA NVFP4"
    assert c.notes is not None
    assert "chain-widened MTP verify K=4" in c.notes
    assert c.tok_s is None


def test_loadgen_log_summary() -> None:
    (c,) = MLPerf().parse(load("mlperf_log_summary.txt"))
    assert (c.tok_s, c.tok_s_kind) == (34029.38, "aggregate")
    assert c.ttft_ms == pytest.approx(406.230541)
    assert c.notes == "SUT PySUT; Server result VALID"
    assert c.provenance["ttft_ms"].field == "50.00 percentile first token latency (ns)"


# ------------------------------------------------------------------------------ broken content

def test_summary_with_unreadable_tps_is_invalid_input() -> None:
    s = obj("result_summary.json")
    s["tps"] = "twenty"
    with pytest.raises(InvalidInput, match="MLPerf summary: 'tps' 'twenty' is not a number"):
        parse_value(s)


def test_summary_records_with_no_token_rate_hold_no_claim() -> None:
    records = [r for r in obj("summary_results.json") if r["Performance_Units"] == "Samples/s"]
    with pytest.raises(NoClaimFound, match="none in tokens/s"):
        parse_value(records)


def test_record_with_empty_result_is_invalid_input() -> None:
    records = obj("summary_results.json")[:1]
    records[0]["Performance_Result"] = ""
    with pytest.raises(InvalidInput, match=r"'\[0\].Performance_Result' is empty"):
        parse_value(records)


def test_log_without_a_token_rate_is_invalid_input() -> None:
    text = "MLPerf Results Summary\nSUT name : PySUT\nScenario : Offline\nSamples per second : 12\n"
    with pytest.raises(InvalidInput, match="no 'Tokens per second' line"):
        MLPerf().parse(RawDocument(text.encode()))
