"""Finished audits: one row per audited input, written once (retries are harmless).

The key names what was audited (a Discord message or interaction id, or `audit_key(...)` of the
inputs), so a crash between COMMIT and the Discord reply turns into a safe retry: saving the same
key again returns the first row's id and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime
from typing import get_args

import aiosqlite
from pydantic import BaseModel, ConfigDict

from bot.store.db import Store
from checks.models import Verdict
from extractors.storage import utc_now

__all__ = [
    "AuditPlace",
    "AuditRecord",
    "audit_key",
    "get_audit",
    "latest_for_subject",
    "list_audits",
    "save_audit",
    "set_answer",
]


class AuditRecord(BaseModel):
    """One stored audit."""

    model_config = ConfigDict(frozen=True)

    id: int
    key: str
    created_at: datetime  # UTC
    verdict: Verdict
    headline: str
    source_url: str | None
    report_json: str  # the Report's JSON form, as rendered
    subject: str | None = None  # what was audited: the URL, or audit_key of the text
    guild_id: int | None = None
    channel_id: int | None = None
    message_id: int | None = None  # the message that asked (watched) or the answer (/audit)
    thread_id: int | None = None  # where the report was posted, when in a thread
    asked_by: int | None = None  # the Discord user id
    points: list[tuple[int, float]] = []  # (window, tok/s) of the claim and its sibling runs

    def jump_url(self) -> str | None:
        """The Discord link to where the report is (the thread, else the message)."""
        if self.guild_id is None:
            return None
        if self.thread_id is not None:
            return f"https://discord.com/channels/{self.guild_id}/{self.thread_id}"
        if self.channel_id is not None and self.message_id is not None:
            return f"https://discord.com/channels/{self.guild_id}/{self.channel_id}/{self.message_id}"
        return None


class AuditPlace(BaseModel):
    """Where an audit was asked for and answered (all optional: the CLI has none)."""

    subject: str | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    message_id: int | None = None
    thread_id: int | None = None
    asked_by: int | None = None


def audit_key(*parts: str) -> str:
    """A stable key for an audit of these inputs (e.g. the URL and the pasted text)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big") + data)  # length-prefixed: no ambiguity
    return "sha256:" + digest.hexdigest()


def _stamp(when: datetime) -> str:
    if when.tzinfo is None:
        raise ValueError("audit times must be timezone-aware")
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def _clean(text: str) -> str:
    return text.replace("\x00", "")  # SQLite string functions stop at NUL


def _record(row: sqlite3.Row) -> AuditRecord:
    return AuditRecord(
        id=row["id"],
        key=row["key"],
        created_at=datetime.fromisoformat(row["created_at"]),
        verdict=row["verdict"],
        headline=row["headline"],
        source_url=row["source_url"],
        report_json=row["report_json"],
        subject=row["subject"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        thread_id=row["thread_id"],
        asked_by=row["asked_by"],
        points=[tuple(p) for p in json.loads(row["points_json"] or "[]")],
    )


async def save_audit(
    store: Store,
    key: str,
    report_json: str,
    verdict: Verdict,
    headline: str,
    source_url: str | None = None,
    *,
    created_at: datetime | None = None,
    place: AuditPlace | None = None,
    points: list[tuple[int, float]] | None = None,
) -> int:
    """Store an audit and return its id; an existing `key` keeps its first row and id."""
    at = place or AuditPlace()
    if verdict not in get_args(Verdict):
        raise ValueError(f"unknown verdict {verdict!r}")
    when = _stamp(created_at or utc_now())

    async def insert(conn: aiosqlite.Connection) -> int:
        await conn.execute(
            "INSERT INTO audits (key, created_at, verdict, headline, source_url, report_json,"
            " subject, guild_id, channel_id, message_id, thread_id, asked_by, points_json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
            (key, when, verdict, _clean(headline), source_url, _clean(report_json),
             at.subject, at.guild_id, at.channel_id, at.message_id, at.thread_id, at.asked_by,
             json.dumps(points or [])),
        )
        async with conn.execute("SELECT id FROM audits WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    return await store.write(insert)


async def get_audit(store: Store, key: str) -> AuditRecord | None:
    row = await store.read_one("SELECT * FROM audits WHERE key = ?", (key,))
    return None if row is None else _record(row)


async def set_answer(store: Store, audit_id: int, *, message_id: int | None = None,
                     thread_id: int | None = None, channel_id: int | None = None) -> None:
    """Record where the report was posted (after Discord answered)."""

    async def update(conn: aiosqlite.Connection) -> None:
        await conn.execute(
            "UPDATE audits SET message_id = coalesce(?, message_id),"
            " thread_id = coalesce(?, thread_id), channel_id = coalesce(?, channel_id)"
            " WHERE id = ?",
            (message_id, thread_id, channel_id, audit_id),
        )

    await store.write(update)


async def latest_for_subject(store: Store, subject: str, *,
                             guild_id: int | None = None) -> AuditRecord | None:
    """The newest audit of this URL or text (in this guild when given)."""
    sql, params = "SELECT * FROM audits WHERE subject = ?", list[object]([subject])
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    row = await store.read_one(sql + " ORDER BY created_at DESC, id DESC LIMIT 1", params)
    return None if row is None else _record(row)


async def list_audits(
    store: Store,
    since: datetime | None = None,
    *,
    limit: int | None = None,
    guild_id: int | None = None,
) -> list[AuditRecord]:
    """Audits created at or after `since` (all when None; of one guild when given), oldest
    first."""
    sql, params = "SELECT * FROM audits", list[object]()
    where = []
    if since is not None:
        where.append("created_at >= ?")
        params.append(_stamp(since))
    if guild_id is not None:
        where.append("guild_id = ?")
        params.append(guild_id)
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY created_at, id"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(int(limit))
    return [_record(r) for r in await store.read(sql, params)]
