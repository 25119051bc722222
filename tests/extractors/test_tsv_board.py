"""TSV leaderboard dumps: tab-separated, read like the CSV ones (see test_csv_board.py)."""

from __future__ import annotations

from pathlib import Path

from extractors.document import RawDocument
from extractors.formats.tsv_board import TsvBoard

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tsv_board" / "board.tsv"


def test_tsv_rows_read_through_the_alias_table() -> None:
    doc = RawDocument(FIXTURE.read_bytes(), source="board.tsv")
    claims = TsvBoard().parse(doc)
    assert [(c.record_id, c.tok_s, c.speculative) for c in claims] == [
        ("r-56", 2103.6, True), ("q-1", 79.0, False), ("l-8", 141.9, False)]
    assert claims[1].provenance["speculative"].field is not None
    assert claims[1].provenance["speculative"].field.startswith("line 3.launch_command")


def test_row_of_the_wrong_length_is_skipped_with_a_warning() -> None:
    text = "gpu\tmodel\ttok_s\nRTX 4090\tLlama-3.1-8B\t140\nRTX 4090\tonly two\n"
    doc = RawDocument(text.encode(), source="dump.tsv")
    claims = TsvBoard().parse(doc)
    assert [c.tok_s for c in claims] == [140.0]
    assert doc.warnings == ["dump.tsv: 1 TSV cell(s) or row(s) could not be read and were "
                            "skipped, e.g. line 3: 2 cells under 3 columns"]
