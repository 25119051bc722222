"""SIGKILL at random points, 40 rounds with a fixed seed: no acknowledged audit is lost, the file
passes `PRAGMA integrity_check`, and no migration is ever half-applied.

Each round starts a writer process on the same file. Some rounds begin from a file still at
schema version 2 and run the bot-tables migration slowly (a pause after every statement, set up
by the writer itself through `Store.open(migrations=…)`), and are killed in the middle of it.
The writer saves audits the way the bot does (with where they were asked) and prints an ack only
after COMMIT returned; acks are collected across rounds and must all be in the file.

This proves process-crash safety only: the OS page cache survives a killed process, so nothing
here says what a power loss does with synchronous=NORMAL (the last commits may roll back); that
needs a hard-reset VM or a fault-injecting filesystem and is untested.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bot.store import SCHEMA_VERSION

REPO = Path(__file__).resolve().parents[3]
ROUNDS = 40

WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store import AuditPlace, Store, save_audit
    from bot.store.migrations import MIGRATIONS, Migration

    class Slow:
        # Wraps the connection so every statement of the migration is followed by a pause
        # and a "step" line: the harness kills the writer between two statements.
        def __init__(self, conn):
            self.conn = conn
        async def execute(self, *args):
            cursor = await self.conn.execute(*args)
            sys.stdout.write("step\\n"); sys.stdout.flush()
            await asyncio.sleep(0.15)
            return cursor

    async def main(path, round_no, upto, slow):
        migrations = list(MIGRATIONS[:upto])
        if slow:
            last = migrations[-1]
            async def apply(conn, last=last):
                await last.apply(Slow(conn))
            migrations[-1] = Migration(last.name, apply)
        store = await Store.open(path, migrations=migrations)
        sys.stdout.write("open\\n"); sys.stdout.flush()
        if upto < len(MIGRATIONS):
            return
        i = 0
        while True:
            i += 1
            key = f"r{round_no}-{i}"
            place = AuditPlace(subject=f"https://board.example/{i % 7}", guild_id=1,
                               channel_id=2, message_id=round_no * 100000 + i, asked_by=3)
            await save_audit(store, key, '{"n": %d}' % i, "implausible", f"audit {key}",
                             place=place, points=[(56, 2103.6)])
            sys.stdout.write(f"ack {key}\\n"); sys.stdout.flush()

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"))
    """
)


def _run(path: Path, round_no: int, upto: int, slow: bool, kill: str, wait: float,
         nth: int = 1) -> list[str]:
    """Start a writer; SIGKILL it `wait` s after the `nth` line equal to `kill` (or at EOF)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(round_no), str(upto),
                             "1" if slow else "0"], stdout=subprocess.PIPE, env=env, cwd=REPO)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = proc.stdout.readline().decode().strip()
            if not line:
                break
            lines.append(line)
            if line == kill:
                nth -= 1
                if nth == 0:
                    time.sleep(wait)
                    break
        os.kill(proc.pid, signal.SIGKILL)
        lines += proc.stdout.read().decode().split("\n")
    finally:
        proc.kill()
        proc.wait(5)
        if proc.stdout is not None:
            proc.stdout.close()
    return [ln.strip() for ln in lines if ln.strip()]


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _schema(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")}


def test_sigkill_over_40_rounds_loses_no_acked_audit_and_no_migration_is_half_applied(
    tmp_path: Path,
) -> None:
    rng = random.Random(20261130)
    path = tmp_path / "crash.sqlite3"
    acked: set[str] = set()
    mid_migration_kills = 0
    for round_no in range(ROUNDS):
        if round_no % 10 == 0:  # a fresh file one version back, then the last migration killed midway
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            acked.clear()
            _run(path, round_no, SCHEMA_VERSION - 1, False, "open", 0.0)
            with sqlite3.connect(path) as conn:
                before_last = _schema(conn)  # what the last migration starts from
            # Killed right after one of its statements, chosen at random (the last migration
            # has 3): the writer pauses 0.15 s after each, so a harness slowed by a loaded
            # machine still kills it inside the migration, not after it.
            lines = _run(path, round_no, SCHEMA_VERSION, True, "step", 0.0, nth=rng.randint(1, 3))
            mid_migration_kills += "open" not in lines
        else:
            lines = _run(path, round_no, SCHEMA_VERSION, False, "open", rng.uniform(0.02, 0.3))
        acked |= {ln.split(" ", 1)[1] for ln in lines if ln.startswith("ack ")}
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = _tables(conn)
            if version == SCHEMA_VERSION:
                assert {"guild_settings", "channel_modes", "watched_sources", "seen_records",
                        "digests"} <= tables
                assert {"subject", "thread_id", "asked_by", "points_json"} <= _columns(conn, "audits")
            else:  # the killed migration (the last one) left nothing of itself behind
                assert version == SCHEMA_VERSION - 1
                assert _schema(conn) == before_last
            keys = {row[0] for row in conn.execute("SELECT key FROM audits")}
        assert acked <= keys, sorted(acked - keys)[:5]
    assert mid_migration_kills >= 3  # the kill point inside the migration was really hit
    assert len(acked) > 0
