"""Pumped inputs for the linear-time property tests and the benchmark (issue: "any input, bounded").

A reader is linear when reading `k` copies of a shape costs about `k` times one copy. Each shape
here is a prefix, a unit that is repeated (the pump) and a suffix that makes the text a near
match, so a pattern that backtracks over the pump shows it as a time ratio far above the size
ratio. Timings are best-of-N of several calls, compared within one run: no absolute times.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

__all__ = [
    "SHAPES",
    "Shape",
    "collect_patterns",
    "growth",
    "literal_words",
    "shapes_for",
]


@dataclass(frozen=True)
class Shape:
    name: str
    prefix: str
    unit: str
    suffix: str = ""

    def build(self, size: int) -> str:
        # At least `size` characters: a pump just short of a size threshold would be read the
        # other way (extractors.text.lazyre switches to its start-class pass at 2 KB).
        reps = max(1, -(-(size - len(self.prefix) - len(self.suffix)) // max(1, len(self.unit))))
        return self.prefix + self.unit * reps + self.suffix


# The shapes that made the old readers quadratic or worse: a number before a run of spaces, an
# `export X=1` line before a long command, runs of flags, digits, letters and near-matches.
SHAPES: tuple[Shape, ...] = (
    Shape("number+spaces", "2103.6", " ", "x"),
    Shape("spaces", "", " "),
    Shape("tabs+newlines", "", " \t\n"),
    Shape("digits", "", "9"),
    Shape("number-list", "", "1 ", "tok"),
    Shape("decimal-run", "", "1.", "x"),
    Shape("letters", "", "a"),
    Shape("words", "", "ab ", "="),
    Shape("export+command", "export X=1 ", "--a b ", "\\"),
    Shape("flags", "vllm serve m ", "--x 1 "),
    Shape("dashes", "", "-"),
    Shape("equals", "", "= "),
    Shape("colons", "", ": "),
    Shape("dots", "", ". "),
    Shape("pipes", "|", " | ", "\n|---|"),
    Shape("brackets", "", "[("),
    Shape("url-ish", "https://", "a.", "/"),
    Shape("html", "<p>", "<b>x</b> ", "<"),
    Shape("backticks", "```\n", "` ", "\n"),
    Shape("newlines", "", "\n"),
    # Chat spellings: card counts, claim lines (20k of them once took 21-42 s), shortened model
    # names, speculative words, offload and memory words, decimal commas.
    Shape("card-count-lines", "", "2x 3090 on RTX 4090\n"),
    Shape("claim-lines", "", "my 3090 does 120 t/s on llama3 8b q4_k_m\n"),
    Shape("model-words", "", "llama "),
    Shape("model-prefixes", "", "Qwen3-"),
    Shape("times", "", "8x"),
    Shape("no-draft", "", "no draft ", "x"),
    Shape("with-draft", "", "with ", "draft"),
    Shape("ddr", "", "DDR", " 5 GB/s offload"),
    Shape("power-limit+spaces", "power limit", " ", "x"),
    Shape("apple", "", "M4 "),
    Shape("ranges", "", "1-"),
    Shape("decimal-commas", "", "1,2"),
    Shape("vendor+spaces", "NVIDIA", " "),
    Shape("k-equals", "", "k="),
    Shape("ngl", "", "-ngl "),
)

_WORD = re.compile(r"[A-Za-z]{3,}")


def literal_words(pattern: re.Pattern[str], limit: int = 6) -> list[str]:
    """Words a pattern spells out (`batch`, `TTFT`, `throughput`): near-matches pump them."""
    seen = dict.fromkeys(w for w in _WORD.findall(pattern.pattern) if w not in ("P", "ms"))
    return list(seen)[:limit]


def shapes_for(pattern: re.Pattern[str], words: int = 6) -> list[Shape]:
    """The generic shapes plus near-matches built from the pattern's own words."""
    out = list(SHAPES)
    for w in literal_words(pattern, words):
        out += [
            Shape(f"{w}+spaces", w, " ", "x"),
            Shape(f"{w}+number", f"{w} ", "1 "),
            Shape(f"{w}-repeated", "", f"{w} "),
            Shape(f"{w}=number", "", f"{w}=1 "),
            Shape(f"{w}:spaces-number", f"{w}:", " ", "1"),
        ]
    return out


def _walk(value: Any, name: str, depth: int = 0) -> Iterator[tuple[str, re.Pattern[str]]]:
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        yield name, value
    elif depth < 3 and isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _walk(item, f"{name}[{i}]", depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{name}[{key!r}]", depth + 1)
    elif hasattr(value, "search") and hasattr(value, "pattern") and isinstance(
        getattr(value, "pattern", None), str
    ):
        yield name, value  # an RE2 pattern


def collect_patterns(module: ModuleType) -> list[tuple[str, Any]]:
    """Every compiled pattern a module keeps at top level (also inside lists, tuples, dicts)."""
    out: list[tuple[str, Any]] = []
    for attr, value in vars(module).items():
        if attr.startswith("__") or isinstance(value, ModuleType):
            continue
        out += list(_walk(value, f"{module.__name__}.{attr}"))
    return out


def _time(fn: Callable[[str], object], text: str) -> float:
    """CPU time of this thread: on a machine shared with other jobs, wall time mostly measures
    how often the longer call was preempted."""
    t0 = time.thread_time()
    fn(text)
    return time.thread_time() - t0


def _best(fn: Callable[[str], object], text: str, runs: int) -> float:
    return min(_time(fn, text) for _ in range(runs))


def growth(fn: Callable[[str], object], shape: Shape, small: int, factor: int = 8,
           runs: int = 5, floor_s: float = 2e-4) -> float:
    """Time ratio of reading the big pump over the small one (best of `runs` each, the two
    interleaved so a busy machine slows both alike). Both times are raised to `floor_s` first,
    so timer noise on microsecond calls reads as a ratio of 1."""
    a_text, b_text = shape.build(small), shape.build(small * factor)
    fn(a_text)  # warm caches (compiled patterns, lookup indexes) outside the timing
    a = b = float("inf")
    for _ in range(runs):
        a = min(a, _time(fn, a_text))
        b = min(b, _time(fn, b_text))
    return max(b, floor_s) / max(a, floor_s)
