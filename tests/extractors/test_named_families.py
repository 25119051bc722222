"""Models the readers now size from the record's own words (issue 13 part 5): a family word the
table names dense, with the size written beside it.

Shapes as the calibration corpus writes them:
- turboderp/exllamav2@b9c025b4b1ee README.md's performance table, a split cell: "3090Ti, OpenLlama,
  GPTQ, 3B: 259 t/s" (OpenLLaMA: a reproduction of LLaMA, dense);
- NexVeridian/llm-inference-benchmarks@51a8e4d13948 README.md: "Size (B): 12; … Model: wayfarer;
  Type: MLX; Quant: 4" (Latitude's Wayfarer 12B, a Mistral Nemo fine-tune; Wayfarer Large 70B, a
  Llama 3.3 fine-tune).
"""

from __future__ import annotations

import pytest

from checks.models import Report
from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local

_EXL = ("ExLlamaV2 / Performance (Some quick tests to compare performance with ExLlama V1. There may be more "
        "performance optimizations in the future, and speeds will vary across GPUs, with slow CPUs still being "
        "a potential bottleneck:), 3090Ti, OpenLlama, GPTQ, 3B: {tg} t/s")
_M4 = ("Inference Benchmarks (Apple M4 Max 48GB 16 Core 16-inch using LM Studio): Size (B): {size}; Speed (T/s): "
       "{tg}; Model: {model}; Type: MLX; Quant: 4; Spec Dec (B): -; Spec Quant: -")


def _audit(ref: Reference, text: str) -> Report:
    return audit(build_evidence([read_document(read_local(InputSpec("text", text)), ref)], ref), ref)


@pytest.mark.parametrize(("tg", "verdict"), [("259", "consistent"), ("2590", "suspicious")])
def test_openllama_3b_is_a_dense_llama(ref: Reference, tg: str, verdict: str) -> None:
    report = _audit(ref, _EXL.format(tg=tg))
    assert (report.claim.model, report.claim.params_total_b) == ("OpenLLaMA 3B", 3.0)
    q7 = report.question("roofline")
    assert report.verdict == verdict
    assert "dense_ratio" not in q7.figures  # no MoE reading left open
    assert q7.figures["ceiling_tok_s"] == pytest.approx(672.0, abs=0.5)  # 1008 GB/s ÷ 1.5 GB (GPTQ 4-bit)


@pytest.mark.parametrize(("model", "size", "tg", "verdict", "name"), [
    ("wayfarer", 12, "65", "consistent", "Wayfarer 12B"),
    ("wayfarer", 12, "650", "implausible", "Wayfarer 12B"),
    ("wayfarer large", 70, "150", "implausible", "Wayfarer Large 70B"),
])
def test_wayfarer_is_dense(ref: Reference, model: str, size: int, tg: str, verdict: str, name: str) -> None:
    report = _audit(ref, _M4.format(size=size, tg=tg, model=model))
    assert report.claim.model == name
    assert report.verdict == verdict


# ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/164 (Latest CPU performance comparison
# with llama.cpp), a batched-bench comparison of two builds on a dual-socket Broadwell box.
_MIQU = ("ik_llama.cpp, #164 - Latest CPU performance comparison with llama.cpp (rig named in the post: I ran "
         "some benchmarks on an AVX2 machine (Xeon E5-2683 v4, 32 core, quad channel broadwell) on an IQ4_XS of "
         "Midnight Miqu 70B v1.5 via batched bench.): PP: 128; TG: 128; B: 1; N_KV: 256; T_TG s (llama.cpp): "
         "{t}; S_TG t/s (llama.cpp): {tg}; T_TG s (ik_llama.cpp): 90.247; S_TG t/s (ik_llama.cpp): 1.42; "
         "Speedup: 1.02")


@pytest.mark.parametrize(("t", "tg", "verdict"), [("92.1", "1.39", "consistent"), ("9.21", "13.9", "implausible")])
def test_a_miqu_merge_on_a_two_socket_xeon_is_judged_as_dense_plain_decode(
        ref: Reference, t: str, tg: str, verdict: str) -> None:
    # Miqu is Llama 2 70B's architecture (dense); batched-bench columns with each build's name
    # after them are still that tool's (plain decode); an E5-2xxx part takes two sockets.
    report = _audit(ref, _MIQU.format(t=t, tg=tg))
    q7 = report.question("roofline")
    assert (report.claim.model, report.claim.speculative) == ("Miqu 70B", False)
    assert report.verdict == verdict
    # 2 sockets × 76.8 GB/s ÷ (70B × 4 bits ÷ 8)
    assert q7.figures["ceiling_tok_s"] == pytest.approx(153.6 / 35.0, rel=1e-3)


@pytest.mark.parametrize(("text", "model", "weights_gb"), [
    # every family of the reference's table is a name the text reader reads, so its row decides:
    # the GB read per token are the active params at the format's bits
    ("DBRX 132B on 4x A100 80GB fp16: 30 tok/s", "DBRX", 36.0 * 2),
    ("Grok-1 314B on 8x A100 80GB int8: 20 tok/s", "Grok-1", 78.5 * 1),
    ("WizardLM-2 8x22B IQ3_XXS on 3x 3090: 15 t/s", "WizardLM 2 8x22B", 39.2 * 3 / 8),  # Mixtral 8x22B's shape
])
def test_a_moe_family_the_table_knows_is_read_and_judged_at_its_active_params(
        ref: Reference, text: str, model: str, weights_gb: float) -> None:
    # Before, none of these names was read: DBRX was "whether the model is a MoE" unknown, Grok-1
    # was judged dense at all 314B, and WizardLM-2 had no size at all.
    report = _audit(ref, text)
    assert report.claim.model == model
    q7 = report.question("roofline")
    assert q7.status == "ok" and "dense_ratio" not in q7.figures
    assert q7.figures["weights_gb"] == pytest.approx(weights_gb)


@pytest.mark.parametrize(("text", "model"), [
    ("Command-R 35B Q4 on a 3090: 30 t/s", "Command R 35B"),
    ("vicuna-13b-v1.5 on a 3060: 20 tok/s", "Vicuna 13B V1.5"),
])
def test_a_dense_family_the_table_knows_is_read(ref: Reference, text: str, model: str) -> None:
    report = _audit(ref, text)
    assert report.claim.model == model
    q7 = report.question("roofline")
    assert q7.status == "ok" and "dense_ratio" not in q7.figures  # dense, by its family row
