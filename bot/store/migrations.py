"""The schema, as ordered named migrations; migration N sets `PRAGMA user_version = N`.

`Store.open` runs each missing migration inside one `BEGIN IMMEDIATE … COMMIT` together with its
`user_version` bump (SQLite DDL is transactional), so a failed or interrupted migration leaves
the file at the previous version with none of its statements applied. Statements run one by one
through `execute`: `executescript` would COMMIT the open transaction first.

Append new migrations at the end; never edit or reorder one that has shipped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiosqlite

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Migration", "create_audits", "create_fetch_cache"]


@dataclass(frozen=True)
class Migration:
    name: str
    apply: Callable[[aiosqlite.Connection], Awaitable[None]]


async def create_fetch_cache(conn: aiosqlite.Connection) -> None:
    """Raw bodies by sha256, and one row per fetch pointing at its body."""
    await conn.execute(
        """CREATE TABLE raw_bodies (
            sha256 TEXT PRIMARY KEY,
            body BLOB NOT NULL,
            size INTEGER NOT NULL
        )"""
    )
    await conn.execute(
        """CREATE TABLE fetches (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL,
            final_url TEXT NOT NULL,
            redirects_json TEXT NOT NULL,
            status INTEGER NOT NULL,
            content_type TEXT,
            fetched_at TEXT NOT NULL,
            sha256 TEXT NOT NULL REFERENCES raw_bodies(sha256),
            UNIQUE (url, fetched_at, sha256)
        )"""
    )
    await conn.execute("CREATE INDEX fetches_by_url ON fetches (url, fetched_at)")


async def create_audits(conn: aiosqlite.Connection) -> None:
    """One row per audit, keyed by what it audited (idempotent retries)."""
    await conn.execute(
        """CREATE TABLE audits (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            verdict TEXT NOT NULL,
            headline TEXT NOT NULL,
            source_url TEXT,
            report_json TEXT NOT NULL
        )"""
    )
    await conn.execute("CREATE INDEX audits_by_time ON audits (created_at)")


MIGRATIONS: tuple[Migration, ...] = (
    Migration("create_fetch_cache", create_fetch_cache),
    Migration("create_audits", create_audits),
)
SCHEMA_VERSION = len(MIGRATIONS)
