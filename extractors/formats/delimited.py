"""Leaderboard dumps as delimited text (CSV, TSV): one record per line under a header line.

Shared by the two adapters, `csv_board.CsvBoard` and `tsv_board.TsvBoard`, which differ only in
the delimiter. A dump is recognised by shape, never by file name: a header line with at least
three columns, the next lines with the same number of cells, and at least one row whose header
spellings give a throughput and a hardware or model name through the alias table
(`aliases.FIELD_ALIASES`, the table the JSON boards use). Each row is read like a JSON board
record: `records.map_record` for the columns, `record_text` for its command and notes columns.

Quirks, each with its reason:
- Cells are text: the alias table's converters read numbers from text, and an empty cell says
  nothing (except an empty TTFT cell, which is the seed's "TTFT empty" finding, as in JSON).
- Spreadsheet exports start with a byte-order mark and end lines with CRLF; both are accepted.
- Provenance names the line and the column (`line 3.tok_s`), the way a reader finds the cell.
- An export whose columns are a packaged board's (`extractors/data/boards.json`, matched by
  shape as JSON boards are) is read through that entry, with its constants.
- A row of the wrong length is skipped and counted in one warning; the dump is refused only when
  no row has a readable throughput.
"""

from __future__ import annotations

import csv
import io
from typing import ClassVar

from checks.models import Claim, SourceKind
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.board_mapping import BoardMapping, load_board_mappings
from extractors.formats.generic_board import read_board_row
from extractors.formats.records import looks_like_claim

__all__ = ["DelimitedBoard"]

_SNIFF_LINES = 200
_MIN_COLUMNS = 3
_MAX_FIELD = 1_000_000  # a launch command or log pasted in one cell may be long


def _rows(text: str, delimiter: str, limit: int | None = None) -> tuple[list[str], list[list[str]]]:
    csv.field_size_limit(_MAX_FIELD)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    header: list[str] = []
    rows: list[list[str]] = []
    for cells in reader:
        if not any(c.strip() for c in cells):
            continue
        if not header:
            header = [c.strip() for c in cells]
            continue
        rows.append(cells)
        if limit is not None and len(rows) >= limit:
            break
    return header, rows


class DelimitedBoard:
    """A dump whose cells are separated by `delimiter`; `label` names it in messages."""

    name: ClassVar[str]
    kind: ClassVar[SourceKind] = "record"
    delimiter: ClassVar[str]
    label: ClassVar[str]

    def sniff(self, doc: RawDocument) -> bool:
        try:
            if doc.looks_like_json():
                return False
            head = doc.text[:200_000]
            first = head.lstrip("\ufeff").lstrip().split("\n", 1)[0]
            if first.count(self.delimiter) < _MIN_COLUMNS - 1:
                return False
            header, rows = _rows(head, self.delimiter, _SNIFF_LINES)
            good = [r for r in rows if len(r) == len(header)]
            return bool(good) and any(looks_like_claim(dict(zip(header, r, strict=True)))
                                      for r in good)
        except Exception:  # noqa: BLE001 - sniffing never raises
            return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        try:
            header, rows = _rows(doc.text, self.delimiter)
        except csv.Error as exc:
            raise InvalidInput(f"{doc.source}: this {self.label} dump could not be read ({exc})") \
                from None
        if len(header) < _MIN_COLUMNS or not rows:
            raise InvalidInput(f"{doc.source}: a {self.label} dump needs a header line and at "
                               "least one row")
        claims: list[Claim] = []
        problems: list[str] = []
        mapping = self._mapping(header, rows)
        for i, cells in enumerate(rows):
            line = f"line {i + 2}"
            if len(cells) != len(header):
                problems.append(f"{line}: {len(cells)} cells under {len(header)} columns")
                continue
            claims.append(read_board_row(doc.source, dict(zip(header, cells, strict=True)), line,
                                         problems, mapping))
        if not any(c.tok_s is not None for c in claims):
            detail = f" ({problems[0]})" if problems else ""
            raise InvalidInput(f"{doc.source}: {len(rows)} row(s) in this {self.label} dump, none "
                               f"with a readable throughput (tok/s){detail}")
        if problems:
            doc.warnings.append(f"{doc.source}: {len(problems)} {self.label} cell(s) or row(s) "
                                f"could not be read and were skipped, e.g. {problems[0]}")
        return claims

    @staticmethod
    def _mapping(header: list[str], rows: list[list[str]]) -> BoardMapping | None:
        """The packaged board entry whose columns this export has (a board's TSV export is its
        records list at the top level), so its constants apply: LocalScore's export is llamafile
        decode, one stream, no speculative decoding."""
        sample = [dict(zip(header, r, strict=True)) for r in rows[:_SNIFF_LINES]
                  if len(r) == len(header)]
        for m in load_board_mappings():
            if m.records_path == "" and m.matches_shape(sample):
                return m
        return None
