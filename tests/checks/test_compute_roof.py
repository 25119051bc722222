"""Q7's second roof: a prompt-processing figure against the cards' arithmetic (checks/physics/compute.py).

The rows are the real shapes: llama-bench pp512 lines of the XiongjieDai GPU-Benchmarks-on-LLM-Inference
tables (XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86c3 README.md) and of an ik_llama.cpp
discussion (ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/164), as the corpus
converter writes them.
"""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence, Report
from checks.physics import Derived, compute_peak, compute_roof, resolve_format
from checks.reference import HardwareRow, Reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local

_GPU_BENCH = ("llama.cpp on LLaMA 3, average speed in tokens/s (TG = text generation, PP = prompt "
              "processing), GPU-Benchmarks-on-LLM-Inference / Overview (Average 1024 tokens prompt eval "
              "speed (tokens/s) by GPUs on LLaMA 3.), 8B Q4_K_M, {card}: {tok} tokens/s")
_IK_ZEN4 = ("ik_llama.cpp, Prompt processing (prefill) champion (The fastest way to do prompt processing "
            "with ik_llama.cpp is the new 8-bit, 8-row interleaved Q8_K_R8 type.) (rig named in the post: "
            "Benchmarks are run on a Ryzen-7950X.): model: llama 8B "
            "Q8_K_R8; size: 7.56 GiB; params: 8.03 B; backend: {backend}; threads: 16; test: pp512; "
            "t/s: {tok} ± 0.58")


def _report(ref: Reference, text: str) -> Report:
    reading = read_document(read_local(InputSpec("text", text)), ref)
    return audit(build_evidence([reading], ref), ref)


def _roof(peak_tflops: float, params_b: float) -> float:
    return peak_tflops * 1e12 / (2 * params_b * 1e9)


# H100 PCIe: dense BF16 756.5 TFLOPS, confirmed (ai-dynamo/aiconfigurator h100_pcie.yaml); Llama 3.1
# 8B: 8.03B params. Q4_K_M is weight-only and the card has no int8 row, so bf16 is read.
H100_ROOF = _roof(756.5, 8.03)


@pytest.mark.parametrize(("tok", "status", "verdict"), [
    (7760.16, "ok", "consistent"),  # the published row: 0.16 of the roof
    (44000.0, "flag", "suspicious"),  # 0.93: above where real prefill lands
    (77601.6, "stop", "implausible"),  # the row ×10: 1.6× what the arithmetic allows
])
def test_llama_bench_pp_row_on_a_known_card_is_judged_by_the_compute_roof(
        ref: Reference, tok: float, status: str, verdict: str) -> None:
    rep = _report(ref, _GPU_BENCH.format(card="H100 PCIe 80GB", tok=tok))
    q7 = rep.question("roofline")
    assert rep.claim.tok_s_kind == "prefill"
    assert q7.status == status and rep.verdict == verdict
    assert q7.figures["compute_roof"] == 1.0
    assert q7.figures["ceiling_tok_s"] == pytest.approx(H100_ROOF, rel=1e-9)
    assert q7.figures["ratio"] == pytest.approx(tok / H100_ROOF, rel=1e-9)
    assert q7.figures["peak_tflops"] == 756.5
    assert q7.figures["required_tflops"] == pytest.approx(2 * 8.03 * tok / 1000, rel=1e-9)
    assert "compute roof" in q7.summary


def test_the_headline_names_the_compute_roof_it_used(ref: Reference) -> None:
    ok = _report(ref, _GPU_BENCH.format(card="H100 PCIe 80GB", tok=7760.16))
    assert ok.headline.startswith("consistent — 7760.2 tok/s is 0.16 of the generous compute (prompt "
                                  "processing) ceiling of one H100 PCIe")
    bad = _report(ref, _GPU_BENCH.format(card="H100 PCIe 80GB", tok=77601.6))
    assert bad.headline.startswith("implausible — 77601.6 tok/s is 1.6× the compute bound of "
                                   "47104.6 tok/s at any batch of one H100 PCIe")


@pytest.mark.parametrize(("tok", "status", "verdict"), [
    (5064.99, "ok", "consistent"),  # the published row: 0.12 of the roof
    (50649.9, "stop", "implausible"),  # the row ×10: 1.23× what the arithmetic allows
])
def test_a_sourced_peak_stops_a_prefill_figure_above_it(ref: Reference, tok: float, status: str,
                                                        verdict: str) -> None:
    # RTX 4090: 128 SMs × 2520 MHz × 2048 dense INT8 ops per SM per clock = 660.7 TOPS, checked
    # against public sources (hardware.json); Q4_K_M is weight-only, so the higher of bf16 (330.4)
    # and int8 is read.
    rep = _report(ref, _GPU_BENCH.format(card="4090 24GB", tok=tok))
    q7 = rep.question("roofline")
    assert rep.hardware_name == "RTX 4090"
    assert (q7.status, rep.verdict) == (status, verdict)
    assert q7.figures["peak_tflops"] == 660.7
    assert q7.figures["ceiling_tok_s"] == pytest.approx(_roof(660.7, 8.03), rel=1e-9)


@pytest.mark.parametrize(("tok", "status"), [
    (15566.0, "ok"),
    # Ten times above the roof, but the MI355X's tensor peak is recalled, not confirmed against a
    # source: no stop rests on it.
    (1556600.0, "flag"),
])
def test_a_peak_not_confirmed_against_a_source_never_condemns(ref: Reference, tok: float,
                                                              status: str) -> None:
    rep = _report(ref, _GPU_BENCH.format(card="MI355X", tok=tok))
    q7 = rep.question("roofline")
    assert q7.status == status
    assert q7.figures["ceiling_tok_s"] == pytest.approx(_roof(2500, 8.03), rel=1e-9)
    if status == "flag":
        assert rep.verdict == "suspicious"
        assert "the MI355X's peak is not confirmed against a source" in q7.summary


def test_a_card_without_a_dense_peak_leaves_prefill_unanswerable(ref: Reference) -> None:
    # A GPU-database row carries shader rates only, never a tensor peak (checks/reference.py).
    c = Claim(model="Llama 3.1 8B", weight_format="Q4_K_M", hardware="GTX 1080 Ti", tok_s=1200.0,
              tok_s_kind="prefill")
    q7 = audit(Evidence(claim=c), ref).question("roofline")
    assert q7.status == "unanswerable"
    assert q7.missing == ["dense bf16 peak TFLOPS of GeForce GTX 1080 Ti"]


@pytest.mark.parametrize(("backend", "tok", "status"), [
    # Zen 4 desktop: 16 cores × 5.7 GHz × 256 INT8 ops per cycle = 23.35 TOPS, checked against
    # public sources (platforms.json), so ten times above it stops; Q8_K_R8 is not in the format
    # table, so the platform's highest peak (int8) is read.
    ("Zen4", 370.11, "ok"),
    ("Zen4", 3701.1, "stop"),
])
def test_a_cpu_prefill_row_is_judged_against_the_platforms_compute_bound(
        ref: Reference, backend: str, tok: float, status: str) -> None:
    rep = _report(ref, _IK_ZEN4.format(backend=backend, tok=tok))
    q7 = rep.question("roofline")
    assert rep.claim.tok_s_kind == "prefill" and rep.hardware_name == "AMD Ryzen 7000 (AM5, Zen 4)"
    assert q7.status == status
    assert q7.figures["peak_tflops"] == 23.35
    assert q7.figures["ratio"] == pytest.approx(tok / _roof(23.35, 8.03), rel=1e-9)


def test_a_weight_only_format_reads_the_cards_int8_peak_when_it_is_higher(ref: Reference) -> None:
    hw = HardwareRow(name="Card", kind="datacenter", memory_gb=80, bandwidth_gbs=2000,
                     peak_tflops={"bf16": 312, "int8": 624}, source="a datasheet", checked="2026-12-01")
    q4 = Claim(weight_format="Q4_K_M", hardware="Card")
    bf16 = Claim(weight_format="BF16", hardware="Card")
    peak_q4 = compute_peak(q4, hw, resolve_format(q4, ref))
    peak_bf16 = compute_peak(bf16, hw, resolve_format(bf16, ref))
    assert isinstance(peak_q4, Derived) and isinstance(peak_bf16, Derived)
    assert (peak_q4.value, peak_q4.unit) == (624, "int8 TOPS")
    assert (peak_bf16.value, peak_bf16.unit) == (312, "bf16 TFLOPS")


def test_unknown_card_count_where_the_weights_do_not_fit_one_card_has_no_roof(ref: Reference) -> None:
    c = Claim(model="Llama 3.1 70B", weight_format="BF16", hardware="H100 PCIe", tok_s=900.0,
              tok_s_kind="prefill")
    roof = compute_roof(c, ref)
    assert not hasattr(roof, "bound")
    q7 = audit(Evidence(claim=c), ref).question("roofline")
    assert q7.status == "unanswerable" and q7.missing[0].startswith("card count (")


def test_offload_stated_keeps_a_figure_above_the_roof_from_a_stop(ref: Reference) -> None:
    c = Claim(model="Llama 3.1 8B", weight_format="BF16", hardware="H100 PCIe", hardware_count=1,
              tok_s=60000.0, tok_s_kind="prefill", offload=True)
    q7 = audit(Evidence(claim=c), ref).question("roofline")
    assert q7.status == "flag"
    assert q7.figures["ratio"] == pytest.approx(60000 / H100_ROOF, rel=1e-9)
    assert "the host's arithmetic is not counted" in q7.summary


def test_unknown_architecture_is_judged_at_the_most_generous_moe_reading(ref: Reference) -> None:
    # "Zeta 40B" names no family: dense it would be near the roof, but a MoE of that size computes
    # only its active experts, so short of a stop at the MoE reading nothing is judged.
    near = Claim(model="Zeta 40B", params_total_b=40, weight_format="BF16", hardware="H100 PCIe",
                 hardware_count=1, tok_s=9000.0, tok_s_kind="prefill")
    q7 = audit(Evidence(claim=near), ref).question("roofline")
    assert q7.status == "unanswerable"
    assert q7.figures["dense_ratio"] == pytest.approx(9000 / _roof(756.5, 40), rel=1e-9)
    assert "ratio" not in q7.figures
    absurd = near.model_copy(update={"tok_s": 9_000_000.0})
    q7 = audit(Evidence(claim=absurd), ref).question("roofline")
    assert q7.status == "stop" and q7.figures["ratio"] > 1
    assert q7.figures["dense_ceiling_tok_s"] == pytest.approx(_roof(756.5, 40), rel=1e-9)


@pytest.mark.parametrize(("hardware", "count", "peak"), [
    # Granite Rapids-AP: 128 cores × 3.9 GHz × 1024 BF16 FLOPs per cycle (AMX) = 511.2 per socket;
    # the socket count unstated, the generous peak takes the platform's two.
    ("Xeon 6980P", None, 1022.4),
    ("Xeon 6980P", 1, 511.2),
    # Emerald Rapids: 64 cores × 4.0 GHz × 1024 = 262.1 per socket; the curated row takes its
    # platform row's two sockets, as the platform's own names do.
    ("Xeon Platinum 8592+", None, 524.2),
    ("Xeon Platinum 8592+", 1, 262.1),
])
def test_a_server_cpu_prefill_reads_its_amx_peak_and_the_most_sockets_unless_stated(
        ref: Reference, hardware: str, count: int | None, peak: float) -> None:
    c = Claim(model="Llama 3.1 8B", weight_format="BF16", hardware=hardware, hardware_count=count,
              tok_s=900.0, tok_s_kind="prefill")
    q7 = audit(Evidence(claim=c), ref).question("roofline")
    assert q7.status == "ok"
    assert q7.figures["peak_tflops"] == pytest.approx(peak)
    assert q7.figures["ratio"] == pytest.approx(900 / _roof(peak, 8.03), rel=1e-9)
