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

__all__ = ["Scan"]

_FOLD_NOW = 4096  # a blanked text shorter than this is folded at once
_SEP = lazy(r"\n|[;!?]|\.(?=\s|$)")


class Scan:
    """The text, where its sentences break, and the builder being filled."""

    def __init__(self, text: str, b: ClaimBuilder, ref: Reference | None) -> None:
        self.b, self.ref = b, ref
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
        self.found = False

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

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        return pattern.finditer(self.text)

    def blank(self, start: int, end: int) -> None:
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]

