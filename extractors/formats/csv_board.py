"""Leaderboard dumps as CSV (a spreadsheet export, a board's "download CSV").

Shape: a header line of column names, one record per line, cells separated by commas and quoted
per RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180) when they hold commas, quotes or newlines.
Columns are read through the alias table like JSON board records; see `delimited` for the shared
reading and its quirks. MLPerf's summary CSV has its own adapter (`mlperf`), tried first.
"""

from __future__ import annotations

from typing import ClassVar

from extractors.formats.delimited import DelimitedBoard

__all__ = ["CsvBoard"]


class CsvBoard(DelimitedBoard):
    name: ClassVar[str] = "csv_board"
    delimiter: ClassVar[str] = ","
    label: ClassVar[str] = "CSV"
