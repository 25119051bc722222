"""Units of a record's sizes: parameter counts and byte sizes, wherever the record writes the unit.

Boards put the unit of a number in one of three places, and all three are read here, through the
alias table, by one mechanism:
- a unit column beside the value (LocalScore's export: `model_params` = 8000 with
  `model_params_unit` = M, `accel_ram` = 24 with `accel_ram_unit` = GB);
- the header ("memory (GiB)", "params_B", "model size [MiB]");
- the cell itself ("8B", "8000M", "1.1B", "16GB", "729.64 MiB").

`record_units` finds the first two in a record and `with_unit` writes the unit into the value as
the third, so each converter (`to_billions`, `to_bytes`, `to_gigabytes`) reads a value and its
unit the same way whatever the board's layout.

Quirks, each with its reason:
- Parameter counts: K/M/B/T are thousands, millions, billions, trillions ("135M" is SmolLM's
  size, https://huggingface.co/HuggingFaceTB/SmolLM-135M); "G" is read as billions (GGUF's size
  label uses B, some exports G). A bare number above 1e5 is a raw count (LocalScore's API:
  `params` 8030263296), else billions — the historical reading; a bare 8000 is left to the
  suspect-field check, which compares it with the model's row.
- Bytes: KiB/MiB/GiB/TiB are powers of 1024 (IEC 80000-13, what llama.cpp prints: "729.64 MiB"),
  KB/MB/GB/TB powers of 1000 (SI). A bare byte count stays bytes; a bare GB figure stays GB.
- An unknown unit word ("params", "weights") is no unit: the number is read as if bare.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from extractors.formats.values import BadValue, to_float
from extractors.text.lazyre import lazy

__all__ = [
    "BYTE_UNITS",
    "COUNT_UNITS",
    "header_unit",
    "record_units",
    "split_unit",
    "to_billions",
    "to_bytes",
    "to_gigabytes",
    "with_unit",
]

# Parameter-count multipliers, in billions.
COUNT_UNITS: dict[str, float] = {
    "k": 1e-6, "thousand": 1e-6,
    "m": 1e-3, "mn": 1e-3, "mil": 1e-3, "million": 1e-3, "millions": 1e-3,
    "b": 1.0, "bn": 1.0, "g": 1.0, "billion": 1.0, "billions": 1.0,
    "t": 1e3, "trillion": 1e3,
}
# Byte multipliers.
BYTE_UNITS: dict[str, float] = {
    "b": 1.0, "byte": 1.0, "bytes": 1.0,
    "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
    "kib": 2.0**10, "mib": 2.0**20, "gib": 2.0**30, "tib": 2.0**40,
    "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12,  # "16G" as `free -h` and spreadsheets write it
}
_ALL_UNITS = set(COUNT_UNITS) | set(BYTE_UNITS)

# A number and what follows it, anchored and possessive (linear time on any input): one digit
# run, one optional fraction and exponent, then letters only.
_VALUE = lazy(r"^\s*+([-+]?(?:\d{1,3}(?:,\d{3})++(?!\d)|\d++)(?:\.\d++)?(?:[eE][-+]?\d++)?)"
                    r"\s*+([A-Za-z]{0,12})\s*+$")
# A unit at the end of a header: "memory (GiB)", "params_B", "model size [MiB]", "ram-gb".
_HEADER = lazy(r"^(.{1,80}?)(?:[\s_\-]++|[\s_\-]*+[(\[]\s*+)([A-Za-z]{1,8})\s*+[)\]]?\s*+$")
_MAX_KEY = 100  # headers are short; a longer key is no header with a unit


def split_unit(value: Any) -> tuple[float, str | None]:
    """`"8000M"` → (8000.0, "m"); `8.0` → (8.0, None); an unknown word is no unit."""
    if isinstance(value, str):
        m = _VALUE.match(value)
        if m:
            unit = m.group(2).lower() or None
            return float(m.group(1).replace(",", "")), unit if unit in _ALL_UNITS else None
    return to_float(value), None


def to_billions(value: Any) -> float:
    """A parameter count in billions: "8B" → 8, "8000M" → 8, "135M" → 0.135, 8030263296 → 8.03."""
    n, unit = split_unit(value)
    if unit is not None and unit in COUNT_UNITS:
        out = n * COUNT_UNITS[unit]
    else:
        out = n / 1e9 if n > 1e5 else n  # a raw count vs billions
    if out <= 0:
        raise BadValue(f"{value!r} is not a parameter count")
    return out


def to_bytes(value: Any) -> float:
    """A size in bytes: "729.64 MiB" → 765,086,679; "4.35 GiB"; a bare number is bytes."""
    n, unit = split_unit(value)
    out = n * BYTE_UNITS[unit] if unit is not None and unit in BYTE_UNITS else n
    if out <= 0:
        raise BadValue(f"{value!r} is not a size")
    return out


def to_gigabytes(value: Any) -> float:
    """A memory size in GB (1e9 bytes): "16GB" → 16, "24576 MiB" → 25.77; a bare number is GB."""
    n, unit = split_unit(value)
    out = n * BYTE_UNITS[unit] / 1e9 if unit is not None and unit in BYTE_UNITS else n
    if out <= 0:
        raise BadValue(f"{value!r} is not a memory size")
    return out


def header_unit(key: str) -> tuple[str, str] | None:
    """A header that ends in a unit: "memory (GiB)" → ("memory", "gib"); None otherwise."""
    key = str(key)
    return _header_unit(key) if len(key) <= _MAX_KEY else None


# Boards spell the same few dozen keys on every record: each key read once (bounded; keys are short).
@lru_cache(maxsize=4096)
def _header_unit(key: str) -> tuple[str, str] | None:
    m = _HEADER.match(key)
    if not m:
        return None
    base, unit = m.group(1).strip(" _-([").strip(), m.group(2).lower()
    if not base or unit not in _ALL_UNITS:
        return None
    return base, unit


_UNIT_COLUMN = lazy(r"^(.{1,80}?)[\s_\-]*+units?$", re.IGNORECASE)


def record_units(record: dict[str, Any]) -> dict[str, str]:
    """The unit each key's value is in, from a unit column beside it (`model_params_unit`): the
    key's own spelling → the unit (lower case). Only units this module knows are kept."""
    out: dict[str, str] = {}
    keys: dict[str, Any] | None = None
    for key, value in record.items():
        name = str(key)
        column = _unit_column(name) if len(name) <= _MAX_KEY else None
        if column is None or not isinstance(value, str):
            continue
        if keys is None:  # most records have no unit column: the lookup is made when one is seen
            keys = {str(k).lower(): k for k in record}
        base = keys.get(column)
        unit = value.strip().lower()
        if base is not None and unit in _ALL_UNITS:
            out[str(base)] = unit
    return out


@lru_cache(maxsize=4096)
def _unit_column(key: str) -> str | None:
    """The key a unit column names the unit of (`model_params_unit` → "model_params"), lower
    case; None for any other key. Memoised by key, as `_header_unit`."""
    m = _UNIT_COLUMN.match(key)
    return m.group(1).lower() if m else None


def with_unit(value: Any, unit: str | None) -> Any:
    """The value with its unit written after it ("8000" + "m" → "8000 m"), so the converters read
    a unit column, a header unit and a cell suffix the same way; a value that has its own unit
    keeps it."""
    if unit is None or value is None or isinstance(value, (bool, dict, list)):
        return value
    text = str(value).strip()
    if not text:
        return value
    try:
        _, own = split_unit(text)
    except BadValue:
        return value
    return text if own is not None else f"{text} {unit}"
