"""A raw document: the bytes as received, decoded text and (lazily) JSON, parsed once.

Formats sniff and parse from this object so the bytes are decoded and the JSON parsed once per
document, whatever number of adapters look at it. JSON is parsed strictly first; raw control
characters inside strings (leaderboard notes fields often hold them) are then accepted with
`strict=False` and the fact is recorded in `warnings` (validation-and-security.md §3.5).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from extractors.errors import InvalidInput

__all__ = ["MAX_JSON_DEPTH", "RawDocument"]

MAX_JSON_DEPTH = 200  # deeper than any real record; json.loads would raise RecursionError later
_MISSING = object()


def _too_deep(text: str) -> bool:
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

    @classmethod
    def from_text(cls, text: str, source: str = "text") -> RawDocument:
        return cls(text.encode("utf-8"), source=source)

    @cached_property
    def text(self) -> str:
        try:
            return self.data.decode("utf-8-sig")
        except UnicodeDecodeError:
            self.warnings.append("not valid UTF-8; undecodable bytes were replaced")
            return self.data.decode("utf-8", errors="replace")

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
            return json.loads(text)
        except json.JSONDecodeError as exc:
            if "control character" in exc.msg:
                try:
                    obj = json.loads(text, strict=False)
                except json.JSONDecodeError:
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
                rows.append(json.loads(line, strict=False))
            except json.JSONDecodeError:
                return None
        if len(rows) < 2 or not all(isinstance(r, dict) for r in rows):
            return None
        self.warnings.append(f"{self.source}: read as JSON Lines ({len(rows)} objects)")
        return rows
