"""`python -m benchmarks.calibration_table`: the README's per-source calibration rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.calibration_table import main, table

MANIFEST = {"sources": [{"name": "localscore", "repo": "d893a/localscore-insights",
                         "commit": "a4f81747b3e6f0841f48c7bea6496d4f0e4a464c"}]}


def _source(read: int, claims: int, implausible: int, spec: list[int], x10: tuple[int, int],
            plain: tuple[int, int]) -> dict[str, Any]:
    planted = {"n": x10[1], "caught": x10[0], "above_ceiling": 4, "above_ceiling_caught": 3,
               "plain_decode": plain[1], "plain_decode_implausible": plain[0]}
    return {"read": read, "records": claims, "refused": {"no speed claim found": read - claims},
            "verdicts": {"implausible": implausible, "consistent": claims - implausible},
            "q7_with_public_spec": spec, "planted": {"x3": planted, "x10": planted}}


def test_each_source_and_split_is_one_row_with_its_commit_and_a_total() -> None:
    splits = {"calibration": {"sources": {"localscore": _source(10, 8, 1, [6, 8], (7, 8), (7, 7)),
                                          "mine": _source(2, 2, 0, [0, 0], (0, 0), (0, 0))}}}
    lines = table(splits, MANIFEST).splitlines()
    assert len(lines) == 5 and lines[1] == "|" + "---|" * 12
    assert lines[2] == ("| localscore | `d893a/localscore-insights@a4f81747b3e6` | calibration | 10 "
                        "| 8 | 2 | 1 | 0 | 6/8 (75.0%) | 3/4 (75.0%) | 7/8 (87.5%) | 7/7 (100.0%) |")
    assert lines[3].startswith("| mine | (local) | calibration | 2 | 2 | 0 | 0 | 0 | - |")
    assert lines[4] == ("| **all 2 sources** |  | calibration | 12 | 10 | 2 | 1 | 0 | 6/8 (75.0%) "
                        "| 6/8 (75.0%) | 7/8 (87.5%) | 7/7 (100.0%) |")


def test_a_missing_folder_is_one_line_and_exit_2(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"not a folder: {tmp_path / 'nowhere'}\n"
