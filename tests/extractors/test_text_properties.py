"""Property tests: no input makes the text readers raise, and every number they keep is sane.

The readers are called directly (not only through `parse_text`, whose per-reader safety net
would hide a bug behind a warning), and `parse_text` must never add a warning about a failed
reader either.
"""

from __future__ import annotations

import math
import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checks.models import Claim
from checks.reference import Reference, load_reference
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.text import parse_text
from extractors.text.freetext import read_free_text
from extractors.text.launch import parse_launch_command, split_command
from extractors.text.logs import read_logs
from extractors.text.units import fraction, parse_int, parse_number, parse_positive, with_suffix

REF: Reference = load_reference()
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FRAGMENTS = [
    "2103.6 tok/s", "1e309 tok/s", "NaN tok/s", "inf t/s", "-5 tok/s", "99999999999999999999 TPS",
    "2,103.6 tokens/sec", "2.1k tok/s", "AL=56.0", "AL 0.3", "AL 231–292", "AL 9e999", "100%",
    "383/383", "0/0", "99–100 W", "1e400 W", "batch 0", "batch 99999999999", "RTX 5090 ×0",
    "2x 3090", "one consumer GPU", "27B dense", "30B-A3B", "window 0", "block size 99999999",
    "2048 tokens in 0 s", "2048 tokens in 0.0 ms", "TTFT empty", "temperature 1e9", "best of 0",
    "15-second cooldown", "32k context", "9e99k context", "3.26x speedup", "0x speedup",
    "sglang 0.5.4+dflash.a91f3e", "vLLM v0.11.0", "DFlash", "EAGLE-3", "autoregressive",
    "--speculative-config '{bad json", "--speculative-config '{\"num_speculative_tokens\": -3}'",
    "vllm serve", "python -m sglang.launch_server", "llama-server -m x.gguf --draft-max",
    "--tp 0", "--tp -1", "--speculative-num-draft-tokens 1e9", "\\\n", "`", "```", "'", '"',
    "\x00", "\u202e", "\u200b", "\r\n", "SGLANG_SIMULATE_ACC_LEN=56", "export A=", "$(( 2 * 3 ))",
    "https://example.com/a)", "[link](http://x.y/z)", " ", "\n", ",", ".", "—", "–",
]
FRAGMENT_TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)),
                         max_size=25).map(" ".join)
ANY_TEXT = st.one_of(st.text(max_size=400), FRAGMENT_TEXT)

LOG_TEMPLATES = [
    ("SpecDecoding metrics: Mean acceptance length: {f}, Current speculative depth: {i}, "
     "Accepted: {i} tokens, Drafted: {i} tokens, Avg Draft acceptance rate: {f}%"),
    ("Decode batch, #running-req: {i}, #token: {i}, token usage: {f}, accept len: {f}, "
     "accept rate: {f}, cuda graph: True, gen throughput (token/s): {f}, #queue-req: {i},"),
    ("Engine 000: Avg prompt throughput: {f} tokens/s, Avg generation throughput: {f} tokens/s, "
     "Running: {i} reqs, Waiting: {i} reqs"),
    "Decode.  median latency: {f} s, median throughput: {f} token/s",
    "Decode 0. Batch size: {i}, latency: {f} s, throughput: {f} token/s",
    "DFlash throughput:  {f} tok/s", "Baseline throughput: {f} tok/s", "Decoding speedup: {f}",
    "Average Acceptance length: {f}", "Backend: {s}", "Throughput: {f} tok/s",
    "Concurrency: {i}", "Latency: {f}s", "Output tokens: {i}", "Accept length: {f}",
    "       eval time = {f} ms / {i} tokens ({f} ms per token, {f} tokens per second)",
    "draft acceptance rate = {f} ({i} accepted / {i} generated)",
    "n_draft = {i}", "n_drafted = {i}", "n_accept = {i}", "build: {i} ({s})",
    ("server_args=ServerArgs(model_path='{s}', tp_size={i}, speculative_num_draft_tokens={i}, "
     "speculative_dflash_block_size={f}, speculative_accept_threshold_acc={f})"),
    "non-default args: {{'model': '{s}', 'speculative_config': {s}}}",
    "vLLM API server version {s}",
]
NUMBER_TEXT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
    st.sampled_from(["nan", "inf", "-0", "1e309", "0", "00", "1,000,000", "9" * 40, ""]),
)


@st.composite
def log_lines(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        template = draw(st.sampled_from(LOG_TEMPLATES))
        lines.append(template.format(f=draw(NUMBER_TEXT), i=draw(NUMBER_TEXT),
                                     s=draw(st.text(max_size=20))))
    return "\n".join(lines)


FLAG_TOKENS = [
    "--model-path", "--model", "-m", "-md", "--quantization", "--kv-cache-dtype", "-ctk", "--tp",
    "-tp", "--tensor-parallel-size", "--speculative-algorithm", "--speculative-num-draft-tokens",
    "--speculative-dflash-block-size", "--speculative-num-steps", "--speculative-eagle-topk",
    "--speculative-accept-threshold-single", "--speculative-accept-threshold-acc",
    "--speculative-config", "--speculative-config.method", "--num-speculative-tokens",
    "--draft-max", "--draft", "--context-length", "--max-model-len", "-c", "--temperature",
    "--disable-radix-cache", "--enable-prefix-caching", "--no-enable-prefix-caching", "--method",
    "--batch-size", "--max-concurrency", "--block-size", "--backend",
]
VALUE_TOKENS = st.one_of(NUMBER_TEXT, st.text(max_size=15), st.sampled_from([
    '{"method": "dflash", "num_speculative_tokens": 15}', "{'method': 'eagle3'}", "{bad",
    '{"num_speculative_tokens": 1e999}', '{"num_speculative_tokens": true}', "[1, 2]", "32k",
    "32K", "auto", "DFLASH", "EAGLE", "1.5", "-3"]))
PROGRAMS = ["python -m sglang.launch_server", "vllm serve", "llama-server", "trtllm-serve",
            "python3 -m atom.entrypoints.openai_server", "python -m dflash.benchmark",
            "python -m sglang.bench_one_batch", "sglang serve", "llama-bench"]


@st.composite
def commands(draw: st.DrawFn) -> str:
    tokens = [draw(st.sampled_from(PROGRAMS))]
    for _ in range(draw(st.integers(min_value=0, max_value=12))):
        tokens.append(draw(st.one_of(st.sampled_from(FLAG_TOKENS), VALUE_TOKENS)))
    quoted = [t if draw(st.booleans()) else shlex.quote(t) for t in tokens]
    return " ".join(quoted)


ZERO_OK = {"temperature", "accept_threshold", "acceptance_rate", "accepted_tokens"}


def assert_sane(claim: Claim) -> None:
    """Every number finite; tok/s, seconds, tokens, counts positive; AL >= 1; rates in 0..1."""
    for name, value in claim:
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, (int, float)):
            assert math.isfinite(value), (name, value)
            if name not in ZERO_OK:
                assert value > 0, (name, value)
    for name in ("acceptance_length", "acceptance_length_low", "acceptance_length_high"):
        value = getattr(claim, name)
        assert value is None or value >= 1, (name, value)
    for name in ("acceptance_rate", "accept_threshold"):
        value = getattr(claim, name)
        assert value is None or 0 <= value <= 1, (name, value)
    if claim.temperature is not None:
        assert 0 <= claim.temperature <= 100
    if claim.spec_window is not None:
        assert claim.spec_window >= 1
    for a, b in claim.ratios:
        assert a >= 0 and b > 0
    for key, value in claim.env.items():
        assert isinstance(key, str) and isinstance(value, str)


@SETTINGS
@given(ANY_TEXT)
def test_free_text_never_raises_and_keeps_numbers_sane(text: str) -> None:
    b = ClaimBuilder("text")
    reading = read_free_text(text, b, REF)
    assert_sane(b.build())
    assert all(math.isfinite(x) and x > 0 for x in reading.numbers)


@SETTINGS
@given(ANY_TEXT)
def test_parse_text_never_raises_and_no_reader_fails(text: str) -> None:
    reading = parse_text(RawDocument.from_text(text), REF)
    assert_sane(reading.claim)
    assert not any("reader failed" in w for w in reading.warnings), reading.warnings
    assert reading.kind in ("log", "config", "post")
    assert all(math.isfinite(x) and x > 0 for x in reading.numbers)


@SETTINGS
@given(st.binary(max_size=300))
def test_arbitrary_bytes_are_read_without_raising(data: bytes) -> None:
    reading = parse_text(RawDocument(data), REF)
    assert_sane(reading.claim)


@SETTINGS
@given(commands())
def test_any_command_line_parses_without_raising(command: str) -> None:
    assert_sane(parse_launch_command(command, REF))


@SETTINGS
@given(st.lists(st.one_of(st.sampled_from(FLAG_TOKENS), VALUE_TOKENS), max_size=20))
def test_any_token_list_after_a_program_parses(tokens: list[str]) -> None:
    text = "vllm serve " + " ".join(tokens)
    assert_sane(parse_launch_command(text, REF))
    words, _ = split_command(text)
    assert isinstance(words, list)


@SETTINGS
@given(st.text(max_size=200))
def test_split_command_never_raises(text: str) -> None:
    words, lenient = split_command(text)
    assert all(isinstance(w, str) for w in words) and isinstance(lenient, bool)


@SETTINGS
@given(log_lines())
def test_any_log_lines_parse_without_raising(text: str) -> None:
    b = ClaimBuilder("log")
    reading = read_logs(text, b, REF)
    assert_sane(b.build())
    assert all(math.isfinite(x) and x > 0 for x in reading.numbers)


@SETTINGS
@given(st.text(max_size=80))
def test_units_return_finite_numbers_or_none(text: str) -> None:
    for value in (parse_number(text), parse_positive(text),
                  with_suffix(parse_positive(text), "k"), with_suffix(parse_number(text), "M")):
        assert value is None or math.isfinite(value)
    n = parse_int(text)
    assert n is None or 0 <= n < 10**15
    rate = fraction(parse_number(text), percent=True)
    assert rate is None or 0 <= rate <= 1


ADVERSARIAL_SHAPES = ("9", "1/", "1,", "AL ", "vllm serve \\\n", "  \n", "2x ", "1-", "RTX ")


@pytest.mark.parametrize("shape", ADVERSARIAL_SHAPES)
def test_adversarial_long_inputs_are_read_without_a_claim(shape: str) -> None:
    """Shapes that once made a pattern backtrack quadratically (a regression would stall the
    suite); their timing is measured by benchmarks/parse_speed.py, not asserted here."""
    reading = parse_text(RawDocument.from_text(shape * (60000 // len(shape))), REF)
    assert reading.claim.tok_s is None
    assert all(math.isfinite(x) for x in reading.numbers)
