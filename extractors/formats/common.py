"""Small helpers shared by the tool-output adapters: safe numbers, look-ups, notes, run totals.

Every number read from a stranger's JSON goes through `number`, `positive` or `count`:
- a bool is not a number (``True`` would otherwise read as 1);
- NaN and ±inf are rejected (Python's json module accepts ``NaN``/``Infinity``, and SGLang's
  bench_serving writes ``Infinity`` for an unlimited request rate);
- negative values are rejected unless the caller allows them;
- numeric strings are accepted (vLLM ``--metadata`` values are strings), anything else is not;
- overflow (``1e400``, a 400-digit integer) is caught, never raised.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import ExtractError
from extractors.text.lazyre import lazy

__all__ = [
    "MISSING",
    "Notes",
    "count",
    "dig",
    "engine_from_backend",
    "fmt",
    "has_any",
    "is_empty",
    "iso_from_epoch",
    "join_path",
    "number",
    "positive",
    "record_list",
    "safe_json",
    "set_request_totals",
    "text",
]

MISSING: Any = object()  # a key that is absent, as opposed to present with null
_NUMERIC = lazy(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$")


def number(value: Any, *, allow_negative: bool = False) -> float | None:
    """A finite float, or None for anything else (bool, NaN, inf, text, negative)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not _NUMERIC.match(value):
            return None
    elif not isinstance(value, (int, float)):
        return None
    try:
        out = float(value)
    except (OverflowError, ValueError):
        return None
    if not math.isfinite(out) or (out < 0 and not allow_negative):
        return None
    return out


def positive(value: Any) -> float | None:
    """A finite float > 0, or None."""
    out = number(value)
    return out if out is not None and out > 0 else None


def count(value: Any, *, allow_zero: bool = True) -> int | None:
    """A non-negative whole number (128 or 128.0), or None (12.5 is not a count)."""
    out = number(value)
    if out is None or out != int(out) or (out == 0 and not allow_zero):
        return None
    return int(out)


def text(value: Any) -> str | None:
    """A non-empty stripped string, or None (numbers are not names)."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def dig(obj: Any, *path: str | int) -> Any:
    """Walk dict keys and list indices; MISSING when any step is absent."""
    cur = obj
    for step in path:
        if isinstance(step, int) and not isinstance(step, bool):
            if not isinstance(cur, list) or not -len(cur) <= step < len(cur):
                return MISSING
            cur = cur[step]
        elif isinstance(cur, dict) and step in cur:
            cur = cur[step]
        else:
            return MISSING
    return cur


def has_any(obj: Any, keys: Iterable[str]) -> bool:
    return isinstance(obj, dict) and any(k in obj for k in keys)


def is_empty(value: Any) -> bool:
    """A field that exists but says nothing: null, blank text, an empty list or object."""
    if value is None or value is MISSING:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, dict)):
        return len(value) == 0
    return False


def join_path(prefix: str, *parts: str | int) -> str:
    """Provenance key path: join_path("[1]", "timings", "draft_n") -> "[1].timings.draft_n"."""
    out = prefix
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not out:
            out = part
        else:
            out += f".{part}"
    return out


def record_list(data: Any) -> tuple[list[dict[str, Any]], bool] | None:
    """A document as (records, is_list): one object, or a list (JSON array / JSON Lines) of
    objects. None for anything else, including an empty list."""
    if isinstance(data, dict):
        return [data], False
    if isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
        return data, True
    return None


def safe_json(doc: RawDocument) -> Any:
    """The parsed JSON, or None when the document is not JSON or is too deep to read."""
    try:
        return doc.json()
    except ExtractError:
        return None


def set_request_totals(b: ClaimBuilder, rec: dict[str, Any], prefix: str) -> int | None:
    """The run totals vLLM's and SGLang's bench_serving both write (SGLang's is adapted from
    vLLM's): output tokens over `duration` as tokens_generated / wall_seconds, so the arithmetic
    check can recompute the rate, and the mean input and output tokens per completed request.
    Returns the total output tokens."""
    completed = count(rec.get("completed"), allow_zero=False)
    tokens_in = count(rec.get("total_input_tokens"))
    tokens_out = count(rec.get("total_output_tokens"))
    b.set("tokens_generated", tokens_out, field=join_path(prefix, "total_output_tokens"))
    b.set("wall_seconds", positive(rec.get("duration")), field=join_path(prefix, "duration"))
    if completed:
        per_request = f"/{join_path(prefix, 'completed')}"
        if tokens_in is not None:
            b.set("input_tokens", round(tokens_in / completed),
                  field=join_path(prefix, "total_input_tokens") + per_request)
        if tokens_out is not None:
            b.set("output_tokens", round(tokens_out / completed),
                  field=join_path(prefix, "total_output_tokens") + per_request)
    return tokens_out


def fmt(x: float) -> str:
    """A compact figure for notes: 485.653, 2.87, 12000."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.4g}" if abs(x) < 1 else f"{x:.2f}".rstrip("0").rstrip(".")


def iso_from_epoch(value: Any) -> str | None:
    """Seconds since the epoch as an ISO-8601 UTC string (GuideLLM start_time)."""
    secs = positive(value)
    if secs is None:
        return None
    try:
        return datetime.fromtimestamp(secs, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


# Benchmark clients name the server they talked to; only a name that pins an engine is used.
_BACKEND_ENGINES = {
    "vllm": "vllm", "vllm-chat": "vllm", "sglang": "sglang", "sglang-native": "sglang",
    "sglang-oai": "sglang", "sglang-oai-chat": "sglang", "lmdeploy": "lmdeploy",
    "trt": "tensorrt-llm", "tensorrt-llm": "tensorrt-llm", "tgi": "tgi",
    "deepspeed-mii": "deepspeed-mii", "scalellm": "scalellm", "llama.cpp": "llama.cpp",
}


def engine_from_backend(value: Any) -> str | None:
    """The engine a client's `backend` names, or None for generic ones ("openai", "openai-chat"):
    an OpenAI-compatible endpoint can be any server."""
    name = text(value)
    return _BACKEND_ENGINES.get(name.lower()) if name else None


class Notes:
    """Free-text remarks gathered while parsing, with the keys they came from."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.fields: list[str] = []

    def add(self, sentence: str, *fields: str) -> None:
        self.parts.append(sentence)
        self.fields.extend(f for f in fields if f not in self.fields)

    def apply(self, builder: Any) -> None:
        if self.parts:
            builder.set("notes", "; ".join(self.parts),
                        field=", ".join(self.fields[:12]) or None)
