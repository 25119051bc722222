"""Any leaderboard dump: a records array read through the alias table or a board mapping entry.

Shape: a JSON document holding a list of records — a
top-level list, or a list under `results`, `data`, `runs`, `records`, `items`, … (found by
`records.find_records`) — where at least one record has a throughput and a hardware or model name
under ordinary spellings (`records.FIELD_ALIASES`). Boards with other spellings are described by an
entry in `extractors/data/boards.json` (or a caller's own mapping file), not by code.

Quirks:
- Matching is by shape, never by host: a self-hosted copy of a board on another address parses
  to the same claims (only the provenance source differs). A mapping's `url_pattern` breaks ties.
- This adapter is last in the table: every specific leaderboard shape is tried first.
- One claim per record, also for records with no readable throughput, so a sweep keeps its count;
  values of the wrong kind are skipped and counted in one warning on the document.
- A single-record endpoint (`/api/records/r-56`) is a board of one.
- A record's launch command, notes and engine-configuration objects are read by the text readers
  (`record_text`): they fill what the structured keys left empty, and a disagreement is kept as a
  `FieldConflict`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from checks.models import Claim, SourceKind
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.aliases import TARGETS, apply_target
from extractors.formats.board_mapping import BoardMapping, load_board_mappings
from extractors.formats.record_text import read_record_text, row_texts
from extractors.formats.records import (
    RecordSet,
    find_records,
    get_path,
    looks_like_claim,
    map_record,
)
from extractors.formats.targets import UNIT_TARGETS
from extractors.formats.units import record_units, with_unit
from extractors.formats.values import BadValue

__all__ = ["GenericBoard", "read_board_row"]

_SNIFF_ROWS = 500  # enough to find one usable record in any real dump


# A row read by the alias table (`map_record`) at its path in the document: the builder and the
# values it could not read.
_Mapped = tuple[ClaimBuilder, list[str]]


@dataclass(frozen=True)
class _Sniffed:
    """What `sniff` found, for `parse` of the same document with the same board table: the
    board entry, or the records array and the rows it read to recognise them. Sniffing reads a
    row exactly as parsing does, so a board's first row is read by the alias table once."""

    data: Any  # the parsed document (by identity)
    mappings: tuple[BoardMapping, ...]  # the board table it was found with (by identity)
    mapping: BoardMapping | None
    found: RecordSet | None
    rows: dict[int, _Mapped]


def _sniff_row(source: str, found: RecordSet, i: int, row: Any, rows: dict[int, _Mapped]) -> bool:
    """`looks_like_claim(row)`, the row read as `parse` reads it (a claim builder, at its path):
    the same fields are set either way, and the reading is kept in `rows` for `parse`."""
    if not isinstance(row, dict):
        return False
    b, problems = ClaimBuilder(source), list[str]()
    try:
        map_record(row, found.row_path(i), b, problems)
    except Exception:  # noqa: BLE001 - sniffing never raises; the plain test says what it would
        return looks_like_claim(row)
    rows[i] = (b, problems)
    return b.has("tok_s") and (b.has("hardware") or b.has("model"))


def _json(doc: RawDocument) -> Any:
    try:
        return doc.json()
    except Exception:  # noqa: BLE001 - an unreadable document is simply not ours
        return None


class GenericBoard:
    name: ClassVar[str] = "generic_board"
    kind: ClassVar[SourceKind] = "record"

    def __init__(self, mappings: Iterable[BoardMapping] | None = None,
                 mapping_files: Iterable[Path | str] = ()) -> None:
        """`mappings` replaces the packaged entries; `mapping_files` are merged over them."""
        if mappings is None:
            self.mappings: tuple[BoardMapping, ...] = load_board_mappings(*mapping_files)
        else:
            self.mappings = tuple(mappings)

    def sniff(self, doc: RawDocument) -> bool:
        data = _json(doc)
        if not isinstance(data, (dict, list)):
            return False
        mapping = self.mapping_for(doc, data)
        if mapping is not None:
            doc.sniffed[self.name] = _Sniffed(data, self.mappings, mapping, None, {})
            return True
        found = find_records(data)
        if found is None:
            return False
        rows: dict[int, _Mapped] = {}
        if not any(_sniff_row(doc.source, found, i, r, rows) for i, r in enumerate(found.rows[:_SNIFF_ROWS])):
            return False
        doc.sniffed[self.name] = _Sniffed(data, self.mappings, None, found, rows)
        return True

    def mapping_for(self, doc: RawDocument, data: Any) -> BoardMapping | None:
        """The board entry for this document: by shape (URL breaks ties), else by URL alone."""
        by_shape = [m for m in self.mappings if m.matches_shape(data)]
        if by_shape:
            return next((m for m in by_shape if m.matches_url(doc.source)), by_shape[0])
        return next((m for m in self.mappings if m.matches_url(doc.source)), None)

    def parse(self, doc: RawDocument) -> list[Claim]:
        data = doc.json()  # a document nested too deeply raises InvalidInput saying so
        if not isinstance(data, (dict, list)):
            raise InvalidInput(f"{doc.source}: not a JSON leaderboard document")
        # Taken once: a second parse of the document reads it afresh.
        sniffed: _Sniffed | None = doc.sniffed.pop(self.name, None)
        if sniffed is not None and (sniffed.data is not data or sniffed.mappings is not self.mappings):
            sniffed = None
        mapping = sniffed.mapping if sniffed is not None else self.mapping_for(doc, data)
        if mapping is not None:
            rows = mapping.records(data)
            if not rows:
                raise InvalidInput(f"{doc.source}: board '{mapping.name}' keeps its records at "
                                   f"'{mapping.records_path or '(top level)'}', and there is no "
                                   "list of records there")
            single = isinstance(get_path(data, mapping.records_path), dict)
            found = RecordSet(mapping.records_path, rows, single=single)
        else:
            by_shape = sniffed.found if sniffed is not None else find_records(data)
            if by_shape is None:
                raise InvalidInput(f"{doc.source}: no records array found (looked for a list "
                                   "at the top level or under results/data/runs/records/items/…)")
            found = by_shape
        problems: list[str] = []
        mapped = sniffed.rows if sniffed is not None else {}
        read = [self._claim(doc, row, found.row_path(i), mapping, problems, mapped.get(i))
                for i, row in enumerate(found.rows)]
        claims = [c for c in read if c is not None]
        if not any(c.tok_s is not None for c in claims):
            where = f"board '{mapping.name}'" if mapping else "the records"
            detail = f" ({problems[0]})" if problems else ""
            raise InvalidInput(f"{doc.source}: {len(found.rows)} record(s) in {where}, none with "
                               f"a readable throughput (tok/s){detail}")
        if problems:
            doc.warnings.append(f"{doc.source}: {len(problems)} field value(s) could not be read "
                                f"and were skipped, e.g. {problems[0]}")
        return claims

    def _claim(self, doc: RawDocument, row: Any, path: str, mapping: BoardMapping | None,
               problems: list[str], mapped: _Mapped | None) -> Claim | None:
        if not isinstance(row, dict):
            problems.append(f"{path or 'record'}: not an object")
            return None
        return read_board_row(doc.source, row, path, problems, mapping, mapped=mapped)


def read_board_row(source: str, row: dict[str, Any], path: str, problems: list[str],
                   mapping: BoardMapping | None = None, *, mapped: _Mapped | None = None) -> Claim:
    """One board record: the mapping's fields, then the alias table, then the record's own words
    (launch command, notes, engine config) for what the keys left empty. The streamed sweep
    reads rows through this too, so both paths give the same claim. `mapped`: this row already
    read by the alias table at `path` (by `sniff`), for a board with no mapping entry."""
    if mapping is None and mapped is not None:
        b, found = mapped
        problems.extend(found)
        return _with_own_words(b, row, path)
    b = ClaimBuilder(source)
    if mapping is not None:
        units = record_units(row)  # `model_params_unit` beside `model_params`, as map_record does
        for target in TARGETS:
            hit = mapping.lookup(row, target) if target in mapping.fields else None
            if hit is None:
                continue
            rel, value = hit
            if target in UNIT_TARGETS:
                value = with_unit(value, units.get(rel))
            full = f"{path}.{rel}" if path else rel
            try:
                apply_target(b, target, value, full, rel.rsplit(".", 1)[-1])
            except BadValue as exc:
                problems.append(f"{full}: {exc}")
        for field, value in mapping.constants.items():
            b.set(field, value, field=f"board mapping '{mapping.name}' constants.{field}")
        if mapping.machine is not None and (machine := mapping.machine.of(row)) is not None:
            # The board's own unit of one machine (a LocalScore submission): its rows' id.
            cells = f"{path}.{{{machine[1]}}}" if path else machine[1]
            b.set("machine", machine[0], field=cells,
                  span=f"board mapping '{mapping.name}': one {mapping.machine.label} is one machine")
    map_record(row, path, b, problems)
    return _with_own_words(b, row, path)


def _with_own_words(b: ClaimBuilder, row: dict[str, Any], path: str) -> Claim:
    """The claim of a row whose keys are read into `b`, its own texts filling what they left."""
    engine = str(b.values.get("engine") or "")
    read_record_text(b, row_texts(row, path, b), engine=engine)
    return b.build()
