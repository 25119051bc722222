"""`benchmarks.measure.run_command` counts the CPU of the whole process tree: a grandchild that
its parent never waits for (the sweep's workers are the fork server's children, and the fork
server is not waited for) is in the figure, where `wait4`'s rusage alone left it out."""

from __future__ import annotations

import sys

from benchmarks.measure import run_command

# The child busies one core for `SPIN` seconds in a grandchild it leaves unwaited, then exits
# only after the grandchild has finished (so the walk sees it to its end, within one sample).
SPIN = 0.6
_SCRIPT = f"""
import os, sys, time
r, w = os.pipe()
if os.fork() == 0:
    end = time.process_time() + {SPIN}
    while time.process_time() < end:
        pass
    os.write(w, b"x")
    time.sleep(0.3)  # still alive at the next walk of the tree
    os._exit(0)
os.read(r, 1)
time.sleep(0.3)
sys.exit(0)  # the grandchild is never waited for
"""


def test_unwaited_grandchild_cpu_is_counted() -> None:
    run = run_command([sys.executable, "-c", _SCRIPT])
    assert run.code == 0
    assert run.cpu_s >= SPIN * 0.9


def test_cpu_is_split_by_generation() -> None:
    """The spin is in the command's child (generation 1: where a sweep's fork server sits, its
    workers one below), not in the command's own process (generation 0)."""
    run = run_command([sys.executable, "-c", _SCRIPT])
    assert run.code == 0
    assert run.cpu_by_depth.get(1, 0.0) >= SPIN * 0.9
    assert run.cpu_by_depth.get(0, 0.0) < SPIN / 2
