"""`python -m benchmarks.calibrate DIR`: every record under a folder audited and tallied."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks.calibrate import calibrate, main, render
from checks.reference import load_reference

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    results = tmp_path / "results" / "community" / "a100"
    results.mkdir(parents=True)
    shutil.copy(FIXTURES / "accelmark" / "result_a100_sglang.json", results / "result.json")
    (tmp_path / "results" / "h100").mkdir()
    shutil.copy(FIXTURES / "accelmark" / "result_interactive_scaling_h100.json",
                tmp_path / "results" / "h100" / "result.json")
    shutil.copy(FIXTURES / "csv_board" / "board.csv", tmp_path / "board.csv")
    (tmp_path / "suite.json").write_text(json.dumps({"suite_id": "suite_A", "num_runs": 3}))
    broken = json.loads((FIXTURES / "accelmark" / "result_a100_sglang.json").read_text())
    broken["metrics"] = {"burst": {"sla_ttft_ms": 500}}
    (tmp_path / "results" / "broken.json").write_text(json.dumps(broken))
    return tmp_path


def test_every_record_is_tallied_by_source(folder: Path) -> None:
    cal = calibrate(folder, load_reference())
    accel, board = cal.tallies["accelmark"], cal.tallies["csv_board"]
    assert (accel.files, accel.records, board.files, board.records) == (2, 13, 1, 3)
    assert accel.q7_answered == 13 and dict(accel.q7) == {"ok": 13}
    assert dict(board.verdicts) == {"implausible": 1, "consistent": 2}


def test_implausible_headlines_are_listed_with_their_record(folder: Path) -> None:
    cal = calibrate(folder, load_reference())
    [(verdict, where, headline)] = cal.tallies["csv_board"].flagged
    assert (verdict, where) == ("implausible", "board.csv#0")
    assert headline.startswith("implausible — 2103.6 tok/s")


def test_refused_and_non_record_files_are_listed_apart(folder: Path) -> None:
    cal = calibrate(folder, load_reference())
    assert list(cal.refused) == ["results/broken.json"]
    assert "no throughput or TPOT in any scenario block" in cal.refused["results/broken.json"]
    assert cal.not_records == ["suite.json"]


def test_report_ends_with_the_totals(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert out == render(calibrate(folder, load_reference())) + "\n"
    assert out.rstrip().splitlines()[-1] == (
        "== total: 16 record(s) from 3 file(s); 1 refused; Q7 answered 100.0%; implausible 1; "
        "suspicious 0 (0.0%)")


def test_a_missing_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err
