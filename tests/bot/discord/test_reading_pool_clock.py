"""The reading workers under a clock that stands still, as simcord's virtual clock does within a
call (it dispatches `time.monotonic` to the test's virtual time): a worker replaced after a
cancelled task starts anyway, and each worker runs its warm-up as it starts.

`Process.start` reaps finished children first, waiting on each live one's sentinel with a zero
timeout; `multiprocessing.connection.wait` ends that wait only once `time.monotonic()` has
passed its deadline, so starting a replacement from the loop's thread spun forever under the
bot's virtual clock (issue 15: the screenshot test stalled there). `ReadingPool` starts workers
from a thread of their own, outside the loop's context.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import time
from pathlib import Path

import pytest

from extractors.offloop import ReadingPool


def _pid_file(folder: str) -> None:
    """A warm-up that leaves a mark: a file named after the worker's pid."""
    Path(folder, str(os.getpid())).touch()


_FROZEN: contextvars.ContextVar[float | None] = contextvars.ContextVar("frozen", default=None)


async def test_a_replacement_worker_starts_while_the_clock_stands_still(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """As simcord does: `time.monotonic` stands still in the bot's context (here: the task's),
    and reads the real clock elsewhere."""
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: _FROZEN.get() or real())
    pool = ReadingPool(None, 2).start()
    try:
        bots = contextvars.copy_context()
        bots.run(_FROZEN.set, real())
        task = asyncio.get_running_loop().create_task(pool.run(time.sleep, 30), context=bots)
        for _ in range(20):  # the task reaches its worker (loop turns only: no timer runs)
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task  # the worker is killed and a fresh one started, the clock still
        assert (pool.replaced, pool.started, len(pool.pids())) == (1, 3, 2)
        assert await pool.run(len, "abc") == 3
    finally:
        pool.close()


async def test_each_worker_runs_its_warm_up_as_it_starts(tmp_path: Path) -> None:
    import functools

    pool = ReadingPool(None, 2, warm=functools.partial(_pid_file, str(tmp_path))).start()
    try:
        pids = pool.pids()
        assert sorted(await asyncio.gather(pool.run(os.getpid), pool.run(os.getpid))) == sorted(pids)
        # A worker answers after its warm-up ran: every worker left its mark.
        assert sorted(int(p.name) for p in tmp_path.iterdir()) == sorted(pids)
    finally:
        pool.close()
