"""benchmarks.sweep_scale.split: every step of a sweep timed on the records it swept."""

from __future__ import annotations

from pathlib import Path

from benchmarks.dumps import write_community_dump
from benchmarks.sweep_scale import split


def test_the_split_times_every_step_of_a_small_board(tmp_path: Path) -> None:
    parts = split(write_community_dump(tmp_path / "board.json", 60))
    assert list(parts) == ["one pass (read, key, spool)", "audit (load, siblings, peers, checks)",
                           "report JSON", "ranking row", "of which the spool's decode"]
    assert all(ms > 0 for ms in parts.values())
    assert parts["of which the spool's decode"] < parts["audit (load, siblings, peers, checks)"]
