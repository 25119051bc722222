"""`sweep` of generated dumps (`benchmarks.dumps`): 1k, 10k and 100k InferenceX rows (no
record text), 10k and 100k community board records (each with the launch command and notes of
the fixture's real records, repeated as a board's templates are), and 2k community records whose
notes are all distinct (no text seen twice). Each is run as
`claimcheck sweep --jsonl --jobs <cores>` in its own process, reports thrown away.

Baselines, measured in the same run on the same file: `json.load` of the same bytes in its own
process (time and peak RSS), and for the growth the ratio of the record counts (10×).
Targets: InferenceX (issue 8) 10k in < 5 s (≥ 2,000 records/s), 100k in < 60 s, growth ≤ 11×,
peak RSS < 300 MB at 100k; community board, records with text (issue 14) 10k at ≥ 2,000
records/s, 100k in ≤ 11× the 10k time with peak RSS < 300 MB. A dump whose projected sweep would
overrun the run's budget is not run: the row says so, with the projection, and counts as a
missed target.

For the records with text, the CPU per record is split by process (the CLI, the fork server, the
workers: `benchmarks.measure.Run.cpu_by_depth`), each row's share of the whole tree's.

Then where a record's CPU goes (`split`, 2k community records in one process, `bot.sweep`'s own
steps on the process's CPU clock): the one pass, the audit, the report's JSON, the ranking row;
each row's baseline is the whole per record, so its ratio is its share.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.dumps import write_community_dump, write_inferencex_dump
from benchmarks.measure import ROOT, Run, run_command
from benchmarks.table import Budget, Row

__all__ = ["CASES", "run", "split"]

# The community board case has sibling batches (InferenceX rows have none); it runs before the
# 100k case so that a budget overrun there does not cost it.
_distinct = functools.partial(write_community_dump, distinct_notes=True)
# (label, writer, records, family): the growth is measured within a family.
CASES: tuple[tuple[str, Callable[[Path, int], Path], int, str], ...] = (
    ("sweep 1k InferenceX", write_inferencex_dump, 1_000, "InferenceX"),
    ("sweep 10k InferenceX", write_inferencex_dump, 10_000, "InferenceX"),
    ("sweep 10k community board (text)", write_community_dump, 10_000, "community"),
    ("sweep 2k community, distinct notes", _distinct, 2_000, "distinct"),
    ("sweep 100k InferenceX", write_inferencex_dump, 100_000, "InferenceX"),
    ("sweep 100k community board (text)", write_community_dump, 100_000, "community"),
)
_TARGET_S = {10_000: 5.0, 100_000: 60.0}  # InferenceX
_RSS_TARGET_MB = 300.0
_GROWTH_TARGET = 11.0


def _sweep(path: Path, timeout: float) -> Run:
    jobs = str(os.cpu_count() or 1)
    return run_command([sys.executable, "-m", "bot.cli", "sweep", "--jsonl", "--jobs", jobs,
                        str(path)], timeout=timeout)


def _json_load(path: Path) -> Run:
    return run_command([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1], 'rb'))",
                        str(path)])


def _rows(name: str, n: int, family: str, sweep: Run | None, base: Run,
          projected: float | None) -> list[Row]:
    note = "" if sweep is not None else f"not run: projected {projected:,.0f} s overruns the budget"
    if sweep is not None and sweep.code != 0:
        note = f"exit {sweep.code}"
    ok = sweep if sweep is not None and sweep.code == 0 else None
    secs = ok.seconds if ok else None
    # Wall-time targets are issue 8's, for InferenceX; the records with text have issue 14's
    # rate target at 10k and its growth and RSS targets at 100k; distinct notes are context.
    target = _TARGET_S.get(n) if family == "InferenceX" else None
    rate = (family == "InferenceX" and n == 10_000) or (family == "community" and n == 10_000)
    rss = n == 100_000 and family in ("InferenceX", "community")
    return [
        Row(name, "wall time", secs, "s", "json.load of the same bytes", base.seconds,
            target=f"< {target:g} s" if target else "",
            met=(secs is not None and secs < target) if target else None, note=note),
        Row(name, "records/s", n / secs if secs else None, "rec/s", "json.load rows/s",
            n / base.seconds, target="≥ 2,000" if rate else "",
            met=(secs is not None and n / secs >= 2000) if rate else None),
        # CPU time is what a busy shared machine cannot inflate the way it inflates wall time:
        # the whole process tree's, the fork server's workers included (benchmarks.measure).
        Row(name, "CPU time (all processes)", ok.cpu_s if ok else None, "s",
            "json.load of the same bytes", base.cpu_s),
        # What a record costs, whatever the machine's load, and how much of the cores the sweep
        # kept busy (CPU ÷ wall; the cores' count is the ceiling): a figure well below it says
        # the pipeline waits (a serial phase, workers idle), not the audit.
        Row(name, "CPU per record", 1000 * ok.cpu_s / n if ok else None, "ms",
            "json.load of the same bytes, per record", 1000 * base.cpu_s / n),
        Row(name, "cores kept busy (CPU ÷ wall)", ok.cpu_s / ok.seconds if ok else None, "×",
            "cores", float(os.cpu_count() or 1)),
        *_process_rows(name, n, family, ok),
        Row(name, "peak RSS", ok.peak_rss_mb if ok else None, "MB",
            "json.load of the same bytes", base.peak_rss_mb,
            target=f"< {_RSS_TARGET_MB:g} MB" if rss else "",
            met=(ok is not None and ok.peak_rss_mb < _RSS_TARGET_MB) if rss else None),
    ]


# What each generation of a sweep's process tree is: the CLI, the fork server it starts (and
# multiprocessing's resource tracker), the workers the fork server forks.
_GENERATIONS = ("the CLI process", "fork server", "workers")


def _process_rows(name: str, n: int, family: str, ok: Run | None) -> list[Row]:
    """Where the CPU of a sweep with record text goes, per process (`Run.cpu_by_depth`): the CLI
    (start-up, the dump's head, merging the one pass, copying the reports out), the fork server
    (its preload of the modules) and the workers (the one pass and the audits); each row's
    baseline is the whole tree's CPU per record, so its ratio is its share."""
    if ok is None or family == "InferenceX" or not ok.cpu_by_depth:
        return []
    total = 1000 * ok.cpu_s / n
    last = len(_GENERATIONS) - 1
    cpu = [ok.cpu_by_depth.get(level, 0.0) for level in range(last)]
    cpu.append(sum(s for level, s in ok.cpu_by_depth.items() if level >= last))
    return [Row(name, f"CPU per record: {what}", 1000 * s / n, "ms", "the whole tree, per record",
                total) for what, s in zip(_GENERATIONS, cpu, strict=True)]


# The records of the one-process split (`split`): the community board's shape, its texts repeated.
_SPLIT_RECORDS = 2_000


def split(path: Path) -> dict[str, float]:
    """Where a sweep's CPU goes, per record, in one process (`bot.sweep`'s own steps, timed with
    the process's CPU clock): the one pass (reading each record, keying it, spooling its Claim),
    the audit (each Claim loaded from the spool with its siblings and peers, then the checks), the
    report's JSON and the ranking row. The spool's decode, inside the audit, is also timed alone."""
    from bot.sweep import MEMO_SIZE, _audit_part, _decode, _first_pass, _rank, _read_entry, _Spool
    from checks.reference import load_reference
    from extractors.dump import open_dump
    from extractors.formats.record_text import TextMemo, text_memo

    ref = load_reference()
    clock = time.process_time
    got: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="claimcheck-split-") as tmp, text_memo(TextMemo(MEMO_SIZE)):
        start = clock()
        dump = open_dump(path, ref)
        index, readable, _, spool, peers = _first_pass(dump, ref, None, 1, tmp)
        got["one pass (read, key, spool)"] = clock() - start
        assert isinstance(spool, _Spool)
        audit_s = json_s = rank_s = 0.0
        reports = _audit_part(dump, index, readable, ref, spool, peers)
        while True:
            start = clock()
            item = next(reports, None)
            audit_s += clock() - start
            if item is None:
                break
            start = clock()
            item[1].model_dump_json(by_alias=True)
            json_s += clock() - start
            start = clock()
            _rank(*item)
            rank_s += clock() - start
        got["audit (load, siblings, peers, checks)"] = audit_s
        got["report JSON"] = json_s
        got["ranking row"] = rank_s
        with open(spool.files[0], "rb") as f:
            entries = [_read_entry(f) for _ in range(len(readable))]
        start = clock()
        for entry in entries:
            _decode(entry)
        got["of which the spool's decode"] = clock() - start
    return {k: 1000 * v / len(readable) for k, v in got.items()}


def _split_rows(tmp: Path) -> list[Row]:
    path = write_community_dump(tmp / "split.json", _SPLIT_RECORDS)
    proc = subprocess.run([sys.executable, "-m", "benchmarks.sweep_scale", "--split", str(path)],
                          capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), check=False)
    path.unlink()
    if proc.returncode != 0:
        return [Row("sweep CPU split", "run", None, "ms", "", None,
                    note=f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}")]
    parts: dict[str, float] = json.loads(proc.stdout)
    total = sum(v for k, v in parts.items() if not k.startswith("of which"))
    name = f"sweep CPU split ({_SPLIT_RECORDS // 1000}k community, one process)"
    return [Row(name, f"{part} per record", ms, "ms", "the whole sweep per record", total)
            for part, ms in parts.items()]


def run(budget: Budget) -> list[Row]:
    rows: list[Row] = []
    times: dict[tuple[str, int], float] = {}
    cpu: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory(prefix="claimcheck-bench-") as tmp:
        for label, write, n, family in CASES:
            path = write(Path(tmp) / f"{label.replace(' ', '_')}.json", n)
            base = _json_load(path)
            smaller = [k for f, k in times if f == family and k < n]
            projected = times[family, max(smaller)] * n / max(smaller) if smaller else None
            if projected is not None and projected > budget.left() - 5:
                rows += _rows(label, n, family, None, base, projected)
                path.unlink()
                continue
            sweep = _sweep(path, timeout=max(10.0, budget.left()))
            if sweep.code == 0:
                times[family, n], cpu[family, n] = sweep.seconds, sweep.cpu_s
            rows += _rows(label, n, family, sweep, base, projected)
            path.unlink()
        if budget.left() > 30:
            rows += _split_rows(Path(tmp))
    for family in ("InferenceX", "community"):
        name = f"sweep growth {family}"
        small, big = (family, 10_000), (family, 100_000)
        if small in cpu and big in cpu:
            rows.append(Row(name, "100k ÷ 10k CPU time", cpu[big] / cpu[small], "×",
                            "100k ÷ 10k records", 10.0))
        if small in times and big in times:
            growth = times[big] / times[small]
            rows.append(Row(name, "100k ÷ 10k time", growth, "×", "100k ÷ 10k records",
                            10.0, target=f"≤ {_GROWTH_TARGET:g}×", met=growth <= _GROWTH_TARGET))
        else:
            rows.append(Row(name, "100k ÷ 10k time", None, "×", "100k ÷ 10k records", 10.0,
                            target=f"≤ {_GROWTH_TARGET:g}×", met=False, note="100k not run"))
    return rows


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--split":
        print(json.dumps(split(Path(sys.argv[2]))))
    else:
        sys.exit("usage: python -m benchmarks.sweep_scale --split DUMP")
