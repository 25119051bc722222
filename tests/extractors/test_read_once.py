"""A long text's repeated lines are read once by the prose readers (`read_once`), and the reading
is what reading every line gave: on pasted logs of claim lines, on each chat-corpus claim pasted
three times over, and for the reader that counts mentions (a lone power draw). Also the short-text
shortcuts of this round: a Scan's matches kept for a second reader, the figure line's kind gate,
the count-before-a-card gate, the launch reader visiting only the lines that name a program,
the log readers skipping a short text that holds none of their words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.text_speed import board_notes, claim_log
from checks.models import Claim
from checks.reference import load_reference
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.text import parse_text, scan
from extractors.text.cards import _COUNT_BEFORE, _COUNT_ENDS
from extractors.text.freetext import _KIND_WORDS, _line_kind, read_free_text
from extractors.text.launch import _HINT, _hinted_lines, _logical_lines
from extractors.text.lines import LogReading, lines_matching
from extractors.text.logs import _has_log_words, _needles, read_logs
from extractors.text.scan import ONCE_MIN, Scan, read_once
from extractors.text.statements import IO_PAIR

REF = load_reference()
ROOT = Path(__file__).resolve().parents[2]
CLAIMS = [json.loads(line)["text"] for line in
          (ROOT / "tests" / "corpus" / "claims.jsonl").read_text(encoding="utf-8").splitlines()
          if line.strip()]


def _free(text: str) -> tuple[Claim, list[float]]:
    b = ClaimBuilder("pasted")
    numbers = read_free_text(text, b, REF).numbers
    return b.build(), list(dict.fromkeys(numbers))


def _every_line(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Claim, list[float]]:
    """The reading with every line read as written (the threshold out of reach)."""
    with monkeypatch.context() as m:
        m.setattr(scan, "ONCE_MIN", 10**12)
        return _free(text)


def test_a_short_text_is_kept_whole() -> None:
    text = "a\na\nb"
    assert read_once(text) == (text, None)
    assert read_once("x\n" * (ONCE_MIN // 2 - 1)) == ("x\n" * (ONCE_MIN // 2 - 1), None)


def test_a_long_text_keeps_each_line_once_with_its_copies() -> None:
    text = "\n".join(["a tok/s", "b", "a tok/s", "", "b", "c" * ONCE_MIN, ""])
    assert read_once(text) == ("\n".join(["a tok/s", "b", "", "c" * ONCE_MIN]), [2, 2, 2, 1])
    distinct = "\n".join(str(k) for k in range(2000))
    assert read_once(distinct) == (distinct, None)


@pytest.mark.parametrize("size", [6_000, 25_000])
def test_a_pasted_log_of_claim_lines_reads_as_every_line_read(
        size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = claim_log(size)
    assert _free(text) == _every_line(text, monkeypatch)


def test_pasted_board_notes_read_as_every_line_read(monkeypatch: pytest.MonkeyPatch) -> None:
    text = board_notes(20_000)
    assert _free(text) == _every_line(text, monkeypatch)


_RULE = "\n".join(["-" * 70] * (ONCE_MIN // 70 + 1))  # one line many times: over ONCE_MIN


@pytest.mark.parametrize("start", range(0, len(CLAIMS), 60))
def test_each_chat_claim_pasted_three_times_reads_as_every_line_read(
        start: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in CLAIMS[start:start + 60:2]:
        long = "\n".join([text, _RULE, text, "noise line", text])
        assert _free(long) == _every_line(long, monkeypatch), text


_FILL = "\n".join(f"filler line {k}" for k in range(400))  # distinct lines: over ONCE_MIN


@pytest.mark.parametrize(("lines", "watts"), [
    (["Qwen3 8B at 300 W: 90 tok/s"], 300.0),  # a draw
    (["baseline 250 W, 40 tok/s"], 250.0),  # a lone baseline draw belongs to the claim
    (["baseline 250 W, 40 tok/s"] * 3, None),  # the same line three times: three draws
    (["baseline 250 W, 40 tok/s", "vs 260 W plain"], None),  # two baseline draws: none chosen
])
def test_a_lone_power_draw_counts_each_copy_of_its_line(
        lines: list[str], watts: float | None, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "\n".join([*lines, _FILL])
    assert len(text) >= ONCE_MIN
    reading = _free(text)
    assert reading[0].power_w == watts
    assert reading == _every_line(text, monkeypatch)


def test_parse_text_of_the_benchmark_log_is_the_every_line_reading(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = claim_log(25_000)
    once = parse_text(RawDocument.from_text(text), REF)
    with monkeypatch.context() as m:
        m.setattr(scan, "ONCE_MIN", 10**12)
        every = parse_text(RawDocument.from_text(text), REF)
    assert once == every
    assert once.claim.tok_s is not None


def test_a_scan_keeps_a_patterns_matches_while_its_text_is_unchanged() -> None:
    s = Scan("ISL/OSL 1024/128 at 50 tok/s, in/out 8/2", ClaimBuilder("t"), REF)
    first = s.every(IO_PAIR)
    assert [m.group(0) for m in first] == [m.group(0) for m in IO_PAIR.finditer(s.text)]
    assert len(first) == 2
    assert s.every(IO_PAIR) is first
    s.blank(0, 16)
    again = s.every(IO_PAIR)
    assert again is not first
    assert [m.group(0) for m in again] == ["in/out 8/2"]


def _line_kind_plain(text: str, at: int) -> str | None:
    start = max(text.rfind("\n", 0, at) + 1, at - 2000)
    line = text[start:at]
    from extractors.text.freetext import _LEGEND

    kinds = {k.lastgroup for k in _KIND_WORDS.finditer(_LEGEND.sub(" ", line))} & {"prefill", "decode"}
    return kinds.pop() if len(kinds) == 1 else None


@pytest.mark.parametrize("text", [
    *CLAIMS,
    "Average 1024 tokens prompt eval speed (tokens/s) by GPUs 120",
    "TG = text generation, PP = prompt processing: 55",
    "İNPUT 55", "PREFİLL 3000", "tg128 120", "speculative decoding 99", "gen: 12",
])
def test_a_figures_line_kind_is_the_plain_patterns(text: str) -> None:
    for at in {len(text), len(text) // 2, text.find("\n") if "\n" in text else 0}:
        assert _line_kind(text, at) == _line_kind_plain(text, at), (text, at)


def test_a_count_before_a_card_ends_where_the_gate_looks() -> None:
    # Every window ending in the corpus: wherever the count pattern matches, the window ends in a
    # space or one of _COUNT_ENDS (what `_count_near` checks before searching).
    matched = 0
    for text in [*CLAIMS, "8x H100", "2 x\nH100", "dual 4090s", "4*2080ti", "a single 3090", "8×\u2003B200"]:
        for end in range(len(text) + 1):
            window = text[max(0, end - 60):end]
            if _COUNT_BEFORE.search(window):
                matched += 1
                assert window[-1:].isspace() or window[-1:] in _COUNT_ENDS, (text, end)
    assert matched > 100


@pytest.mark.parametrize("text", [
    claim_log(8_000),
    board_notes(8_000),
    "python -m sglang.launch_server \\\n  --tp 2\nnotes\nvllm serve m --tp 4",
    "a vllm b\nvllm\n\nsglang vllm llama-server\nnone here\ntrtllm-serve x",
    "", "vllm", "\n\nvllm\n", "atom.x\ndflash.y\nATOM.z",
])
def test_the_lines_that_may_run_a_command_are_the_hinted_logical_lines(text: str) -> None:
    plain = [ll for ll in _logical_lines(text) if _HINT.search(ll[2])]
    assert [(s, ln) for s, _, ln in _hinted_lines(text)] == [(s, ln) for s, _, ln in plain]


_SHAPES_TEXTS = [*CLAIMS, "Decode batch. #running-req: 1, gen throughput (token/s): 50.1",
                 "eval time = 100 ms / 10 tokens (10 ms per token, 100 tokens per second)",
                 "n_draft = 4", "INFO vLLM API server version 0.6.3", "DFlash throughput: 10"]


@pytest.mark.parametrize("text", _SHAPES_TEXTS)
def test_a_short_text_without_a_log_word_has_no_line_any_log_shape_matches(text: str) -> None:
    found = [line.text for needle in _needles() for line, _ in lines_matching(text, needle)]
    if not _has_log_words(text):
        assert found == []
        assert read_logs(text, ClaimBuilder("t"), REF) == LogReading()
    if text in _SHAPES_TEXTS[len(CLAIMS):]:
        assert _has_log_words(text) and found == [text]
