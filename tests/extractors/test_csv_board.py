"""CSV leaderboard dumps (and what CSV and TSV share): read by shape through the alias table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sweep import sweep_source
from checks.reference import Reference, load_reference
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.csv_board import CsvBoard
from extractors.formats.tsv_board import TsvBoard

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.fixture(scope="module")
def ref() -> Reference:
    return load_reference()


@pytest.mark.parametrize("name", ["csv_board/board.csv", "tsv_board/board.tsv"])
def test_dump_sweeps_with_the_seed_record_implausible_and_honest_rows_consistent(name: str, ref: Reference) -> None:
    result = sweep_source(str(FIXTURES / name), ref)
    got = {r.claim.record_id: r for r in result.reports}
    assert {k: r.verdict for k, r in got.items()} == {
        "r-56": "implausible", "q-1": "consistent", "l-8": "consistent"}
    seed = got["r-56"]
    assert seed.question("acceptance").status == "stop"
    assert seed.question("acceptance").figures["ratio"] == pytest.approx(1.0)
    assert seed.question("roofline").figures["ratio"] == pytest.approx(16.32, abs=0.01)
    assert got["q-1"].claim.speculative is False
    assert got["q-1"].question("roofline").figures["ratio"] == pytest.approx(0.613, abs=0.001)


@pytest.mark.parametrize(("name", "fmt"), [("csv_board/board.csv", "csv_board"),
                                           ("tsv_board/board.tsv", "tsv_board")])
def test_recognised_by_shape_not_by_file_name(name: str, fmt: str) -> None:
    doc = RawDocument((FIXTURES / name).read_bytes(), source="download.txt")
    found = detect(doc)
    assert found is not None and found.name == fmt


def test_cells_keep_line_and_column_as_provenance() -> None:
    doc = RawDocument((FIXTURES / "csv_board" / "board.csv").read_bytes(), source="board.csv")
    seed = CsvBoard().parse(doc)[0]
    assert (seed.tok_s, seed.hardware, seed.spec_window) == (
        2103.6, "NVIDIA GeForce RTX 5090", 56)
    assert seed.provenance["tok_s"].field == "line 2.tok_s"
    assert seed.provenance["acceptance_length"].field == "line 2.notes"
    assert seed.ttft_empty is True  # an empty TTFT cell, as the seed's empty TTFT field


def test_no_throughput_in_any_row_is_invalid_input() -> None:
    doc = RawDocument(b"gpu,model,tok_s\nRTX 4090,Llama,\n", source="dump.csv")
    with pytest.raises(InvalidInput, match="1 row\\(s\\) in this CSV dump, none with a readable"):
        CsvBoard().parse(doc)


def test_prose_with_commas_is_not_a_csv_dump() -> None:
    doc = RawDocument(b"Ran it twice, got 140 tok/s, then 150 tok/s, on a 4090.", source="t")
    assert not CsvBoard().sniff(doc) and not TsvBoard().sniff(doc)


def test_a_num_of_hardware_column_is_the_card_count(ref: Reference) -> None:
    # argonne-lcf/LLM-Inference-Bench's result CSVs name the card count "Num of Hardware"; unread,
    # its 70B rows on four A100s had been judged on one (`suspicious` at 1.0× one card's ceiling)
    text = ("Hardware,Num of Hardware,Framework,Model,Input Output Length,Batch Size,Parallelism Type,Latency,Throughput\n"
            "Nvidia A100 GPU,4,vLLM,meta-llama/Llama-2-70b-hf,128,1,Tensor Parallelism,4.24,60.4\n")
    (claim,) = CsvBoard().parse(RawDocument(text.encode(), source="results.csv"))
    assert (claim.hardware_count, claim.batch, claim.tok_s) == (4, 1, 60.4)
    assert claim.provenance["hardware_count"].field is not None
