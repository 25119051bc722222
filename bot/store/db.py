"""The SQLite store: one aiosqlite connection, one write path.

- WAL, `synchronous=NORMAL`, `busy_timeout=5000`, `foreign_keys=ON`, autocommit
  (`isolation_level=None`) so transactions are exactly the ones written here.
- Every write goes through `write(fn)`: `BEGIN IMMEDIATE … COMMIT` under one asyncio.Lock.
  aiosqlite gives coroutines sharing a connection no isolation (its maintainer in
  omnilib/aiosqlite#19: transactions "should be using separate connections"); without the lock,
  concurrent writers fail with "cannot start a transaction within a transaction". IMMEDIATE takes the write
  lock up front, so a second process waits on the busy timeout instead of failing at its first
  write.
- Reads take the same lock, so they never see another coroutine's uncommitted rows on this
  shared connection.
- Migrations (`migrations.py`) run on open, each with its `user_version` bump in one transaction.
  A file whose `user_version` is newer than this code knows is refused, not downgraded.

WAL + NORMAL survives a process crash with every committed transaction; after a power loss the
last transactions may roll back (never corrupt). That is fine for a bot's cache and audit log.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite
import platformdirs

from bot.store.migrations import MIGRATIONS, Migration

__all__ = [
    "MigrationFailed",
    "SchemaTooNew",
    "Store",
    "StoreError",
    "default_db_path",
]

T = TypeVar("T")
BUSY_TIMEOUT_MS = 5000


class StoreError(Exception):
    """The store cannot be used; str(err) is a sentence for the user."""


class SchemaTooNew(StoreError):
    pass


class MigrationFailed(StoreError):
    pass


def default_db_path() -> Path:
    """Where the bot and CLI keep their database unless told otherwise."""
    return Path(platformdirs.user_data_dir("claimcheck")) / "claimcheck.sqlite3"


class Store:
    """Owns one aiosqlite connection; every write goes through `write`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: str | Path, *, migrations: Sequence[Migration] = MIGRATIONS) -> Store:
        """Open (creating if needed) the database at `path` and bring its schema up to date."""
        shown = str(path)
        if shown != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(shown, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.row_factory = aiosqlite.Row
        store = cls(conn, shown)
        try:
            await store._configure()
            await store._migrate(migrations)
        except BaseException:
            await conn.close()
            raise
        return store

    async def _configure(self) -> None:
        try:
            await self._pragma("journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a claimcheck database ({exc})") from None
        await self._pragma(f"busy_timeout={BUSY_TIMEOUT_MS}")
        await self._pragma("synchronous=NORMAL")
        await self._pragma("foreign_keys=ON")

    async def _pragma(self, setting: str) -> None:
        # Some pragmas answer with a row; the cursor is closed here, not whenever it is garbage
        # collected, or its open statement makes a later COMMIT fail ("SQL statements in
        # progress").
        async with self._conn.execute(f"PRAGMA {setting}") as cursor:
            await cursor.fetchall()

    async def user_version(self) -> int:
        rows = await self.read("PRAGMA user_version")
        return int(rows[0][0])

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        known = len(migrations)
        found = await self.user_version()
        if found > known:
            raise SchemaTooNew(
                f"{self.path} has schema version {found}, but this claimcheck knows only up to "
                f"{known}; upgrade claimcheck or use another database file"
            )
        for version, migration in enumerate(migrations, start=1):
            if version <= found:
                continue

            async def step(
                conn: aiosqlite.Connection, version: int = version, migration: Migration = migration
            ) -> None:
                # Closed at once: an open statement would make the COMMIT fail after ALTER TABLE.
                async with conn.execute("PRAGMA user_version") as cursor:
                    (current,) = await cursor.fetchone()  # type: ignore[misc]
                if current >= version:  # another process got there first
                    return
                await migration.apply(conn)
                await conn.execute(f"PRAGMA user_version={version:d}")

            try:
                await self.write(step)
            except sqlite3.Error as exc:
                raise MigrationFailed(
                    f"could not update {self.path} to schema version {version} "
                    f"({migration.name}): {exc}"
                ) from exc

    async def write(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run `fn(conn)` inside BEGIN IMMEDIATE … COMMIT, alone; ROLLBACK if it raises."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                result = await fn(self._conn)
                await self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    # Cancelled while COMMIT was queued: it committed after all.
                    with contextlib.suppress(sqlite3.Error):
                        await self._conn.execute("ROLLBACK")
                raise
            return result

    async def read(
        self, sql: str, params: Iterable[Any] | dict[str, Any] = ()
    ) -> list[sqlite3.Row]:
        """All rows of one query (one trip to the connection's thread: execute, fetch and
        close happen there together)."""
        async with self._lock:
            return list(await self._conn.execute_fetchall(sql, params))

    async def read_one(
        self, sql: str, params: Iterable[Any] | dict[str, Any] = ()
    ) -> sqlite3.Row | None:
        rows = await self.read(sql, params)
        return rows[0] if rows else None

    async def integrity_check(self) -> str:
        """ "ok", or SQLite's list of problems."""
        rows = await self.read("PRAGMA integrity_check")
        return "\n".join(str(r[0]) for r in rows)

    async def checkpoint(self) -> None:
        """Fold the WAL back into the database file (run now and then, e.g. after a digest)."""
        await self.read("PRAGMA wal_checkpoint(TRUNCATE)")

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
