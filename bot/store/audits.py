"""Finished audits: one row per audited input, written once (retries are harmless).

The key names what was audited (a Discord message or interaction id, or `audit_key(...)` of the
inputs), so a crash between COMMIT and the Discord reply turns into a safe retry: saving the same
key again returns the first row's id and changes nothing.
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import UTC, datetime
from typing import get_args

import aiosqlite
from pydantic import BaseModel, ConfigDict

from bot.store.db import Store
from checks.models import Verdict
from extractors.storage import utc_now

__all__ = ["AuditRecord", "audit_key", "get_audit", "list_audits", "save_audit"]


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
) -> int:
    """Store an audit and return its id; an existing `key` keeps its first row and id."""
    if verdict not in get_args(Verdict):
        raise ValueError(f"unknown verdict {verdict!r}")
    when = _stamp(created_at or utc_now())

    async def insert(conn: aiosqlite.Connection) -> int:
        await conn.execute(
            "INSERT INTO audits (key, created_at, verdict, headline, source_url, report_json)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
            (key, when, verdict, _clean(headline), source_url, _clean(report_json)),
        )
        async with conn.execute("SELECT id FROM audits WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    return await store.write(insert)


async def get_audit(store: Store, key: str) -> AuditRecord | None:
    row = await store.read_one("SELECT * FROM audits WHERE key = ?", (key,))
    return None if row is None else _record(row)


async def list_audits(
    store: Store, since: datetime | None = None, *, limit: int | None = None
) -> list[AuditRecord]:
    """Audits created at or after `since` (all when None), oldest first."""
    sql, params = "SELECT * FROM audits", list[object]()
    if since is not None:
        sql += " WHERE created_at >= ?"
        params.append(_stamp(since))
    sql += " ORDER BY created_at, id"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(int(limit))
    return [_record(r) for r in await store.read(sql, params)]
