"""Migrations: ordered, each with its user_version bump in one transaction, never downgraded."""

from __future__ import annotations

import inspect
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.store import SCHEMA_VERSION, MigrationFailed, SchemaTooNew, Store
from bot.store import migrations as migrations_module
from bot.store.migrations import MIGRATIONS, Migration


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    assert _version(path) == SCHEMA_VERSION == len(MIGRATIONS)
    assert {"raw_bodies", "fetches", "audits"} <= _tables(path)


async def test_reopening_applies_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    await (await Store.open(path)).close()  # would fail with "table already exists" otherwise
    assert _version(path) == SCHEMA_VERSION


async def test_an_older_database_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path, migrations=MIGRATIONS[:1])).close()
    assert _version(path) == 1 and "audits" not in _tables(path)
    await (await Store.open(path)).close()
    assert _version(path) == SCHEMA_VERSION and "audits" in _tables(path)


async def test_failed_migration_leaves_user_version_and_schema_unchanged(tmp_path: Path) -> None:
    async def broken(conn: aiosqlite.Connection) -> None:
        await conn.execute("CREATE TABLE half_done (x INTEGER)")
        await conn.execute("INSERT INTO no_such_table VALUES (1)")

    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    with pytest.raises(MigrationFailed, match=f"schema version {SCHEMA_VERSION + 1} \\(broken\\)"):
        await Store.open(path, migrations=(*MIGRATIONS, Migration("broken", broken)))
    assert _version(path) == SCHEMA_VERSION
    assert "half_done" not in _tables(path)
    await (await Store.open(path)).close()  # still opens with the shipped migrations


async def test_newer_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 3}")
    with pytest.raises(SchemaTooNew) as err:
        await Store.open(path)
    assert f"schema version {SCHEMA_VERSION + 3}" in str(err.value)
    assert f"only up to {SCHEMA_VERSION}" in str(err.value)
    assert _version(path) == SCHEMA_VERSION + 3


def test_migrations_are_named_functions_in_order_without_executescript() -> None:
    names = [m.name for m in MIGRATIONS]
    assert len(set(names)) == len(names)
    assert names == [m.apply.__name__ for m in MIGRATIONS]
    assert "executescript" not in inspect.getsource(migrations_module).replace(
        "`executescript`", ""
    )
