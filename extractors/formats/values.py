"""Value converters for leaderboard records: numbers, rates, whole numbers, yes/no, text, dates.

Each converter takes one JSON value and returns it as the claim field wants it, or raises
`BadValue` naming what was wrong, so the adapter can report the field and carry on; `read_key`
reads one key of a record through a converter and names the key when it fails.

Quirks, each with its reason:
- A number may be a string with a unit and thousands separators ("4,691 tok/s", "99.6 W"): boards
  store what their form showed. Any other trailing text is not a number.
- A bool is not a number (`True` would otherwise read as 1); NaN and ±inf are not numbers.
- A throughput or power draw of zero or less is no measurement (`to_rate`).
- A date may be an epoch number, in seconds or milliseconds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from extractors.text.lazyre import lazy

__all__ = [
    "BadValue",
    "read_key",
    "scaled",
    "to_bool",
    "to_date",
    "to_float",
    "to_int",
    "to_rate",
    "to_text",
]


class BadValue(ValueError):
    """A field held a value of the wrong kind ("fast" where a number belongs)."""


_NUM = lazy(r"^\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+)")


def to_float(value: Any) -> float:
    """A number, or a string that starts with one ("4,691 tok/s", "99.6 W")."""
    if isinstance(value, bool):
        raise BadValue(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        out = float(value)
    elif isinstance(value, str):
        m = _NUM.match(value)
        rest = value[m.end():].strip() if m else ""
        if not m or (rest and not re.match(r"^[a-zA-Z%/µ ]+$", rest)):
            raise BadValue(f"{value[:40]!r} is not a number")
        out = float(m.group(1).replace(",", ""))
    else:
        raise BadValue(f"a {type(value).__name__} is not a number")
    if not math.isfinite(out):
        raise BadValue(f"{value!r} is not a finite number")
    return out


def to_rate(value: Any) -> float:
    """A positive number: a throughput or a power draw of zero or less is no measurement."""
    out = to_float(value)
    if out <= 0:
        raise BadValue(f"{value!r} is not a positive rate")
    return out


def scaled(value: Any, factor: float) -> float:
    """A number times a unit factor (s → ms), still finite."""
    out = to_float(value) * factor
    if not math.isfinite(out):
        raise BadValue(f"{value!r} is out of range")
    return out


def to_int(value: Any) -> int:
    out = to_float(value)
    if out != int(out):
        raise BadValue(f"{value!r} is not a whole number")
    return int(out)


_TRUE = {"true", "yes", "y", "on", "1", "enabled", "enable"}
_FALSE = {"false", "no", "n", "off", "0", "disabled", "disable", "none"}


def to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise BadValue(f"{value!r} is not yes/no")


def to_text(value: Any) -> str:
    """A string; an object with a `name` (as boards nest `model{name,…}`) gives that name."""
    if isinstance(value, dict):
        for key in ("name", "display_name", "id"):
            if isinstance(value.get(key), (str, int)):
                return str(value[key])
        raise BadValue("an object with no name")
    if isinstance(value, (bool, list)):
        raise BadValue(f"a {type(value).__name__} is not text")
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value
    raise BadValue(f"a {type(value).__name__} is not text")


def to_date(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        secs = value / 1000 if value > 1e11 else value  # epoch milliseconds vs seconds
        try:
            return datetime.fromtimestamp(secs, tz=UTC).isoformat(timespec="seconds")
        except (OverflowError, OSError, ValueError):
            raise BadValue(f"{value!r} is not a date") from None
    return to_text(value)


def read_key(obj: dict[str, Any], key: str, conv: Callable[[Any], Any], where: str) -> Any:
    """`conv(obj[key])`, or None when the key is absent, null or "" (boards leave cells blank).
    A BadValue is re-raised naming `where`, the key or path the reader should go and look at."""
    value = obj.get(key)
    if value is None or value == "":
        return None
    try:
        return conv(value)
    except BadValue as exc:
        raise BadValue(f"'{where}' {exc}") from None
