"""Records arrays shared by the leaderboard adapters: finding them and reading one record.

Leaderboard dumps put their rows in a top-level list, or in a list under `results`, `data`,
`runs`, `records`, `items`, …. `find_records` finds that list by shape, whatever host
served it. `map_record` reads one record through `FIELD_ALIASES` (in `aliases`), the built-in table
of ordinary spellings, into a `ClaimBuilder`, recording the JSON path of every value as its
provenance.

Quirks, each with its reason:
- Nested objects are searched one level down only for unambiguous spellings: a bare `version`
  or `id` inside `system{}` is not the engine's version or the record's id.
- A size's unit is read wherever the record writes it: a unit column beside it
  (`model_params_unit`), the header ("memory (GiB)") or the cell ("8000M"); see `units`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from extractors.builder import ClaimBuilder, PresenceBuilder
from extractors.formats.aliases import ALIAS_INDEX, TARGETS, apply_target, fold
from extractors.formats.common import MISSING, dig
from extractors.formats.targets import UNIT_TARGETS
from extractors.formats.units import header_unit, record_units, with_unit
from extractors.formats.values import BadValue

__all__ = [
    "RECORD_KEYS",
    "RecordSet",
    "find_records",
    "get_path",
    "looks_like_claim",
    "map_record",
]

# Keys under which boards keep their rows, most common first.
RECORD_KEYS = ("results", "data", "runs", "records", "items", "benchmarks", "rows", "entries",
               "submissions", "leaderboard", "list", "hits", "values", "objects")
# Keys under which a single-record endpoint wraps its one record.
_SINGLE_KEYS = ("record", "result", "data", "item", "entry", "run", "submission")


# ---------------------------------------------------------------------------------- finding rows

@dataclass(frozen=True)
class RecordSet:
    """The rows of a board and the JSON path they sit at ("" = the document itself)."""

    path: str
    rows: list[Any]
    single: bool = False  # one record object, not a list

    def row_path(self, i: int) -> str:
        if self.single:
            return self.path
        return f"{self.path}[{i}]"


def _is_rows(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(v, dict) for v in value)


def find_records(data: Any, *, max_depth: int = 3) -> RecordSet | None:
    """The records array of a JSON document, found by shape; None when there is none."""
    if _is_rows(data):
        return RecordSet("", data)
    if not isinstance(data, dict):
        return None
    # Breadth-first through objects: known keys first at each level, then any list of objects.
    level: list[tuple[str, dict[str, Any]]] = [("", data)]
    for _ in range(max_depth):
        nxt: list[tuple[str, dict[str, Any]]] = []
        for prefix, obj in level:
            folded = {fold(k): k for k in obj}
            for key in RECORD_KEYS:
                real = folded.get(key)
                if real is not None and _is_rows(obj[real]):
                    return RecordSet(_join(prefix, real), obj[real])
            lists = [(k, v) for k, v in obj.items() if _is_rows(v)]
            if lists:
                k, v = max(lists, key=lambda kv: len(kv[1]))
                return RecordSet(_join(prefix, k), v)
            nxt.extend((_join(prefix, k), v) for k, v in obj.items() if isinstance(v, dict))
        level = nxt
    # A single-record endpoint: the object itself, or one wrapped under `record`/`data`/….
    for key in _SINGLE_KEYS:
        inner = data.get(key)
        if isinstance(inner, dict) and looks_like_claim(inner):
            return RecordSet(key, [inner], single=True)
    if looks_like_claim(data):
        return RecordSet("", [data], single=True)
    return None


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else str(key)


def get_path(obj: Any, path: str, default: Any = None) -> Any:
    """`get_path(doc, "data.items")`, `get_path(row, "perf.rates[0]")`; "" is the object itself."""
    steps = [int(part[1:-1]) if part.startswith("[") else part
             for part in re.findall(r"[^.\[\]]+|\[\d+\]", path or "")]
    found = dig(obj, *steps)
    return default if found is MISSING else found


# ------------------------------------------------------------------------------ reading records

def _leaves(record: dict[str, Any], prefix: str) -> Iterator[tuple[str, str, Any, bool]]:
    """(path, key, value, nested) for top-level keys, then for keys one object down."""
    for key, value in record.items():
        yield _join(prefix, key), key, value, False
    for key, value in record.items():
        if isinstance(value, dict):
            for k2, v2 in value.items():
                yield _join(_join(prefix, key), k2), k2, v2, True


def _usable_nested(spelling: str) -> bool:
    """One level down, only spellings that cannot be someone else's field (`tok_s`, `gen_tps`)."""
    return "_" in spelling or spelling in {"throughput", "tps", "ttft", "quant", "quantization",
                                           "precision", "gpu", "accelerator", "al", "isl", "osl",
                                           "conc", "concurrency", "batch", "watts", "temperature"}


def _plan(key: Any, nested: bool) -> tuple[str, str | None] | None:
    """What a record's key is: (its target, the unit its header names, if any), or None for a
    key the alias table does not read (at this depth)."""
    spelling = fold(key)
    target = ALIAS_INDEX.get(spelling)
    unit = None
    if target is None and (hu := header_unit(key)) is not None:
        # "memory (GiB)", "params_B": the unit is in the header, the field in front of it.
        base = ALIAS_INDEX.get(fold(hu[0]))
        if base in UNIT_TARGETS:
            target, spelling, unit = base, fold(hu[0]), hu[1]
    if target is None or (nested and not _usable_nested(spelling)):
        return None
    return target, unit


# Boards spell the same few dozen keys on every record: each (key, depth) planned once (bounded,
# and only keys of ordinary length are kept).
_key_plan = lru_cache(maxsize=4096)(_plan)
_MEMO_KEY = 200
# Each target's place in the table: a record's targets are applied in that order.
_ORDER = {target: k for k, target in enumerate(TARGETS)}


def map_record(record: dict[str, Any], prefix: str, b: ClaimBuilder,
               problems: list[str] | None = None) -> None:
    """Read one record through the alias table into `b`; unreadable values go to `problems`."""
    found: dict[str, list[tuple[str, str, Any]]] = {}
    units = record_units(record)
    for path, key, value, nested in _leaves(record, prefix):
        plan = (_key_plan(key, nested) if isinstance(key, str) and len(key) <= _MEMO_KEY
                else _plan(key, nested))
        if plan is None:
            continue
        target, header = plan
        if target in UNIT_TARGETS:
            value = with_unit(value, header if header is not None else
                              units.get(key) if not nested else None)
        if isinstance(value, (dict, list)) and target not in ("model", "hardware", "engine",
                                                              "submitter", "env", "ratios"):
            continue
        found.setdefault(target, []).append((path, key, value))
    # the table's order, so window conventions and kinds are stable
    for target in sorted(found, key=_ORDER.__getitem__):
        for path, key, value in found[target]:
            try:
                apply_target(b, target, value, path, key)
            except BadValue as exc:
                if problems is not None:
                    problems.append(f"{path}: {exc}")


def looks_like_claim(record: Any) -> bool:
    """A record whose aliases give a throughput number and a hardware or model name."""
    if not isinstance(record, dict):
        return False
    b = PresenceBuilder("sniff")
    try:
        map_record(record, "", b)
    except Exception:  # noqa: BLE001 - sniffing never raises
        return False
    return b.has("tok_s") and (b.has("hardware") or b.has("model"))
