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

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Migration",
    "add_bot_tables",
    "add_guild_policy",
    "add_replies_and_disputes",
    "add_reply_messages",
    "create_audits",
    "create_fetch_cache",
]


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


async def add_bot_tables(conn: aiosqlite.Connection) -> None:
    """Who asked where (audits' Discord ids), guild settings, watch modes, watched sources, the
    records already seen in them, and the digests posted."""
    for column in ("subject TEXT", "guild_id INTEGER", "channel_id INTEGER", "message_id INTEGER",
                   "thread_id INTEGER", "asked_by INTEGER", "points_json TEXT"):
        await conn.execute(f"ALTER TABLE audits ADD COLUMN {column}")
    await conn.execute("CREATE INDEX audits_by_subject ON audits (subject, created_at)")
    await conn.execute("CREATE INDEX audits_by_guild ON audits (guild_id, created_at)")
    await conn.execute(
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            digest_channel_id INTEGER,
            digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23),
            default_mode TEXT NOT NULL DEFAULT 'thread'
        )"""
    )
    await conn.execute(
        """CREATE TABLE channel_modes (
            channel_id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('off', 'react', 'thread'))
        )"""
    )
    await conn.execute(
        """CREATE TABLE watched_sources (
            guild_id INTEGER NOT NULL,
            url TEXT NOT NULL,
            added_by INTEGER,
            added_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, url)
        )"""
    )
    await conn.execute(
        """CREATE TABLE seen_records (
            source_url TEXT NOT NULL,
            record_key TEXT NOT NULL,
            verdict TEXT NOT NULL,
            headline TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            PRIMARY KEY (source_url, record_key)
        )"""
    )
    await conn.execute(
        """CREATE TABLE digests (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            day TEXT NOT NULL,
            created_at TEXT NOT NULL,
            channel_id INTEGER,
            message_id INTEGER,
            body TEXT NOT NULL,
            UNIQUE (guild_id, day)
        )"""
    )


async def add_guild_policy(conn: aiosqlite.Connection) -> None:
    """Per-server policy beside the default watch mode: the least severe verdict that opens a
    thread (below it a reaction or nothing) and whether replies in the bot's threads are read
    as follow-ups of the thread's claim. The defaults keep what servers had: every claim opens
    a thread, replies are follow-ups."""
    await conn.execute(
        "ALTER TABLE guild_settings ADD COLUMN thread_threshold TEXT NOT NULL DEFAULT 'consistent'"
        " CHECK (thread_threshold IN ('implausible', 'suspicious', 'insufficient', 'consistent'))")
    await conn.execute(
        "ALTER TABLE guild_settings ADD COLUMN below_threshold TEXT NOT NULL DEFAULT 'react'"
        " CHECK (below_threshold IN ('react', 'nothing'))")
    await conn.execute(
        "ALTER TABLE guild_settings ADD COLUMN follow_ups INTEGER NOT NULL DEFAULT 1"
        " CHECK (follow_ups IN (0, 1))")


async def add_replies_and_disputes(conn: aiosqlite.Connection) -> None:
    """Which reply answers which message (edits, deletes and buttons survive a restart), and
    members' disputes of a report (bot/store/replies.py, bot/store/disputes.py)."""
    await conn.execute(
        """CREATE TABLE replies (
            source_id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            reply_channel_id INTEGER NOT NULL,
            reply_message_id INTEGER NOT NULL,
            thread_id INTEGER,
            audit_id INTEGER NOT NULL REFERENCES audits(id),
            asked_by INTEGER,
            request_json TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'deleted', 'archived')),
            edits INTEGER NOT NULL DEFAULT 0
        )"""
    )
    await conn.execute("CREATE INDEX replies_by_report ON replies (reply_message_id)")
    await conn.execute(
        """CREATE TABLE disputes (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            audit_id INTEGER NOT NULL REFERENCES audits(id),
            reply_channel_id INTEGER,
            reply_message_id INTEGER,
            raised_by INTEGER NOT NULL,
            reason TEXT NOT NULL,
            created_at TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('open', 'resolved')),
            resolved_by INTEGER,
            resolved_at TEXT,
            resolution TEXT
        )"""
    )
    await conn.execute("CREATE INDEX disputes_by_guild ON disputes (guild_id, state, created_at)")


async def add_reply_messages(conn: aiosqlite.Connection) -> None:
    """The member's message each report audits (the watched message, or the one "Audit this
    message" was used on; none for `/audit`), so its edits and deletes reach every report of
    it, and a start can check that the messages of its live reports still exist. Rows written
    before have none and keep being found by their source id."""
    await conn.execute("ALTER TABLE replies ADD COLUMN message_id INTEGER")
    await conn.execute("CREATE INDEX replies_by_message ON replies (message_id)")


MIGRATIONS: tuple[Migration, ...] = (
    Migration("create_fetch_cache", create_fetch_cache),
    Migration("create_audits", create_audits),
    Migration("add_bot_tables", add_bot_tables),
    Migration("add_guild_policy", add_guild_policy),
    Migration("add_replies_and_disputes", add_replies_and_disputes),
    Migration("add_reply_messages", add_reply_messages),
)
SCHEMA_VERSION = len(MIGRATIONS)
