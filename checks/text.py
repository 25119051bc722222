"""Sanitising untrusted text (SPEC §9, validation-and-security.md §3.5).

Record notes and post titles come from strangers: drop C0/C1 control characters (keeping
newline and tab), bidi overrides and isolates, and zero-width characters; NFC-normalise; cap the
length with a visible marker. NUL is dropped too: SQLite's string functions stop at it.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["TRUNCATION_MARK", "sanitise"]

TRUNCATION_MARK = "…(truncated)"
_STRIP = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 (but \t \n \r) and C1 controls
    "\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"  # zero-width, bidi
)


def sanitise(text: str, limit: int = 4000) -> str:
    """Clean untrusted text for display and storage; never raises."""
    text = unicodedata.normalize("NFC", str(text))
    text = _STRIP.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > limit:
        text = text[: max(0, limit - len(TRUNCATION_MARK))] + TRUNCATION_MARK
    return text
