"""Shortcuts in reading a text give what the plain forms gave: blanking spans as slices, a
launch line's command memoised by the line, a command's flags memoised by its words, a Scan's
fold gating the patterns asked of its text, and blank free text read as nothing."""

from __future__ import annotations

import random
import re

import pytest

from checks.reference import load_reference
from extractors.builder import ClaimBuilder
from extractors.text import _blank
from extractors.text.flags import _parsed, parse_flags
from extractors.text.freetext import read_free_text
from extractors.text.launch import _MEMO_LINE, find_commands
from extractors.text.lazyre import _WALKED, lazy
from extractors.text.scan import Scan

REF = load_reference()


def _blank_by_character(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(max(0, start), min(end, len(chars))):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


@pytest.mark.parametrize("seed", range(4))
def test_blanking_spans_as_slices_gives_the_character_by_character_text(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(500):
        text = "".join(rnd.choice("ab\n c") for _ in range(rnd.randint(0, 30)))
        spans = [(rnd.randint(-3, 35), rnd.randint(-3, 35)) for _ in range(rnd.randint(0, 4))]
        assert _blank(text, spans) == _blank_by_character(text, spans), (text, spans)


_SERVE = "python -m sglang.launch_server --model-path org/m --tp 2 --speculative-algorithm EAGLE"


@pytest.mark.parametrize("text", [
    f"{_SERVE}\nnotes\n{_SERVE}\n",
    f"run: `{_SERVE}` then\n\nrun: `{_SERVE}` then",
    f"{_SERVE} \\\n  --port 1\n{_SERVE} \\\n  --port 1",
])
def test_a_repeated_launch_line_gives_a_command_at_each_place(text: str) -> None:
    found = find_commands(text)
    assert len(found) == 2
    first, second = found
    assert (first.raw, first.args, first.env) == (second.raw, second.args, second.env)
    assert text[first.start:first.end] == text[second.start:second.end]
    assert first.start < second.start
    first.args.append("--changed")  # each mention is its own copy
    assert "--changed" not in find_commands(text)[1].args


def test_a_launch_line_over_the_memo_limit_is_read_the_same() -> None:
    long = _SERVE + " --x " + "a" * _MEMO_LINE
    (cmd,) = find_commands(long)
    assert cmd.args[-1] == "a" * _MEMO_LINE
    assert (cmd.start, cmd.end) == (0, len(long))


@pytest.mark.parametrize("args", [
    ["--tp", "2", "--model", "m", "pos"],
    ["-ngl", "99", "--no-mmap", "-c", "4096"],
    ["--x=1", "-5", "--y", "-5"],
])
def test_flags_read_through_the_memo_are_fresh_lists(args: list[str]) -> None:
    flags, positionals = parse_flags(args)
    assert (tuple(flags), tuple(positionals)) == _parsed.__wrapped__(tuple(args))
    flags.clear()
    positionals.append("x")
    assert parse_flags(args) == (list(_parsed.__wrapped__(tuple(args))[0]),
                                 list(_parsed.__wrapped__(tuple(args))[1]))


def test_a_scans_fold_gates_its_short_text_and_a_blanked_one_gets_its_own() -> None:
    pattern = lazy(r"(?i)\bgreedy\b")
    s = Scan("greedy decode, 20 tok/s", ClaimBuilder("t"), REF)
    assert _WALKED[0] == (s.text, s.folded)
    assert pattern.search(s.text) is not None
    s.blank(0, len("greedy"))
    assert _WALKED[0][0] is s.text
    assert pattern.search(s.text) is None
    s.text = "GREEDY" + s.text[6:]
    assert pattern.search(s.text) is not None  # gated by the new text's fold, not the old one


@pytest.mark.parametrize("text", ["", " ", " " * 320, "\n \t\n" * 40, "\u3000" * 9])
def test_blank_free_text_reads_as_nothing(text: str) -> None:
    b = ClaimBuilder("t")
    reading = read_free_text(text, b, REF)
    assert (reading.found, reading.numbers, reading.primary, b.values) == (False, [], None, {})


def test_a_short_texts_pass_is_built_once_the_pattern_is_hot_and_reads_the_same() -> None:
    from extractors.text.lazyre import _STARTS_HOT, _STARTS_SHORT, _gated, _starts

    source = r"(?i)\b(?:ISL|input|prompt)\s*/\s*(\d+)"
    plain = re.compile(source)
    built: list[int] = []

    def make() -> re.Pattern[str] | None:
        built.append(1)
        return _starts(source, 0)

    search, finditer, _ = _gated(plain, None, make)
    text = ("x" * _STARTS_SHORT) + " ISL/128 and input / 256"
    for k in range(_STARTS_HOT + 3):
        m = search(text)
        assert m is not None and (m.span(), m.groups()) == (plain.search(text).span(), ("128",))  # type: ignore[union-attr]
        assert [x.span() for x in finditer(text)] == [x.span() for x in plain.finditer(text)]
        assert len(built) == (0 if 2 * (k + 1) < _STARTS_HOT else 1)
    assert search("ISL/1") is not None and len(built) == 1  # under _STARTS_SHORT: the pattern alone


@pytest.mark.parametrize("text", [
    "27B dense, batch 1, 2048 tokens in 0.969 s — 2103.6 tok/s on one consumer GPU (RTX 5090).\n"
    "Full record: https://speedboard.example/api/v1/records?submitter=speedrunner",
    "INFO Avg generation throughput: 12.5 tokens/s\nİNFO Avg prompt throughput: 1.0 tokens/s",
    "llama_print_timings: eval time = 10.00 ms / 100 runs (0.10 ms per token, 10000.00 tokens per second)",
    "",
])
def test_a_short_texts_lines_are_searched_only_when_the_text_holds_a_needles_word(text: str) -> None:
    import gc

    from extractors.text.lazyre import _Lazy
    from extractors.text.lines import lines_matching

    needles = {(o._source, o._flags) for o in gc.get_objects() if isinstance(o, _Lazy)}
    assert len(needles) > 100
    for source, flags in sorted(needles):
        plain = re.compile(source, flags)
        wanted, pos = [], 0
        for raw in text.split("\n"):
            if m := plain.search(raw):
                wanted.append((pos, raw, m.span(), m.groups()))
            pos += len(raw) + 1
        got = [(line.start, line.text, m.span(), m.groups())
               for line, m in lines_matching(text, lazy(source, flags))]
        assert got == wanted, source


@pytest.mark.parametrize(("source", "options"), [
    (r"x(?:ab|cd)+y", (("ab", "cd"), ("x",), ("y",))),
    (r"(?i)\bbest\s+of\s+(\d+)", (("best",), ("of",))),
    (r"(?i)foo|\d+", ()),  # one branch needs nothing
])
def test_every_requirement_of_a_pattern_most_selective_first(source: str,
                                                             options: tuple[tuple[str, ...], ...]) -> None:
    from re import _parser  # type: ignore[attr-defined]

    from extractors.text.lazyre import required_all

    assert required_all(_parser.parse(source, 0)) == options


def test_every_reader_pattern_gated_on_all_its_requirements_reads_as_compiled() -> None:
    import gc

    from benchmarks.text_speed import board_notes, claim_log
    from extractors.text.lazyre import _Lazy

    texts = [claim_log(8000), board_notes(8000), "filler " * 30 + "best of 3, ISL/OSL 128/128",
             "27B dense, batch 1 — 2103.6 tok/s on one RTX 5090 (NVFP4), AL=56.0 İnput ſpec \u212a"]
    sources = sorted({(o._source, o._flags) for o in gc.get_objects() if isinstance(o, _Lazy)})
    assert len(sources) > 100
    for source, flags in sources:
        gated, plain = lazy(source, flags), re.compile(source, flags)
        for text in texts:
            assert [(m.span(), m.groups()) for m in gated.finditer(text)] == \
                [(m.span(), m.groups()) for m in plain.finditer(text)], source
            got, want = gated.search(text), plain.search(text)
            assert (got and got.span()) == (want and want.span()), source
            assert gated.findall(text) == plain.findall(text), source
