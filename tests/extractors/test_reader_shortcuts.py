"""The readers' shortcuts give what the plain forms gave: the GPU-shape scan that starts on a
character class, the name finders' gate spelled the same way, the lazy `Scan.pick`, the
builder's shared provenance and its sanitise shortcut, the sniffing builder."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import pytest

from checks.reference import load_reference
from checks.text import sanitise
from extractors.builder import ClaimBuilder, PresenceBuilder
from extractors.document import MAX_JSON_DEPTH, _too_deep
from extractors.text.names import _FIRST, _WORD, GPU_GENERIC, _generic, _trie, finder
from extractors.text.scan import Scan

REF = load_reference()

TEXTS = [
    "8xH200 and 4*2080ti, RTX 4060 Ti 16GB, 2x RX 7900 XTX; MI300X.8 vs DGX H100",
    "ran on an M2-Max laptop; Apple M3 Ultra; Raspberry Pi 5; i9-13900K and Ryzen 7950X",
    "ı7-12700 ſN40L Ⅰntel N100 KELVIN: \u212a M1, a Gaudi 3, TPU v5e, 5090 tokens, 5090s",
    "RTX\n5090 and RTX-5090 and H100 NVL, A100 PCIe, GB200; Strix Halo; AI Max+ 395",
    "",
    "x" * 300 + " 3090" + " " * 200 + "4090\n",
]


def test_the_first_class_holds_every_character_ignorecase_matches_to_ascii() -> None:
    everything = "".join(map(chr, range(sys.maxunicode + 1)))
    ascii_like = set(re.findall(r"(?i)[A-Za-z0-9]", everything))
    assert ascii_like - set(re.findall(_FIRST, everything)) == set()


@pytest.mark.parametrize("text", TEXTS)
def test_the_gpu_shape_scan_finds_what_finditer_found(text: str) -> None:
    assert [m.span() for m in _generic(text)] == [m.span() for m in GPU_GENERIC.finditer(text)]


@pytest.mark.parametrize("table", ["hardware", "systems", "models", "formats", "methods"])
@pytest.mark.parametrize("text", TEXTS)
def test_a_finders_gate_stops_where_the_lookahead_gate_stopped(table: str, text: str) -> None:
    f = finder(REF, table)
    plain = re.compile(_WORD.pattern[:-len("[A-Za-z0-9]")]
                       + f"(?=(?i:{_trie(f._keys)}))[A-Za-z0-9]")
    assert [m.start() for m in f.gate().finditer(text)] == [m.start() for m in plain.finditer(text)]


# Digits at 2 (line 0), 8 and 10 (line 2), 14 (line 3); line 1 has none.
@pytest.mark.parametrize(("primary", "expected", "read"), [
    (None, 0, [2]),
    (0, 0, [2]),
    (1, 0, [2, 8]),  # none on line 1: reading stops at the first match past it
    (2, 1, [2, 8]),
    (3, 3, [2, 8, 10, 14]),
    (4, 0, [2, 8, 10, 14]),
])
def test_pick_reads_lazily_and_chooses_as_before(primary: int | None, expected: int,
                                                 read: list[int]) -> None:
    s = Scan("a 1\nb\nc 3 4\nd 5", ClaimBuilder("text"), None)
    s.primary_line = primary
    seen: list[int] = []

    def matches() -> Iterator[re.Match[str]]:
        for m in re.finditer(r"\d", s.text):
            seen.append(m.start())
            yield m

    found = list(re.finditer(r"\d", s.text))
    chosen = s.pick(matches())
    assert chosen is not None and chosen.start() == found[expected].start()
    assert seen == read


@pytest.mark.parametrize("text", ["plain words", "tab\there", "bidi \u202e x", "nul \x00", "é",
                                  "x" * 250, "line\r\nbreak"])
def test_the_builder_cleans_values_as_sanitise_does(text: str) -> None:
    b = ClaimBuilder("text")
    b.set("notes", text, span=text)
    assert b.values["notes"] == sanitise(text, limit=20000)
    assert b.provenance["notes"].span == sanitise(text, limit=200)


def test_provenance_is_shared_and_equal_to_a_validated_one() -> None:
    a, b = ClaimBuilder("f.json"), ClaimBuilder("f.json")
    a.set("tok_s", 5.0, field="tok_s", span="5")
    b.set("tok_s", 6.0, field="tok_s", span="5")
    assert a.provenance["tok_s"] is b.provenance["tok_s"]
    assert a.build().provenance["tok_s"].model_dump() == {
        "source": "f.json", "field": "tok_s", "span": "5", "kind": "read"}


def test_the_presence_builder_answers_has_like_the_claim_builder() -> None:
    full, seen = ClaimBuilder("sniff"), PresenceBuilder("sniff")
    for name, value in [("tok_s", 3.0), ("model", "  "), ("hardware", None), ("notes", "x")]:
        full.set(name, value)
        seen.set(name, value)
    assert set(seen.values) == set(full.values) == {"tok_s", "notes"}
    with pytest.raises(KeyError):
        seen.set("no_such_field", 1)


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1])
def test_depth_is_judged_with_or_without_the_openers_shortcut(depth: int) -> None:
    nested = "[" * depth + "]" * depth
    assert _too_deep(nested) is (depth > MAX_JSON_DEPTH)
    strings = '["' + "[" * (2 * MAX_JSON_DEPTH) + '"]'
    assert _too_deep(strings) is False


def _lazy_patterns() -> list[tuple[str, int]]:
    """Every lazily compiled pattern of the readers (their source and flags)."""
    import gc

    import extractors.evidence  # noqa: F401 - imports every reader
    from extractors.text.lazyre import _Lazy

    found = {(o._source, o._flags) for o in gc.get_objects() if isinstance(o, _Lazy)}
    return sorted(found)


def _sample_texts() -> list[str]:
    from benchmarks.text_speed import board_notes, claim_log

    odd = ("ı7 ſN40L \u212a 2103,6 tok/s; ²³ ٣٤ tok/s, 1\u2212 2 W, İnput 128/128, "
           "BATCH=8 Conc 4 TTFT 12ms ×3 speed-up, « » τ=3.1 AL 2.5")
    return [claim_log(20_000), board_notes(20_000), odd, odd.upper(), odd.lower()]


def test_every_reader_pattern_reads_the_same_through_its_start_class() -> None:
    from extractors.text.lazyre import _starts, _via_starts

    texts = _sample_texts()
    wrapped = 0
    for source, flags in _lazy_patterns():
        starts = _starts(source, flags)
        if starts is None:
            continue
        wrapped += 1
        plain = re.compile(source, flags)
        search, finditer = _via_starts(starts, plain)
        for text in texts:
            got = [(m.span(), m.groups()) for m in finditer(text)]
            assert got == [(m.span(), m.groups()) for m in plain.finditer(text)], source
            first, expect = search(text), plain.search(text)
            assert (first and (first.span(), first.groups())) == (expect and (expect.span(), expect.groups()))
    assert wrapped >= 50  # most reader patterns open with a boundary or a look-behind


def test_every_ascii_letter_ignorecase_matches_only_the_letters_class() -> None:
    from extractors.text.lazyre import _LETTERS

    everything = "".join(map(chr, range(sys.maxunicode + 1)))
    allowed = set(re.findall(f"[{_LETTERS}]", everything))
    for letter in "abcdefghijklmnopqrstuvwxyz":
        assert set(re.findall(f"(?i){letter}", everything)) <= allowed, letter


def test_each_ascii_letter_ignorecase_matches_only_its_own_class() -> None:
    from extractors.text.lazyre import _ALSO

    everything = "".join(map(chr, range(sys.maxunicode + 1)))
    for letter in "abcdefghijklmnopqrstuvwxyz":
        own = {letter, letter.upper(), *_ALSO.get(letter, "")}
        assert set(re.findall(f"(?i){letter}", everything)) == own, letter


@pytest.mark.parametrize(("source", "expect"), [
    (r"(?i)\b(?:ISL|input|prompt)\s*/", "[iI\u0130\u0131pP]"),
    (r"(?i)(?<![\w.])(?:kv|sm)\b", "[kK\u212asS\u017f]"),
    (r"(?i)\b(?:ISL|[a-z]x)\b", "[A-Za-z\u0130\u0131\u017f\u212a]"),
])
def test_a_case_blind_pattern_starts_on_its_own_first_letters(source: str, expect: str) -> None:
    from extractors.text.lazyre import start_class

    assert start_class(source) == expect


def test_a_long_texts_lines_are_searched_only_where_a_needle_can_match() -> None:
    from benchmarks.text_speed import claim_log
    from extractors.text import lines as lines_module
    from extractors.text.lines import lines_matching

    text = claim_log(60_000) + "\nİNFO Avg generation throughput: 12.5 tokens/s\nDecode batch. x"
    for source, flags in _lazy_patterns():
        needle = re.compile(source, flags)
        wanted = []
        pos = 0
        for raw in text.split("\n"):
            if m := needle.search(raw):
                wanted.append((pos, raw, m.span(), m.groups()))
            pos += len(raw) + 1
        from extractors.text.lazyre import lazy

        got = [(line.start, line.text, m.span(), m.groups())
               for line, m in lines_matching(text, lazy(source, flags))]
        assert got == wanted, source
    assert lines_module._SPLIT[0][0] is text  # split once and kept for the next needle
