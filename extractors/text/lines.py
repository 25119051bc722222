"""Line-oriented helpers shared by the log and printout readers: find the lines a shape matches,
read the number after a label, keep only sane values, and record what was consumed."""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from statistics import fmean

from extractors.text.lazyre import folded, literals_of
from extractors.text.units import parse_number

__all__ = [
    "LINES_MIN",
    "MAX_NUMBERS",
    "Line",
    "LogReading",
    "N",
    "al_or_none",
    "group_after",
    "keep_tok_s",
    "lines_matching",
    "mark",
    "mean",
    "number_after",
    "span_of",
    "tidy",
]

N = r"(\d[\d,]*(?:\.\d+)?|nan|inf)"  # a logged number; nan/inf are matched so they can be refused
MAX_NUMBERS = 500  # tok/s figures kept per text for matching a post's number


@dataclass
class LogReading:
    """What the log and printout readers found: which shapes, the lines read, tok/s figures."""

    found: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)  # consumed lines
    numbers: list[float] = field(default_factory=list)  # every tok/s figure, in order
    warnings: list[str] = field(default_factory=list)


@dataclass
class Line:
    start: int
    end: int
    text: str


# A long text's lines and where they start, kept for the last text split (by identity): the log
# readers ask a dozen shapes of the same text.
LINES_MIN = 4096  # a text shorter than this is gated whole (`lines_matching`)
_SPLIT: list[tuple[str, list[str], list[int], list[int]]] = [("", [], [], [])]


def _split(text: str) -> tuple[list[str], list[int], list[int]]:
    """The lines, where each starts in `text`, and where each line break is in the folded text."""
    kept = _SPLIT[0]
    if kept[0] is text:
        return kept[1], kept[2], kept[3]
    lines = text.split("\n")
    starts, pos = [], 0
    for raw in lines:
        starts.append(pos)
        pos += len(raw) + 1
    breaks = [m.start() for m in re.finditer("\n", folded(text))]
    _SPLIT[0] = (text, lines, starts, breaks)
    return lines, starts, breaks


def lines_matching(text: str, needle: re.Pattern[str]) -> Iterator[tuple[Line, re.Match[str]]]:
    """Each line `needle` matches, with its offsets in text (searched line by line, so no
    pattern can run across lines).

    In a long text only the lines holding one of the needle's required words (`literals_of`,
    casefolded) are searched: a line without one cannot match. Casefolding keeps every line
    break and makes none, so the folded text's n-th line is the text's n-th line folded."""
    need = literals_of(needle)
    if need is not None and len(text) < LINES_MIN:
        # A short text: none of its lines can match when the whole (folded) text holds none of
        # the needle's words (a line's fold is part of the text's), else each line is searched.
        low = folded(text)
        if not any(w in low for w in need):
            return
        need = None
    if need is None:
        pos = 0
        for raw in text.split("\n"):
            m = needle.search(raw)
            if m:
                yield Line(pos, pos + len(raw), raw), m
            pos += len(raw) + 1
        return
    lines, starts, breaks = _split(text)
    low = folded(text)
    hit: set[int] = set()
    for word in need:
        at = low.find(word)
        while at >= 0:
            line = bisect.bisect_left(breaks, at)  # line breaks before the word
            hit.add(line)
            # On to the next line: this one is searched whatever else it holds.
            at = low.find(word, breaks[line] + 1) if line < len(breaks) else -1
    for k in sorted(hit):
        raw = lines[k]
        m = needle.search(raw)
        if m:
            yield Line(starts[k], starts[k] + len(raw), raw), m


def number_after(pattern: str, line: str) -> float | None:
    """The finite number captured by `pattern`'s first group, else None."""
    m = re.search(pattern, line)
    return parse_number(m.group(1)) if m else None


def group_after(pattern: str, line: str) -> str | None:
    m = re.search(pattern, line)
    return m.group(1) if m else None


def al_or_none(value: float | None) -> float | None:
    """An acceptance length, or None: below 1 is impossible (the verify pass emits a token)."""
    return value if value is not None and value >= 1.0 else None


def tidy(x: float) -> float:
    """Ten significant digits: 214.1, not 214.10000000000002; never rounds a rate to zero."""
    return float(f"{x:.10g}")


def mean(values: list[float]) -> float | None:
    try:
        value = fmean(values)
    except (OverflowError, ValueError):
        return None
    return tidy(value) if math.isfinite(value) else None


def span_of(line: str) -> str:
    return line.strip()[:200]


# Where a log record starts on its line: its level, timestamp or printer prefix ("INFO 08-12 …",
# "[2024-10-01 12:00:00 TP0] Decode batch", "llama_perf_context_print:"). Prose pasted before
# it on the same line ("vLLM log on my RTX 4090 with Llama 3.1 8B: INFO …") is the member's own
# words, left to the free-text reader: the card and model are often only there.
_RECORD_START = re.compile(r"\b(?:INFO|DEBUG|WARNING|WARN|ERROR)\b|\[\d{4}-\d{2}-\d{2}[ T]|"
                           r"\b\d{2}-\d{2} \d{2}:\d{2}:\d{2}\b|\b[a-z_]+_print:")


def mark(out: LogReading, name: str, line: Line, found: re.Match[str] | None = None) -> None:
    """Record that shape `name` read `line`, from where its log record starts, else from where
    the shape was `found` on it (the free-text reader then skips that part)."""
    if name not in out.found:
        out.found.append(name)
    at = _RECORD_START.search(line.text)
    start = at.start() if at is not None else found.start() if found is not None else 0
    out.spans.append((line.start + start, line.end))


def keep_tok_s(out: LogReading, value: float | None) -> float | None:
    """Keep a positive tok/s figure for matching and return it; None otherwise."""
    if value is not None and value > 0:
        out.numbers.append(value)
        return value
    return None
