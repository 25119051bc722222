"""Leaderboard dumps as TSV (tab-separated values, what a spreadsheet copy-paste gives).

Shape: a header line of column names, one record per line, cells separated by tabs
(IANA text/tab-separated-values, https://www.iana.org/assignments/media-types/text/tab-separated-values).
Columns are read through the alias table like JSON board records; see `delimited` for the shared
reading and its quirks.
"""

from __future__ import annotations

from typing import ClassVar

from extractors.formats.delimited import DelimitedBoard

__all__ = ["TsvBoard"]


class TsvBoard(DelimitedBoard):
    name: ClassVar[str] = "tsv_board"
    delimiter: ClassVar[str] = "\t"
    label: ClassVar[str] = "TSV"
