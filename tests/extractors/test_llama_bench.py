"""llama-bench `-o json` / `-o jsonl` -> one Claim per test row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.models import Evidence
from checks.reference import load_reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.llama_bench import LlamaBench, split_model_type

FIXTURES = Path(__file__).parents[1] / "fixtures" / "llama_bench"
DENSE = "rtx4090_qwen2_7b_q4km.json"
MOE = "rtx3090_qwen3moe_30b_a3b.jsonl"


def load(name: str) -> RawDocument:
    return RawDocument((FIXTURES / name).read_bytes(), source=name)


def dense_rows() -> list[dict]:
    return json.loads((FIXTURES / DENSE).read_text())


def doc_of(obj: object) -> RawDocument:
    return RawDocument.from_text(json.dumps(obj), source="bench.json")


@pytest.mark.parametrize("name", [DENSE, MOE])
def test_fixture_is_detected_as_llama_bench(name: str) -> None:
    found = detect(load(name))
    assert found is not None and found.name == "llama_bench"


def test_pp_row_is_prefill_and_tg_row_is_batch_one_decode() -> None:
    pp, tg = LlamaBench().parse(load(DENSE))
    assert pp.tok_s_kind == "prefill"
    assert pp.tok_s == pytest.approx(12453.321003)
    assert pp.input_tokens == 512
    assert pp.batch is None
    assert pp.tokens_generated is None

    assert tg.tok_s_kind == "decode"
    assert tg.tok_s == pytest.approx(141.880026)
    assert tg.batch == 1
    assert tg.tokens_generated == 128
    assert tg.wall_seconds == pytest.approx(0.90217104)
    assert tg.repeats == 5
    for claim in (pp, tg):
        assert claim.model == "qwen2 7B"
        assert claim.weight_format == "Q4_K - Medium"
        assert claim.model_size_bytes == 4677120000
        assert claim.params_total_b == pytest.approx(7.615616512)
        assert claim.hardware == "NVIDIA GeForce RTX 4090"
        assert claim.hardware_count == 1
        assert claim.engine == "llama.cpp"
        assert claim.engine_version == "b6123-a0c2b205"
        assert claim.kv_dtype == "f16"
        assert claim.context_length == 0
        assert claim.speculative is False
        assert claim.is_moe is None
        assert set(claim.filled()) - {"notes"} <= set(claim.provenance)
    assert tg.provenance["tok_s"].field == "[1].avg_ts"
    assert tg.provenance["model_size_bytes"].field == "[1].model_size"
    assert tg.provenance["hardware"].field == "[1].gpu_info"
    assert tg.provenance["engine_version"].field == "[1].build_number, [1].build_commit"
    assert tg.provenance["wall_seconds"].field == "[1].avg_ns"
    assert pp.provenance["kv_dtype"].field == "[0].type_k"


def test_jsonl_moe_rows_carry_depth_and_active_params() -> None:
    _pp, tg = LlamaBench().parse(load(MOE))
    assert tg.model == "qwen3moe 30B.A3B"
    assert tg.is_moe is True
    assert tg.params_active_b == 3.0
    assert tg.context_length == 4096
    assert tg.kv_dtype == "q8_0"
    assert tg.provenance["tok_s"].field == "[1].avg_ts"
    assert tg.notes is not None
    assert "depth 4096" in tg.notes


def test_pg_row_counts_prompt_and_generation_together() -> None:
    row = dense_rows()[1]
    row["n_prompt"] = 512
    (claim,) = LlamaBench().parse(doc_of(row))
    assert claim.tok_s_kind == "total"
    assert claim.provenance["tok_s"].field == "avg_ts"


def test_the_machines_cpu_among_vulkans_devices_is_the_host() -> None:
    # Orion-zhen/llama-bench-dashboard@05c2b27f static/results/amd-7900xtx/vulkan-amdvlk/: Vulkan's
    # gpu_info lists the Ryzen beside the card, which had made the CPU the device and 84 honest
    # rows `implausible` (200.7 tok/s at 4.0× a Ryzen 7000's ceiling)
    tg, pp = LlamaBench().parse(load("rx7900xtx_vulkan_gpt_oss_20b.json"))
    assert (tg.hardware, tg.hardware_count, tg.host) == ("AMD Radeon RX 7900 XTX", 1, "AMD Ryzen 9 7950X 16-Core Processor")
    assert (tg.tok_s_kind, pp.tok_s_kind) == ("decode", "prefill")
    ref = load_reference()
    assert audit(Evidence(claim=tg, kind="record"), ref).verdict == "consistent"


def test_the_cpus_own_graphics_among_vulkans_devices_is_the_host_too() -> None:
    # the same dashboard's vulkan-radv run: RADV names the Ryzen's graphics after the CPU,
    # "AMD Ryzen 9 7950X 16-Core Processor (RADV RAPHAEL_MENDOCINO)"
    (tg,) = LlamaBench().parse(load("rx7900xtx_vulkan_radv_gpt_oss_20b.json"))
    assert (tg.hardware, tg.hardware_count) == ("AMD Radeon RX 7900 XTX", 1)


def test_cpu_run_uses_cpu_info() -> None:
    row = dense_rows()[1]
    row["gpu_info"] = ""
    (claim,) = LlamaBench().parse(doc_of([row]))
    assert claim.hardware == "AMD Ryzen 9 7950X 16-Core Processor"
    assert claim.provenance["hardware"].field == "[0].cpu_info"


@pytest.mark.parametrize(
    ("model_type", "expected"),
    [
        ("qwen2 7B Q4_K - Medium", ("qwen2 7B", "Q4_K - Medium", None, None)),
        ("llama 7B mostly Q4_0", ("llama 7B", "Q4_0", None, None)),
        ("qwen3moe 30B.A3B Q4_K - Medium", ("qwen3moe 30B.A3B", "Q4_K - Medium", True, 3.0)),
        ("llama 8x7B Q8_0", ("llama 8x7B", "Q8_0", True, None)),
        ("gemma3 ?B BF16", ("gemma3 ?B", "BF16", None, None)),
    ],
)
def test_model_type_splits_into_model_and_weight_format(model_type: str, expected: tuple[str, str | None, bool | None, float | None]) -> None:
    assert split_model_type(model_type) == expected


def test_avg_ts_abc_in_row_two_is_invalid_input() -> None:
    rows = dense_rows()
    rows[1]["avg_ts"] = "abc"
    with pytest.raises(InvalidInput, match=r"bench\.json: llama-bench row 2 has no usable avg_ts "
                                           r"\(got 'abc'\)"):
        LlamaBench().parse(doc_of(rows))


def test_nan_avg_ts_is_invalid_input() -> None:
    rows = dense_rows()
    rows[0]["avg_ts"] = float("nan")
    with pytest.raises(InvalidInput, match="llama-bench row 1 has no usable avg_ts"):
        LlamaBench().parse(doc_of(rows))


def test_empty_array_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="holds no test rows"):
        LlamaBench().parse(doc_of([]))


def test_localscore_style_rows_are_not_claimed() -> None:
    assert not LlamaBench().sniff(doc_of([{"name": "pp1024+tg16", "n_prompt": 1024, "n_gen": 16,
                                           "prompt_tps": 4249.87, "gen_tps": 105.28}]))
