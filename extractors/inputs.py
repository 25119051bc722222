"""What an input is, for every front door: a URL, a file path, `-` for stdin, or literal text;
and, inside text (a chat message, a slash command's option, a CLI argument), the links in it and
whether it states a speed. One grammar for all of them: `URL` finds links, `classify_input` says
whether a whole argument is one, `split_links` takes the links out of text, `states_speed` is
the cheap test the chat watcher runs before anything else."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

import re2

from extractors.document import SNIFF_BYTES, RawDocument
from extractors.errors import InvalidInput

__all__ = [
    "MAX_LOCAL_BYTES",
    "MAX_URLS",
    "SPEED",
    "URL",
    "InputSpec",
    "classify_input",
    "read_local",
    "split_links",
    "states_speed",
]

MAX_LOCAL_BYTES = 64 * 1024 * 1024  # a leaderboard dump is a few MB; refuse to slurp a disk image
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_FILE_LIKE = (".json", ".jsonl", ".txt", ".log", ".csv", ".md", ".sh")
# A link inside text: http(s) up to whitespace or a character chat uses to wrap a link. One
# character class under one quantifier: linear on any input.
URL = re.compile(r"https?://[^\s<>\"'`|]+", re.IGNORECASE)
MAX_URLS = 3  # per message: a link dump is not one claim
# A number followed by a speed unit ("150 tok/s", "2.1k tokens/sec", "30 t/s", "90 tps"). RE2
# (linear time, google/re2): searched with Python's engine, a long run of digits is re-scanned
# from every start position (quadratic).
SPEED = re2.compile(
    r"(?i)\d[\d,]*(?:\.\d+)?\s*(?:k\s*)?(?:tok(?:en)?s?\s*/\s*s(?:ec)?\b|t/s\b|tps\b|tok(?:en)?s?\s+per\s+sec)"
)
_TRAILING = ".,;:!?)]}"  # sentence punctuation after a link is not part of it


@dataclass(frozen=True)
class InputSpec:
    kind: Literal["url", "file", "stdin", "text"]
    value: str


def classify_input(arg: str) -> InputSpec:
    stripped = arg.strip()
    if stripped == "-":
        return InputSpec("stdin", "-")
    # Any scheme:// is a URL, so that file://, ftp:// and the like reach the URL policy and are
    # refused there with its reason, instead of being read as a sentence.
    if _SCHEME.match(stripped) and not any(c.isspace() for c in stripped):
        return InputSpec("url", stripped)
    if "\n" not in arg and len(arg) < 4096:
        try:
            if Path(arg).is_file():
                return InputSpec("file", arg)
            if Path(arg).is_dir():
                raise InvalidInput(f"{arg} is a directory: give a file inside it")
        except OSError:
            pass
        if not any(c.isspace() for c in stripped) and stripped.lower().endswith(_FILE_LIKE):
            raise InvalidInput(f"no such file: {stripped}")
    return InputSpec("text", arg)


def split_links(text: str, limit: int = MAX_URLS) -> tuple[str, list[str]]:
    """The text with its links taken out, and the links (at most `limit`, in order, each
    once)."""
    urls = list(dict.fromkeys(u.rstrip(_TRAILING) for u in URL.findall(text)))[:limit]
    return URL.sub(" ", text).strip(), urls


def states_speed(text: str) -> bool:
    """Does the text state a number with a speed unit? (No number, no search.)"""
    return any(ch.isdigit() for ch in text) and SPEED.search(text) is not None


def _read_stream(stream: BinaryIO, source: str) -> RawDocument:
    """The bytes of a stream, refused as binary from its first bytes before the rest is read, so
    an image or a disk image costs a few kilobytes, not its size."""
    head = stream.read(SNIFF_BYTES)
    RawDocument(head, source=source).refuse_binary()
    rest = stream.read(MAX_LOCAL_BYTES + 1 - len(head))
    if len(head) + len(rest) > MAX_LOCAL_BYTES:
        raise InvalidInput(f"{source} is larger than {MAX_LOCAL_BYTES // 2**20} MiB")
    return RawDocument(head + rest, source=source)


def read_local(spec: InputSpec, stdin: BinaryIO | None = None) -> RawDocument:
    """The bytes of a file, stdin or literal text. URLs are fetched elsewhere."""
    if spec.kind == "text":
        return RawDocument.from_text(spec.value, source="text")
    if spec.kind == "stdin":
        stream = stdin if stdin is not None else sys.stdin.buffer
        return _read_stream(stream, "stdin")
    if spec.kind == "file":
        path = Path(spec.value)
        try:
            if path.stat().st_size > MAX_LOCAL_BYTES:
                raise InvalidInput(f"{path}: larger than {MAX_LOCAL_BYTES // 2**20} MiB")
            with path.open("rb") as stream:
                return _read_stream(stream, str(path))
        except OSError as exc:
            raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
    raise InvalidInput(f"{spec.value} is a URL; it must be fetched")
