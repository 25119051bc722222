"""Shared decode physics: bytes per token, KV bytes, bandwidth and compute ceilings.

`extra_ref` builds a Reference with rows of this file's own (merged over the packaged tables, same
names replace), so the tests of the physics checks do not depend on the packaged data beyond the
seed's rows. Figures: ai-dynamo/aiconfigurator@095f58a systems/*.yaml and model_configs, hemingkx/Spec-Bench, arXiv 2605.11999.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checks.models import Claim
from checks.physics import (
    Derived,
    Missing,
    aggregate_tok_s,
    bandwidth,
    generous_weight_gb,
    kv_bytes_per_token,
    kv_gb_per_sequence,
    num,
    params_per_token,
    peak_tflops,
    realistic_weight_gb,
    required_tflops,
    resident_weight_gb,
    resolve_format,
    roofline_ceilings,
)
from checks.reference import Reference, load_reference
from checks.render import basis_lines
from tests.seed_claims import headline_claim, real_decode_claim

_SRC = {"source": "test row (ai-dynamo/aiconfigurator@095f58a)", "checked": "2026-11-29"}

EXTRA_ROWS: dict[str, list[dict[str, Any]]] = {
    "hardware": [
        {"name": "H100 SXM", "kind": "datacenter", "memory_gb": 80, "bandwidth_gbs": 3350, "tdp_w": 700,
         "peak_tflops": {"bf16": 989, "fp8": 1979}, **_SRC},
        {"name": "H200", "kind": "datacenter", "memory_gb": 141, "bandwidth_gbs": 4800, "tdp_w": 700,
         "peak_tflops": {"bf16": 989, "fp8": 1979}, **_SRC},
        {"name": "Apple M2 Max", "kind": "unified", "memory_gb": 96, "bandwidth_gbs": 400,
         "tdp_w": None, **_SRC},
        {"name": "Test 8GB card", "kind": "consumer", "memory_gb": 8, "bandwidth_gbs": 272, "tdp_w": 115,
         **_SRC},
    ],
    "models": [
        {"name": "Llama-3.1-8B", "params_total_b": 8.03, "moe": False, "layers": 32, "kv_heads": 8,
         "head_dim": 128, **_SRC},
        {"name": "Llama-3.1-70B", "params_total_b": 70.55, "moe": False, "layers": 80, "kv_heads": 8,
         "head_dim": 128, **_SRC},
        {"name": "Qwen3-30B-A3B", "params_total_b": 30.53, "params_active_b": 3.35, "moe": True,
         "layers": 48, "kv_heads": 4, "head_dim": 128, **_SRC},
    ],
    "formats": [
        {"name": "BF16", "aliases": ["bfloat16"], "nominal_bits": 16, "effective_bits": 16,
         "family": "bf16", **_SRC},
        {"name": "Q4_K_M", "nominal_bits": 4, "effective_bits": 4.89, "family": "bf16", **_SRC},
    ],
    "methods": [
        {"name": "EAGLE-3", "window_convention": "SGLang --speculative-num-draft-tokens",
         "published_windows": [8],
         "published_als": [
             {"task": "MT-bench", "al": 6.13, "official": True, "source": "sglang PR #4247"},
             {"task": "MT-bench", "al": 5.39, "official": False, "source": "sglang PR #4247"}]},
    ],
    "power_bands": [
        {"name": "consumer", "low": 0.5, "high": 1.0, **_SRC},
        {"name": "datacenter", "low": 0.19, "high": 0.6, **_SRC},
    ],
}
EXTRA_ROWS["methods"][0].update(_SRC)


def extra_ref(tmp_path: Path) -> Reference:
    """The packaged tables with this file's rows merged over them."""
    path = tmp_path / "extra.json"
    path.write_text(json.dumps(EXTRA_ROWS), encoding="utf-8")
    return load_reference(path)


@pytest.fixture
def xref(tmp_path: Path) -> Reference:
    return extra_ref(tmp_path)


def test_seed_weights_are_params_times_nominal_bits(ref: Reference) -> None:
    c = headline_claim()
    w = generous_weight_gb(c, ref.model(c.model), resolve_format(c, ref))
    assert isinstance(w, Derived)
    assert w.value == pytest.approx(13.9)
    assert "27.8e9 params × 4 bits ÷ 8 = 13.9 GB" in w.basis[-1]


def test_dense_reads_all_params_not_active(ref: Reference) -> None:
    p = params_per_token(headline_claim(params_active_b=3.0), ref.model("Qwen3.6-27B"))
    assert isinstance(p, Derived) and p.value == 27.8
    assert "dense" in p.basis[0]


def test_moe_reads_active_params(xref: Reference) -> None:
    c = Claim(model="Qwen3-30B-A3B", weight_format="BF16")
    p = params_per_token(c, xref.model(c.model))
    assert isinstance(p, Derived) and p.value == 3.35
    w = generous_weight_gb(c, xref.model(c.model), resolve_format(c, xref))
    assert isinstance(w, Derived) and w.value == pytest.approx(6.7)


def test_moe_file_size_scaled_to_active_share(xref: Reference) -> None:
    c = Claim(model="Qwen3-30B-A3B", model_size_bytes=61.06e9)
    w = generous_weight_gb(c, xref.model(c.model), resolve_format(c, xref))
    assert isinstance(w, Derived) and w.value == pytest.approx(61.06 * 3.35 / 30.53)


def test_file_size_beats_params_times_bits(ref: Reference) -> None:
    c = headline_claim(model_size_bytes=16.5e9)
    w = generous_weight_gb(c, ref.model(c.model), resolve_format(c, ref))
    assert isinstance(w, Derived) and w.value == pytest.approx(16.5)
    assert "file size beats" in w.basis[0]


def test_unknown_format_assumes_4_bit_and_says_so(ref: Reference) -> None:
    fmt = resolve_format(Claim(), ref)
    assert fmt.nominal_bits == 4 and fmt.family is None
    assert "4-bit assumed" in fmt.notes[0]
    assert any(a.value == 4.0 for a in fmt.assumptions)


def test_records_own_bits_used_for_a_format_not_in_the_table(ref: Reference) -> None:
    fmt = resolve_format(Claim(weight_format="EXL3-3.5bpw", bits_per_weight=3.5), ref)
    assert fmt.nominal_bits == 3.5 and "not in the reference table" in fmt.notes[0]


def test_no_params_and_no_file_is_missing_model_size(ref: Reference) -> None:
    w = generous_weight_gb(Claim(), None, resolve_format(Claim(), ref))
    assert isinstance(w, Missing) and w.what == ("model size (params or file size)",)


def test_realistic_weights_use_the_published_recipe(ref: Reference) -> None:
    c = headline_claim()
    w = realistic_weight_gb(c, ref.model(c.model), resolve_format(c, ref))
    assert isinstance(w, Derived) and w.value == pytest.approx(17.61)


def test_realistic_weights_say_when_the_recipe_is_for_another_format(xref: Reference) -> None:
    c = real_decode_claim().model_copy(update={"weight_format": "Q4_K_M"})
    w = realistic_weight_gb(c, xref.model(c.model), resolve_format(c, xref))
    assert isinstance(w, Derived) and w.value == pytest.approx(27.8 * 4.89 / 8)
    assert any("recipe is for NVFP4" in n for n in w.notes)


def test_resident_weights_count_every_expert(xref: Reference) -> None:
    c = Claim(model="Qwen3-30B-A3B", weight_format="BF16")
    w = resident_weight_gb(c, xref.model(c.model), resolve_format(c, xref))
    assert isinstance(w, Derived) and w.value == pytest.approx(61.06)


def test_kv_bytes_per_token_from_geometry(xref: Reference) -> None:
    llama = xref.model("Llama-3.1-8B")
    bf16 = kv_bytes_per_token(llama, "bf16", generous=False)
    fp8 = kv_bytes_per_token(llama, "fp8_e4m3", generous=False)
    assert isinstance(bf16, Derived) and bf16.value == 2 * 32 * 8 * 128 * 2 == 131072
    assert isinstance(fp8, Derived) and fp8.value == 65536


def test_kv_dtype_unknown_is_fp8_generous_and_bf16_realistic(ref: Reference) -> None:
    qwen = ref.model("Qwen3.6-27B")  # 16 full-attention layers: 64 KiB/token at BF16
    generous = kv_bytes_per_token(qwen, None, generous=True)
    realistic = kv_bytes_per_token(qwen, None, generous=False)
    assert isinstance(generous, Derived) and generous.value == 32768 and generous.assumptions
    assert isinstance(realistic, Derived) and realistic.value == 65536


def test_kv_per_sequence_is_zero_without_context_and_says_so(ref: Reference) -> None:
    kv = kv_gb_per_sequence(headline_claim(), ref.model("Qwen3.6-27B"), generous=True)
    assert kv.value == 0 and "no context length stated" in kv.notes[0]


def test_kv_per_sequence_at_stated_context(ref: Reference) -> None:
    c = headline_claim(context_length=32768, kv_dtype="fp8")
    kv = kv_gb_per_sequence(c, ref.model(c.model), generous=False)
    assert kv.value == pytest.approx(32768 * 32768 / 1e9)  # 1.07 GB


def test_bandwidth_times_card_count_for_tensor_parallel(ref: Reference) -> None:
    rtx = ref.gpu("RTX 5090")
    assert rtx is not None
    bw = bandwidth(headline_claim(hardware_count=2), rtx)
    assert bw.value == 3584 and "× 2 cards (tensor parallel)" in bw.basis[-1]
    assert "one card assumed" in bandwidth(headline_claim(hardware_count=None), rtx).notes[0]


def test_seed_ceilings(ref: Reference) -> None:
    ceil = roofline_ceilings(headline_claim(), ref)
    assert not isinstance(ceil, Missing)
    assert ceil.generous.value == pytest.approx(1792 / 13.9)  # 128.9
    # NVIDIA recipe 17.61 GB + GatedDeltaNet state 0.30 GB at 0.9 × 1792 GB/s (nvidia/Qwen3.6-27B-NVFP4 hf_quant_config.json)
    assert ceil.realistic.value == pytest.approx(0.9 * 1792 / 17.91)
    assert "1792 GB/s ÷ 13.9 GB = 128.9 tok/s" in ceil.generous.basis[-1]


def test_batch_bound_adds_kv_per_sequence(xref: Reference) -> None:
    c = Claim(model="Llama-3.1-8B", weight_format="BF16", hardware="H100 SXM", hardware_count=1,
              batch=8, context_length=4096, tok_s=150, tok_s_kind="per_user")
    ceil = roofline_ceilings(c, xref, batch=8)
    assert not isinstance(ceil, Missing)
    kv = 65536 * 4096 / 1e9  # FP8 generous: 64 KiB/token × 4096
    assert ceil.generous.value == pytest.approx(8 * 3350 / (16.06 + 8 * kv))


def test_missing_hardware_and_model_size_are_both_named(ref: Reference) -> None:
    ceil = roofline_ceilings(Claim(tok_s=50), ref)
    assert isinstance(ceil, Missing)
    assert ceil.what == ("hardware", "model size (params or file size)")


def test_aggregate_is_per_user_times_batch_and_per_gpu_times_count() -> None:
    per_user = aggregate_tok_s(Claim(tok_s=50, tok_s_kind="per_user", batch=8))
    per_gpu = aggregate_tok_s(Claim(tok_s=500, tok_s_kind="per_gpu", hardware_count=4))
    assert isinstance(per_user, Derived) and per_user.value == 400
    assert isinstance(per_gpu, Derived) and per_gpu.value == 2000
    assert isinstance(aggregate_tok_s(Claim()), Missing)


def test_required_tflops_is_two_flops_per_weight_per_token() -> None:
    assert required_tflops(27.8, 2103.6) == pytest.approx(116.96, abs=0.01)


def test_peak_is_the_formats_family_times_count(ref: Reference) -> None:
    c = headline_claim(hardware_count=2)
    rtx = ref.gpu("RTX 5090")
    assert rtx is not None
    peak = peak_tflops(c, rtx, resolve_format(c, ref))
    assert isinstance(peak, Derived) and peak.value == 2 * rtx.peak_tflops["fp4"]


def test_num_prints_figures_as_reports_do() -> None:
    assert [num(1792.0), num(128.92), num(13.9), num(0.6128), num(3186.9)] == [
        "1792", "128.9", "13.9", "0.61", "3187"]


def test_a_rounded_size_label_defers_to_the_model_row(ref: Reference) -> None:
    from checks.physics import params_per_token

    claim = headline_claim(params_total_b=27.0)
    got = params_per_token(claim, ref.model("Qwen3.6-27B"))
    assert isinstance(got, Derived)
    assert got.value == 27.8
    assert "rounded size" in " ".join(basis_lines(got.basis))


def test_a_different_size_than_the_model_row_is_kept(ref: Reference) -> None:
    from checks.physics import params_per_token

    claim = headline_claim(params_total_b=14.0)
    got = params_per_token(claim, ref.model("Qwen3.6-27B"))
    assert isinstance(got, Derived) and got.value == 14.0
