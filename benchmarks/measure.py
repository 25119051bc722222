"""Measuring a command in a subprocess: its wall time and the peak RSS of its largest process."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["ROOT", "Run", "median_run", "run_command"]

ROOT = Path(__file__).resolve().parents[1]


class Run:
    def __init__(self, seconds: float, peak_rss_mb: float, code: int, cpu_s: float = 0.0) -> None:
        self.seconds = seconds
        self.peak_rss_mb = peak_rss_mb
        self.code = code
        self.cpu_s = cpu_s  # user + system time of the process and its waited-for children


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
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if deadline is not None and time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 and proc.stderr is not None:
        sys.stderr.write(proc.stderr.read().decode("utf-8", "replace")[-2000:])
    return Run(took, usage.ru_maxrss / 1024, proc.returncode, usage.ru_utime + usage.ru_stime)


def median_run(argv: Sequence[str], repeat: int) -> Run:
    runs = [run_command(argv) for _ in range(repeat)]
    return Run(statistics.median(r.seconds for r in runs),
               statistics.median(r.peak_rss_mb for r in runs), max(r.code for r in runs))
