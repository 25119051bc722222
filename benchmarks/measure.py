"""Measuring a command in a subprocess: its wall time, the peak RSS of its largest process, and
the CPU time of its whole process tree.

CPU time: `wait4`'s rusage counts the process and the children it (recursively) waited for, but
not a grandchild whose parent never waited for it, or was never waited for itself: the sweep's
and the reading pool's workers are the fork server's children, and the fork server is not waited
for, so their CPU was missing from the figure (a 23 s sweep showed 2.6 s). While the command
runs, its tree is walked every `_SAMPLE_S` (`/proc/<pid>/task/<tid>/children`, each thread's
children, as a worker may be started from a thread) and each process's own user + system time
(`/proc/<pid>/stat` fields 14 and 15) kept at its largest reading; the CPU figure is the larger
of that sum and `wait4`'s. A process's last `_SAMPLE_S` before it exits can be missed, so the
figure is a lower bound, short by at most that much per process.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["ROOT", "Run", "median_run", "run_command", "tree_cpu"]

ROOT = Path(__file__).resolve().parents[1]
_SAMPLE_S = 0.05
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return kids
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                kids += [int(k) for k in f.read().split()]
        except (OSError, ValueError):
            continue
    return kids


def _own_cpu(pid: int) -> float | None:
    """The process's own user + system seconds (not its children's), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after its end.
    fields = stat[stat.rfind(b")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def tree_cpu(root: int, seen: dict[int, float], depth: dict[int, int] | None = None) -> None:
    """One walk of `root`'s process tree: each process's own CPU seconds, kept at its largest
    reading in `seen` (by pid; a pid is not reused while the walk's command runs long enough
    for that to matter here), and (when `depth` is given) how far below `root` it sits."""
    todo = [(root, 0)]
    while todo:
        pid, level = todo.pop()
        cpu = _own_cpu(pid)
        if cpu is not None:
            seen[pid] = max(cpu, seen.get(pid, 0.0))
            if depth is not None:
                depth[pid] = level
        todo += [(kid, level + 1) for kid in _children(pid)]


class Run:
    def __init__(self, seconds: float, peak_rss_mb: float, code: int, cpu_s: float = 0.0,
                 cpu_by_depth: dict[int, float] | None = None) -> None:
        self.seconds = seconds
        self.peak_rss_mb = peak_rss_mb
        self.code = code
        self.cpu_s = cpu_s  # user + system time of the whole process tree (see the module doc)
        # The tree's CPU by generation, as sampled: 0 the command's own process, 1 its children
        # (a sweep's fork server), 2 theirs (the sweep's workers), … (a lower bound, as cpu_s)
        self.cpu_by_depth = cpu_by_depth or {}


def run_command(argv: Sequence[str], timeout: float | None = None) -> Run:
    """`argv` run with its output thrown away. Peak RSS is wait4's ru_maxrss: the largest of the
    process and the children it waited for (a sweep's workers), in MB — not their sum."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    # An installed claimcheck has its bytecode compiled (pip does it at install); an environment
    # that forbids writing it would time the compiler, not the program.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(list(argv), stdout=null, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        deadline = None if timeout is None else start + timeout
        seen: dict[int, float] = {}
        depth: dict[int, int] = {}
        sampled = start
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - sampled >= _SAMPLE_S:
                tree_cpu(proc.pid, seen, depth)
                sampled = time.perf_counter()
            if deadline is not None and time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 and proc.stderr is not None:
        sys.stderr.write(proc.stderr.read().decode("utf-8", "replace")[-2000:])
    waited = usage.ru_utime + usage.ru_stime
    by_depth: dict[int, float] = {}
    for pid, cpu in seen.items():
        by_depth[depth[pid]] = by_depth.get(depth[pid], 0.0) + cpu
    return Run(took, usage.ru_maxrss / 1024, proc.returncode, max(waited, sum(seen.values())),
               by_depth)


def median_run(argv: Sequence[str], repeat: int) -> Run:
    runs = [run_command(argv) for _ in range(repeat)]
    return Run(statistics.median(r.seconds for r in runs),
               statistics.median(r.peak_rss_mb for r in runs), max(r.code for r in runs),
               statistics.median(r.cpu_s for r in runs))
