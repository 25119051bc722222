"""Units beside a value, in the header and in the cell, read by one mechanism (extractors/formats/units).

The LocalScore export shape (`tests/fixtures/localscore/localscore_export.tsv`): the columns the
issue reports from the board's TSV export (`gen_tps`, `prompt_tps`, `model_name`, `model_params`
= 8000 with `model_params_unit` = M, `model_quant` "Q4_K - Medium" as llamafile prints it,
`accel_name`, `accel_type`, `accel_ram` + `accel_ram_unit`), 20 rows with figures of the size the
board publishes for these cards (the RTX 3090 row is the sample run of cjpais/LocalScore's shipped
`db.sqlite`: 103.10 tok/s, Llama 3.1 8B Q4_K - Medium).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checks.reference import load_reference
from checks.runner import audit
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.evidence import evidence_per_record, read_document
from extractors.formats.records import map_record
from extractors.formats.units import (
    header_unit,
    record_units,
    split_unit,
    to_billions,
    to_bytes,
    to_gigabytes,
)

FIXTURE = Path(__file__).parent.parent / "fixtures" / "localscore" / "localscore_export.tsv"
REF = load_reference()


@pytest.mark.parametrize(("value", "billions"), [
    ("8B", 8.0), ("8000M", 8.0), ("8000 M", 8.0), ("1.1B", 1.1), ("135M", 0.135), ("70b", 70.0),
    ("1.5T", 1500.0), (8030263296, 8.030263296), ("8030263296", 8.030263296), (8.03, 8.03),
    ("7 params", 7.0),
])
def test_parameter_counts_read_their_unit(value: Any, billions: float) -> None:
    assert to_billions(value) == pytest.approx(billions)


@pytest.mark.parametrize(("value", "nbytes"), [
    ("729.64 MiB", 729.64 * 2**20), ("4.35 GiB", 4.35 * 2**30), ("16GB", 16e9),
    ("4683157248", 4683157248.0), (4683157248, 4683157248.0),
])
def test_byte_sizes_read_their_unit(value: Any, nbytes: float) -> None:
    assert to_bytes(value) == pytest.approx(nbytes)


@pytest.mark.parametrize(("value", "gb"), [("16GB", 16.0), ("24576 MiB", 25.769803776),
                                           ("1.5TiB", 1649.267441664), (23.59, 23.59)])
def test_memory_sizes_read_their_unit(value: Any, gb: float) -> None:
    assert to_gigabytes(value) == pytest.approx(gb)


@pytest.mark.parametrize(("key", "expected"), [
    ("memory (GiB)", ("memory", "gib")), ("params_B", ("params", "b")),
    ("model size [MiB]", ("model size", "mib")), ("vram", None), ("gen_tps", None),
    ("accel_ram", None),
])
def test_a_unit_in_the_header_is_found(key: str, expected: tuple[str, str] | None) -> None:
    assert header_unit(key) == expected


def test_a_unit_column_names_the_unit_of_the_column_it_follows() -> None:
    row = {"model_params": "8000", "model_params_unit": "M", "accel_ram": "24",
           "accel_ram_unit": "GB", "notes_unit": "M", "speed_unit": "furlongs"}
    assert record_units(row) == {"model_params": "m", "accel_ram": "gb"}


def test_split_unit_keeps_an_unknown_word_out() -> None:
    assert split_unit("12 parsecs") == (12.0, None)


def _mapped(row: dict[str, Any]) -> dict[str, Any]:
    b = ClaimBuilder("t")
    map_record(row, "", b, [])
    return b.build().filled()


@pytest.mark.parametrize(("row", "field", "expected"), [
    ({"model_params": "8000", "model_params_unit": "M"}, "params_total_b", 8.0),
    ({"model_params": "8000", "model_params_unit": "m"}, "params_total_b", 8.0),
    ({"params (M)": "1100"}, "params_total_b", 1.1),
    ({"params_B": "70"}, "params_total_b", 70.0),
    ({"params": "8B"}, "params_total_b", 8.0),
    ({"params": "8000M"}, "params_total_b", 8.0),
    # the cell's own unit wins over the column's: "8B" stays 8 billion under a "M" unit column
    ({"model_params": "8B", "model_params_unit": "M"}, "params_total_b", 8.0),
    ({"accel_ram": "24", "accel_ram_unit": "GB"}, "hardware_memory_gb", 24.0),
    ({"accel_ram": "24576", "accel_ram_unit": "MiB"}, "hardware_memory_gb", 25.769803776),
    ({"vram": "16GB"}, "hardware_memory_gb", 16.0),
    ({"model_size (MiB)": "729.64"}, "model_size_bytes", 729.64 * 2**20),
    ({"model_size": "4.35 GiB"}, "model_size_bytes", 4.35 * 2**30),
    ({"ram_gb": "64"}, "system_ram_gb", 64.0),
])
def test_every_layout_of_a_unit_reads_the_same(row: dict[str, Any], field: str,
                                               expected: float) -> None:
    assert _mapped(row)[field] == pytest.approx(expected)


def _claims() -> list[Any]:
    doc = RawDocument(FIXTURE.read_bytes(), source=str(FIXTURE))
    return read_document(doc, REF).records


def test_the_localscore_export_reads_8000_m_as_8_billion() -> None:
    claims = _claims()
    assert len(claims) == 20
    first = claims[0]
    assert (first.record_id, first.model, first.params_total_b, first.hardware,
            first.hardware_memory_gb, first.weight_format, first.tok_s, first.tok_s_kind) == (
        "1101", "Meta Llama 3.1 8B Instruct", 8.0, "NVIDIA GeForce RTX 3090", 23.59,
        "Q4_K - Medium", 103.1, "decode")
    assert sorted({c.params_total_b for c in claims}) == [1.2, 8.0, 14.0]


def test_no_honest_localscore_row_is_implausible_and_the_roofline_is_answered() -> None:
    doc = RawDocument(FIXTURE.read_bytes(), source=str(FIXTURE))
    reading = read_document(doc, REF)
    verdicts: dict[str, str] = {}
    answered = 0
    for ev in evidence_per_record(reading, REF):
        report = audit(ev, REF)
        verdicts[str(ev.claim.record_id)] = report.verdict
        roof = report.question("roofline")
        answered += roof.status in ("ok", "flag", "stop")
    assert "implausible" not in verdicts.values()
    assert "suspicious" not in verdicts.values()
    # every row is answered: the two CPU rows through their platform's memory-system bound
    assert answered == 20
    assert verdicts["1101"] == "consistent"


def test_the_localscore_export_is_read_through_its_board_entry_as_llamafile_plain_decode() -> None:
    first = _claims()[0]
    assert (first.engine, first.batch, first.concurrency, first.speculative) == (
        "llamafile", 1, 1, False)
    assert first.provenance["batch"].field == "board mapping 'localscore_export' constants.batch"


# x3 of the four rows at 0.21-0.25 of their ceiling (Llama 3.2 1B on big cards) stays below it:
# nothing can catch those; every row that lands above the ceiling is a stop (plain decode), the
# two desktop-CPU rows included.
@pytest.mark.parametrize(("factor", "implausible", "consistent"), [(10, 20, 0), (3, 16, 4)])
def test_planted_fakes_on_the_export_are_implausible_above_the_ceiling(
        factor: int, implausible: int, consistent: int) -> None:
    lines = FIXTURE.read_text().splitlines()
    rows = [lines[0]]
    for line in lines[1:]:
        cells = line.split("\t")
        cells[1] = str(float(cells[1]) * factor)
        rows.append("\t".join(cells))
    doc = RawDocument(("\n".join(rows) + "\n").encode(), source="planted.tsv")
    reading = read_document(doc, REF)
    verdicts = [audit(ev, REF).verdict for ev in evidence_per_record(reading, REF)]
    assert verdicts.count("implausible") == implausible
    assert verdicts.count("consistent") == consistent
    assert "suspicious" not in verdicts
