"""Mapping entries for leaderboards whose field names the alias table does not know.

A new board is a config entry, not code. The packaged entries live in
`extractors/data/boards.json`; callers can pass more files, whose entries replace packaged ones
of the same name. An entry names where the records list sits (`records_path`, a dotted JSON path;
"" for a top-level list) and, for each claim target of `records.TARGETS`, the path of its value
inside one record (or a list of alternative paths, the first present wins):

    {"name": "tokenarena", "url_pattern": "tokenarena\\.example/api/",
     "records_path": "payload.submissions",
     "fields": {"tok_s": "perf.gen_rate", "hardware": "rig.card", "model": ["llm.repo", "llm.name"]},
     "constants": {"tok_s_kind": "decode"}, "kind": "record"}

An entry matches a document by shape — its records list is there and at least one record holds
the mapped throughput and a hardware or model — so a self-hosted copy of the board on another host
is read the same way. `url_pattern` only breaks ties, and claims a document whose shape is broken
so that the user hears what is missing instead of "not recognised".

An entry may also name the machine a record ran on (`machine`: a label, the columns that describe
the machine and the column whose first word is the day): a board whose submitter benchmarks
several models one after another on their own box (LocalScore) gives those rows one
`Claim.machine`, so checks/peers.py can bound each by its machine's other records. A row missing
any of those cells names no machine: two rows agreeing on fewer columns may be two boxes.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from checks.models import Claim, SourceKind
from extractors.formats.aliases import TARGETS, THROUGHPUT_TARGETS
from extractors.formats.records import get_path
from extractors.formats.values import BadValue, to_float

__all__ = ["BoardMapping", "BoardMappingError", "MachineColumns", "load_board_mappings"]

_MISSING = object()


class BoardMappingError(ValueError):
    """A mapping file that cannot be used (unreadable, not JSON, an invalid entry)."""


class MachineColumns(BaseModel):
    """Which cells of a record name the machine it ran on and the day it ran."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str = Field(min_length=1)  # what one machine-day of the board is called ("submission")
    columns: list[str] = Field(min_length=1)
    day: str | None = None  # a date cell; its first word (the day, not the time) is part of the id

    def of(self, record: Any) -> tuple[str, str] | None:
        """(the machine's id, the cells it was read from), or None where a cell is missing."""
        paths = [*self.columns, *([self.day] if self.day else [])]
        cells = [get_path(record, c, default=None) for c in paths]
        if any(v is None or isinstance(v, (dict, list)) or not str(v).strip() for v in cells):
            return None
        values = [str(v) for v in cells]
        if self.day:
            values[-1] = values[-1].split()[0]
        return f"{self.label} " + " | ".join(values), ", ".join(paths)


class BoardMapping(BaseModel):
    """One board: where its records are and which record path fills which claim field."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    url_pattern: str | None = None  # regex searched in the source URL; breaks ties only
    records_path: str = ""  # dotted JSON path to the records list; "" = the document is the list
    fields: dict[str, str | list[str]]
    constants: dict[str, str | int | float | bool] = Field(default_factory=dict)
    kind: SourceKind = "record"
    source: str | None = None  # where the board's field names were read
    notes: str | None = None
    machine: MachineColumns | None = None  # the cells naming the machine a record ran on

    @field_validator("url_pattern")
    @classmethod
    def _compiles(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                re.compile(v)
            except re.error as exc:
                raise ValueError(f"url_pattern is not a valid regex: {exc}") from None
        return v

    @field_validator("fields")
    @classmethod
    def _known_targets(cls, v: dict[str, str | list[str]]) -> dict[str, str | list[str]]:
        unknown = sorted(set(v) - set(TARGETS))
        if unknown:
            raise ValueError(f"unknown target(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
        for target, paths in v.items():
            items = [paths] if isinstance(paths, str) else paths
            if not items or not all(isinstance(p, str) and p.strip() for p in items):
                raise ValueError(f"'{target}' needs a non-empty path or list of paths")
        if not any(t in v for t in THROUGHPUT_TARGETS):
            raise ValueError(f"needs a throughput field (one of {', '.join(THROUGHPUT_TARGETS)})")
        if "hardware" not in v and "model" not in v:
            raise ValueError("needs a 'hardware' or a 'model' field")
        return v

    @model_validator(mode="after")
    def _constants_are_claim_fields(self) -> BoardMapping:
        for key, value in self.constants.items():
            if key not in Claim.model_fields or key == "provenance":
                raise ValueError(f"constant {key!r} is not a claim field")
            try:
                Claim(**{key: value})
            except ValidationError:
                raise ValueError(f"constant {key!r} = {value!r} is not a valid value") from None
        return self

    def paths(self, target: str) -> list[str]:
        p = self.fields.get(target, [])
        return [p] if isinstance(p, str) else list(p)

    def records(self, data: Any) -> list[Any] | None:
        rows = get_path(data, self.records_path, default=_MISSING)
        if isinstance(rows, dict) and rows:  # a single-record endpoint of the same board
            return [rows]
        return rows if isinstance(rows, list) else None

    def lookup(self, record: Any, target: str) -> tuple[str, Any] | None:
        """(path, value) of the first mapped path present in the record (None values count)."""
        for path in self.paths(target):
            value = get_path(record, path, default=_MISSING)
            if value is not _MISSING:
                return path, value
        return None

    def matches_url(self, source: str) -> bool:
        if not self.url_pattern:
            return False
        return re.search(self.url_pattern, source) is not None

    def matches_shape(self, data: Any) -> bool:
        rows = self.records(data)
        if not rows:
            return False
        return any(self._row_matches(r) for r in rows[:500])

    def _row_matches(self, row: Any) -> bool:
        if not isinstance(row, dict):
            return False
        tput = [self.lookup(row, t) for t in THROUGHPUT_TARGETS if t in self.fields]
        if not any(hit is not None and _is_number(hit[1]) for hit in tput):
            return False
        named = [self.lookup(row, t) for t in ("hardware", "model") if t in self.fields]
        return any(hit is not None and hit[1] not in (None, "") for hit in named)


def _is_number(value: Any) -> bool:
    try:
        to_float(value)
    except BadValue:
        return False
    return True


def _entries(origin: str, text: str) -> list[BoardMapping]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardMappingError(f"{origin}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if isinstance(data, dict):
        unknown = set(data) - {"boards", "$comment"}
        if unknown:
            raise BoardMappingError(f"{origin}: unknown key(s) {', '.join(sorted(unknown))}; "
                                    "expected 'boards'")
        data = data.get("boards", [])
    if not isinstance(data, list):
        raise BoardMappingError(f"{origin}: 'boards' must be a list of board entries")
    out = []
    for i, item in enumerate(data):
        try:
            out.append(BoardMapping.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"]) or "entry"
            name = item.get("name") if isinstance(item, dict) else None
            label = f"boards[{i}]" + (f" ({name})" if name else "")
            raise BoardMappingError(f"{origin}: {label} {loc}: {err['msg']}") from None
    return out


def load_board_mappings(*extra: Path | str) -> tuple[BoardMapping, ...]:
    """The packaged board entries, with each extra file's entries merged over them by name."""
    text = (resources.files("extractors") / "data" / "boards.json").read_text(encoding="utf-8")
    by_name = {m.name: m for m in _entries("extractors/data/boards.json", text)}
    for path in extra:
        p = Path(path)
        try:
            body = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise BoardMappingError(f"cannot read board mapping file {p}: {exc.strerror}") from None
        for entry in _entries(str(p), body):
            by_name[entry.name] = entry
    return tuple(by_name.values())
