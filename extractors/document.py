"""A raw document: the bytes as received, decoded text and (lazily) JSON, parsed once.

Formats sniff and parse from this object so the bytes are decoded and the JSON parsed once per
document, whatever number of adapters look at it. JSON is parsed strictly first; raw control
characters inside strings (leaderboard notes fields often hold them) are then accepted with
`strict=False` and the fact is recorded in `warnings`.

Numbers are read with hooks: a number longer than Python's int/str conversion limit (4,300
digits, https://docs.python.org/3/library/stdtypes.html#int-max-str-digits) is refused with a
sentence instead of a ValueError; a shorter integer beyond any float is read as infinity.
`NaN` and `Infinity` stay floats, as Python's encoder writes them; the formats refuse non-finite
values field by field.

Binary input is refused before anything reads it (`refuse_binary`): a body whose first bytes
are mostly not text is an image, an archive or noise, never a claim.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from extractors.errors import InvalidInput

__all__ = ["MAX_JSON_DEPTH", "MAX_NUMBER_DIGITS", "SNIFF_BYTES", "RawDocument", "is_binary"]

MAX_JSON_DEPTH = 200  # deeper than any real record; json.loads would raise RecursionError later
MAX_NUMBER_DIGITS = 4300  # sys.get_int_max_str_digits() default
_FLOAT_DIGITS = 308  # a longer integer may not fit a float (sys.float_info.max is about 1.8e308)
SNIFF_BYTES = 8192  # how much of a body decides whether it is text
_MISSING = object()
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# Bytes that never occur in text: C0 controls but tab, newline, form feed and carriage return.
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13)) + b"\x7f"
# A terminal's escape sequences (colours, cursor moves, the spinner `ollama run --verbose` redraws:
# "\x1b[?25l\x1b[1G⠋ \x1b[K") are text being drawn, not binary data: they are left out of the
# binary test and of the text the readers see (ECMA-48 CSI and OSC sequences, two-byte escapes,
# and an ESC a cut left alone).
_ANSI = (rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b")


class _HugeNumber(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _int(text: str) -> int | float:
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise _HugeNumber(digits)
    value = int(text)
    if digits > _FLOAT_DIGITS:
        try:
            float(value)
        except OverflowError:  # beyond any float: infinity, which the formats refuse per field
            return math.inf if value > 0 else -math.inf
    return value


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _HugeNumber(len(text))
    return float(text)


def _loads(text: str, *, strict: bool = True) -> Any:
    return json.loads(text, strict=strict, parse_int=_int, parse_float=_float)


def is_binary(data: bytes) -> bool:
    """True when the first bytes are not text: a NUL, or over 10% bytes text never holds, or
    (for bytes that are not UTF-8) over 30% of the decoded characters unprintable."""
    head = data[:SNIFF_BYTES]
    if not head:
        return False
    if b"\x1b" in head:
        head = _ansi_bytes().sub(b"", head)
    if head.startswith(_UTF16_BOMS):
        text = head[: len(head) // 2 * 2].decode("utf-16", errors="replace")
        return sum(1 for ch in text if not (ch.isprintable() or ch.isspace())) > len(text) * 0.3
    if b"\x00" in head:
        return True
    if len(head) - len(head.translate(None, _BINARY_BYTES)) > len(head) // 10:
        return True
    try:
        head.decode("utf-8")
        return False
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4:  # a character cut at the end of the sniffed bytes
            return False
    text = head.decode("utf-8", errors="replace")
    odd = sum(1 for ch in text if ch == "\ufffd" or not (ch.isprintable() or ch.isspace()))
    return odd > len(text) * 0.3


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False  # the depth cannot pass the number of openers (two scans in C)
    depth = 0
    in_str = False
    esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


@dataclass
class RawDocument:
    data: bytes
    source: str = "text"  # URL, path, "stdin" or "text"
    content_type: str | None = None
    warnings: list[str] = field(default_factory=list)
    _json: Any = field(default=_MISSING, repr=False)
    # What a format's `sniff` found that its `parse` of this same document would work out again
    # (the generic board's records array and its first row read): by format name, taken once.
    sniffed: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_text(cls, text: str, source: str = "text") -> RawDocument:
        return cls(text.encode("utf-8"), source=source)

    @cached_property
    def text(self) -> str:
        text = self._decoded()
        return _ansi_text().sub("", text) if "\x1b" in text else text

    def _decoded(self) -> str:
        if self.data.startswith(_UTF16_BOMS):  # Windows tools write UTF-16 with a BOM
            return self.data[: len(self.data) // 2 * 2].decode("utf-16", errors="replace")
        try:
            return self.data.decode("utf-8-sig")
        except UnicodeDecodeError:
            self.warnings.append("not valid UTF-8; undecodable bytes were replaced")
            return self.data.decode("utf-8", errors="replace")

    def refuse_binary(self) -> None:
        """Raise InvalidInput when the document is binary (see `is_binary`). An image is not
        refused: `extractors.evidence.read_document` reads it by OCR (`extractors.image`)."""
        from extractors.image.sniff import is_readable_image

        if is_binary(self.data) and not is_readable_image(self.data[:SNIFF_BYTES]):
            shown = f" ({self.content_type.split(';')[0].strip()[:60]})" if self.content_type else ""
            raise InvalidInput(
                f"{self.source}: this is binary data{shown}, not text or JSON; "
                "give the post, the record or the tool's output"
            )

    def looks_like_json(self) -> bool:
        head = self.text.lstrip()[:1]
        return head in ("{", "[")

    def json(self) -> Any:
        """The parsed JSON document, or None if the text is not JSON (or JSON Lines: a list)."""
        if self._json is not _MISSING:
            return self._json
        self._json = self._parse_json()
        return self._json

    def _parse_json(self) -> Any:
        text = self.text.strip()
        if not text or text[0] not in "[{":
            return None
        if _too_deep(text):
            raise InvalidInput(f"{self.source}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
        try:
            return _loads(text)
        except _HugeNumber as exc:
            raise InvalidInput(
                f"{self.source}: a number in this JSON has {exc.digits:,} digits; "
                f"no figure is longer than {MAX_NUMBER_DIGITS:,}"
            ) from None
        except json.JSONDecodeError as exc:
            if "control character" in exc.msg:
                try:
                    obj = _loads(text, strict=False)
                except (json.JSONDecodeError, _HugeNumber):
                    pass
                else:
                    self.warnings.append(
                        f"{self.source}: JSON held raw control characters; parsed leniently"
                    )
                    return obj
            lines = self._json_lines(text)
            if lines is not None:
                return lines
            return None
        except RecursionError:
            raise InvalidInput(f"{self.source}: JSON nested too deeply to read") from None

    def _json_lines(self, text: str) -> list[Any] | None:
        """JSON Lines (SGLang bench_serving appends one object per run): a list of objects."""
        rows = []
        for line in text.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(_loads(line, strict=False))
            except (json.JSONDecodeError, _HugeNumber):
                return None
        if len(rows) < 2 or not all(isinstance(r, dict) for r in rows):
            return None
        self.warnings.append(f"{self.source}: read as JSON Lines ({len(rows)} objects)")
        return rows


@cache
def _ansi_bytes() -> re.Pattern[bytes]:
    return re.compile(_ANSI)


@cache
def _ansi_text() -> re.Pattern[str]:
    return re.compile(_ANSI.decode("ascii"))
