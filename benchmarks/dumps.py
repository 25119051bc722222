"""Generated leaderboard dumps in real board shapes, for the sweep benchmark and its tests.

The rows are InferenceX API rows (`GET /api/v1/benchmarks`, the `BenchmarkRow` shape of
SemiAnalysisAI/InferenceX-app `packages/app/src/lib/api.ts`), taken from the project's fixture
of 30 H200 rows and repeated: each copy moves to another accelerator and another container build,
so a dump of n rows holds n / 30 × 6 setups of about five runs each, as the real board
does (one setup swept over concurrency and sequence lengths). InferenceX rows carry no engine
version, so none of them are siblings by `same_setup`; the community board dump has submitters
and sibling batches. Rows are written one at a time: a 100,000-row dump never sits in memory.
"""

from __future__ import annotations

import json
from collections.abc import Container
from pathlib import Path
from typing import Any

__all__ = ["BASE_ROWS", "COMMUNITY_BOARD", "HARDWARE", "write_community_dump", "write_inferencex_dump"]

BASE_ROWS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "inferencex" / "benchmarks_h200.json"
COMMUNITY_BOARD = BASE_ROWS.parents[1] / "generic_board" / "community_board.json"
# InferenceX-app packages/constants: the accelerators the board runs.
HARDWARE = ("h200", "h100", "b200", "gb200", "mi300x", "mi325x", "mi355x", "b300")


def _row(base: list[dict[str, Any]], k: int, pad: int) -> dict[str, Any]:
    copy, i = divmod(k, len(base))
    row = dict(base[i])
    row["id"] = 1_000_000 + k
    row["hardware"] = HARDWARE[copy % len(HARDWARE)]
    row["image"] = f"{row['image']}-build{copy // len(HARDWARE)}"
    if pad:
        row["run_log"] = "step ok; " * (pad // 9)
    return row


def write_inferencex_dump(path: Path, n: int, *, pad: int = 0,
                          broken: Container[int] = ()) -> Path:
    """`n` rows as one JSON array; `pad` bytes of log text per row; rows in `broken` replaced by
    objects no board reader can read (to test that they are listed, not dropped)."""
    base = json.loads(BASE_ROWS.read_text(encoding="utf-8"))
    with path.open("w", encoding="utf-8") as f:
        f.write("[")
        for k in range(n):
            row: Any = {"id": k, "note": "row lost in export"} if k in broken else _row(base, k, pad)
            f.write(("," if k else "") + "\n" + json.dumps(row))
        f.write("\n]\n")
    return path


def write_community_dump(path: Path, n: int, *, distinct_notes: bool = False) -> Path:
    """`n` records of the community board fixture (ordinary field names, read by the generic
    adapter; 221 records, each with the launch command and notes its submitter wrote), repeated
    with the submitter renamed per copy: each submitter's runs on one setup are siblings, as on
    the fixture (the seed's window batch is four runs). The copies keep their launch commands
    and notes, as a board's templates repeat; `distinct_notes` ends every record's notes with
    its own run number instead, so that no two texts are the same (the worst case for a sweep
    that reads each distinct text once)."""
    board = json.loads(COMMUNITY_BOARD.read_text(encoding="utf-8"), strict=False)
    base = board["records"]
    with path.open("w", encoding="utf-8") as f:
        f.write('{"board": "community-speed-board", "records": [')
        for k in range(n):
            copy, i = divmod(k, len(base))
            row = dict(base[i], id=f"{base[i]['id']}-{copy}", submitter=f"{base[i]['submitter']}-{copy}")
            if distinct_notes:
                row["notes"] = f"{row.get('notes') or ''}; run {k} of the batch".lstrip("; ")
            f.write(("," if k else "") + "\n" + json.dumps(row))
        f.write("\n]}\n")
    return path
