"""Sanitising untrusted text: the one place anything from outside is cleaned before it is shown.

Record notes, post titles, server status lines, headers, URLs and page text come from strangers:
drop C0/C1 control characters (keeping newline and tab), bidi overrides and isolates, and
zero-width characters; NFC-normalise; cap the length with a visible marker. NUL is dropped too:
SQLite's string functions stop at it. The character classes follow Unicode's bidi controls
(https://www.unicode.org/reports/tr9/#Directional_Formatting_Characters) and the C0/C1 control
blocks; `\\x1b]0;…\\x07` (an OSC sequence that retitles a terminal) loses its ESC and BEL and is
left as harmless text.

`one_line` is for every place that promises one line (a status line, a header, a URL, a table
cell, a log line): the same cleaning, with every run of whitespace, line breaks included, made
one space.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["TRUNCATION_MARK", "one_line", "sanitise"]

TRUNCATION_MARK = "…(truncated)"
_STRIP = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 (but \t \n \r) and C1 controls
    "\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"  # zero-width, bidi
)
_SPACES = re.compile(r"\s+")


def _cap(text: str, limit: int) -> str:
    if len(text) > limit:
        return text[: max(0, limit - len(TRUNCATION_MARK))] + TRUNCATION_MARK
    return text


def sanitise(text: str, limit: int = 4000) -> str:
    """Clean untrusted text for display and storage; never raises."""
    text = unicodedata.normalize("NFC", str(text))
    text = _STRIP.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    return _cap(text, limit)


def one_line(text: object, limit: int = 300) -> str:
    """Untrusted text cleaned and folded onto one line (whitespace runs become one space)."""
    cleaned = _STRIP.sub("", unicodedata.normalize("NFC", str(text)))
    return _cap(_SPACES.sub(" ", cleaned).strip(), limit)
