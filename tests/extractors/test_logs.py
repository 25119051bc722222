"""Engine log lines and benchmark printouts: fields, aggregation over lines, provenance."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim
from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.text import TextReading, parse_text
from extractors.text.logs import LogReading, read_logs

FIXTURES = Path(__file__).parent.parent / "fixtures" / "text"


def parse_fixture(name: str, ref: Reference) -> TextReading:
    return parse_text(RawDocument((FIXTURES / name).read_bytes(), source=name), ref)


def logs(text: str, ref: Reference) -> tuple[Claim, LogReading]:
    b = ClaimBuilder("text")
    reading = read_logs(text, b, ref)
    return b.build(), reading


# ---- vLLM -------------------------------------------------------------------------------------

def test_vllm_log_spec_decoding_metrics_are_averaged_and_summed(ref: Reference) -> None:
    r = parse_fixture("vllm_server.log", ref)
    c = r.claim
    assert r.kind == "log" and "vllm_log" in r.found
    assert c.acceptance_length == pytest.approx((4.62 + 4.60 + 4.40) / 3, abs=1e-4)
    assert c.acceptance_rate == pytest.approx((24.1 + 24.0 + 22.7) / 300, abs=1e-6)
    assert (c.accepted_tokens, c.drafted_tokens) == (1664 + 1728 + 1496, 6900 + 7200 + 6600)
    assert c.ratios == [(1664, 6900), (1728, 7200), (1496, 6600), (4888, 20700)]
    p = c.provenance["acceptance_length"]
    assert p.field == "SpecDecoding metrics: Mean acceptance length (mean of 3 lines)"
    assert p.span is not None and "Mean acceptance length: 4.62" in p.span
    assert p.source == "vllm_server.log"


def test_vllm_log_banner_and_non_default_args(ref: Reference) -> None:
    c = parse_fixture("vllm_server.log", ref).claim
    assert (c.engine, c.engine_version) == ("vllm", "0.11.0")
    assert c.model == "Qwen/Qwen3.5-27B"
    assert (c.spec_method, c.drafter_model) == ("DFlash", "z-lab/Qwen3.5-27B-DFlash")
    assert c.spec_window == 16
    assert c.spec_window_convention == "vLLM num_speculative_tokens 15 + 1 = window 16"
    assert c.provenance["spec_window"].field == "speculative_config.num_speculative_tokens"
    assert (c.context_length, c.kv_dtype, c.prefix_caching) == (32768, "fp8", False)


def test_vllm_generation_throughput_ignores_idle_intervals(ref: Reference) -> None:
    r = parse_fixture("vllm_server.log", ref)
    assert r.claim.tok_s == pytest.approx((212.4 + 215.8) / 2)
    assert r.claim.tok_s_kind == "decode"
    assert r.claim.concurrency == 1
    assert r.numbers == [212.4, 215.8]


def test_vllm_current_speculative_depth_is_window_minus_one(ref: Reference) -> None:
    c, _ = logs("SpecDecoding metrics: Mean acceptance length: 6.82, Current speculative depth: "
                "7, Accepted: 5820 tokens, Drafted: 7000 tokens, Per-position acceptance rate: "
                "1.000, 1.000, 1.000, 1.000, 0.795, 0.614, 0.409, Avg Draft acceptance rate: "
                "83.1%", ref)
    assert (c.acceptance_length, c.acceptance_rate) == (6.82, 0.831)
    assert c.spec_window == 8
    assert c.spec_window_convention == (
        "vLLM log 'Current speculative depth: 7' + 1 = window 8")


def test_vllm_older_metrics_line_without_al(ref: Reference) -> None:
    c, _ = logs("INFO SpecDecoding metrics: Draft acceptance rate: 61.5%, Accepted: 800 tokens, "
                "Drafted: 1300 tokens, Total draft acceptance rate: 60.0%, Total accepted: 1200 "
                "tokens, Total drafted: 2000 tokens", ref)
    assert c.acceptance_length is None
    assert c.acceptance_rate == 0.615
    assert (c.accepted_tokens, c.drafted_tokens) == (800, 1300)


def test_vllm_nan_rate_and_al_below_one_are_dropped(ref: Reference) -> None:
    c, _ = logs("SpecDecoding metrics: Mean acceptance length: 0.50, Accepted: 0 tokens, "
                "Drafted: 0 tokens, Avg Draft acceptance rate: nan%", ref)
    assert c.acceptance_length is None and c.acceptance_rate is None
    assert c.speculative is True


# ---- SGLang -----------------------------------------------------------------------------------

def test_sglang_decode_batch_lines_are_averaged(ref: Reference) -> None:
    r = parse_fixture("sglang_server.log", ref)
    c = r.claim
    assert r.kind == "log" and r.found == ["sglang_log"]
    assert c.acceptance_length == pytest.approx((5.12 + 4.88 + 5.30 + 4.70) / 4)
    assert c.acceptance_rate == pytest.approx((0.27 + 0.26 + 0.29 + 0.25) / 4)
    assert c.tok_s == pytest.approx((301.55 + 289.10 + 310.42 + 280.93) / 4, abs=1e-4)
    assert (c.tok_s_kind, c.concurrency) == ("decode", 1)
    assert c.provenance["tok_s"].field == "gen throughput (token/s) (mean of 4 Decode batch lines)"
    assert c.provenance["acceptance_length"].field == "accept len (mean of 4 Decode batch lines)"
    assert r.numbers == [301.55, 289.1, 310.42, 280.93]


def test_sglang_server_args_line_fills_the_config(ref: Reference) -> None:
    c = parse_fixture("sglang_server.log", ref).claim
    assert c.model == "nvidia/Qwen3.6-27B-NVFP4"
    assert (c.weight_format, c.kv_dtype, c.hardware_count) == ("modelopt_fp4", "fp8_e4m3", 1)
    assert (c.spec_method, c.drafter_model) == ("DFlash", "z-lab/Qwen3.6-27B-DFlash")
    assert c.spec_window == 16
    assert c.provenance["spec_window"].field == "speculative_dflash_block_size"
    assert c.provenance["spec_window"].span == "speculative_dflash_block_size=16"
    assert c.accept_threshold == 1.0
    assert c.prefix_caching is None  # disable_radix_cache=False says nothing was disabled
    assert c.context_length == 32768


def test_sglang_many_running_requests_is_aggregate(ref: Reference) -> None:
    c, _ = logs("[TP0] Decode batch. #running-req: 8, #token: 9000, token usage: 0.10, "
                "gen throughput (token/s): 1200.00, #queue-req: 0\n"
                "[TP0] Decode batch. #running-req: 16, #token: 9000, token usage: 0.10, "
                "gen throughput (token/s): 1800.00, #queue-req: 0", ref)
    assert (c.tok_s, c.tok_s_kind) == (1500.0, "aggregate")
    assert c.concurrency == 16
    assert c.provenance["concurrency"].field == "#running-req (max over 2 lines)"
    assert c.acceptance_length is None and c.speculative is None


def test_sglang_forced_window_statistic_is_kept_as_reported(ref: Reference) -> None:
    c, _ = logs("Decode batch, #running-req: 1, #token: 90, token usage: 0.00, accept len: 16.00, "
                "accept rate: 1.00, cuda graph: True, gen throughput (token/s): 795.00, "
                "#queue-req: 0,", ref)
    assert (c.acceptance_length, c.acceptance_rate, c.tok_s) == (16.0, 1.0, 795.0)


# ---- benchmark printouts ----------------------------------------------------------------------

def test_dflash_benchmark_printout(ref: Reference) -> None:
    r = parse_fixture("dflash_benchmark.txt", ref)
    c = r.claim
    assert r.kind == "log" and "dflash_benchmark" in r.found
    assert (c.tok_s, c.tok_s_kind, c.baseline_tok_s) == (226.37, "decode", 42.61)
    assert (c.speedup, c.acceptance_length) == (5.31, 6.53)
    assert (c.speculative, c.spec_method) == (True, "DFlash")
    assert c.provenance["tok_s"].field == "DFlash throughput"
    assert c.provenance["tok_s"].span == "DFlash throughput:  226.37 tok/s"
    assert c.provenance["baseline_tok_s"].span == "Baseline throughput: 42.61 tok/s"
    # the command above the printout adds the setup
    assert (c.model, c.drafter_model, c.temperature) == ("Qwen/Qwen3-8B",
                                                          "z-lab/Qwen3-8B-DFlash-b16", 0.0)
    assert c.ratios == []  # the progress bar's 128/128 is not a statistic
    assert r.numbers == [226.37, 42.61]


def test_dflash_benchmark_server_mode(ref: Reference) -> None:
    r = parse_fixture("dflash_benchmark_server.txt", ref)
    c = r.claim
    assert (c.tok_s, c.tok_s_kind, c.concurrency) == (1359.67, "aggregate", 8)
    assert (c.tokens_generated, c.wall_seconds) == (131072, 96.4)
    assert (c.acceptance_length, c.engine) == (5.214, "sglang")
    assert c.provenance["tok_s"].span == "Throughput:       1,359.67 tok/s"
    assert c.ratios == []


def test_bench_one_batch_takes_the_benchmark_run_not_the_warmup(ref: Reference) -> None:
    r = parse_fixture("bench_one_batch.txt", ref)
    c = r.claim
    assert r.found == ["bench_one_batch"] and r.kind == "log"
    assert (c.tok_s, c.tok_s_kind, c.batch, c.engine) == (74.68, "decode", 1, "sglang")
    assert c.provenance["tok_s"].field == "Decode. median throughput"
    assert 4879.91 in r.numbers and 74.52 in r.numbers  # every figure is kept for matching


def test_bench_one_batch_batch_above_one_is_aggregate(ref: Reference) -> None:
    c, _ = logs("Benchmark ...\nDecode 0. Batch size: 32, latency: 0.02000 s, throughput:  1600.00"
                " token/s\nDecode.  median latency: 0.02000 s, median throughput:   1600.00 "
                "token/s", ref)
    assert (c.tok_s, c.tok_s_kind, c.batch) == (1600.0, "aggregate", 32)


# ---- llama.cpp --------------------------------------------------------------------------------

def test_llama_server_timings_and_draft_acceptance(ref: Reference) -> None:
    r = parse_fixture("llama_server.log", ref)
    c = r.claim
    assert "llama_log" in r.found and r.kind == "log"
    assert (c.tokens_generated, c.wall_seconds) == (512, pytest.approx(4.21162))
    assert c.tok_s == pytest.approx(121.5684, abs=1e-4)
    assert (c.tok_s_kind, c.engine, c.engine_version) == ("decode", "llama.cpp", "b6123")
    assert (c.accepted_tokens, c.drafted_tokens) == (336, 546)
    assert c.acceptance_rate == pytest.approx(336 / 546)
    assert c.ratios == [(336, 546)]
    assert 1046.13 in r.numbers  # prompt speed kept for matching, never the claim


def test_llama_cli_perf_lines_and_speculative_stats(ref: Reference) -> None:
    c, _ = logs("llama_perf_context_print:        eval time =    2000.00 ms /   255 runs   (    "
                "7.84 ms per token,   127.50 tokens per second)\n"
                "n_draft   = 16\nn_predict = 256\nn_drafted = 208\nn_accept  = 163\n"
                "accept    = 78.365%\n", ref)
    assert (c.tok_s, c.tokens_generated, c.wall_seconds) == (127.5, 255, 2.0)
    assert (c.accepted_tokens, c.drafted_tokens, c.spec_window) == (163, 208, 17)
    assert c.spec_window_convention == "llama.cpp n_draft 16 + 1 = window 17"


# ---- nothing to read ----------------------------------------------------------------------------

def test_plain_prose_is_not_a_log(ref: Reference) -> None:
    c, reading = logs("We decoded the batch and it throughput was fine.", ref)
    assert reading.found == [] and reading.spans == []
    assert c.filled() == {}


def test_a_fractional_output_token_count_is_dropped(ref: Reference) -> None:
    from extractors.document import RawDocument
    from extractors.text import parse_text

    text = "Throughput: 10.0 tok/s\nOutput tokens: 0.5\nAccept length: 2.0\n"
    assert parse_text(RawDocument.from_text(text), ref).claim.tokens_generated is None


@pytest.mark.parametrize(("text", "tok_s", "concurrency", "hardware", "model"), [
    # a log line pasted after the member's own words, on the same line: the words are theirs
    ("vLLM log on my RTX 4090 with Llama 3.1 8B AWQ: INFO 08-12 10:01:12 metrics.py:351] Avg prompt "
     "throughput: 0.0 tokens/s, Avg generation throughput: 1850.3 tokens/s, Running: 64 reqs, Swapped: 0 reqs",
     1850.3, 64, "RTX 4090", "Llama 3.1 8B"),
    ("SGLang on one H100, Llama 3.1 8B: [2024-10-01 12:00:00 TP0] Decode batch. #running-req: 128, "
     "#token: 90112, token usage: 0.45, gen throughput (token/s): 6543.21, #queue-req: 0",
     6543.21, 128, "H100 SXM", "Llama 3.1 8B"),
    # typed without the log's prefix: the words before the shape are the post's
    ("Aphrodite on 8x A100: Llama 3 70B fp16, Avg generation throughput: 2500 tokens/s, Running: 200 reqs",
     2500.0, 200, "A100 80GB SXM", "Llama 3 70B"),
])
def test_the_words_before_a_log_line_are_read_as_the_post(ref: Reference, text: str, tok_s: float,
                                                         concurrency: int, hardware: str, model: str) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.tok_s, c.tok_s_kind, c.concurrency, c.hardware, c.model) == (
        tok_s, "aggregate", concurrency, hardware, model)


def test_llama_speculative_draft_timings_are_the_draft_models(ref: Reference) -> None:
    # ggml-org/llama.cpp PR #10455, a comment's llama-speculative run on an M4 Pro: the result is
    # "decoded 371 tokens in 34.412 seconds, speed: 10.781 t/s"; the "draft:" block's 97.09 tokens
    # per second is the 3B draft model's, and had been the claim (`suspicious`)
    reading = parse_fixture("llama_speculative_m4pro.txt", ref)
    c = reading.claim
    assert (c.tok_s, c.tokens_generated, c.wall_seconds) == (10.781, 371, 34.412)
    assert c.hardware == "Apple M4 Pro" and c.speculative is True


def test_eval_lines_outside_a_draft_block_still_count(ref: Reference) -> None:
    text = ("draft:\n\nllama_print_timings:        eval time =   322.80 ms /   216 runs   (    1.49 ms per token,"
            "   669.15 tokens per second)\n\ntarget:\n\nllama_print_timings:        eval time =   1319.00 ms /   100"
            " runs   (   13.19 ms per token,    75.82 tokens per second)\n")
    c, _ = logs(text, ref)
    assert c.tok_s is not None and (round(c.tok_s, 2), c.tokens_generated) == (75.82, 100)  # 100 ÷ 1.319 s
