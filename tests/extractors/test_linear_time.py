"""Reading untrusted text takes time linear in its length (issue: "any input, bounded").

Every reader in `linear_readers.READERS` and every compiled pattern of the modules in
`linear_readers.PATTERN_MODULES` is pumped with adversarial shapes (runs of spaces, digits,
letters, flags, near-matches built from the pattern's own words) at 2 KB and 16 KB. The time
ratio, best of several interleaved runs each, must stay near the size ratio: below 2.5 × 8. A
quadratic reader shows 64, the old statement patterns hundreds. No absolute time is asserted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from types import ModuleType

import pytest

from extractors.text.lazyre import _STARTS_MIN
from tests.extractors.linear_readers import READERS, pattern_modules, pumped_readers
from tests.pumping import SHAPES, Shape, growth, shapes_for

# Both sizes at or above the length where a lazy pattern switches to its start-class pass
# (extractors.text.lazyre): a ratio across the switch would compare two ways of matching.
SMALL, FACTOR = _STARTS_MIN, 8
BOUND = 2.5 * FACTOR
READER_SHAPES = (
    *SHAPES,
    Shape("export-before-launch", "export X=1\n", "--tp 2 ", " vllm serve m\n"),
    Shape("long-launch", "export X=1\nvllm serve m ", "--max-num-seqs 4 ", "\n"),
    Shape("number-lines", "", "2103.6 tok/s\n"),
    Shape("table-rows", "| a | tok/s |\n|---|---|\n", "| 1 | 2 |\n"),
    Shape("gpu-lines", "", "2x RTX 5090 at 150 tok/s\n"),
    Shape("claim-lines", "", "Llama 3.1 8B on H100: 150 tok/s, batch 1\n"),
)


def _slow(fn: Callable[[str], object], shapes: Sequence[Shape]) -> list[str]:
    """Shapes whose growth exceeds the bound twice: a first, quick measure, then a careful one,
    so a busy machine does not fail a linear reader."""
    slow = []
    for shape in shapes:
        if growth(fn, shape, SMALL, FACTOR, runs=2) <= BOUND:
            continue
        ratio = growth(fn, shape, SMALL, FACTOR, runs=9)
        if ratio > BOUND:
            slow.append(f"{shape.name}: ×{ratio:.1f}")
    return slow


@pytest.mark.parametrize("name", pumped_readers())
def test_reader_time_grows_with_size_not_its_square(name: str) -> None:
    assert _slow(READERS[name], READER_SHAPES) == []


@pytest.mark.parametrize("module", pattern_modules(), ids=lambda m: m.__name__)
def test_pattern_time_grows_with_size_not_its_square(module: ModuleType) -> None:
    from tests.pumping import collect_patterns

    slow = {}
    for name, pattern in collect_patterns(module):

        def matches(s: str, p: re.Pattern[str] = pattern) -> int:
            return sum(1 for _ in p.finditer(s))

        found = _slow(matches, shapes_for(pattern, words=3))
        if found:
            slow[name] = found
    assert slow == {}


def test_old_statement_pattern_is_caught_by_the_harness() -> None:
    """The harness itself: the batch pattern as it was (three adjacent `\\s*`) fails the bound."""
    import re

    old = re.compile(r"(?i)\b(?:batch(?:[\s_-]?size)?|bs)\s*(?:[:=]|of|is)?\s*[-]?\s*(\d{1,6})")
    ratio = growth(lambda s: old.search(s), Shape("batch+spaces", "batch", " ", "x"), 64, FACTOR,
                   runs=3, floor_s=1e-5)
    assert ratio > BOUND
