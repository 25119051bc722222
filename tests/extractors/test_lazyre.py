"""Patterns compiled on first use (extractors/text/lazyre.py): the same matches as the compiled
pattern, nothing compiled before use, and the readers' modules compile none at import."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from extractors.text.lazyre import lazy


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
