"""The device is the accelerator, a rig is read card by card, a named system holds its cards, and
a named card is one card (issue 13 parts 3 and 6), as people write them."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim, Evidence, Report
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.text import parse_text

FIXTURES = Path(__file__).parent.parent / "fixtures" / "text"


def claim(text: str, ref: Reference) -> Claim:
    return parse_text(RawDocument.from_text(text), ref).claim


def report(text: str, ref: Reference) -> Report:
    return audit(Evidence(claim=claim(text, ref)), ref)


@pytest.mark.parametrize(("text", "card", "count"), [
    # a CPU in parentheses, or as the box / rig / host, is the host
    ("RTX 4070 (5950X box): 160.72 tok/s", "RTX 4070", None),
    ("RTX 3060 on a 5950X rig: 50 tok/s", "RTX 3060", None),
    ("host: EPYC 9654, 4x H100, 300 tok/s", "H100 SXM", 4),
    ("Ryzen 9 7950X + RTX 4090: 100 tok/s", "RTX 4090", None),
    # a CPU joined to the card names the machine, wherever the figure stands
    ("Qwen3-30B-A3B Q4_K_M at 150 tok/s on a Core i9-14900KF + RTX 4090", "RTX 4090", None),
    ("150 tok/s on a Ryzen 9 7950X with an RTX 4090", "RTX 4090", 1),
    ("150 tok/s on RTX 4090 + Ryzen 9 7950X", "RTX 4090", None),
    # either side with its memory (llmfit PR #755's "RTX 2080 8GB + i9-10900X"): the CPU had been
    # the device, and an honest 130 t/s on the 4090 4.1× the 7950X's ceiling (`suspicious`)
    ("RTX 4090 24GB + Ryzen 9 7950X, Llama 3 8B Q4_K_M: 130 t/s", "RTX 4090", None),
    ("RTX 2080 8GB + i9-10900X, Qwen3-30B-A3B Q4_K_M with --n-cpu-moe 36: 36.7 tok/s", "RTX 2080", None),
    ("Ryzen 9 7950X 64GB DDR5 + RTX 4090, Llama 3 8B Q4_K_M: 130 t/s", "RTX 4090", None),
    # "99 GPU layers" is llama.cpp's -ngl (Advantech-EdgeSync-Containers' Jetson report): it had
    # been 99 Jetsons, and a ×10 figure 0.02 of their ceiling
    ("Jetson Orin NX 16GB. Model: Llama-3.2-3B-Instruct-Q4_K_M (GGUF), 99 GPU layers. Generation Speed: "
     "13.55 tokens/sec", "Jetson Orin NX", None),
    ("RTX 4090, 33 GPU layers, Llama 3 8B Q4_K_M: 100 t/s", "RTX 4090", None),
    # kvcache-ai/ktransformers README.md's table: "8×L20 GPU + Xeon Gold 6454S"
    ("Hardware Configuration: 8×L20 GPU + Xeon Gold 6454S; Total Throughput: 227.85 tokens/s",
     "L20", 8),
    # the host may carry its own count
    ("DeepSeek-V3 Q4_K_M on a single RTX 4090 + dual Xeon 6454S: 13.69 tok/s", "RTX 4090", 1),
    ("DeepSeek-V3 Q4_K_M on RTX 4090 + 2x EPYC 9654: 13.69 tok/s", "RTX 4090", None),
    # boards and SoCs by their product names, resolved through the platform table
    ("llama.cpp (GPU) on Jetson AGX Orin: 20.03 tokens/sec", "Jetson AGX Orin", None),
    ("Llama 3.2 1B on an Orin Nano Super: 30 tok/s", "Orin Nano Super", 1),
    ("T-MAC on the Snapdragon X Elite: 12.6 tokens/sec", "Snapdragon X Elite", None),
    ("Llama 3 8B on a Graviton4: 40 tok/s", "Graviton4", 1),
    ("Llama 3 8B Q4_0 on RK3588: 3 tok/s", "RK3588", None),
    ("Qwen2.5 7B Q4_K_M on an Intel Arc A770: 45 tok/s", "Intel Arc A770", 1),
    # the size's "A22" is its active parameters, not a card
    ("the large model (235B-A22) at 10 tok/s on one RTX 4090", "RTX 4090", 1),
    ("my Ryzen 9 5950X: 10 tok/s", "AMD Ryzen 9 5950X", 1),  # alone, the CPU is the device
    # a rig, card by card
    ("RTX 4090 + RTX 3090 Ti: 18 tok/s", "RTX 4090 + RTX 3090 Ti", 2),
    ("3090 + 2x 3060 running llama 3 70b at 9 tok/s", "RTX 3090 + 2x RTX 3060", 3),
    ("2x 3090 + P40: 12 tok/s", "2x RTX 3090 + P40", 3),
    ("2x 3090s + P40: 12 tok/s", "2x RTX 3090 + P40", 3),
    # a named system holds its cards
    ("8x MI300X (OCI BM.GPU.MI300X.8): 12,000 tok/s", "BM.GPU.MI300X.8", 8),
    ("p5.48xlarge: 20000 tok/s", "p5.48xlarge", 8),
    ("2x p5.48xlarge: 20000 tok/s", "p5.48xlarge", 16),
    ("DGX H100, 3000 tok/s", "DGX H100", 8),
    ("GB200 NVL72 at 1000 tok/s per user", "GB200 NVL72", 72),
    ("Framework Desktop: 40 tok/s on llama 8b", "Framework Desktop", None),
    # a named card is one card
    ("with one 4090, 120 tok/s", "RTX 4090", 1),
    ("a single H100 does 150 tok/s", "H100 SXM", 1),
    ("on an RTX 5090: 60 tok/s", "RTX 5090", 1),
    ("my 3090 does 120 t/s", "RTX 3090", 1),
    # the count after the card, where its clause ends: "H200 8x:"; a speedup is no count
    ("H200 8x: llama 405B fp8, 3000 tok/s at 256 concurrency", "H200 SXM", 8),
    ("(RTX 3090 2x) llama 70b q4 15 tok/s", "RTX 3090", 2),
    ("the RTX 4090 2x faster here: 120 tok/s", "RTX 4090", None),
    # a card by its class only, where no card is named
    ("2103.6 tok/s on one consumer GPU", "consumer GPU", 1),
    ("a gaming GPU: llama 8b 2000 tok/s", "consumer GPU", 1),
    ("Running Llama 3 70B locally at 500 t/s on my gaming PC", "consumer GPU", 1),
    ("my gaming rig with an RTX 3060 runs llama 8b q4 at 300 tok/s", "RTX 3060", 1),  # the named card wins
    ("Falcon 40B on a consumer-grade GPU: 29 tok/s on a single NVIDIA RTX 4090 GPU", "RTX 4090", 1),
])
def test_the_device_its_rig_and_its_count(ref: Reference, text: str, card: str, count: int | None) -> None:
    c = claim(text, ref)
    assert (c.hardware, c.hardware_count) == (card, count)


@pytest.mark.parametrize(("text", "platform", "ceiling"), [
    # the platform rows' bandwidth (checks/data/platforms.json) ÷ 3.4 GB of Llama 2 7B Q4_0
    ("Llama 2 7B Q4_0 on Jetson AGX Orin: 20.03 tok/s", "Jetson AGX Orin", 204.8 / 3.37),
    ("Llama 2 7B Q4_0 on an Orin Nano Super: 8 tok/s", "Jetson Orin Nano Super", 102.4 / 3.37),
    # a Raspberry Pi however it is typed (LPDDR4X-4267 on a 32-bit bus: 17.07 GB/s; BCM2711's
    # LPDDR4-3200 on 32 bits: 12.8 GB/s)
    ("Llama 2 7B Q4_0 on a raspberry pi 5: 2 tok/s", "Raspberry Pi 5 (BCM2712)", 17.07 / 3.37),
    ("Llama 2 7B Q4_0 on my rpi5: 2 tok/s", "Raspberry Pi 5 (BCM2712)", 17.07 / 3.37),
    ("Llama 2 7B Q4_0 on an RPi 4: 1 tok/s", "Raspberry Pi 4 (BCM2711)", 12.8 / 3.37),
    # the card's row (Intel's 256-bit, 16 Gbps GDDR6: 512 GB/s)
    ("Llama 2 7B Q4_0 on an Intel Arc A770: 45 tok/s", "Arc A770", 512 / 3.37),
])
def test_a_board_named_in_prose_is_judged_at_its_platform(ref: Reference, text: str, platform: str,
                                                          ceiling: float) -> None:
    r = report(text, ref)
    q7 = next(q for q in r.questions if q.key == "roofline")
    assert (r.verdict, r.hardware_name, q7.status) == ("consistent", platform, "ok")
    assert q7.figures["ceiling_tok_s"] == pytest.approx(ceiling, rel=0.01)


def test_a_rig_is_bounded_by_its_summed_bandwidth(ref: Reference) -> None:
    r = report("3090 + 2x 3060: Llama 3 8B Q4_K_M at 100 tok/s", ref)
    q7 = next(q for q in r.questions if q.key == "roofline")
    # (936 + 2 × 360) GB/s ÷ 4.01 GB of Q4_K_M weights
    assert q7.status == "ok" and q7.figures["ceiling_tok_s"] == pytest.approx(1656 / 4.01, rel=0.01)


def test_a_cpu_joined_to_a_card_is_its_host_not_its_ceiling(ref: Reference) -> None:
    # Read as the CPU's 85.3 tok/s ceiling this was `suspicious`; the card is what decoded.
    r = report("Qwen3-30B-A3B Q4_K_M at 150 tok/s on a Core i9-14900KF + RTX 4090", ref)
    q7 = next(q for q in r.questions if q.key == "roofline")
    assert (r.verdict, r.hardware_name, r.claim.host) == ("consistent", "RTX 4090", "Core i9-14900KF")
    assert q7.figures["ceiling_tok_s"] == pytest.approx(1008 / 1.5, rel=0.01)


def test_a_host_cpu_is_not_the_ceiling(ref: Reference) -> None:
    r = report("RTX 4070 (5950X box): Llama 3 8B Q4_K_M 80 tok/s", ref)
    q7 = next(q for q in r.questions if q.key == "roofline")
    assert r.hardware_name == "RTX 4070" and q7.status == "ok"
    assert q7.figures["ceiling_tok_s"] == pytest.approx(504 / 4.01, rel=0.01)


@pytest.mark.parametrize(("text", "verdict", "q7", "ceiling"), [
    # 35.3 GB of Q4_K_M weights, 25.8 GB on the card at 1008 GB/s, 9.5 GB at 1228.8 GB/s (the host
    # is not stated: the most generous host platform, checks/physics/offload.py)
    ("900 tok/s on Llama 3 70B Q4_K_M with one 4090", "implausible", "stop", 30.03),
    # llama-bench cannot speculate: above the offloaded ceiling is a stop at any ratio
    ("Llama 3.3 70B Q4_K_M with llama-bench on an RTX 4090: 400 t/s", "implausible", "stop", 30.03),
    ("Llama 3.1 70B Q4_K_M on one RTX 5090: 8 tok/s", "consistent", "ok", 50.20),
])
def test_weights_that_do_not_fit_one_named_card_are_judged_offloaded(
        ref: Reference, text: str, verdict: str, q7: str, ceiling: float) -> None:
    r = report(text, ref)
    roof = next(q for q in r.questions if q.key == "roofline")
    fit = next(f for f in r.findings if f.key == "fits_memory")
    assert (r.verdict, roof.status, r.claim.hardware_count) == (verdict, q7, 1)
    assert roof.figures["ceiling_tok_s"] == pytest.approx(ceiling, abs=0.01)
    assert fit.status == "ok" and "do not fit one RTX" in fit.summary
    assert "the roofline judges the offloaded ceiling" in fit.summary


# The shape of a discussion table row as the corpus converter writes it (ikawrakow/ik_llama.cpp
# discussion 357): the section heading, then the rig the post names, then the sweep-bench cells.
_CPU_ONLY_ROW = ("ik_llama.cpp, CPU-only performance (rig named in the post: Benchmarks are run on a "
                 "Ryzen-7950X system with an RTX-4080 GPU.) (model named in the post: Qwen3-30B-A3B, "
                 "the 30B total, 3B active parameter MoE model.): PP: 512; TG: 128; N_KV: 0; "
                 "T_PP s: 3.610; S_PP t/s: 141.84; T_TG s: 5.067; S_TG t/s: {tg}")


@pytest.mark.parametrize(("text", "card"), [
    (_CPU_ONLY_ROW.format(tg="25.26"), "Ryzen 9 7950X"),
    ("Ryzen 9 7950X + RTX 4080. CPU only: Llama 3 8B Q4_K_M 25 t/s", "Ryzen 9 7950X"),
    # the figure's own clause names the card, or the statement comes after the figure: the card
    ("CPU-only it was 10 t/s, but my 4090 does 120 t/s on Llama 3 8B Q4_K_M", "RTX 4090"),
    ("4080: 120 t/s, CPU only: 25 t/s, Ryzen 9 7950X, Llama 3 8B Q4_K_M", "RTX 4080"),
    # two CPUs named: which one ran is not said, so the card rule stands
    ("CPU only. EPYC 9654 vs Ryzen 9 7950X with an RTX 4090: Llama 3 8B Q4_K_M 25 t/s", "RTX 4090"),
])
def test_a_run_said_to_use_no_card_ran_on_the_named_cpu(ref: Reference, text: str, card: str) -> None:
    assert claim(text, ref).hardware == card


@pytest.mark.parametrize(("tg", "status"), [("25.26", "ok"), ("252.6", "stop")])
def test_a_cpu_only_row_is_judged_against_the_cpu(ref: Reference, tg: str, status: str) -> None:
    q7 = next(q for q in report(_CPU_ONLY_ROW.format(tg=tg), ref).questions if q.key == "roofline")
    assert q7.status == status


# A size with no family ("70B", "8b") names no architecture: read as dense it is far above the
# card, so the claim is judged at the most generous plausible MoE reading, the sparsest published
# MoE of about its total (70B: gpt-oss-120b, 5.71 of 116.83B active; 8B: DeepSeek V2 Lite, 2.4 of
# 15.7B). Above that it is above the ceiling under every reading; within it the architecture
# decides and nothing is judged.
_MOE_70B_4090 = 1008 / (70 * 5.71 / 116.83 * 4 / 8)
_MOE_8B_H100 = 3350 / (8 * 2.4 / 15.7 * 16 / 8)


_SPARSEST = " (even read as the sparsest published MoE of its size): only speculative decoding"


@pytest.mark.parametrize(("text", "verdict", "q7", "ceiling", "headline"), [
    ("900 tok/s on 70B with one 4090", "suspicious", "flag", _MOE_70B_4090,
     f"suspicious — 900.0 tok/s: 1.5× the generous ceiling of 589.3 tok/s{_SPARSEST}"),
    ("8b fp16 on one h100 at 2000 tok/s batch 1", "suspicious", "flag", _MOE_8B_H100,
     f"suspicious — 2000.0 tok/s: 1.5× the generous ceiling of 1369.7 tok/s{_SPARSEST}"),
    # llama-bench cannot speculate: above even the MoE reading is a stop
    ("llama-bench on one RTX 4090, a 70B model: 900 t/s", "implausible", "stop", _MOE_70B_4090,
     "implausible — 900.0 tok/s is 1.5× the batch-1 ceiling of one RTX 4090 (read as the sparsest "
     "published MoE of its size: 1.7 GB of assumed 4-bit weights per token)"),
])
def test_an_unnamed_architecture_above_its_most_generous_moe_reading_is_judged(
        ref: Reference, text: str, verdict: str, q7: str, ceiling: float, headline: str) -> None:
    r = report(text, ref)
    roof = next(q for q in r.questions if q.key == "roofline")
    assert (r.verdict, roof.status) == (verdict, q7)
    assert roof.figures["ceiling_tok_s"] == pytest.approx(ceiling, rel=1e-3)
    assert roof.figures["moe_reading"] is True
    assert r.headline.startswith(headline)


@pytest.mark.parametrize("text", ["300 tok/s on 70B with one 4090", "8b fp16 on one h100 at 1200 tok/s batch 1"])
def test_an_unnamed_architecture_within_its_moe_reading_is_left_to_the_architecture(
        ref: Reference, text: str) -> None:
    r = report(text, ref)
    roof = next(q for q in r.questions if q.key == "roofline")
    assert (r.verdict, roof.status) == ("insufficient", "unanswerable")
    assert roof.missing == ["whether the model is a MoE, and its active params"]
    assert roof.figures["dense_ratio"] > 1 and "ratio" not in roof.figures


# geerlingguy/ollama-benchmark's README findings table, as the corpus converter writes a row: the
# system is the host CPU with its card in parentheses, and the CPU/GPU column says where it ran.
_OLLAMA_ROW = ("ollama-benchmark (Ollama), ollama-benchmark / Findings / Llama 3.1:70b: System: "
               "Ryzen 9 7900X (Nvidia 4090); CPU/GPU: {where}; Eval Rate: {rate} Tokens/s; Power (Peak): N/A")


@pytest.mark.parametrize(("where", "offload"), [("GPU/CPU", True), ("CPU+GPU", True), ("GPU", None)])
def test_a_device_column_naming_both_is_an_offloaded_run_and_the_bracketing_cpu_its_host(
        ref: Reference, where: str, offload: bool | None) -> None:
    c = claim(_OLLAMA_ROW.format(where=where, rate="3.10"), ref)
    assert (c.hardware, c.host, c.offload) == ("RTX 4090", "Ryzen 9 7900X", offload)


@pytest.mark.parametrize(("rate", "verdict", "q7"), [("3.10", "consistent", "ok"), ("31.0", "implausible", "stop")])
def test_the_offloaded_run_is_judged_at_its_hosts_memory(ref: Reference, rate: str, verdict: str, q7: str) -> None:
    # 35.3 GB of (assumed 4-bit) Llama 3.1 70B: 25.8 GB on the card at 1008 GB/s, 9.5 GB in the
    # 7900X's memory at AM5's most generous 128 GB/s: 1 ÷ (25.57 + 74.26 ms) = 10.0 tok/s.
    # Ollama cannot speculate, so ten times the honest row is a stop.
    r = report(_OLLAMA_ROW.format(where="GPU/CPU", rate=rate), ref)
    roof = next(q for q in r.questions if q.key == "roofline")
    assert (r.verdict, roof.status) == (verdict, q7)
    assert roof.figures["system_bandwidth_gbs"] == pytest.approx(128.0)
    assert roof.figures["ceiling_tok_s"] == pytest.approx(10.02, abs=0.01)
    assert "of one RTX 4090 (35.3 GB of assumed 4-bit weights, 0.27 of them read from system memory)" in r.headline


def test_a_card_named_by_its_class_is_judged_at_the_classs_most_generous_card(ref: Reference) -> None:
    # The brief's own post: every consumer card is at most an RTX 5090's 1792 GB/s, and 27.8B
    # params (Qwen3.6-27B's row) at an assumed 4 bits are 13.9 GB: 128.9 tok/s, 16.3× below the
    # claim; one stream above that ceiling × the best AL any method published is a stop.
    r = report("27B dense, batch 1, 2048 tokens in 0.969 s — 2103.6 tok/s on one consumer GPU", ref)
    roof = next(q for q in r.questions if q.key == "roofline")
    power = next(q for q in r.questions if q.key == "power")
    assert (r.verdict, roof.status, r.hardware_name) == ("implausible", "stop", "consumer GPU (at most an RTX 5090)")
    assert roof.figures["ceiling_tok_s"] == pytest.approx(1792 / 13.9, rel=1e-3)
    assert r.headline.startswith("implausible — 2103.6 tok/s is 16.3× the batch-1 ceiling of one consumer GPU "
                                 "(at most an RTX 5090)")
    assert power.status == "unanswerable"  # no board power belongs to a class


def test_a_class_is_never_a_board_power(ref: Reference) -> None:
    r = report("Llama 3 8B Q4_K_M on a consumer GPU: 100 tok/s at 99.6 W", ref)
    power = next(q for q in r.questions if q.key == "power")
    assert (r.verdict, power.status, power.missing) == ("consistent", "unanswerable", ["which card (its board power)"])
    assert power.summary == ("99.6 W on a card named only as a consumer GPU: board powers differ card by card, "
                             "so there is none to divide by.")


@pytest.mark.parametrize(("text", "hardware", "host", "platform"), [
    ("7950X3D, DDR5-6000, Llama 3 8B Q8_0: 12 tok/s CPU only", "Ryzen 9 7950X3D", None, "AMD Ryzen 7000 (AM5, Zen 4)"),
    ("Threadripper 7980X 8-channel, DeepSeek V3 Q4 at 9 tok/s", "Ryzen Threadripper 7980X", None,
     "AMD Threadripper 7000 (TRX50)"),
    ("5800X3D + RTX 4090, llama 3 8b q4: 130 tok/s", "RTX 4090", "Ryzen 7 5800X3D", "RTX 4090"),
    ("i7-8700K llama 8B q4 8 tok/s", "i7-8700K", None, "Intel 8th/9th gen desktop (Coffee Lake)"),
    ("i7-1185G7 laptop, llama 3b q4, 6 tok/s", "i7-1185G7", None, "Intel 11th gen mobile (Tiger Lake U)"),
    ("Llama 3.1 8B on Intel Core Ultra 7 155H iGPU: 12 tok/s", "Intel Core Ultra 7 155H", None,
     "Intel Core Ultra Series 1 (Meteor Lake)"),
    # AMD's mobile and APU suffixes, and the Ryzen AI 300 parts
    ("AMD Ryzen 7 7840U laptop, 780M iGPU Vulkan, Llama 3 8B Q4_K_M: 13 tok/s", "Ryzen 7 7840U", None,
     "AMD Ryzen 7040/8040/200 mobile (Phoenix, Hawk Point)"),
    ("Ryzen 9 7945HX, Llama 3 8B Q4_K_M: 11 tok/s", "Ryzen 9 7945HX", None, "AMD Ryzen 7045 mobile (Dragon Range)"),
    ("Ryzen 7 5800H laptop, Llama 3 8B Q4_K_M: 6 tok/s", "Ryzen 7 5800H", None,
     "AMD Ryzen 4000/5000 mobile (Renoir, Cezanne)"),
    ("Ryzen 5 8600G Llama 3 8B Q4_K_M: 9 tok/s", "Ryzen 5 8600G", None, "AMD Ryzen 8000G (AM5 APU)"),
    ("Ryzen AI 9 HX 370, Llama 3 8B Q4_K_M: 13 tok/s", "Ryzen AI 9 HX 370", None, "AMD Ryzen AI 300 (Strix Point, Krackan)"),
    # negative control: a speedup is no CPU
    ("2000x faster than CPU on RTX 4090: 150 tok/s llama 8b", "RTX 4090", None, "RTX 4090"),
])
def test_a_cpu_typed_by_its_bare_number_is_read(ref: Reference, text: str, hardware: str, host: str | None,
                                                 platform: str) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.hardware, c.host) == (hardware, host)
    row = ref.gpu(c.hardware)
    assert row is not None and row.name == platform


@pytest.mark.parametrize(("text", "hardware", "count"), [
    # the board's model number is inside its name, not a count of the SoC beside it
    ("Orange Pi 5 RK3588 NPU running Qwen2.5 1.5B w8a8: 15 tok/s", "RK3588", None),
    ("with 2 RTX 3090 Llama 3 70B Q4: 17 tok/s", "RTX 3090", 2),  # a count before a card still counts
])
def test_a_number_inside_another_name_is_no_count(ref: Reference, text: str, hardware: str, count: int | None) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.hardware, c.hardware_count) == (hardware, count)


@pytest.mark.parametrize(("text", "row"), [
    ("RX 580 8GB Vulkan, Llama 3 8B Q4_0: 25 tok/s", "Radeon RX 580"),
    ("GTX 970 with Phi-3 mini Q4: 30 tok/s", "GeForce GTX 970"),
    ("GTX 980 Ti, Llama 2 7B Q4_0: 40 tok/s", "GeForce GTX 980 Ti"),
    ("Vega 56, Mistral 7B Q4_K_M: 35 tok/s", "Radeon RX Vega 56"),
    ("Radeon VII, Llama 2 13B Q4_0: 45 tok/s", "Radeon VII"),
    ("Titan Xp, Llama 3 8B Q4_K_M: 60 tok/s", "TITAN Xp"),
    ("Tesla K80, Llama 2 7B Q4_0: 8 tok/s", "Tesla K80"),
    ("Instinct MI50 32GB, Llama 2 13B Q4_0: 50 tok/s", "Radeon Instinct MI50"),
    ("P102-100 mining card, Llama 3 8B Q4_0: 40 tok/s", "P102-100"),
    ("NVIDIA A2 16GB, Phi-3 mini Q4: 40 tok/s", "A2"),
])
def test_an_older_card_typed_as_owners_do_is_read_and_answered_by_the_database(
        ref: Reference, text: str, row: str) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    found = ref.gpu(c.hardware)
    assert found is not None
    assert (found.name, found.source_kind) == (row, "database")


@pytest.mark.parametrize("text", [
    "Tesla Model 3 owner here, Llama 3 8B Q4 on my laptop CPU: 9 tok/s",  # a car, not a card
    "Crucial MX500 SSD, Llama 3 8B Q4 on CPU: 9 tok/s",  # a drive, not a card
])
def test_a_product_name_that_is_no_card_is_not_read_as_one(ref: Reference, text: str) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.hardware is None


@pytest.mark.parametrize(("text", "count"), [
    ("B200 8-GPU node, DeepSeek-R1 FP4 TRT-LLM: 250 tok/s per user at batch 1", 8),
    ("4-card 3090 rig, Llama 3 70B Q8: 15 t/s", 4),
])
def test_a_hyphenated_count_before_what_holds_the_cards_is_the_count(ref: Reference, text: str, count: int) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.hardware_count == count


@pytest.mark.parametrize(("text", "layers"), [
    ("RTX 4090, 33 GPU layers, Llama 3 8B Q4_K_M: 100 t/s", 33), ("RTX 3060, -ngl 20, Llama 3 8B: 20 t/s", 20),
])
def test_gpu_layers_in_words_are_the_layers_on_the_card(ref: Reference, text: str, layers: int) -> None:
    assert claim(text, ref).gpu_layers == layers


def test_a_count_ending_a_line_is_not_the_next_lines_cards(ref: Reference) -> None:
    # kvcache-ai/ktransformers issue #314: "RAM：64G 4800MHz DDR5✖️12" over "GPU：RTX 4090 24G✖️1"
    # had been twelve of the machine's device ("12 GPU" across the line break), and its ×10 fake
    # (140 tps) 0.48 of twelve EPYCs' ceiling
    text = (FIXTURES / "ktransformers_314_epyc.txt").read_text()
    c = claim(text, ref)
    assert c.hardware_count is None and c.tok_s == 14.0
    x10 = audit(Evidence(claim=claim(text.replace("速度：14tps", "速度：140tps"), ref)), ref)
    assert x10.verdict in ("suspicious", "implausible")


def test_a_cpu_only_run_named_as_the_baseline_is_not_this_run(ref: Reference) -> None:
    # hexkern.com's DeepSeek R1 671B on an i7-14700 and one RTX 4090 (IQ1_S_R4, experts on the CPU):
    # "doubles generation speed compared to a pure CPU run" had made the CPU the device, and 7 tok/s
    # 1.03× its ceiling at an assumed 4 bits (`suspicious`)
    text = ("Running the full DeepSeek R1 671B on an i7-14700, 192 GB DDR5 at 4800 MT/s and a single RTX 4090 "
            "with IQ1_S_R4 quantization (130 GB) in ik_llama.cpp, attention on GPU and experts on CPU with -ot: "
            "this hybrid placement doubles generation speed compared to a pure CPU run, achieving roughly 7 "
            "tokens per second.")
    c = claim(text, ref)
    assert (c.hardware, c.host, c.weight_format) == ("RTX 4090", "Core i7-14700", "IQ1_S")  # its base type's row
    assert audit(Evidence(claim=c), ref).verdict == "consistent"


@pytest.mark.parametrize(("text", "card"), [
    # names typed glued or spaced the other way ("m4max", "strixhalo", "mi 300x"): had been no hardware
    ("llama 3.1 8b q4 on m4max, bs1: 60 tok/s", "Apple M4 Max"), ("llama 3.1 8b q4 on m2ultra: 60 tok/s", "Apple M2 Ultra"),
    ("llama 3.1 8b q4 on strixhalo: 40 tok/s", "Strix Halo (Ryzen AI Max+ 395)"),
    ("llama 3.1 8b q4 on mi 300x: 200 tok/s", "MI300X"),
])
def test_hardware_names_as_typed_in_a_hurry(ref: Reference, text: str, card: str) -> None:
    assert claim(text, ref).hardware == card
