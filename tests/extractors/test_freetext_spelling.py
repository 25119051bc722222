"""Chat spellings: card counts, shortened model names, sizes from names, units, quants, figures
that are not the decode rate, speculative windows in plain words, offload. Each family is one
parametrized test; the examples the first trial missed each have a row."""

from __future__ import annotations

from typing import Any

import pytest

from checks.models import Claim
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.text import parse_text


def claim(text: str, ref: Reference) -> Claim:
    return parse_text(RawDocument.from_text(text), ref).claim


@pytest.mark.parametrize(("text", "card", "count"), [
    ("DeepSeek-R1 on 8xH200: 1000 tok/s", "H200 SXM", 8),
    ("8× B200, 253 tok/s", "B200", 8),
    ("2x 3090s do 30 tok/s on 70B", "RTX 3090", 2),
    ("dual 4090s: 35 tok/s on 70B Q4", "RTX 4090", 2),
    ("70B on 4 GPUs at 40 tok/s", None, 4),
    ("DeepSeek V3 with TP8: 60 tok/s", None, 8),
    ("my 3090 does 120 t/s on llama3 8b q4_k_m", "RTX 3090", 1),
    ("my 3090s do 120 t/s", "RTX 3090", None),
    ("4*2080ti, almost 10t/s for llama 65b", "RTX 2080 Ti", 4),
    ("1P1D on two H200 machines: 2059 tok/s", "H200 SXM", None),
    ("dual-socket EPYC 9334: 8.1 tok/s", "EPYC 9334", 2),
    ("Intel CPU 8 tokens/s, M2 20 tokens/s, 8 x Quadro P6000 40 tokens/s", "Quadro P6000", 8),
])
def test_card_count_spellings(ref: Reference, text: str, card: str | None,
                              count: int | None) -> None:
    c = claim(text, ref)
    assert (c.hardware, c.hardware_count) == (card, count)


@pytest.mark.parametrize(("text", "card"), [
    ("4060 Ti 16GB: 55 tok/s", "RTX 4060 Ti 16GB"), ("RTX 5070 12GB: 98 tok/s", "RTX 5070"),
    ("2080 Ti does 60 tok/s", "RTX 2080 Ti"), ("7900 XTX ROCm: 34.6 tok/s", "RX 7900 XTX"),
    ("RTX 4070 Ti SUPER 16GB: 72 t/s", "RTX 4070 Ti SUPER"),
    ("RTX 5090 laptop: 370 tokens/s", "RTX 5090 Laptop"),
    ("8x H200 NVL: 1000 tokens/s", "H200 NVL"), ("A6000 does 13 tokens/s", "RTX A6000"),
    ("RX 890m iGPU: 3.5 t/s", "Radeon 890M"), ("on the Mac mini M4: 39 t/s", "Apple M4"),
    ("13900k: 18.27 t/s", "Core i9-13900K"), ("AI Max 395: 41.5 t/s", "Strix Halo (Ryzen AI Max+ 395)"),
    ("Cerebras hits 969 tok/s on Llama 3.1 405B", "Cerebras WSE-3"),
    ("Groq around 476 t/s on gpt-oss-120b", "Groq LPU"),
])
def test_cards_are_spelled_the_way_the_tables_spell_them(ref: Reference, text: str,
                                                          card: str) -> None:
    assert claim(text, ref).hardware == card


@pytest.mark.parametrize(("text", "model", "total", "active", "moe"), [
    ("Yi 34B at 30 tok/s", "Yi 34B", 34.0, None, None),
    ("Falcon 40B at 20 tok/s", "Falcon 40B", 40.0, None, None),
    ("InternLM2 20B at 30 tok/s", "InternLM 2 20B", 20.0, None, None),
    ("DeepSeek-R1-8B Q4_K_M: 27.8 tok/s", "DeepSeek R1 8B", 8.0, None, None),
    ("Gemma 4 26B-A4B at 60 tok/s", "Gemma 4 26B-A4B", 26.0, 4.0, True),
    ("Mistral 8x7B at 50 tok/s", "Mistral 8x7B", 56.0, None, True),
])
def test_a_name_outside_the_tables_gives_its_size_marked_inferred(
        ref: Reference, text: str, model: str, total: float, active: float | None,
        moe: bool | None) -> None:
    c = claim(text, ref)
    assert ref.model(c.model) is None
    assert (c.model, c.params_total_b, c.params_active_b, c.is_moe) == (model, total, active, moe)
    assert c.size_inferred is True and c.provenance["size_inferred"].span


@pytest.mark.parametrize(("text", "row"), [
    ("L3.1-70B on 2x 3090: 18 t/s", "Llama 3.1 70B"),
    ("gpt oss 120b at 50 tok/s", "gpt-oss-120b"),
    ("r1-671b fp8 on 8 H200s: 200 tokens/s", "DeepSeek V3"),
    ("llama3_1_8b_instruct_q40: 17.91 tok/s", "Llama 3.1 8B"),
    ("235B-A22B: Qwen3-235B-A22B Q2_K at 4.7 t/s", "Qwen3 235B-A22B"),
])
def test_a_shortened_name_finds_its_table_row(ref: Reference, text: str, row: str) -> None:
    c = claim(text, ref)
    assert c.model == row and c.size_inferred is None


@pytest.mark.parametrize(("text", "value"), [
    ("120 t/s", 120.0), ("120 tk/s", 120.0), ("120 tokens/sec", 120.0), ("120 tps", 120.0),
    ("120 tok/sec", 120.0), ("3800+ tokens/s", 3800.0), ("22,9 tokens/second", 22.9),
    ("9~13tokens/s", 13.0), ("529.6 gen tok/s", 529.6), ("27 eval tok/sec", 27.0),
])
def test_unit_spellings(ref: Reference, text: str, value: float) -> None:
    assert claim(f"on a 3090, {text}", ref).tok_s == pytest.approx(value)


@pytest.mark.parametrize(("text", "fmt"), [
    ("q4_k_m", "Q4_K_M"), ("Q4", "Q4"), ("4-bit", "4-bit"), ("4bit", "4-bit"), ("AWQ", "W4A16 g128"),
    ("GPTQ-int4", "W4A16 g128"), ("EXL2 4.0bpw", "EXL2"), ("MLX 4bit", "MLX 4-bit"),
    ("NVFP4", "NVFP4"), ("MXFP4", "MXFP4"), ("FP8", "FP8"), ("bf16", "BF16"), ("IQ4_KS", "IQ4_KS"),
    ("q40", "Q4_0"), ("bnb 4bit", "NF4"),
])
def test_quant_spellings(ref: Reference, text: str, fmt: str) -> None:
    assert claim(f"Llama 3 8B {text} on a 3090: 90 tok/s", ref).weight_format == fmt


@pytest.mark.parametrize(("text", "value", "kind"), [
    ("pp512 3000 t/s", 3000.0, "prefill"),
    ("pp512 3000 t/s, tg128 120 t/s", 120.0, "decode"),
    ("gen 23.2 t/s, prefill 411 t/s", 23.2, "decode"),
    ("66 tok/s generation, 779 prefill", 66.0, "decode"),
    ("Qwen 27B at 136 t/s with speculative decoding", 136.0, None),
    ("2.2 t/s without SD, 3.5 t/s with a llama-3.2-1B draft", 3.5, None),
])
def test_which_figure_is_the_decode_rate(ref: Reference, text: str, value: float,
                                         kind: str | None) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind) == (value, kind)


@pytest.mark.parametrize("text", ["120 tok/s per dollar on the 5070 Ti", "3 tok/s/W on a 3090",
                                  "4 to 7x more tokens per dollar"])
def test_an_efficiency_is_not_a_speed(ref: Reference, text: str) -> None:
    assert claim(text, ref).tok_s is None


@pytest.mark.parametrize(("text", "window", "convention"), [
    ("EAGLE with 3 speculative tokens", 4, "3 speculative tokens + 1 bonus token = window 4"),
    ("vLLM eagle k=3", 4, "k=3 drafted tokens + 1 bonus token = window 4"),
    ("num_speculative_tokens=3", 4, "vLLM num_speculative_tokens 'num_speculative_tokens=3' + 1 = "
                                    "window 4"),
    ("speculative decoding, draft length 5", 6, "draft length 5 + 1 bonus token = window 6"),
    ("DFlash block size 16", 16, "DFlash block size 'block size 16' = window 16"),
    ("spec window 56", 56, "stated window 'spec window 56' = window 56"),
    ("speculative sampling with γ=4", 5, "γ=4 drafted tokens + 1 bonus token = window 5"),
    ("speculative run, --draft 8", 9, "llama.cpp --draft 8 + 1 bonus token = window 9"),
    ("MTP n_max=4", 5, "n_max=4 drafted tokens + 1 bonus token = window 5"),
    ("with MTP=3 on 8xB200", 4, "TensorRT-LLM MTP=3 next-n tokens + 1 = window 4"),
])
def test_windows_in_plain_words_carry_their_convention(ref: Reference, text: str, window: int,
                                                       convention: str) -> None:
    c = claim(f"{text}, 150 tok/s", ref)
    assert (c.spec_window, c.spec_window_convention, c.speculative) == (window, convention, True)


def test_a_bare_k_is_a_top_k_not_a_window(ref: Reference) -> None:
    assert claim("sampling with k=3, 150 tok/s", ref).spec_window is None


@pytest.mark.parametrize("text", ["no speculative decoding", "plain decode", "no draft model",
                                  "without a draft", "no SD"])
def test_plain_decode_in_words(ref: Reference, text: str) -> None:
    c = claim(f"Llama 3.1 405B FP8 on 8x H100 at 150 tok/s batch 1, {text}", ref)
    assert (c.speculative, c.spec_window) == (False, None)


@pytest.mark.parametrize(("text", "fields"), [
    ("70B Q4_K_M on a 4090 + 64GB RAM offload: 4 tok/s",
     {"offload": True, "system_ram_gb": 64.0}),
    ("partial offload, 70B at 6 tok/s", {"offload": True}),
    ("offloaded with -ngl 30, 9 tok/s", {"gpu_layers": 30, "offload": None}),
    ("-ngl 99 on one 3090, 87 tok/s", {"gpu_layers": 99, "offload": False}),
    ("gpt-oss-120b with --cpu-moe, 64GB of system RAM, DDR5 at 89.6 GB/s: 25 tok/s",
     {"offload": True, "system_ram_gb": 64.0, "system_bandwidth_gbs": 89.6}),
])
def test_offload_in_prose(ref: Reference, text: str, fields: dict[str, Any]) -> None:
    c = claim(text, ref)
    assert {k: getattr(c, k) for k in fields} == fields


@pytest.mark.parametrize(("text", "fields"), [
    ("my 3090 does 120 t/s on llama3 8b q4_k_m",
     {"tok_s": 120.0, "hardware": "RTX 3090", "hardware_count": 1, "model": "Llama 3 8B",
      "weight_format": "Q4_K_M"}),
    ("DeepSeek-R1 on 8xH200 at 1000 tok/s",
     {"hardware": "H200 SXM", "hardware_count": 8, "model": "DeepSeek V3"}),
    ("dual 4090s running Llama 3 70B at 35 tok/s",
     {"hardware": "RTX 4090", "hardware_count": 2, "model": "Llama 3 70B"}),
    ("Phi-4 14B on a 4060 Ti 16GB: 25 tok/s",
     {"hardware": "RTX 4060 Ti 16GB", "model": "Phi-4"}),
    ("mistral 7b instruct on an RTX 5070: 110 t/s",
     {"hardware": "RTX 5070", "hardware_count": 1, "model": "Mistral 7B"}),
    ("qwen2.5 coder 32b at 30 tok/s", {"model": "Qwen2.5 32B"}),
    ("r1 distill 32b at 30 tok/s", {"model": "Qwen2.5 32B"}),
    ("Llama 3.1 405B FP8 on 8x H100 at 150 tok/s batch 1",
     {"tok_s": 150.0, "hardware": "H100 SXM", "hardware_count": 8, "model": "Llama 3.1 405B",
      "weight_format": "FP8", "batch": 1, "speculative": None}),
    ("Qwen3.6-27B Q6_K on one RTX 3090 (450 W): 15.5 tok/s",
     {"tok_s": 15.5, "hardware": "RTX 3090", "hardware_count": 1, "model": "Qwen3.6-27B",
      "weight_format": "Q6_K", "power_w": 450.0}),
])
def test_the_examples_the_first_trial_missed(ref: Reference, text: str,
                                             fields: dict[str, Any]) -> None:
    c = claim(text, ref)
    assert {k: getattr(c, k) for k in fields} == fields


def test_the_model_on_the_headline_line_is_the_claims(ref: Reference) -> None:
    c = claim("Baseline: Llama 3 8B at 40 tok/s\nOurs: Qwen3 8B at 90 tok/s on a 4090", ref)
    assert (c.tok_s, c.model, c.hardware) == (90.0, "Qwen3 8B", "RTX 4090")


def test_a_draft_model_after_the_target_is_not_the_claims(ref: Reference) -> None:
    c = claim("Qwen3-8B Q8_0 + Qwen3-1.7B Q4_K_M draft = 279.9 tok/s on a 3090", ref)
    assert (c.model, c.weight_format, c.speculative) == ("Qwen3 8B", "Q8_0", True)


@pytest.mark.parametrize(("text", "tok_s"), [
    # h2oai/h2ogpt@0dec0f52 perf.md writes its unit in square brackets
    ("Llama 3 8B Q4_K_M on RTX 4090: generation speed [tokens/sec]: 41.94", 41.94),
    ("RTX 4090, Llama 3 8B Q4_K_M, speed [t/s]: 120", 120.0),
    # lmdeploy's prose unit (InternLM/lmdeploy docs/en/benchmark): "out tok/s"
    ("lmdeploy, llama2-7b fp16 on one A100 80GB, batch 1: 100.02 out tok/s", 100.02),
])
def test_units_as_benchmark_docs_write_them(ref: Reference, text: str, tok_s: float) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.tok_s == tok_s


@pytest.mark.parametrize(("text", "tok_s"), [
    # a decimal comma past three digits: "2103,6" had been read as 6 tok/s
    ("llama 8b q4 on 3090 bs1, 2103,6 tok/s", 2103.6), ("llama 8b q4 on 3090 bs1, 93,5 tok/s", 93.5),
    ("llama 8b q4 on 3090 bs1, 2,103 tok/s", 2103.0),  # thousands, as before
])
def test_a_decimal_comma_is_read_where_no_thousands_grouping_could_be(ref: Reference, text: str, tok_s: float) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.tok_s == tok_s


@pytest.mark.parametrize("text", [
    "phi-4 fp16 on 4090: 700 tok/s, one user", "qwen 2.5 7b fp16, t4, 400 tok/s for one user",
    "Llama 3 8B Q4 on a 3090, one request at a time: 120 t/s", "no batching, 8B Q4 on 4090: 130 t/s",
])
def test_one_user_in_words_is_one_stream(ref: Reference, text: str) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.concurrency == 1


@pytest.mark.parametrize(("text", "tok_s", "model"), [
    # kvcache-ai/ktransformers issues write Chinese around the figure: a CJK character touching a
    # number is a word of its own script, not part of the number (the posts had been refused)
    ("在4090上 DeepSeek-R1 Q4_K_M，测下来大概是1.87 token/s", 1.87, "DeepSeek V3"),
    ("速度：14tps, RTX 3090, Llama 3 8B Q4", 14.0, "Llama 3 8B"),
    # a word processor's non-breaking hyphens (U+2011) in a name are hyphens
    ("gpt\u2011oss\u2011120b on an RTX 5090 with experts on the CPU: 35 tok/s", 35.0, "gpt-oss-120b"),
])
def test_figures_and_names_as_other_scripts_and_editors_write_them(ref: Reference, text: str, tok_s: float,
                                                                   model: str) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.tok_s, c.model) == (tok_s, model)


@pytest.mark.parametrize(("text", "tok_s"), [
    # a million is "M": "1.2M tok/s total" had been refused; the same claim in digits is 50.9× its
    # 64 users' ceiling
    ("qwen2.5 72b fp8 on 8x h100, 64 concurrent users, 1.2M tok/s total", 1_200_000.0),
    ("RTX 4090, Llama 3 8B: 2.1k t/s prefill", 2100.0),
])
def test_a_figures_multiplier(ref: Reference, text: str, tok_s: float) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.tok_s == tok_s
