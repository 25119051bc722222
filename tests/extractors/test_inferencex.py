"""InferenceX API rows (`/api/v1/benchmarks`) and producer-side `agg_*.json` rows."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from checks.models import Claim
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.inferencex import InferenceX

FIXTURES = Path(__file__).parents[1] / "fixtures" / "inferencex"
API = "benchmarks_h200.json"
AGG = "agg_bmk.json"
SOURCE = "https://inferencex.semianalysis.com/api/v1/benchmarks?model=DeepSeek-R1-0528"


def rows(name: str = API) -> list[dict]:
    return json.loads((FIXTURES / name).read_text())


def doc_of(value: object, source: str = SOURCE) -> RawDocument:
    return RawDocument(json.dumps(value).encode(), source=source)


def parse(value: object, source: str = SOURCE) -> tuple[list[Claim], RawDocument]:
    doc = doc_of(value, source)
    return InferenceX().parse(doc), doc


@pytest.mark.parametrize("name", [API, AGG])
def test_fixture_is_detected_as_inferencex(name: str) -> None:
    found = detect(RawDocument((FIXTURES / name).read_bytes(), source=name))
    assert found is not None and found.name == "inferencex"


def test_api_fixture_is_a_large_h200_sweep() -> None:
    data = rows()
    assert len(data) >= 30 and {r["hardware"] for r in data} == {"h200"}
    claims, _ = parse(data)
    assert len(claims) == len(data)


def test_api_row_fields_and_primary_number() -> None:
    claims, _ = parse(rows())
    c = claims[0]
    assert (c.hardware, c.engine, c.model, c.weight_format) == (
        "h200", "sglang", "DeepSeek-R1-0528", "fp8")
    assert (c.concurrency, c.input_tokens, c.output_tokens, c.batch) == (4, 1024, 1024, None)
    assert (c.tok_s, c.tok_s_kind) == (24.8425, "per_gpu")
    assert c.hardware_count == 8
    assert c.ttft_ms == pytest.approx(130.0) and c.ttft_empty is False
    assert c.speculative is False and c.spec_method is None
    assert c.power_w == pytest.approx(340.625)
    assert c.power_method is not None
    assert "aggregate_power.py" in c.power_method
    assert c.container_image == "lmsysorg/sglang:v0.5.5-cu129"
    assert c.source_url == (
        "https://github.com/SemiAnalysisAI/InferenceX/actions/runs/17134851627/attempts/1")
    assert (c.date, c.record_id) == ("2026-08-20", "612040")


def test_api_row_provenance_is_the_json_path() -> None:
    claims, _ = parse(rows())
    c = claims[12]
    prov = c.provenance
    assert prov["tok_s"].field == "[12].metrics.output_tput_per_gpu"
    assert prov["ttft_ms"].field == "[12].metrics.median_ttft"
    assert prov["power_w"].field == "[12].metrics.avg_power_w"
    assert prov["hardware"].field == "[12].hardware"
    assert prov["concurrency"].field == "[12].conc"
    assert prov["model"].span == "dsr1 (InferenceX DB key)"
    assert prov["tok_s"].span is not None
    assert "per-user decode median_intvty" in prov["tok_s"].span
    assert set(c.filled()) <= set(prov)


def test_mtp_row_is_speculative_with_its_method() -> None:
    claims, _ = parse(rows())
    mtp = [c for c in claims if c.spec_method == "mtp"]
    assert len(mtp) == 5 and all(c.speculative for c in mtp)
    assert all(c.acceptance_length is None for c in mtp)  # InferenceX rows carry no AL


def test_disaggregated_row_counts_prefill_and_decode_gpus() -> None:
    claims, _ = parse(rows())
    disagg = [c for c in claims if c.engine == "dynamo-sglang"]
    assert [c.hardware_count for c in disagg] == [24, 24]
    assert disagg[0].provenance["hardware_count"].span == "8 prefill + 16 decode GPUs"


def test_invalid_power_is_not_used() -> None:
    data = rows()
    claims, _ = parse(data)
    invalid = [c for c, r in zip(claims, data, strict=False) if r["metrics"]["power_valid"] == 0]
    assert len(invalid) == 2 and all(c.power_w is None for c in invalid)


def test_total_throughput_is_the_fallback_and_says_so() -> None:
    data = rows()[:1]
    del data[0]["metrics"]["output_tput_per_gpu"]
    (c,), _ = parse(data)
    assert c.tok_s == data[0]["metrics"]["tput_per_gpu"] and c.tok_s_kind == "per_gpu"
    assert c.provenance["tok_s"].span is not None
    assert "input+output" in c.provenance["tok_s"].span


def test_agentic_row_without_sequence_lengths_or_ttft() -> None:
    data = rows()[:1]
    data[0].update(isl=None, osl=None, benchmark_type="agentic_traces")
    data[0]["metrics"]["median_ttft"] = None
    (c,), _ = parse(data)
    assert c.input_tokens is None and c.output_tokens is None
    assert c.ttft_empty is True and c.ttft_ms is None


def test_unknown_model_key_is_kept_raw() -> None:
    data = rows()[:1]
    data[0]["model"] = "qwen3.7"
    (c,), _ = parse(data)
    assert c.model == "qwen3.7"


def test_agg_rows_read_inline_metrics() -> None:
    claims, _ = parse(rows(AGG), source="agg_bmk.json")
    c = claims[0]
    assert (c.hardware, c.model, c.engine, c.weight_format) == (
        "h200", "deepseek-ai/DeepSeek-R1-0528", "sglang", "fp8")
    assert (c.concurrency, c.input_tokens, c.output_tokens, c.hardware_count) == (16, 8192, 1024, 8)
    assert c.tok_s == pytest.approx(62.89) and c.tok_s_kind == "per_gpu"
    assert c.ttft_ms == pytest.approx(712.0)
    assert c.provenance["tok_s"].field == "[0].output_tput_per_gpu"
    assert claims[2].speculative is True and claims[2].spec_method == "mtp"
    assert claims[2].power_w is None


def test_single_row_object_is_one_claim() -> None:
    (c,), _ = parse(rows()[3])
    assert c.concurrency == 32 and c.provenance["tok_s"].field == "metrics.output_tput_per_gpu"


def test_rows_under_a_data_key() -> None:
    claims, _ = parse({"data": rows()[:2]})
    assert len(claims) == 2 and claims[1].provenance["tok_s"].field == "data[1].metrics.output_tput_per_gpu"


# ------------------------------------------------------------------------------ broken content

def test_one_bad_row_is_skipped_with_a_warning() -> None:
    data = rows()[:3]
    data[1]["conc"] = "lots"
    claims, doc = parse(data)
    assert len(claims) == 2
    assert any("row [1]" in w and "'conc'" in w for w in doc.warnings)


def test_every_row_bad_is_invalid_input_naming_the_field() -> None:
    data = copy.deepcopy(rows()[:2])
    for r in data:
        r["metrics"]["output_tput_per_gpu"] = "fast"
    with pytest.raises(InvalidInput, match="'output_tput_per_gpu' 'fast' is not a number"):
        parse(data)


def test_a_non_object_row_among_rows_is_skipped() -> None:
    claims, doc = parse([rows()[0], 42])
    assert len(claims) == 1 and any("a int where a row object belongs" in w for w in doc.warnings)


def test_negative_throughput_is_invalid() -> None:
    data = rows()[:1]
    data[0]["metrics"]["output_tput_per_gpu"] = -3
    with pytest.raises(InvalidInput, match="not a positive rate"):
        parse(data)


def test_shape_without_metrics_object_is_not_inferencex() -> None:
    data = rows()[:1]
    data[0]["metrics"] = "n/a"
    doc = doc_of(data)
    assert not InferenceX().sniff(doc)
    with pytest.raises(InvalidInput, match="no InferenceX benchmark rows"):
        InferenceX().parse(doc)
