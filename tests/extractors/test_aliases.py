"""The alias table covers every claim field, and the real boards' and tools' field names."""

from __future__ import annotations

import json

import pytest

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.formats.aliases import ALIAS_INDEX, apply_target, fold
from extractors.formats.generic_board import GenericBoard
from extractors.formats.records import map_record
from extractors.formats.vllm_bench import VllmBench
from tests.seed_claims import LAUNCH

NOT_INPUT = {"provenance", "conflicts", "suspect_fields", "machine"}  # what claimcheck itself records, never a board's field

# One value for every claim field, spelled with claimcheck's own field names.
OWN_NAMES: dict[str, object] = {
    "model": "Qwen3.6-27B", "params_total_b": 27.8, "params_active_b": 27.8, "is_moe": False,
    "weight_format": "NVFP4", "bits_per_weight": 4.5, "model_size_bytes": 15.6e9,
    "kv_dtype": "fp8", "size_inferred": False, "hardware": "RTX 5090", "hardware_count": 1,
    "engine": "sglang", "engine_version": "0.5.4", "container_image": "lmsysorg/sglang:v0.5.4",
    "offload": False, "gpu_layers": 99, "system_ram_gb": 64.0, "system_bandwidth_gbs": 89.6,
    "batch": 1, "concurrency": 1, "input_tokens": 128, "output_tokens": 2048,
    "context_length": 8192, "serving_claim": False, "tokens_generated": 2048,
    "wall_seconds": 0.969, "tok_s": 2103.6, "tok_s_kind": "decode", "ttft_ms": 210.0,
    "ttft_empty": False, "prefill_cached": True, "speedup": 26.6, "baseline_tok_s": 79.0,
    "per_user_tok_s": 2103.6, "cell": "batch 1, 2048 tokens", "speculative": True,
    "spec_method": "DFlash", "spec_window": 56,
    "spec_window_convention": "board field 'spec_window' = window", "draft_steps": 55,
    "draft_topk": 1, "drafter_model": "z-lab/Qwen3.6-27B-DFlash", "acceptance_length": 56.0,
    "acceptance_length_low": 55.0, "acceptance_length_high": 56.0, "acceptance_rate": 1.0,
    "accepted_tokens": 2000, "drafted_tokens": 2000, "accept_threshold": 1.0,
    "ratios": [[2000, 2000]], "power_w": 99.6, "power_w_high": 100.0,
    "power_method": "nvidia-smi", "power_profile": "400 W limit", "temperature": 0.0,
    "repeats": 6, "cooldown_s": 15.0, "prefix_caching": True, "launch_command": LAUNCH,
    "env": {"SGLANG_ENABLE_SPEC_V2": "1"}, "notes": "best of six runs",
    "submitter": "speedrunner", "date": "2026-11-20", "source_url": "https://board.example/r-56",
    "record_id": "r-56", "hardware_memory_gb": 24.0,
    "tpot_target_ms": 200.0, "server_slots": 4, "ttft_target_ms": 2000.0, "host": "EPYC 9355", "kv_depth": 4096, "accepted_per_pass": 2.96,
}


def test_every_claim_field_has_its_own_name_in_the_alias_table() -> None:
    missing = [n for n in Claim.model_fields if n not in NOT_INPUT and fold(n) not in ALIAS_INDEX]
    assert missing == []


def test_the_fixture_names_every_claim_field() -> None:
    assert set(OWN_NAMES) == set(Claim.model_fields) - NOT_INPUT


def test_a_board_in_claimchecks_own_field_names_is_read_whole() -> None:
    doc = RawDocument(json.dumps({"records": [OWN_NAMES]}).encode(), source="own.json")
    [claim] = GenericBoard().parse(doc)
    got = claim.model_dump(exclude={"provenance", "conflicts"})
    expected = dict(OWN_NAMES, ratios=[(2000, 2000)])
    assert {k: got[k] for k in expected} == expected
    assert claim.conflicts == []
    assert claim.provenance["per_user_tok_s"].field == "records[0].per_user_tok_s"


@pytest.mark.parametrize(("key", "value", "field", "expected"), [
    ("accel_name", "NVIDIA GeForce RTX 3090", "hardware", "NVIDIA GeForce RTX 3090"),
    ("model_size", 4677120000, "model_size_bytes", 4677120000.0),
    ("model_n_params", 8030263296, "params_total_b", pytest.approx(8.03, abs=0.001)),
    ("model_quant_str", "Q4_K - Medium", "weight_format", "Q4_K - Medium"),
    ("avg_gen_tps", 103.1, "tok_s", 103.1),
    ("ram_gb", 64, "system_ram_gb", 64.0),
    ("n_gpu_layers", 99, "gpu_layers", 99),
    ("accelerator_model_name", "NVIDIA GB10", "hardware", "NVIDIA GB10"),
    ("sw_notes", "chain-widened MTP verify K=4", "notes", "chain-widened MTP verify K=4"),
    ("median_tpot_ms", 12.5, "per_user_tok_s", 80.0),
    ("median_tpot", 0.025, "per_user_tok_s", 40.0),
    ("median_intvty", 33.1, "per_user_tok_s", 33.1),
    ("output_token_throughput_per_user", 118.3, "per_user_tok_s", 118.3),
    ("tput_per_gpu", 1500.0, "tok_s", 1500.0),
    ("spec_decode_acceptance_length", 2.9, "acceptance_length", 2.9),
    ("architecture", "moe", "is_moe", True),
    ("power_watts_peak", 341.0, "power_w_high", 341.0),
    ("reproduce_command", "vllm serve m", "launch_command", "vllm serve m"),
])
def test_real_boards_and_tools_field_names(key: str, value: object, field: str, expected: object) -> None:
    b = ClaimBuilder("x")
    map_record({key: value}, "", b)
    assert b.values[field] == expected
    assert b.provenance[field].field == key


def test_an_unknown_architecture_word_says_nothing() -> None:
    b = ClaimBuilder("x")
    apply_target(b, "is_moe", "LlamaForCausalLM", "architecture", "architecture")
    assert not b.has("is_moe")


def test_vllm_metadata_keys_go_through_the_alias_table() -> None:
    record = {"date": "20261120-101500", "backend": "vllm", "model_id": "Qwen/Qwen3-8B",
              "num_prompts": 1, "max_concurrency": 1, "request_rate": "inf", "duration": 10.0,
              "completed": 1, "total_input_tokens": 128, "total_output_tokens": 1000,
              "request_throughput": 0.1, "output_throughput": 100.0,
              "total_token_throughput": 112.8, "median_ttft_ms": 80.0, "median_tpot_ms": 9.5,
              "gpu": "NVIDIA H100 80GB HBM3", "tp": "1",
              "command": "vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8"}
    [claim] = VllmBench().parse(RawDocument(json.dumps(record).encode(), source="run.json"))
    assert (claim.hardware, claim.hardware_count) == ("NVIDIA H100 80GB HBM3", 1)
    assert claim.provenance["hardware"].field == "gpu"
    assert (claim.kv_dtype, claim.speculative) == ("fp8", False)
    assert claim.provenance["kv_dtype"].field is not None
    assert claim.provenance["kv_dtype"].field.startswith("command")
    assert claim.engine == "vllm" and claim.tok_s == 100.0
