"""The Store against real SQLite files: settings, the one write path, and crash safety."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import platformdirs
import pytest

import bot.store as store_pkg
from bot.store import SCHEMA_VERSION, Store, StoreError, default_db_path

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "claimcheck.sqlite3")
    await s.write(_create_items)
    yield s
    await s.close()


async def _create_items(conn: aiosqlite.Connection) -> None:
    await conn.execute("CREATE TABLE IF NOT EXISTS items (writer INTEGER, n INTEGER)")


async def test_open_sets_wal_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "sub" / "db.sqlite3") as s:
        assert (await s.read("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await s.read("PRAGMA busy_timeout"))[0][0] == 5000
        assert (await s.read("PRAGMA synchronous"))[0][0] == 1  # NORMAL
        assert (await s.read("PRAGMA foreign_keys"))[0][0] == 1
        assert await s.user_version() == SCHEMA_VERSION
        assert await s.integrity_check() == "ok"


async def test_many_concurrent_writers_all_commit(store: Store) -> None:
    async def writer(i: int) -> None:
        async def txn(conn: aiosqlite.Connection) -> None:
            await conn.execute("INSERT INTO items VALUES (?, 1)", (i,))
            await asyncio.sleep(0)  # let the others run mid-transaction
            await conn.execute("INSERT INTO items VALUES (?, 2)", (i,))

        await store.write(txn)

    await asyncio.gather(*(writer(i) for i in range(40)))
    assert (await store.read("SELECT count(*) FROM items"))[0][0] == 80


async def test_failed_write_rolls_back_and_the_store_stays_usable(store: Store) -> None:
    async def half_then_fail(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO items VALUES (1, 1)")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await store.write(half_then_fail)
    assert (await store.read("SELECT count(*) FROM items"))[0][0] == 0

    async def ok(conn: aiosqlite.Connection) -> int:
        await conn.execute("INSERT INTO items VALUES (2, 2)")
        return 7

    assert await store.write(ok) == 7
    assert [tuple(r) for r in await store.read("SELECT * FROM items")] == [(2, 2)]


async def test_cancelled_write_rolls_back(store: Store) -> None:
    started = asyncio.Event()

    async def slow(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO items VALUES (1, 1)")
        started.set()
        await asyncio.sleep(10)

    task = asyncio.create_task(store.write(slow))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await store.read("SELECT count(*) FROM items"))[0][0] == 0
    await store.write(_create_items)  # no "transaction within a transaction"


async def test_reads_do_not_see_a_write_in_progress(store: Store) -> None:
    inside = asyncio.Event()
    proceed = asyncio.Event()

    async def txn(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO items VALUES (1, 1)")
        inside.set()
        await proceed.wait()

    task = asyncio.create_task(store.write(txn))
    await inside.wait()
    reader = asyncio.create_task(store.read("SELECT count(*) FROM items"))
    await asyncio.sleep(0.05)
    assert not reader.done()  # waits for the transaction rather than peeking into it
    proceed.set()
    await task
    assert (await reader)[0][0] == 1


async def test_two_stores_on_one_file_wait_for_each_other(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    a, b = await Store.open(path), await Store.open(path)
    try:
        await a.write(_create_items)

        async def hold(conn: aiosqlite.Connection) -> None:
            await conn.execute("INSERT INTO items VALUES (1, 1)")
            await asyncio.sleep(0.3)

        async def quick(conn: aiosqlite.Connection) -> None:
            await conn.execute("INSERT INTO items VALUES (2, 2)")

        await asyncio.gather(a.write(hold), b.write(quick))
        assert (await b.read("SELECT count(*) FROM items"))[0][0] == 2
    finally:
        await a.close()
        await b.close()


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"this is not sqlite, just some text long enough to be a header" * 20)
    with pytest.raises(StoreError, match="is not a claimcheck database"):
        await Store.open(path)


def test_default_path_is_in_the_user_data_dir() -> None:
    path = default_db_path()
    assert path.parent == Path(platformdirs.user_data_dir("claimcheck"))
    assert path.suffix == ".sqlite3"


def test_public_names_are_exact() -> None:
    assert sorted(store_pkg.__all__) == sorted(
        [
            "AuditPlace",
            "AuditRecord",
            "MigrationFailed",
            "SCHEMA_VERSION",
            "SchemaTooNew",
            "SqliteRawStore",
            "Store",
            "StoreError",
            "audit_key",
            "default_db_path",
            "get_audit",
            "latest_for_subject",
            "list_audits",
            "save_audit",
            "set_answer",
        ]
    )
    assert all(hasattr(store_pkg, name) for name in store_pkg.__all__)


WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store import Store, save_audit

    async def main(path):
        store = await Store.open(path)
        i = 0
        while True:
            i += 1
            await save_audit(store, f"k{i}", '{"n": %d}' % i, "consistent", f"audit {i}")
            sys.stdout.write(f"{i}\\n")  # the ack: only after COMMIT returned
            sys.stdout.flush()

    asyncio.run(main(sys.argv[1]))
    """
)


def _kill_after(path: Path, acks_wanted: int) -> list[int]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, env=env, cwd=REPO
    )
    acked: list[int] = []
    deadline = time.monotonic() + 10
    try:
        assert proc.stdout is not None
        while len(acked) < acks_wanted and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            acked.append(int(line))
        os.kill(proc.pid, signal.SIGKILL)
        acked += [int(x) for x in proc.stdout.read().split()]  # acks already in the pipe
    finally:
        proc.kill()
        proc.wait(5)
        if proc.stdout is not None:
            proc.stdout.close()
    assert len(acked) >= acks_wanted, "the writer did not get going"
    return acked


def test_kill_9_loses_no_acknowledged_audit(tmp_path: Path) -> None:
    """Process-crash safety only: SIGKILL a writer that acks each commit, reopen, check.

    The OS page cache survives a killed process, so this proves nothing about power loss with
    synchronous=NORMAL (where the last commits may roll back); that would need a hard-reset VM
    or a fault-injecting filesystem and is untested here.
    """
    path = tmp_path / "crash.sqlite3"
    acked: set[int] = set()
    for acks_wanted in (40, 150):  # the second writer re-saves k1..: idempotent, then goes on
        acked |= set(_kill_after(path, acks_wanted))
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            keys = {row[0] for row in conn.execute("SELECT key FROM audits")}
            count = conn.execute("SELECT count(*) FROM audits").fetchone()[0]
        assert {f"k{i}" for i in acked} <= keys
        assert count == len(keys)  # a retried key never makes a second row
