"""How `sweep` scales with the size of a board dump, as ratios against the 221-record fixture
run in the same process. Run: `python benchmarks/sweep_scaling.py`. Prints figures only.

Linear scaling keeps the per-record ratio near 1; the sibling search used to compare every
record with every other, which showed up here as a per-record time growing with the dump.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.pipeline import sweep_source  # noqa: E402
from checks.reference import load_reference  # noqa: E402

BOARD = ROOT / "tests" / "fixtures" / "generic_board" / "community_board.json"


def _dump(copies: int, folder: Path) -> Path:
    records = json.loads(BOARD.read_text(encoding="utf-8"), strict=False)["records"]
    big = [dict(r, id=f"{r['id']}-{i}", submitter=f"{r['submitter']}-{i}")
           for i in range(copies) for r in records]
    path = folder / f"board_{copies}.json"
    path.write_text(json.dumps({"records": big}), encoding="utf-8")
    return path


def main() -> None:
    ref = load_reference()
    with tempfile.TemporaryDirectory() as tmp:
        base_per_record = None
        for copies in (1, 4, 16):
            path = _dump(copies, Path(tmp))
            start = time.perf_counter()
            result = sweep_source(str(path), ref)
            took = time.perf_counter() - start
            per = took / result.records
            base_per_record = base_per_record or per
            print(f"{result.records:6d} records: {took:6.2f} s, {per * 1000:5.2f} ms per record, "
                  f"ratio to the 221-record run {per / base_per_record:4.2f}")


if __name__ == "__main__":
    main()
