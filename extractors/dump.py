"""A leaderboard dump read one record at a time, so that `sweep` holds one record, not the board.

`open_dump(path)` looks at the head of a local file: a JSON array of rows, or an object keeping
its rows under `results`/`data`/`records`/… at the top level, is streamed with ijson
(github.com/ICRAR/ijson, the yajl2 C backend) and each row read through its format's
`read_row` (a board of ordinary field names through `OrdinaryRows`, the generic adapter's
reading). Anything else — JSON Lines, CSV, a tool's output, a board that needs a mapping — is
read whole (`loaded_dump`); a local file has no size cap either way: the fetch cap
is for the network. A dump is read twice by `sweep` (once for the sibling index, once to audit),
so `read` can start again and skip the rows nobody wants without building their Claims.

Quirks, each with its reason:
- Leaderboard notes often hold raw control characters, which the JSON grammar forbids inside
  strings; a byte in 0x00–0x1F other than tab, newline and carriage return is escaped as
  `\\u00XX` on the way in (the same character once decoded, and never valid outside a string),
  and the dump's warnings say it was read leniently, as `RawDocument.json()` does. A raw tab or
  newline inside a string still breaks the stream: the caller then reads the dump whole.
- The format is detected on the first rows (and the scalar fields before them), the same sample
  `RecordsFormat` sniffs; the rows after are read by that format whatever they hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

import ijson

from checks.models import Claim, Source, SourceKind
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.evidence import read_document
from extractors.formats import detect
from extractors.formats.aliases import fold
from extractors.formats.base import RowReader
from extractors.formats.generic_board import GenericBoard, read_board_row
from extractors.formats.records import RECORD_KEYS, RecordSet, find_records

__all__ = [
    "Dump",
    "DumpStreamError",
    "OrdinaryRows",
    "ReadNotes",
    "Unreadable",
    "loaded_dump",
    "open_dump",
]

_SAMPLE_ROWS = 200  # what RecordsFormat sniffs
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_SCALARS = {"string", "number", "boolean", "null"}
_LENIENT = "JSON held raw control characters; parsed leniently"


@dataclass(frozen=True)
class Unreadable:
    """A record that could not be read: where it sits in the dump and why."""

    index: int
    reason: str


Item = tuple[int, Claim | Unreadable]


class DumpStreamError(InvalidInput):
    """The stream broke part-way (a raw tab in a string, a truncated file)."""


class _Lenient:
    """A binary file whose raw control bytes come out escaped (see the module's quirks)."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        self.escaped = 0

    def read(self, size: int = -1) -> bytes:
        chunk = self._f.read(size)
        if _CONTROL.search(chunk) is None:
            return chunk
        self.escaped += 1
        return _CONTROL.sub(lambda m: b"\\u%04x" % m[0][0], chunk)


@dataclass
class ReadNotes:
    """What reading a streamed dump noticed besides its records; known after a whole pass (or
    merged from the stripes of one), then turned into the dump's warnings by `Dump.settle`."""

    lenient: bool = False  # raw control characters were escaped
    problems: int = 0  # field values that could not be read (the record was still read)
    first: tuple[int, str] | None = None  # the first such value: (record, what)

    def merge(self, other: ReadNotes) -> ReadNotes:
        firsts = [f for f in (self.first, other.first) if f is not None]
        return ReadNotes(self.lenient or other.lenient, self.problems + other.problems,
                         min(firsts) if firsts else None)


class OrdinaryRows:
    """Rows with ordinary field names read through the alias table, one at a time: the generic
    board adapter's reading of a dump that needs no board mapping (`map_record`)."""

    name: ClassVar[str] = "generic_board"
    kind: ClassVar[SourceKind] = "record"

    def records(self, data: Any) -> RecordSet | None:
        return find_records(data)

    def read_row(self, source: str, row: Any, path: str) -> Claim:
        return self.read_row_noting(source, row, path, [])

    def read_row_noting(self, source: str, row: Any, path: str, problems: list[str]) -> Claim:
        if not isinstance(row, dict):
            raise InvalidInput(f"{path or 'record'}: not an object")
        return read_board_row(source, row, path, problems)


@dataclass
class Dump:
    """The records of one dump, read in order as (index, Claim or Unreadable)."""

    source: Source
    warnings: list[str] = field(default_factory=list)
    claims: Sequence[Claim | Unreadable] | None = None  # a dump read whole
    path: Path | None = None  # a dump streamed from a file
    prefix: str = ""  # ijson's path to the rows ("item", "records.item")
    rows_at: str = ""  # the same as a provenance path ("", "records")
    reader: RowReader | None = None
    notes: ReadNotes = field(default_factory=ReadNotes)

    @property
    def streamed(self) -> bool:
        return self.claims is None

    def settle(self, notes: ReadNotes, where: str | None = None) -> None:
        """The warnings of a whole pass, worded as `RawDocument` and the generic board word them;
        every report of the dump carries them."""
        where = where or str(self.path)
        extra = [f"{where}: {_LENIENT}"] if notes.lenient else []
        if notes.problems and notes.first is not None:
            extra.append(f"{where}: {notes.problems} field value(s) could not be read and were "
                         f"skipped, e.g. {notes.first[1]}")
        new = [w for w in extra if w not in self.warnings]
        if new:
            self.warnings = [*self.warnings, *new]
            self.source = self.source.model_copy(update={"note": "; ".join(self.warnings)})

    def read(self, wanted: Callable[[int], bool] | None = None) -> Iterator[Item]:
        """Every record in dump order (only those `wanted` says yes to, when given)."""
        if self.claims is not None:
            for i, c in enumerate(self.claims):
                if wanted is None or wanted(i):
                    yield i, c
            return
        assert self.path is not None and self.reader is not None
        rows = RecordSet(self.rows_at, [])
        where = str(self.path)
        try:
            with self.path.open("rb") as f:
                stream = _Lenient(f)
                for i, row in enumerate(ijson.items(stream, self.prefix, use_float=True)):
                    if wanted is not None and not wanted(i):
                        continue
                    yield i, self._read_row(where, row, rows.row_path(i), i)
        except (ijson.JSONError, ValueError) as exc:
            raise DumpStreamError(f"{where}: the JSON stream broke: {exc}") from None
        self.notes.lenient = self.notes.lenient or bool(stream.escaped)

    def _read_row(self, where: str, row: Any, path: str, i: int) -> Claim | Unreadable:
        try:
            if not isinstance(self.reader, OrdinaryRows):
                assert self.reader is not None
                return self.reader.read_row(where, row, path)
            problems: list[str] = []
            claim = self.reader.read_row_noting(where, row, path, problems)
            if problems:
                self.notes.problems += len(problems)
                if self.notes.first is None:
                    self.notes.first = (i, problems[0])
            return claim
        except InvalidInput as exc:
            return Unreadable(i, str(exc))


def _sample(f: BinaryIO) -> tuple[Any, str, str] | None:
    """(the dump's head as a small document, ijson prefix, provenance path) or None."""
    head = f.read(64).lstrip()
    f.seek(0)
    if head[:1] == b"[":
        return list(islice(ijson.items(_Lenient(f), "item", use_float=True), _SAMPLE_ROWS)), "item", ""
    if head[:1] != b"{":
        return None
    header: dict[str, Any] = {}
    key = None
    events = ijson.parse(_Lenient(f), use_float=True)
    for prefix, event, value in events:
        if prefix == "" and event == "map_key":
            key = value
        elif key is not None and prefix == key and "." not in key:
            if event in _SCALARS:
                header[key] = value
            elif event == "start_array" and fold(key) in RECORD_KEYS:
                break
            elif event in ("start_map", "start_array"):
                return None  # rows nested deeper, or other structure first: read it whole
    else:
        return None
    f.seek(0)
    item = f"{key}.item"
    header[key] = list(islice(ijson.items(_Lenient(f), item, use_float=True), _SAMPLE_ROWS))
    return header, item, key


def open_dump(path: Path, ref: Reference, boards: Sequence[str | Path] = ()) -> Dump:
    """A local dump, streamed when its shape allows it, else read whole."""
    source = Source(url=str(path), kind="file")
    if not boards:
        try:
            with path.open("rb") as f:
                sampled = _sample(f)
        except OSError as exc:
            raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
        except (ijson.JSONError, ValueError):
            sampled = None
        if sampled is not None:
            data, prefix, rows_at = sampled
            doc = RawDocument(json.dumps(data).encode(), source=str(path))
            reader = _row_reader(detect(doc), doc, data)
            found = reader.records(data) if reader is not None else None
            if reader is not None and found is not None and not found.single and found.path == rows_at:
                src = source.model_copy(update={"format": reader.name, "kind": reader.kind})
                return Dump(source=src, path=path, prefix=prefix, rows_at=rows_at, reader=reader)
    return loaded_dump(_read_whole(path), ref, boards)


def _read_whole(path: Path) -> RawDocument:
    try:
        return RawDocument(path.read_bytes(), source=str(path))
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None


def loaded_dump(doc: RawDocument, ref: Reference, boards: Sequence[str | Path] = (),
                source: Source | None = None) -> Dump:
    """A dump read whole. Rows of a row-by-row format are read one by one, so that each
    unreadable row is listed; any other document gives the records `read_document` finds."""
    fmt = detect(doc) if not boards else None
    reader = _row_reader(fmt, doc, doc.json()) if fmt is not None else None
    found = reader.records(doc.json()) if reader is not None else None
    if reader is None or found is None:
        reading = read_document(doc, ref, source=source, boards=boards)
        if not reading.records:
            raise InvalidInput(f"{doc.source}: sweep needs a file of records (a leaderboard dump "
                               "or tool output)")
        return Dump(source=reading.source, warnings=reading.warnings, claims=list(reading.records))
    src = (source or Source(url=doc.source, kind="file")).model_copy(
        update={"format": reader.name, "kind": reader.kind})
    if doc.warnings:
        src = src.model_copy(update={"note": "; ".join(doc.warnings)})
    dump = Dump(source=src, warnings=list(doc.warnings), reader=reader)
    dump.claims = [dump._read_row(doc.source, row, found.row_path(i), i)
                   for i, row in enumerate(found.rows)]
    dump.settle(dump.notes, where=doc.source)
    return dump


def _row_reader(fmt: object, doc: RawDocument, data: Any) -> RowReader | None:
    """How to read this document's rows one at a time, if its format can."""
    if isinstance(fmt, GenericBoard):
        return OrdinaryRows() if fmt.mapping_for(doc, data) is None else None
    return fmt if isinstance(fmt, RowReader) else None
