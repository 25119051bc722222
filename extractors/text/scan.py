"""The text a free-text reader walks: where its sentences and lines break, and the claim being
filled. Readers take a `Scan` so they share one copy of the text (blanked as statements are read)
and one rule for choosing among repeated mentions (`pick`)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from typing import Any

from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.text.lazyre import fold, lazy, walking

__all__ = ["Scan", "read_once"]

_FOLD_NOW = 4096  # a blanked text shorter than this is folded at once
# A text this long has its repeated lines read once (`read_once`): a pasted log repeats its
# lines by the thousand; a post or a record's notes is read as it is.
ONCE_MIN = 4096


def read_once(text: str) -> tuple[str, list[int] | None]:
    """A long text with every line that repeats an earlier one verbatim left out, and how many
    times each kept line occurs in the text (None: the text is kept whole).

    The prose readers choose one value per field: the first mention, the one on the headline
    figure's line, the largest figure. A repeated line's first occurrence comes before it and
    says the same, so leaving the repeats out keeps the first mention of anything a line holds,
    the largest figure and its line; a reader that counts mentions weighs each kept line by its
    copies (`Scan.copies_at`). What it gives up: a statement spread over several lines of which
    one is a repeat (a figure ending one line, its unit opening the next) is read as the kept
    lines put it. A 900 KB log of claim lines holds 265 distinct lines of 13,051."""
    if len(text) < ONCE_MIN:
        return text, None
    lines = text.split("\n")
    index: dict[str, int] = {}
    kept: list[str] = []
    copies: list[int] = []
    for line in lines:
        k = index.get(line)
        if k is None:
            index[line] = len(kept)
            kept.append(line)
            copies.append(1)
        else:
            copies[k] += 1
    if len(kept) == len(lines):
        return text, None
    return "\n".join(kept), copies
_SEP = lazy(r"\n|[;!?]|\.(?=\s|$)")


class Scan:
    """The text, where its sentences break, and the builder being filled."""

    def __init__(self, text: str, b: ClaimBuilder, ref: Reference | None,
                 copies: list[int] | None = None) -> None:
        self.b, self.ref = b, ref
        # How many times each line occurs in the text the reader was given (`read_once`), or
        # None when every line is there as often as it was written.
        self.copies = copies
        # The text casefolded once, for the readers' keyword gates (`mentions`). Blanking later
        # only removes words, so a gate on the original text lets through at least what the
        # patterns could match. Dotless i and a dotted capital I fold like i, as IGNORECASE
        # patterns match them.
        self.folded = fold(text)
        self._text = text
        walking(text, self.folded)  # the patterns' own gates reuse this fold, at any length
        self.seps = [m.start() for m in _SEP.finditer(text)]
        self.lines = [m.start() for m in re.finditer(r"\n", text)]
        self.primary_line: int | None = None
        # Where the headline figure stands (start, end), once the speed reader has chosen it.
        self.primary_span: tuple[int, int] | None = None
        self.found = False
        # Every match of a pattern two readers both ask for (`every`), kept with the text it was
        # read from: a blank makes a new text, and the matches are then read afresh.
        self._every: dict[re.Pattern[str], tuple[str, list[re.Match[str]]]] = {}

    @property
    def text(self) -> str:
        return self._text

    @text.setter
    def text(self, text: str) -> None:
        # Blanked: the gates get the new text's own fold (a blank can join words into a literal);
        # a long one is folded when a gate first asks (blanks often come several in a row).
        self._text = text
        walking(text, fold(text) if len(text) < _FOLD_NOW else None)

    def clause(self, pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.seps, pos)
        start = self.seps[i - 1] + 1 if i > 0 else 0
        end = self.seps[i] if i < len(self.seps) else len(self.text)
        return start, end

    def mentions(self, words: tuple[str, ...]) -> bool:
        """Whether any of `words` (casefolded) is in the text: a pattern that cannot match
        without one of them need not be run."""
        folded = self.folded
        for w in words:  # noqa: SIM110 - a loop, not a generator made per call: readers ask often
            if w in folded:
                return True
        return False

    def line_of(self, pos: int) -> int:
        return bisect.bisect_right(self.lines, pos)

    def line_span(self, pos: int) -> tuple[int, int]:
        """Where the line holding `pos` starts and ends (a blank keeps every newline in place)."""
        i = self.line_of(pos)
        return (self.lines[i - 1] + 1 if i > 0 else 0,
                self.lines[i] if i < len(self.lines) else len(self.text))

    def copies_at(self, pos: int) -> int:
        """How many times the line holding `pos` occurs in the text as written."""
        return 1 if self.copies is None else self.copies[self.line_of(pos)]

    def set(self, name: str, value: Any, span: str, *, field_: str | None = None) -> None:
        if value is None:
            return
        before = self.b.has(name)
        self.b.set(name, value, field=field_, span=" ".join(span.split())[:200])
        self.found = self.found or not before

    def pick(self, matches: Iterable[re.Match[str]]) -> re.Match[str] | None:
        """The match on the primary figure's line, else the first.

        `matches` is read lazily and in order of start: reading stops at the first match (no
        primary line) or at the first one past the primary line, so a reader choosing one
        mention does not run its pattern over the rest of a long text."""
        first = None
        for m in matches:
            if first is None:
                first = m
                if self.primary_line is None:
                    break
            line = self.line_of(m.start())
            if line == self.primary_line:
                return m
            if line > self.primary_line:  # type: ignore[operator]
                break
        return first

    def own_part(self) -> tuple[int, int] | None:
        """The headline figure's own part of its line: from the comma or semicolon before it to
        the one after it ("45 tok/s at batch 1, 900 tok/s at batch 32": the 900's is "900 tok/s
        at batch 32"). Bounded by its line; None before a figure is chosen."""
        if self.primary_span is None:
            return None
        start, end = self.primary_span
        text = self.text
        lo, hi = self.line_span(start)
        before = max(text.rfind(",", lo, start), text.rfind(";", lo, start))
        cuts = [i for i in (text.find(", ", end, hi), text.find(";", end, hi)) if i >= 0]
        return (before + 1 if before >= 0 else lo), min(cuts, default=hi)

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        return pattern.finditer(self.text)

    def every(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """All of `pattern`'s matches in the text, read once while the text is unchanged (for a
        pattern more than one reader runs: the I/O length pairs)."""
        text = self.text
        kept = self._every.get(pattern)
        if kept is None or kept[0] is not text:
            kept = self._every[pattern] = (text, list(pattern.finditer(text)))
        return kept[1]

    def blank(self, start: int, end: int) -> None:
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]

