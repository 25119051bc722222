"""The sweep's worker processes are never a fork of the process that runs the sweep (issue 14
part 3: "no fork of a process that has started threads"). The sweep runs in a thread of the app
(`App.sweep` hands it to `asyncio.to_thread`), so by the time its pool starts the process has
threads, and a forked child keeps every lock one of them held, with no thread left to release it
(Python docs, multiprocessing, "Contexts and start methods"). Its workers come from the reading
pool's start method instead (`extractors.offloop.start_method`: the fork server, else spawn)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.sweep import MIN_PART, _in_worker, _pool
from extractors.offloop import start_method
from extractors.text import compiled

ROOT = Path(__file__).resolve().parents[2]


def _parent(_: int) -> int:
    return os.getppid()


def test_the_sweeps_workers_are_not_forked_from_this_threaded_process() -> None:
    gate = threading.Event()
    threading.Thread(target=gate.wait, daemon=True).start()  # this process has threads now
    try:
        with _pool(2) as pool:
            parents = set(pool.map(_parent, range(4)))
    finally:
        gate.set()
    assert start_method() in ("forkserver", "spawn")
    # The fork server is every worker's parent: a fresh interpreter that starts no thread.
    # (With spawn each worker is a fresh interpreter of its own, a child of this process.)
    if start_method() == "forkserver":
        assert os.getpid() not in parents


# `claimcheck sweep --jobs 2` of a board big enough for two workers, in a fresh interpreter that
# notes the thread count at every `os.fork` (the call a `fork` start method makes; the fork server
# and spawn start their interpreters by fork+exec, which runs no such hook).
_FORK_PROBE = """
import io, json, os, tempfile, threading
from pathlib import Path

forks = []
os.register_at_fork(before=lambda: forks.append(threading.active_count()))

from benchmarks.dumps import write_inferencex_dump
from bot.cli import main
from bot.sweep import MIN_PART, PARALLEL_BYTES

with tempfile.TemporaryDirectory() as tmp:
    board = write_inferencex_dump(Path(tmp) / "board.json", 2 * MIN_PART, pad=3000)
    assert board.stat().st_size >= PARALLEL_BYTES  # big enough that the sweep starts its pool
    out, err = io.StringIO(), io.StringIO()
    code = main(["sweep", "--jobs", "2", "--json", str(board)], out=out, err=err)
print(json.dumps({"code": code, "records": json.loads(out.getvalue())["records"], "forks": forks}))
"""


def test_a_parallel_sweep_from_the_cli_forks_no_process_that_has_threads() -> None:
    done = subprocess.run([sys.executable, "-c", _FORK_PROBE], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    probe = json.loads(done.stdout)
    assert (probe["code"], probe["records"]) == (0, 2 * MIN_PART)
    # Every os.fork, if any, came while the process had one thread (the CLI's reading pool may
    # fork its worker then); with a `fork` pool the sweep's two workers were forked from the
    # sweep's thread, with the loop's thread beside it: [2, 2].
    assert all(n == 1 for n in probe["forks"]), probe["forks"]


# Which of `claimcheck sweep`'s arguments start the fork server before the CLI imports the checks
# (so the server's preload of them overlaps the CLI's own), in a fresh interpreter each.
_EARLY_PROBE = """
import argparse, json, sys, tempfile
from multiprocessing import forkserver
from pathlib import Path

from bot.cli import _start_sweep_workers_early
from extractors.offloop import PARALLEL_BYTES

with tempfile.TemporaryDirectory() as tmp:
    board = Path(tmp) / "board.json"
    board.write_bytes(b" " * int(sys.argv[1]))
    _start_sweep_workers_early(argparse.Namespace(command=sys.argv[2], source=str(board),
                                                  jobs=json.loads(sys.argv[3])))
    started = forkserver._forkserver._forkserver_pid is not None
print(json.dumps({"started": started, "checks_loaded": "checks.runner" in sys.modules}))
"""


@pytest.mark.parametrize(("size", "command", "jobs", "started"), [
    (256 * 1024, "sweep", "null", True),  # the default jobs, a file big enough for workers
    (256 * 1024, "sweep", "2", True),
    (256 * 1024, "sweep", "1", False),  # one job: no workers at all
    (256 * 1024 - 1, "sweep", "2", False),  # read in the calling process
    (256 * 1024, "audit", "null", False),  # the reading pool forks its worker instead
])
def test_a_big_sweep_starts_its_fork_server_before_the_checks_load(
        size: int, command: str, jobs: str, started: bool) -> None:
    if start_method() != "forkserver":
        started = False
    done = subprocess.run([sys.executable, "-c", _EARLY_PROBE, str(size), command, jobs],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"started": started, "checks_loaded": False}


def _kept_then(_: int) -> Path | None:
    return compiled.kept_in()


def test_a_sweep_worker_keeps_its_patterns_where_the_sweeps_process_does(tmp_path: Path) -> None:
    with _pool(1) as pool:
        during = pool.submit(_in_worker, compiled.kept_in, tmp_path).result()
        after = pool.submit(_kept_then, 0).result()  # the same worker, its task done
        none = pool.submit(_in_worker, compiled.kept_in, None).result()
    assert (during, after, none) == (tmp_path, None, None)
