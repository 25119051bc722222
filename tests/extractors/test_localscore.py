"""LocalScore: `/api/results` list rows, the per-run detail with tests, the CLI submission."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checks.models import Claim
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.localscore import LocalScore

FIXTURES = Path(__file__).parents[1] / "fixtures" / "localscore"
LIST, DETAIL, SUBMISSION = "results_list.json", "result_detail.json", "submission.json"


def obj(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def parse(
    value: object, source: str = "https://www.localscore.ai/api/results?page=1"
) -> tuple[list[Claim], RawDocument]:
    doc = RawDocument(json.dumps(value).encode(), source=source)
    return LocalScore().parse(doc), doc


@pytest.mark.parametrize("name", [LIST, DETAIL, SUBMISSION])
def test_fixture_is_detected_as_localscore(name: str) -> None:
    found = detect(RawDocument((FIXTURES / name).read_bytes(), source=name))
    assert found is not None and found.name == "localscore"


def test_list_row_fields() -> None:
    claims, _ = parse(obj(LIST))
    assert len(claims) == 5
    c = claims[-1]
    assert (c.hardware, c.model, c.weight_format) == (
        "NVIDIA GeForce RTX 3090", "Meta Llama 3.1 8B Instruct", "Q4_K - Medium")
    assert c.params_total_b == pytest.approx(8.030263296)
    assert (c.engine, c.engine_version) == ("llamafile", "0.9.1")
    assert (c.tok_s, c.tok_s_kind, c.ttft_ms) == (103.1, "decode", 357.88)
    assert (c.batch, c.concurrency, c.speculative) == (1, 1, False)
    assert (c.record_id, c.date) == ("1", "2025-03-19 21:50:27")
    assert c.source_url == "https://www.localscore.ai/result/1"
    assert c.power_w is None  # the list view has no per-test power


def test_list_row_provenance() -> None:
    claims, _ = parse(obj(LIST))
    prov = claims[0].provenance
    assert prov["tok_s"].field == "[0].avg_gen_tps"
    assert prov["hardware"].field == "[0].accelerator"
    assert prov["weight_format"].field == "[0].model.quant"
    assert prov["engine_version"].field == "[0].runtime.version"
    assert prov["engine_version"].span == "0.9.3 (commit d1f2c8e)"
    assert set(claims[0].filled()) <= set(prov)


def test_commit_hash_is_not_glued_to_the_version() -> None:
    claims, _ = parse(obj(LIST))
    assert all(c.engine_version is not None and "+" not in c.engine_version for c in claims)


def test_detail_takes_the_generation_heavy_test_for_speed_and_power() -> None:
    (c,), _ = parse(obj(DETAIL), source="https://www.localscore.ai/result/1")
    assert (c.tok_s, c.power_w, c.ttft_ms) == (106.95, 318.29, 27.31)
    assert (c.input_tokens, c.output_tokens) == (16, 1536)
    prov = c.provenance
    assert prov["tok_s"].field == "results[8].gen_tps"
    assert prov["tok_s"].span is not None
    assert prov["tok_s"].span.startswith("test pp16+tg1536")
    assert prov["power_w"].field == "results[8].power_watts"
    assert c.power_method is not None
    assert "self-reported" in c.power_method
    assert c.hardware == "NVIDIA GeForce RTX 3090"


def test_submission_body() -> None:
    (c,), _ = parse(obj(SUBMISSION), source="stdin")
    assert (c.hardware, c.model, c.weight_format) == (
        "NVIDIA GeForce RTX 3090", "Meta Llama 3.1 8B Instruct", "Q4_K - Medium")
    assert (c.engine, c.engine_version) == ("llamafile", "0.9.1")
    assert (c.tok_s, c.power_w) == (106.95, 318.29)
    assert c.provenance["hardware"].field == "accelerator_info.name"
    assert c.source_url is None  # no result page without an id and a host


def test_submission_without_tests_uses_the_summary() -> None:
    body = obj(SUBMISSION)
    del body["results"]
    (c,), _ = parse(body, source="stdin")
    assert (c.tok_s, c.ttft_ms) == (103.1, 357.88)
    assert c.provenance["tok_s"].field == "results_summary.avg_gen_tps"


def test_older_flat_list_shape() -> None:
    row = {"id": 9, "avg_prompt_tps": 812.4, "avg_gen_tps": 48.2, "avg_ttft_ms": 911.0,
           "performance_score": 350.1, "created_at": "2025-03-21 10:00:00",
           "accelerator": "Apple M2 Max", "accelerator_type": "GPU", "accelerator_memory_gb": 96,
           "model": "Qwen2.5 14B Instruct", "quantization": "Q4_K - Medium"}
    (c,), _ = parse([row])
    assert (c.model, c.weight_format, c.hardware, c.tok_s) == (
        "Qwen2.5 14B Instruct", "Q4_K - Medium", "Apple M2 Max", 48.2)


# ------------------------------------------------------------------------------ broken content

def test_unreadable_speed_is_invalid_input() -> None:
    row = obj(LIST)[0]
    row["avg_gen_tps"] = "fast"
    with pytest.raises(InvalidInput, match=r"'\[0\].avg_gen_tps' 'fast' is not a number"):
        parse([row])


def test_tests_that_are_not_a_list_is_invalid_input() -> None:
    detail = obj(DETAIL)
    detail["results"] = {"pp16+tg1536": 106.95}
    with pytest.raises(InvalidInput, match="'results' should be a list of tests"):
        parse(detail)


def test_one_bad_run_in_a_page_is_skipped_with_a_warning() -> None:
    page = obj(LIST)
    page[2]["model"]["params"] = "many"
    claims, doc = parse(page)
    assert len(claims) == 4
    assert any("run [2]" in w and "[2].model.params" in w for w in doc.warnings)
