"""`sweep` of generated dumps of 1k, 10k and 100k InferenceX rows, and of 10k community board
records (`benchmarks.dumps`), each run as `claimcheck sweep --jsonl --jobs <cores>` in its own
process, reports thrown away.

Baselines, measured in the same run on the same file: `json.load` of the same bytes in its own
process (time and peak RSS), and for the growth the ratio of the record counts (10×).
Targets (issue 8): 10k in < 5 s (≥ 2,000 records/s), 100k in < 60 s, growth ≤ 11×, peak RSS
< 300 MB at 100k. A dump whose projected sweep would overrun the run's budget is not run: the row
says so, with the projection, and counts as a missed target.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.dumps import write_community_dump, write_inferencex_dump
from benchmarks.measure import Run, run_command
from benchmarks.table import Budget, Row

__all__ = ["CASES", "run"]

# The community board case has sibling batches (InferenceX rows have none); it runs before the
# 100k case so that a budget overrun there does not cost it.
CASES: tuple[tuple[str, Callable[[Path, int], Path], int], ...] = (
    ("sweep 1k InferenceX", write_inferencex_dump, 1_000),
    ("sweep 10k InferenceX", write_inferencex_dump, 10_000),
    ("sweep 10k community board", write_community_dump, 10_000),
    ("sweep 100k InferenceX", write_inferencex_dump, 100_000),
)
_TARGET_S = {10_000: 5.0, 100_000: 60.0}
_RSS_TARGET_MB = 300.0
_GROWTH_TARGET = 11.0


def _sweep(path: Path, timeout: float) -> Run:
    jobs = str(os.cpu_count() or 1)
    return run_command([sys.executable, "-m", "bot.cli", "sweep", "--jsonl", "--jobs", jobs,
                        str(path)], timeout=timeout)


def _json_load(path: Path) -> Run:
    return run_command([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1], 'rb'))",
                        str(path)])


def _rows(name: str, n: int, sweep: Run | None, base: Run, projected: float | None) -> list[Row]:
    note = "" if sweep is not None else f"not run: projected {projected:,.0f} s overruns the budget"
    if sweep is not None and sweep.code != 0:
        note = f"exit {sweep.code}"
    ok = sweep if sweep is not None and sweep.code == 0 else None
    secs = ok.seconds if ok else None
    # The targets are for the InferenceX dumps; the community board rows are context.
    target = None if "community" in name else _TARGET_S.get(n)
    return [
        Row(name, "wall time", secs, "s", "json.load of the same bytes", base.seconds,
            target=f"< {target:g} s" if target else "",
            met=(secs is not None and secs < target) if target else None, note=note),
        Row(name, "records/s", n / secs if secs else None, "rec/s", "json.load rows/s",
            n / base.seconds, target="≥ 2,000" if target == 5.0 else "",
            met=(secs is not None and n / secs >= 2000) if target == 5.0 else None),
        # CPU time is what a busy shared machine cannot inflate the way it inflates wall time.
        Row(name, "CPU time (all processes)", ok.cpu_s if ok else None, "s",
            "json.load of the same bytes", base.cpu_s),
        Row(name, "peak RSS", ok.peak_rss_mb if ok else None, "MB",
            "json.load of the same bytes", base.peak_rss_mb,
            target=f"< {_RSS_TARGET_MB:g} MB" if target == 60.0 else "",
            met=(ok is not None and ok.peak_rss_mb < _RSS_TARGET_MB) if target == 60.0 else None),
    ]


def run(budget: Budget) -> list[Row]:
    rows: list[Row] = []
    times: dict[int, float] = {}
    cpu: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="claimcheck-bench-") as tmp:
        for label, write, n in CASES:
            path = write(Path(tmp) / f"{label.replace(' ', '_')}.json", n)
            base = _json_load(path)
            smaller = [k for k in times if k < n]
            projected = times[max(smaller)] * n / max(smaller) if smaller else None
            if projected is not None and projected > budget.left() - 5:
                rows += _rows(label, n, None, base, projected)
                continue
            sweep = _sweep(path, timeout=max(10.0, budget.left()))
            if sweep.code == 0 and write is write_inferencex_dump:
                times[n], cpu[n] = sweep.seconds, sweep.cpu_s
            rows += _rows(label, n, sweep, base, projected)
            path.unlink()
    if 10_000 in cpu and 100_000 in cpu:
        rows.append(Row("sweep growth", "100k ÷ 10k CPU time", cpu[100_000] / cpu[10_000], "×",
                        "100k ÷ 10k records", 10.0))
    if 10_000 in times and 100_000 in times:
        growth = times[100_000] / times[10_000]
        rows.append(Row("sweep growth", "100k ÷ 10k time", growth, "×", "100k ÷ 10k records",
                        10.0, target=f"≤ {_GROWTH_TARGET:g}×", met=growth <= _GROWTH_TARGET))
    else:
        rows.append(Row("sweep growth", "100k ÷ 10k time", None, "×", "100k ÷ 10k records", 10.0,
                        target=f"≤ {_GROWTH_TARGET:g}×", met=False, note="100k not run"))
    return rows
