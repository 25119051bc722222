"""vLLM `bench serve --save-result` JSON -> Claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.vllm_bench import VllmBench

FIXTURES = Path(__file__).parents[1] / "fixtures" / "vllm_bench"
SPEC = "llama31_8b_eagle3_conc4.json"
INFERENCEX = "inferencex_processed_qwen35.json"


def load(name: str) -> RawDocument:
    return RawDocument((FIXTURES / name).read_bytes(), source=name)


def fixture_obj(name: str = SPEC) -> dict:
    return json.loads((FIXTURES / name).read_text())


def doc_of(obj: object) -> RawDocument:
    return RawDocument.from_text(json.dumps(obj), source="run.json")


@pytest.mark.parametrize("name", [SPEC, INFERENCEX])
def test_fixture_is_detected_as_vllm_bench(name: str) -> None:
    found = detect(load(name))
    assert found is not None and found.name == "vllm_bench"


def test_speculative_run_fields_and_provenance() -> None:
    (claim,) = VllmBench().parse(load(SPEC))
    assert claim.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert claim.engine == "vllm"
    assert claim.concurrency == 4
    assert claim.tok_s == pytest.approx(20480 / 42.1734)
    assert claim.tok_s_kind == "aggregate"
    assert claim.tokens_generated == 20480
    assert claim.wall_seconds == pytest.approx(42.1734)
    assert (claim.input_tokens, claim.output_tokens) == (1024, 256)
    assert claim.ttft_ms == pytest.approx(61.8342)
    assert claim.ttft_empty is False
    assert claim.speculative is True
    assert claim.acceptance_length == pytest.approx(1 + 13300 / 7100)
    assert claim.acceptance_rate == pytest.approx(13300 / 21300)
    assert (claim.accepted_tokens, claim.drafted_tokens) == (13300, 21300)
    assert claim.ratios == [(13300, 21300)]
    assert claim.date == "2025-09-12T10:15:33"
    assert claim.notes is not None
    assert "per-user decode speed 123.41 tok/s (from median_tpot_ms)" in claim.notes
    assert "3 draft tokens per pass" in claim.notes
    prov = claim.provenance
    assert prov["tok_s"].field == "output_throughput"
    assert prov["tok_s"].source == SPEC
    assert prov["concurrency"].field == "max_concurrency"
    assert prov["model"].field == "model_id"
    assert prov["input_tokens"].field == "total_input_tokens/completed"
    assert prov["acceptance_rate"].field == "spec_decode_acceptance_rate"
    assert prov["ttft_ms"].field == "mean_ttft_ms"
    assert set(claim.filled()) - {"notes"} <= set(prov)


def test_inferencex_processed_latencies_are_seconds() -> None:
    (claim,) = VllmBench().parse(load(INFERENCEX))
    assert claim.ttft_ms == pytest.approx(412.73)
    assert claim.provenance["ttft_ms"].field == "median_ttft"
    assert claim.tok_s_kind == "aggregate"
    assert claim.engine is None  # no backend recorded
    assert claim.notes is not None
    assert "per-user decode speed 29.06 tok/s" in claim.notes
    assert claim.speculative is None


def test_one_stream_is_output_kind() -> None:
    obj = fixture_obj()
    obj["max_concurrency"] = 1
    (claim,) = VllmBench().parse(doc_of(obj))
    assert claim.tok_s_kind == "output"


def test_openai_backend_leaves_engine_unknown() -> None:
    obj = fixture_obj()
    obj["backend"] = obj["endpoint_type"] = "openai-chat"
    (claim,) = VllmBench().parse(doc_of(obj))
    assert claim.engine is None
    assert claim.notes is not None
    assert "'openai-chat'" in claim.notes


def test_missing_output_throughput_falls_back_to_tpot_per_user() -> None:
    obj = fixture_obj()
    obj["output_throughput"] = None
    (claim,) = VllmBench().parse(doc_of(obj))
    assert claim.tok_s == pytest.approx(1000 / 8.1031)
    assert claim.tok_s_kind == "per_user"
    assert claim.provenance["tok_s"].field == "median_tpot_ms"


def test_total_token_throughput_only_when_it_is_the_only_number() -> None:
    obj = fixture_obj()
    for key in ("output_throughput", "median_tpot_ms", "mean_tpot_ms"):
        obj.pop(key)
    (claim,) = VllmBench().parse(doc_of(obj))
    assert claim.tok_s_kind == "total"
    assert claim.provenance["tok_s"].field == "total_token_throughput"


def test_empty_ttft_is_reported() -> None:
    obj = fixture_obj()
    obj["mean_ttft_ms"] = None
    obj["median_ttft_ms"] = None
    (claim,) = VllmBench().parse(doc_of(obj))
    assert claim.ttft_ms is None
    assert claim.ttft_empty is True


def test_append_result_lines_give_one_claim_each() -> None:
    a, b = fixture_obj(), fixture_obj()
    b["max_concurrency"] = 1
    doc = RawDocument.from_text(json.dumps(a) + "\n" + json.dumps(b) + "\n", source="runs.jsonl")
    claims = VllmBench().parse(doc)
    assert [c.tok_s_kind for c in claims] == ["aggregate", "output"]
    assert claims[1].provenance["tok_s"].field == "[1].output_throughput"


def test_unusable_output_throughput_is_invalid_input() -> None:
    obj = fixture_obj()
    obj["output_throughput"] = "abc"
    with pytest.raises(InvalidInput, match=r"run\.json: vLLM bench serve result has no usable "
                                           r"output_throughput \(got 'abc'\)"):
        VllmBench().parse(doc_of(obj))


def test_negative_throughput_is_invalid_input() -> None:
    obj = fixture_obj()
    obj["output_throughput"] = -5.0
    with pytest.raises(InvalidInput, match="no usable output_throughput"):
        VllmBench().parse(doc_of(obj))


def test_sglang_and_inferencex_shapes_are_not_claimed() -> None:
    sglang = fixture_obj()
    sglang["accept_length"] = 2.9
    assert not VllmBench().sniff(doc_of(sglang))
    agg = fixture_obj()
    agg["tput_per_gpu"] = 1200.0
    assert not VllmBench().sniff(doc_of(agg))


def test_window_is_draft_tokens_per_pass_plus_one() -> None:
    doc = RawDocument((FIXTURES / "llama31_8b_eagle3_conc4.json").read_bytes(), source="f.json")
    c = VllmBench().parse(doc)[0]
    assert c.spec_window == 4  # 21300 draft tokens over 7100 passes = 3 per pass, + 1
    assert "num_speculative_tokens 3" in (c.spec_window_convention or "")


def test_missing_request_rate_is_said_in_words() -> None:
    rec = json.loads((FIXTURES / "llama31_8b_eagle3_conc4.json").read_text())
    rec.pop("max_concurrency", None)
    rec.pop("request_rate", None)
    c = VllmBench().parse(RawDocument(json.dumps(rec).encode(), source="f.json"))[0]
    assert "no request_rate recorded" in (c.notes or "")
    assert "object at 0x" not in (c.notes or "")
