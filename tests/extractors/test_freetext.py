"""Free-text claims: the seed's worked examples, every spelling, and the primary-number rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import extractors.text
from checks.models import Claim
from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.text import TextReading, parse_text
from extractors.text.freetext import read_free_text

FIXTURES = Path(__file__).parent.parent / "fixtures" / "text"
SEED = "27B dense, batch 1, 2048 tokens in 0.969 s — 2103.6 tok/s on one consumer GPU"


def parse(text: str, ref: Reference) -> TextReading:
    return parse_text(RawDocument.from_text(text), ref)


def claim(text: str, ref: Reference) -> Claim:
    return parse(text, ref).claim


def span(c: Claim, name: str) -> str | None:
    return c.provenance[name].span


def test_public_names_are_exact() -> None:
    assert sorted(extractors.text.__all__) == ["TextReading", "find_links", "parse_text"]


# ---- the seed -----------------------------------------------------------------------------------

def test_seed_sentence(ref: Reference) -> None:
    r = parse(SEED, ref)
    c = r.claim
    assert (c.tok_s, c.tokens_generated, c.wall_seconds) == (2103.6, 2048, 0.969)
    assert (c.batch, c.hardware_count, c.params_total_b, c.is_moe) == (1, 1, 27.0, False)
    assert c.model == "Qwen3.6-27B"  # "27B dense" is a table alias; the name wins
    assert span(c, "tok_s") == "2103.6 tok/s"
    assert span(c, "tokens_generated") == "2048 tokens in 0.969 s"
    assert span(c, "hardware_count") == "one consumer GPU"
    assert span(c, "params_total_b") == "27B dense"
    assert c.provenance["tok_s"].field is None and c.provenance["tok_s"].source == "text"
    assert (r.kind, r.found, r.numbers, r.links) == ("post", ["free_text"], [2103.6], [])


def test_headline_case_of_section_10(ref: Reference) -> None:
    c = claim('27B dense, NVFP4 (0.5 B/param), RTX 5090, batch 1, 2048 tokens in 0.969 s, '
              '2103.6 tok/s, spec window 56, AL 56.0, 99–100 W, TTFT empty, "prefill from cache"',
              ref)
    assert (c.weight_format, c.bits_per_weight, c.hardware) == ("NVFP4", 4.0, "RTX 5090")
    assert (c.spec_window, c.acceptance_length) == (56, 56.0)
    assert c.spec_window_convention == "stated window 'spec window 56' = window 56"
    assert (c.power_w, c.power_w_high) == (99.0, 100.0)
    assert span(c, "power_w") == "99–100 W"
    assert (c.ttft_empty, c.prefill_cached, c.speculative) == (True, True, True)


def test_reply_header_of_section_11(ref: Reference) -> None:
    c = claim("Qwen3.6-27B · NVFP4 · RTX 5090 ×1 · batch 1 · sglang 0.5.4+dflash.a91f3e · "
              "leaderboard record", ref)
    assert (c.model, c.hardware, c.hardware_count) == ("Qwen3.6-27B", "RTX 5090", 1)
    assert (c.engine, c.engine_version) == ("sglang", "0.5.4+dflash.a91f3e")
    assert c.spec_method is None  # "+dflash" is a build suffix, not a method statement


def test_seed_notes(ref: Reference) -> None:
    c = claim('width 56 speculative window with N-gram primary fill (100% acceptance, AL=56.0)',
              ref)
    assert (c.spec_window, c.acceptance_length, c.acceptance_rate) == (56, 56.0, 1.0)
    assert span(c, "acceptance_rate") == "100% acceptance"
    assert span(c, "acceptance_length") == "AL=56.0"


def test_wide_window_row_keeps_the_al_range(ref: Reference) -> None:
    c = claim("window 512 AL 231–292 4691 tok/s", ref)
    assert (c.spec_window, c.tok_s) == (512, 4691.0)
    assert (c.acceptance_length_low, c.acceptance_length_high) == (231.0, 292.0)
    assert c.acceptance_length is None


def test_window_24_row_reports_no_al_and_the_rigour(ref: Reference) -> None:
    c = claim("window 24, AL — , 1074 tok/s; temperature 0, best of six, 15-second cooldown", ref)
    assert (c.spec_window, c.tok_s, c.acceptance_length) == (24, 1074.0, None)
    assert (c.temperature, c.repeats, c.cooldown_s) == (0.0, 6, 15.0)


def test_real_decode_is_autoregressive(ref: Reference) -> None:
    c = claim("same card and model, autoregressive, 79 tok/s", ref)
    assert (c.tok_s, c.speculative) == (79.0, False)


def test_seed_post_fixture(ref: Reference) -> None:
    r = parse((FIXTURES / "seed_post.md").read_text(encoding="utf-8"), ref)
    c = r.claim
    assert r.kind == "post" and r.links == ["https://board.example/records/r-56"]
    assert r.numbers == [2103.6, 79.0]
    assert c.tok_s == 2103.6
    assert (c.hardware, c.hardware_count, c.model) == ("RTX 5090", 1, "Qwen3.6-27B")
    assert (c.spec_method, c.spec_window, c.acceptance_length) == ("DFlash", 56, 56.0)
    assert (c.power_w, c.power_w_high, c.power_method) == (99.0, 100.0, "nvidia-smi")
    assert (c.engine, c.engine_version) == ("sglang", "0.5.4+dflash.a91f3e")


def test_whole_seed_essay_reads_the_claim_not_the_controls(ref: Reference) -> None:
    c = claim((FIXTURES / "seed_essay.txt").read_text(encoding="utf-8"), ref)
    assert c.tok_s == 2103.6  # not the 79 tok/s control
    assert (c.power_w, c.power_w_high) == (99.0, 100.0)  # not the 574–576 W real decode
    assert c.spec_window == 56 and c.acceptance_length == 56.0
    assert (383, 383) in c.ratios and (767, 767) in c.ratios
    assert c.serving_claim is None  # "cannot support a conclusion about multi-user serving"


# ---- tok/s spellings and the primary number -----------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("2103.6 tok/s", 2103.6), ("2103.6 t/s", 2103.6), ("2103.6 tokens/s", 2103.6),
    ("2103.6 tokens/sec", 2103.6), ("2103.6 tokens per second", 2103.6), ("2103.6 TPS", 2103.6),
    ("2103.6 tk/s", 2103.6), ("2103.6 tok/sec", 2103.6), ("2,103.6 tok/s", 2103.6),
    ("2.1k tok/s", 2100.0), ("2103.6tok/s", 2103.6), ("~90 TPS", 90.0),
])
def test_tok_s_spellings(ref: Reference, text: str, value: float) -> None:
    c = claim(f"we got {text} on the box", ref)
    assert c.tok_s == pytest.approx(value)


@pytest.mark.parametrize("text", ["1e309 tok/s", "-5 tok/s", "0 tok/s", "nan tok/s",
                                  "5 it/s", "2048 tokens in"])
def test_impossible_or_other_figures_give_no_tok_s(ref: Reference, text: str) -> None:
    assert claim(text, ref).tok_s is None


def test_primary_is_the_largest_non_baseline_figure(ref: Reference) -> None:
    r = parse("Baseline throughput: 3000 tok/s. With DFlash we reach 195.2 tok/s, "
              "up from 176.5 tok/s.", ref)
    assert r.claim.tok_s == 195.2
    assert r.numbers == [3000.0, 195.2, 176.5]


def test_prefill_speed_is_never_the_primary(ref: Reference) -> None:
    c = claim("prefill 7100 tok/s, decode 52.1 tok/s", ref)
    assert (c.tok_s, c.tok_s_kind) == (52.1, "decode")


def test_only_prefill_figures_are_labelled_prefill(ref: Reference) -> None:
    c = claim("prompt processing: 7100 tok/s", ref)
    assert (c.tok_s, c.tok_s_kind) == (7100.0, "prefill")


@pytest.mark.parametrize(("text", "kind"), [
    ("40 tok/s/user at concurrency 64", "per_user"), ("40 tok/s per user", "per_user"),
    ("900 tok/s per GPU", "per_gpu"), ("aggregate throughput 5000 tok/s", "aggregate"),
    ("end-to-end 120 tok/s", "output"), ("1000 tok/s", None),
    # kvcache-ai/ktransformers doc/en/AMX.md: a throughput is an aggregate, end to end or not
    ("a Xeon4 CPU with a single RTX 4090 GPU achieves 418 tokens/s end-to-end throughput",
     "aggregate"),
    ("e2e throughput: 900 tok/s", "aggregate"),
    # a request's rate ("for each request") and a prompt's length, which is the cell, not the rate
    # (France-Travail/results_benchmark_llm_serving's model cards)
    ("Mean generation speed for 10 parallel requests with a prompt of 1024 tokens and 128 tokens "
     "generated|~36 t/s for each request|", "per_user"),
    # llama-bench's prompt + generation test names both halves: a total, not a decode
    ("M1 Ultra, tinyllama-1.1b Q4_K_M, pp4096+tg128: 2211.38 t/s", "total"),
    ("pp512: 3000 t/s", "prefill"),
    # a total that is a time counts no streams (tinygrad PR #3837's llama benchmark printout)
    ("enqueue in   1.01 ms\ntotal  1.972 ms, 50.71 tok/sec", "output"), ("total time 12 s, 40 tok/s", "output"),
    ("total: 9000 tok/s over 64 requests", "aggregate"),
])
def test_tok_s_kind_when_stated(ref: Reference, text: str, kind: str | None) -> None:
    assert claim(text, ref).tok_s_kind == kind


def test_sibling_runs_in_one_line_use_the_primary_row(ref: Reference) -> None:
    r = parse("256 AL 174–240 4547 tok/s\nwindow 512 AL 231–292 4691 tok/s", ref)
    assert r.claim.tok_s == 4691.0 and r.claim.spec_window == 512
    assert r.claim.acceptance_length_low == 231.0
    assert r.numbers == [4547.0, 4691.0]


@pytest.mark.parametrize(("text", "tokens", "secs"), [
    ("2048 tokens in 0.969 s", 2048, 0.969), ("2048 tokens in 0.969 seconds", 2048, 0.969),
    ("512 output tokens in 969 ms", 512, 0.969), ("1,024 tokens in 2 sec", 1024, 2.0),
])
def test_tokens_in_seconds(ref: Reference, text: str, tokens: int, secs: float) -> None:
    c = claim(text, ref)
    assert (c.tokens_generated, c.wall_seconds) == (tokens, pytest.approx(secs))


# ---- speculative statistics ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "al"), [
    ("AL=56.0", 56.0), ("AL 56", 56.0), ("acceptance length 5.2", 5.2), ("accept len: 3.21", 3.21),
    ("acceptance length of ~4.8", 4.8), ("τ = 6.48", 6.48),
])
def test_acceptance_length_spellings(ref: Reference, text: str, al: float) -> None:
    assert claim(text, ref).acceptance_length == al


@pytest.mark.parametrize(("text", "low", "high"), [
    ("AL 231–292", 231.0, 292.0), ("AL 231-292", 231.0, 292.0), ("AL 4 to 6", 4.0, 6.0),
])
def test_acceptance_length_ranges(ref: Reference, text: str, low: float, high: float) -> None:
    c = claim(text, ref)
    assert (c.acceptance_length_low, c.acceptance_length_high, c.acceptance_length) == (
        low, high, None)


def test_acceptance_length_below_one_is_dropped(ref: Reference) -> None:
    assert claim("AL 0.7", ref).acceptance_length is None


@pytest.mark.parametrize(("text", "rate"), [
    ("100% acceptance", 1.0), ("acceptance rate: 83.1%", 0.831), ("accept rate 0.42", 0.42),
    ("draft acceptance rate of 61%", 0.61),
])
def test_acceptance_rate(ref: Reference, text: str, rate: float) -> None:
    assert claim(text, ref).acceptance_rate == pytest.approx(rate)


def test_ratios_are_collected_but_not_dates(ref: Reference) -> None:
    c = claim("383/383 accepted, then 767/767, on 2026/11/20", ref)
    assert c.ratios == [(383, 383), (767, 767)]
    assert span(c, "ratios") == "383/383; 767/767"


# ---- power ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "low", "high"), [
    ("99 W", 99.0, None), ("99–100 W", 99.0, 100.0), ("99-100W", 99.0, 100.0),
    ("drawing 350 watts", 350.0, None), ("99.6 W of 575 W", 99.6, None),
])
def test_power_spellings(ref: Reference, text: str, low: float, high: float | None) -> None:
    c = claim(text, ref)
    assert (c.power_w, c.power_w_high) == (low, high)


def test_board_power_and_limits_are_not_a_measurement(ref: Reference) -> None:
    c = claim("the card's TDP is 575 W; power limit 450 W", ref)
    assert c.power_w is None
    assert c.power_profile == "power limit 450 W"


# ---- the cell -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "field", "value"), [
    ("batch 1", "batch", 1), ("bs=1", "batch", 1), ("batch size 4", "batch", 4),
    ("batch-1", "batch", 1), ("concurrency 8", "concurrency", 8), ("c=1", "concurrency", 1),
    ("single stream", "concurrency", 1), ("32 concurrent users", "concurrency", 32),
    ("multi-user serving", "serving_claim", True), ("serving 100 users", "serving_claim", True),
    ("ready for production serving", "serving_claim", True),
    ("prefix caching on", "prefix_caching", True), ("prefix caching off", "prefix_caching", False),
    ("without prefix caching", "prefix_caching", False),
    ("TTFT empty", "ttft_empty", True), ("empty time-to-first-token field", "ttft_empty", True),
    ("prefill came from cache", "prefill_cached", True), ("TTFT 0.17 s", "ttft_ms", 170.0),
    ("temperature 0", "temperature", 0.0), ("temp 0.6", "temperature", 0.6),
    ("greedy decoding", "temperature", 0.0), ("best of 6", "repeats", 6),
    ("median of 5 runs", "repeats", 5), ("15 s cooldown", "cooldown_s", 15.0),
    ("cooldown of 2 min", "cooldown_s", 120.0), ("32k context", "context_length", 32768),
    ("ctx 8192", "context_length", 8192), ("context length: 131072", "context_length", 131072),
    ("ISL 1024 / OSL 2048", "input_tokens", 1024), ("3.26x speedup", "speedup", 3.26),
    ("speedup of 2.5×", "speedup", 2.5), ("FP8 KV", "kv_dtype", "FP8"),
    ("q8_0 KV cache", "kv_dtype", "q8_0"), ("KV cache: fp8_e4m3", "kv_dtype", "fp8_e4m3"),
])
def test_cell_and_method_statements(ref: Reference, text: str, field: str, value: Any) -> None:
    c = claim(text, ref)
    assert getattr(c, field) == value
    assert span(c, field)


def test_gpu_temperature_is_not_sampling_temperature(ref: Reference) -> None:
    assert claim("GPU temp 65°C under load", ref).temperature is None


def test_fp8_kv_is_not_the_weight_format(ref: Reference) -> None:
    c = claim("NVFP4 weights with FP8 KV", ref)
    assert (c.weight_format, c.kv_dtype) == ("NVFP4", "FP8")


# ---- model, hardware, engine, method ----------------------------------------------------------

def test_moe_params_and_active(ref: Reference) -> None:
    c = claim("a 30B-A3B MoE", ref)
    assert (c.params_total_b, c.params_active_b, c.is_moe) == (30.0, 3.0, True)


def test_not_moe_is_not_moe(ref: Reference) -> None:
    assert claim("27B dense (not MoE)", ref).is_moe is False


@pytest.mark.parametrize(("text", "hardware", "count"), [
    ("on one RTX 5090", "RTX 5090", 1), ("2× RTX 3090", "RTX 3090", 2), ("2x 3090", "RTX 3090", 2),
    ("dual 3090", "RTX 3090", 2), ("8x H100", None, 8), ("RTX 5090 ×1", "RTX 5090", 1),
    ("on a single consumer GPU", None, 1), ("4 GPUs", None, 4),
    ("on an RTX 4070 Ti", "RTX 4070 Ti", 1), ("MI300X", None, None), ("M3 Ultra", None, None),
])
def test_hardware_and_count(ref: Reference, text: str, hardware: str | None,
                            count: int | None) -> None:
    c = claim(text, ref)
    if hardware is not None:
        assert c.hardware == hardware
    else:
        assert c.hardware is None or ref.gpu(c.hardware) is not None or c.hardware in text
    assert c.hardware_count == count


def test_generic_gpu_outside_the_table_is_kept_raw(ref: Reference) -> None:
    c = claim("RTX 4070 Ti Super, 45 tok/s", ref)
    assert c.hardware is not None and c.hardware.startswith("RTX 4070 Ti")


def test_bare_model_number_followed_by_a_unit_is_not_a_gpu(ref: Reference) -> None:
    assert claim("generated 5090 tokens", ref).hardware is None


@pytest.mark.parametrize(("text", "engine", "version"), [
    ("sglang 0.5.4+dflash.a91f3e", "sglang", "0.5.4+dflash.a91f3e"),
    ("vLLM v0.11.0", "vllm", "0.11.0"), ("llama.cpp b6123", "llama.cpp", "b6123"),
    ("TensorRT-LLM 1.0.0rc4", "tensorrt-llm", "1.0.0rc4"),
    ("Framework: [BeeLlama.cpp]", "BeeLlama.cpp", None), ("vLLM 79.3 tok/s", "vllm", None),
])
def test_engine_and_version(ref: Reference, text: str, engine: str, version: str | None) -> None:
    c = claim(text, ref)
    assert (c.engine, c.engine_version) == (engine, version)


@pytest.mark.parametrize(("text", "speculative", "method"), [
    ("DFlash speculative decoding", True, "DFlash"), ("EAGLE-3 drafter", True, "EAGLE-3"),
    ("with MTP", True, "MTP"), ("speculative decoding on", True, None),
    ("no speculative decoding", False, None), ("without spec decoding", False, None),
    ("plain autoregressive decode", False, None), ("local build suffix", None, None),
])
def test_speculative_and_method(ref: Reference, text: str, speculative: bool | None,
                                method: str | None) -> None:
    c = claim(text, ref)
    assert (c.speculative, c.spec_method) == (speculative, method)


@pytest.mark.parametrize(("text", "window", "convention"), [
    ("window 56", 56, "stated window 'window 56' = window 56"),
    ("block size 16", 16, "DFlash block size 'block size 16' = window 16"),
    ("num_draft_tokens 56", 56, "SGLang num_draft_tokens 'num_draft_tokens 56' = window 56"),
    ("num_speculative_tokens 15", 16,
     "vLLM num_speculative_tokens 'num_speculative_tokens 15' + 1 = window 16"),
    ("draft max 7", 8, "llama.cpp draft max 'draft max 7' + 1 = window 8"),
])
def test_window_statements(ref: Reference, text: str, window: int, convention: str) -> None:
    c = claim(text, ref)
    assert (c.spec_window, c.spec_window_convention) == (window, convention)


def test_block_size_beats_draft_tokens_in_prose(ref: Reference) -> None:
    c = claim("notes: --speculative-num-draft-tokens 48 and --speculative-dflash-block-size 56",
              ref)
    assert c.spec_window == 56


def test_context_window_is_not_a_draft_window(ref: Reference) -> None:
    c = claim("a 32k context window and the wider-window 4691 run", ref)
    assert c.spec_window is None and c.context_length == 32768


# ---- composition ------------------------------------------------------------------------------

def test_command_values_outrank_prose(ref: Reference) -> None:
    r = parse("Runs at 120 tok/s on one GPU with window 99.\n\n"
              "```\npython -m sglang.launch_server --model-path m --speculative-num-draft-tokens 8"
              "\n```", ref)
    assert r.claim.spec_window == 8 and r.claim.tok_s == 120.0
    assert r.found == ["launch_command", "free_text"] and r.kind == "post"


def test_links_are_found_and_trimmed(ref: Reference) -> None:
    r = parse("Record: https://board.example/records/r-56. Also (https://x.com/a/status/1).", ref)
    assert r.links == ["https://board.example/records/r-56", "https://x.com/a/status/1"]


def test_numbers_inside_links_are_not_read(ref: Reference) -> None:
    c = claim("see https://example.com/383/383/runs?bs=4", ref)
    assert c.ratios == [] and c.batch is None


def test_free_text_reader_reports_its_primary(ref: Reference) -> None:
    b = ClaimBuilder("text")
    reading = read_free_text(SEED, b, ref)
    assert (reading.found, reading.primary, reading.numbers) == (True, 2103.6, [2103.6])


def test_empty_text_gives_an_empty_claim(ref: Reference) -> None:
    r = parse("", ref)
    assert r.claim.filled() == {} and r.found == [] and r.kind == "post"


def test_a_lone_power_figure_in_a_plain_decode_post_is_the_claims(ref: Reference) -> None:
    from extractors.document import RawDocument
    from extractors.text import parse_text

    text = "Llama 3.1 8B BF16 on one H100 SXM, batch 1, plain decode: 146 tok/s at 310 W"
    assert parse_text(RawDocument.from_text(text), ref).claim.power_w == 310.0


def test_a_baseline_power_figure_does_not_become_the_claims(ref: Reference) -> None:
    from extractors.document import RawDocument
    from extractors.text import parse_text

    text = "Normally 79 tok/s at 575 W; this run did 2103.6 tok/s at 99 W"
    assert parse_text(RawDocument.from_text(text), ref).claim.power_w == 99.0


@pytest.mark.parametrize("text", [
    "decode 131.42 ± 0.59 tok/s", "decode 131.42 +/- 0.59 tok/s", "tg128: 131.42 +- 0.59 t/s",
])
def test_a_spread_after_the_figure_is_not_the_figure(ref: Reference, text: str) -> None:
    # llama-bench prints "mean ± sd" (SJTU-IPADS/PowerInfer examples/llama-bench/README.md)
    assert claim(text, ref).tok_s == 131.42


@pytest.mark.parametrize("text", [
    "LoRA fine-tuning throughput of Llama 3 8B on one RTX 4090: 2000 tokens/s",
    "Training Llama 3 8B with QLoRA on an RTX 4090 runs at 3,500 tokens/s",
    # kvcache-ai/ktransformers doc/en/SFT: the caption says it for every cell of the row
    "Under LoRA (BF16): [14B-DeepSeekV2-Lite] LoRA fine-tuning throughput; HuggingFace Backend: "
    "303.58 token/s; Unsloth Backend: 455.37 token/s",
])
def test_a_training_throughput_is_no_generation_speed(ref: Reference, text: str) -> None:
    assert claim(text, ref).tok_s is None


@pytest.mark.parametrize("text", [
    "Our fine-tuned Llama 3 8B Q4_K_M runs at 90 tok/s on an RTX 4090",
    "Training is slow, but Llama 3 8B Q4_K_M decodes at 90 tok/s on an RTX 4090.",
    "We fine-tune with LoRA. Inference of the merged model runs at 90 tok/s on a 4090.",
])
def test_a_generation_speed_beside_training_words_is_kept(ref: Reference, text: str) -> None:
    assert claim(text, ref).tok_s == 90.0


@pytest.mark.parametrize(("text", "tok_s", "batch"), [
    # read with the line's first batch, the 900 was `implausible` at 17× the batch-1 ceiling
    ("Qwen3 32B AWQ on L40S with vLLM: 45 tok/s at batch 1, 900 tok/s at batch 32", 900.0, 32),
    ("Qwen3 32B AWQ on L40S: 900 tok/s at batch 32, 45 tok/s at batch 1", 900.0, 32),
    ("batch 1: 45 tok/s; batch 32: 900 tok/s on an L40S", 900.0, 32),
    ("Llama 3.1 8B FP8 on one H100 at batch 1: 240 tok/s", 240.0, 1),
    ("Llama 3.1 8B FP8 on one H100, batch: 9000 tok/s", 9000.0, None),  # the rate is no batch
])
def test_the_headline_figure_takes_the_batch_beside_it(ref: Reference, text: str, tok_s: float,
                                                       batch: int | None) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.batch) == (tok_s, batch)


@pytest.mark.parametrize(("text", "concurrency"), [
    ("H100 running Llama 2 70B at 3000 tok/s, 64 users", 64),
    ("64 parallel requests: 3000 tok/s on H100 Llama 2 70B", 64),
    ("3000 tok/s with 32 simultaneous users on an H100", 32),
    ("RTX 4090, 1 user: 50 tok/s llama 3 8b", 1),
    ("getting ~1.2k tok/s on Llama 3 8B with vLLM on an A100, 32 concurrent", 32),
    ("4 concurrent GPUs at 300 tok/s", None),  # a count of cards is no concurrency
    ("DeepSeek R1 on 8x H200 with SGLang, 128 concurrency: 4500 tok/s total", 128),
    ("8x H200 SGLang DeepSeek R1, concurrency: 4500 tok/s total", None),  # the rate is no count
])
def test_users_and_parallel_requests_are_the_concurrency(ref: Reference, text: str, concurrency: int | None) -> None:
    assert parse_text(RawDocument.from_text(text), ref).claim.concurrency == concurrency


@pytest.mark.parametrize(("text", "total", "active"), [
    ("1 trillion parameter model on a single H100 at 500 tok/s", 1000.0, None),
    ("a 1T param MoE with 32B active params on 8x H200: 100 tok/s", 1000.0, 32.0),
    ("1.5B parameter model on RTX 4090: 500 tok/s", 1.5, None),
])
def test_a_parameter_count_in_billions_or_trillions(ref: Reference, text: str, total: float,
                                                    active: float | None) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.params_total_b, c.params_active_b) == (total, active)


def test_mlx_lm_generate_printout_gives_its_generation_rate(ref: Reference) -> None:
    # mlx_lm.generate's verbose lines (ml-explore/mlx-lm generate.py prints "tokens-per-sec")
    c = claim((FIXTURES / "mlx_generate.txt").read_text(), ref)
    assert (c.tok_s, c.tok_s_kind, c.hardware, c.model) == (41.233, "decode", "Apple M2 Max", "Llama 3.1 8B")


@pytest.mark.parametrize(("text", "tok_s", "kind"), [
    # koboldcpp's console line (its shape as pasted in LostRuins/koboldcpp issue #972): the
    # "Process:" rate is the prompt's, "Generate:" the decode rate; before, the prompt's 476 was
    # the headline and the claim was flagged at 4.8x the ceiling
    ("koboldcpp, RTX 3060 12GB, Mistral 7B Q4_K_M: CtxLimit:1024/4096, Amt:512/512, Init:0.01s, "
     "Process:0.35s (2.1ms/T = 476.19T/s), Generate:11.02s (21.5ms/T = 46.46T/s), Total:11.37s (45.03T/s)",
     46.46, "decode"),
    # its older line has no per-phase rate: the total's is the one figure, one stream's tokens over
    # the whole time ("Total:4.06s" is a time, no sum of streams)
    ("koboldcpp on a 3060, Mistral 7B: ContextLimit: 614/2048, Processing:0.43s (5.5ms/T), "
     "Generation:3.62s (55.8ms/T), Total:4.06s (16.02T/s)", 16.02, "output"),
    ("While processing, my 4090 gives 45 tok/s with Llama 3 8B", 45.0, None),  # in prose no label
])
def test_koboldcpp_labels_name_the_prompt_and_the_decode_rate(ref: Reference, text: str, tok_s: float,
                                                              kind: str | None) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind) == (tok_s, kind)


@pytest.mark.parametrize(("text", "tok_s", "kind", "concurrency"), [
    # a generation throughput sums the running requests (vLLM's "Avg generation throughput",
    # SGLang's "gen throughput"): read as one stream it was `implausible` at 9x a 3090's ceiling
    ("vllm serve Qwen2.5-7B on RTX 3090: 2200 tok/s generation throughput, 128 requests", 2200.0, "aggregate", None),
    ("llama.cpp server on a 3090, Llama 3.1 8B Q4_K_M, 4 clients in parallel: 380 t/s combined",
     380.0, "aggregate", 4),
    ("RTX 4090 Llama 3 8B Q4_K_M: 140 t/s generation", 140.0, "decode", None),  # "generation" alone stays decode
])
def test_a_generation_throughput_or_a_combined_figure_is_an_aggregate(
        ref: Reference, text: str, tok_s: float, kind: str, concurrency: int | None) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind, c.concurrency) == (tok_s, kind, concurrency)


@pytest.mark.parametrize(("text", "tok_s", "kind"), [
    # a per-token time is a rate read upside down; before, each of these was "no speed claim found"
    ("RTX 4090, Llama 3 8B Q4_K_M: 7.1 ms/token", 140.85, "decode"),
    ("RTX 4090, Llama 3 8B Q4_K_M: 7.1 ms per token generation", 140.85, "decode"),
    ("RTX 4090, Llama 3 8B Q4_K_M: prompt eval 0.09 ms per token", 11111.11, "prefill"),
    ("RTX 4090, Llama 3 8B Q4_K_M: 140 tok/s, 7.1 ms/token", 140.0, None),  # the tok/s figure is the claim
])
def test_a_per_token_time_is_its_rate(ref: Reference, text: str, tok_s: float, kind: str | None) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind) == (tok_s, kind)


def test_a_per_token_time_passes_the_chat_prefilter() -> None:
    from extractors.text.units import states_speed

    assert states_speed("Llama 3 8B on my 4090: 7.1 ms/token")
    assert not states_speed("SDXL on a 4090: 12 it/s")
    assert not states_speed("TTFT median 364.66 ms, TPOT median 109.44 ms")  # latency talk, no claim


def test_an_idle_draw_is_not_the_runs_power(ref: Reference) -> None:
    # geerlingguy/ai-benchmarks issue #46 (RTX 2080 Ti): "Idle power draw: 47.7W" above the
    # llama-bench table, "Power consumption: 241.4W" below it; the idle figure had been the run's
    # draw, 0.19 of board power, "the GPU is waiting" (`suspicious`)
    text = (Path(__file__).parent.parent / "fixtures" / "text" / "geerling_2080ti_power.md").read_text()
    c = claim(text, ref)
    assert (c.power_w, c.tok_s, c.tok_s_kind) == (241.4, 424.32, "decode")


@pytest.mark.parametrize(("text", "tok_s", "fmt"), [
    # a paraphrase of llama.cpp PR #4766's RTX 4090 table: the 98 t/s is Q8_0's (7.2 GB × 98 =
    # 703 GB/s of 1008), and had been read with the F16 named first (1.3× its ceiling)
    ("4090, llama 7B F16: 61 t/s, Q8_0: 98 t/s", 98.0, "Q8_0"),
    ("RTX 4090, Llama 2 7B: F16 61 t/s, Q8_0 98 t/s, Q4_0 140 t/s", 140.0, "Q4_0"),
    # the figure's part names no format: the first mention stands
    ("Llama 3 8B Q4_K_M, 3090: 110 t/s", 110.0, "Q4_K_M"),
    ("Qwen3-8B Q8_0 + Qwen3-1.7B Q4_K_M draft, 3090: 95 t/s", 95.0, "Q8_0"),
])
def test_a_figure_takes_the_format_of_its_own_part(ref: Reference, text: str, tok_s: float, fmt: str) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.weight_format) == (tok_s, fmt)


def test_koboldcpp_perf_summary_post_reads_the_generation(ref: Reference) -> None:
    text = (Path(__file__).parent.parent / "fixtures" / "text" / "koboldcpp_perf_1527.txt").read_text()
    assert claim(text, ref).tok_s == 3.76


@pytest.mark.parametrize(("text", "tok_s", "kind"), [
    # koboldcpp's perf summary (LostRuins/koboldcpp issue #1527, two 3090s) in one-word labels: the
    # prompt's 406.84 had been the claim, not the generation's 3.76
    ("ProcessingTime: 9.822s\nProcessingSpeed: 406.84T/s\nGenerationTime: 26.624s\nGenerationSpeed: 3.76T/s",
     3.76, "decode"),
    ("ProcessingSpeed: 406.84T/s", 406.84, "prefill"),
    # llama-bench's tests as labels before their figures, no comma between: the "tg" after the
    # prompt's figure is the next figure's name (both had been `implausible` at the prompt's rate)
    ("llama 8b q4 on 3060: pp512 1500 t/s tg128 54 t/s", 54.0, "decode"),
    ("llama 8B Q4_K_M 4090: pp512 11000 t/s tg128 140 t/s", 140.0, "decode"),
    ("llama 8b q4 on 3060: pp 1500 t/s / tg 54 t/s", 54.0, "decode"),
    # a kind word after a figure, not glued to the next number, is still that figure's
    ("RTX 4090: 45 tok/s decode, 2000 tok/s prefill", 45.0, "decode"),
])
def test_labels_as_tools_print_them_name_their_own_figure(ref: Reference, text: str, tok_s: float, kind: str) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind) == (tok_s, kind)


@pytest.mark.parametrize(("text", "window", "method"), [
    # EAGLE-3's own evaluation command (SafeAILab/EAGLE@cb7e0841 eagle/evaluation/gen_ea_answer_llama3chat.py)
    # with the paper's MT-bench figures (arXiv 2503.01840 Table 1): its tree holds 60 tokens, one pass
    # accepts at most depth 7 + 1; the method is EAGLE-3 ("--use_eagle3", an EAGLE3 drafter), not EAGLE-1,
    # whose best published AL (3.64) had made the honest 6.13 `suspicious`
    ("python -m eagle.evaluation.gen_ea_answer_llama3chat --ea-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
     "--base-model-path meta-llama/Llama-3.1-8B-Instruct --use_eagle3 --total-token 60 --depth 7 --top-k 10\n"
     "MT-bench, temperature 0: speedup 4.40x, average acceptance length 6.13", 8, "EAGLE-3"),
    ("EAGLE-3 on Vicuna 13B (fp16), HumanEval, T=0, draft tree depth 8 with 50 draft tokens (total_token=50): "
     "speedup 6.47x, average acceptance length 7.54", 9, "EAGLE-3"),
    # SpecForge issue #339's SGLang flags retold in prose: num_steps 8 over topk 8 branches
    ("Qwen3-30B-A3B on 2x H100, SGLang EAGLE3, --speculative-num-steps 8 --speculative-eagle-topk 8 "
     "--speculative-num-draft-tokens 60: throughput 177.5 token/s, acc len 3.2", 9, "EAGLE-3"),
    # a context's depth is no tree's
    ("RTX 4090, Llama 3 8B Q4_K_M, tg128 at depth 16: 120 t/s", None, None),
])
def test_a_draft_trees_depth_bounds_its_window(ref: Reference, text: str, window: int | None,
                                              method: str | None) -> None:
    c = claim(text, ref)
    assert (c.spec_window, c.spec_method) == (window, method)


@pytest.mark.parametrize(("text", "tok_s", "al"), [
    # SpecForge issue #339: "acc len", and the base model's rate in brackets is the baseline
    ("Qwen3-30B-A3B on 2x H100, SGLang EAGLE3, batch size 1: throughput 177.5 token/s, acc len 3.2 "
     "(base model 222.47 token/s)", 177.5, 3.2),
    # vLLM's spec-decode line spells it "Accpt Len"; retold without the log's running count the
    # generation throughput is prose, not a log line the reader keeps and drops
    ("vLLM EAGLE-3 on H100, Llama 3.1 8B bf16, batch 1: Avg generation throughput: 180 tokens/s, "
     "Accpt Len: 1.89", 180.0, 1.89),
    ("EAGLE-3 on a 4090: 200 tok/s, avg accept length 3.5", 200.0, 3.5),
])
def test_acceptance_length_as_tools_spell_it(ref: Reference, text: str, tok_s: float, al: float) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.acceptance_length) == (tok_s, al)


@pytest.mark.parametrize(("row", "concurrency"), [("5 423 tok/s 153 6.15s", 5), ("50 3,428 tok/s 1,296 7.75s", 50)])
def test_a_plain_text_tables_first_column_is_its_rows_count(ref: Reference, row: str, concurrency: int) -> None:
    # docs.vultr.com's MI325X stress tests rendered as text: the row's first number is the
    # Concurrency column's (ignored, 3428 tok/s over 50 requests had been one stream, `suspicious`)
    text = ("Llama-3.1-405B-Instruct on 8x AMD Instinct MI325X GPUs (vLLM, fp8).\nConcurrency Scaling\n"
            f"Concurrency Throughput Output tok/s p99 Latency\n{row}")
    assert claim(text, ref).concurrency == concurrency
    # a count's name elsewhere in the text is no column
    assert claim("Concurrency matters.\nRTX 4090, Llama 3 8B Q4: 130 tok/s", ref).concurrency is None
