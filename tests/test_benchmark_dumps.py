"""The benchmarks' generated texts (benchmarks/dumps.py, benchmarks/text_speed.py) carry record
text in the fixtures' real shapes, not bare rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.dumps import COMMUNITY_BOARD, write_community_dump
from benchmarks.text_speed import board_notes, claim_log


@pytest.mark.parametrize("distinct", [False, True])
def test_a_community_dump_keeps_every_records_launch_command_and_notes(tmp_path: Path,
                                                                        distinct: bool) -> None:
    base = json.loads(COMMUNITY_BOARD.read_text(encoding="utf-8"), strict=False)["records"]
    path = write_community_dump(tmp_path / "d.json", 2 * len(base), distinct_notes=distinct)
    rows = json.loads(path.read_text(encoding="utf-8"))["records"]
    assert len(rows) == 2 * len(base)
    assert [r["launch_command"] for r in rows] == [r["launch_command"] for r in base] * 2
    notes = [r["notes"] for r in rows]
    if distinct:
        assert len(set(notes)) == len(rows)
        assert notes[len(base)] == f"{base[0]['notes']}; run {len(base)} of the batch"
    else:
        assert notes == [r["notes"] for r in base] * 2


def test_the_text_benchmarks_read_logs_and_claim_lines_of_the_requested_size() -> None:
    log = claim_log(200_000)
    assert len(log) == 200_000
    assert "Avg generation throughput" in log and "tok/s" in log
    notes = board_notes(50_000)
    assert len(notes) == 50_000 and "vllm serve Qwen/Qwen3.6-27B" in notes
