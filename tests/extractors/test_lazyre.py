"""Patterns compiled on first use (extractors/text/lazyre.py): the same matches as the compiled
pattern, nothing compiled before use, and the readers' modules compile none at import."""

from __future__ import annotations

import re
import subprocess
import sys
from re import _parser  # type: ignore[attr-defined]

import pytest

from extractors.text.lazyre import compile_parsed, lazy, required_all, required_literals


@pytest.mark.parametrize(("source", "flags", "text"), [
    (r"(?i)\bbatch\s*(\d+)", 0, "Batch 8 and batch 16"),
    (r"^x(\d)$", re.MULTILINE, "x1\ny\nx2"),
    (r"tok/s", 0, "no figure here"),
])
def test_same_matches_as_the_compiled_pattern(source: str, flags: int, text: str) -> None:
    pattern, compiled = lazy(source, flags), re.compile(source, flags)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert pattern.findall(text) == compiled.findall(text)
    assert pattern.sub("_", text) == compiled.sub("_", text)
    assert pattern.pattern == source
    assert pattern.flags == compiled.flags


@pytest.mark.parametrize(("source", "flags"), [
    (r"(?i)\bbatch\s*(?P<n>\d+)(?:\s*x\s*(?P<m>\d+))?", 0),
    (r"^x(\d)$", re.MULTILINE),
    (r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:tok(?:ens)?/s|t/s)(?!\w)", re.IGNORECASE),
    (r"(a|b)\1{2,5}[^\W\d_]+", 0),
    (r"(?s)<think>.*?</think>|\A\s*$", 0),
    (r"[\u00b5\u03bc]s|caf\u00e9", re.IGNORECASE | re.UNICODE),
])
def test_compiled_from_the_parse_tree_is_the_compiled_pattern(source: str, flags: int) -> None:
    # The gates walk the tree first: the pattern built from it afterwards is re.compile's own
    # (patterns compare equal when their source, flags and compiled code are).
    parsed = _parser.parse(source, flags)
    required_literals(parsed)
    required_all(parsed)
    built, compiled = compile_parsed(source, flags, parsed), re.compile(source, flags)
    assert built == compiled
    assert (built.groups, built.groupindex, built.flags) == (compiled.groups, compiled.groupindex, compiled.flags)


def test_compiles_on_first_use_only() -> None:
    pattern = lazy(r"(?i)\bconcurrency\s*(\d+)")
    assert "search" not in vars(pattern)
    m = pattern.search("Concurrency 4")
    assert m is not None and m.group(1) == "4"
    assert "search" in vars(pattern)  # kept: the next call skips the compile hook


def test_importing_the_readers_compiles_no_pattern_of_theirs() -> None:
    # A fresh interpreter: count re.compile calls made while extractors.evidence imports, after
    # checks (another package, with its own patterns) is loaded.
    code = (
        "import re, checks, checks.reference, checks.parsing, checks.registry\n"
        "n = 0\n"
        "real = re._compile\n"
        "def counting(*a, **k):\n"
        "    global n\n"
        "    if isinstance(a[0], str) and a[0] not in seen:\n"
        "        seen.add(a[0])\n"
        "        n += 1\n"
        "    return real(*a, **k)\n"
        "seen = set()\n"
        "re._compile = counting\n"
        "import extractors.evidence\n"
        "print(n)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) <= 10  # five today: links, text sanitising, a board's mapping


@pytest.mark.parametrize(("source", "needed"), [
    (r"(?i)\bbatch(?:[\s_-]?size)?|bs", {"batch", "bs"}),
    (r"(?i)(?<![\w-])(?:-ngl|--gpu-layers)[ =](\d{1,4})\b", {"ngl", "-gpu-layers"}),  # "-" factored out
    (r"x(?:ab|cd)+y", {"ab", "cd"}),  # the most selective of x, (ab|cd) and y
    (r"ab?c", {"a"}),  # b may be absent, so "abc" is not required
    (r"\d+(?:\.\d+)?", None),  # no literal: never gated
    (r"(?i)foo|\d+", None),  # one branch needs nothing
    (r"(?=speed)\w+", None),  # lookarounds count for nothing
])
def test_required_literals(source: str, needed: set[str] | None) -> None:
    found = required_literals(_parser.parse(source, 0))
    assert (set(found) if found is not None else None) == needed


_TEXTS = [
    "Batch 8 on an H100", "BATCH-SIZE: 4", "bs=2", "no figure", "", "İSL ıs Kelvin \u212a8",
    "ſpeed-up 2x", "x" * 5000 + " batch 3", "filler " * 40 + "Batch 8 on an H100", "filler " * 40, "-NGL 99 --gpu-layers 40", "Straße ß SS",
]


@pytest.mark.parametrize("source", [
    r"(?i)\bbatch(?:[\s_-]?size)?\s*[:=]?\s*(\d+)|\bbs\s*=\s*(\d+)",
    r"(?i)(?<![\w-])(?:-ngl|--gpu-layers)[ =](\d{1,4})\b",
    r"(?i)\bisl\b", r"(?i)k8", r"(?i)speed-?up", r"(?i)strasse|ss", r"(?i)\bh100\b",
])
@pytest.mark.parametrize("text", _TEXTS)
def test_gated_answers_equal_the_patterns(source: str, text: str) -> None:
    pattern, compiled = lazy(source), re.compile(source)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert pattern.findall(text) == compiled.findall(text)
    got, want = pattern.search(text), compiled.search(text)
    assert (got.span() if got else None) == (want.span() if want else None)
