"""Raw fetched bodies in SQLite: the `RawStore` the fetcher writes to before anything parses.

`raw_bodies` holds each distinct body once, by sha256; `fetches` holds one row per fetch (URL,
final URL, redirect chain, status, content type, time) pointing at its body. Both inserts are
`ON CONFLICT DO NOTHING` in one transaction, so storing the same fetch twice changes nothing.
Times are stored as ISO-8601 UTC text with microseconds, which sorts in time order.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import aiosqlite

from bot.store.db import Store
from extractors.storage import StoredBody, check_body, utc_now

__all__ = ["SqliteRawStore", "get_raw", "latest_for_url", "put_raw"]


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def _meta(row: sqlite3.Row) -> StoredBody:
    return StoredBody(
        sha256=row["sha256"],
        url=row["url"],
        final_url=row["final_url"],
        redirects=tuple(json.loads(row["redirects_json"])),
        status=row["status"],
        content_type=row["content_type"],
        fetched_at=datetime.fromisoformat(row["fetched_at"]),
        size=row["size"],
    )


async def put_raw(store: Store, meta: StoredBody, body: bytes) -> None:
    """Store `body` and the fetch that produced it; idempotent."""
    check_body(meta, body)

    async def insert(conn: aiosqlite.Connection) -> None:
        await conn.execute(
            "INSERT INTO raw_bodies (sha256, body, size) VALUES (?, ?, ?)"
            " ON CONFLICT (sha256) DO NOTHING",
            (meta.sha256, bytes(body), len(body)),
        )
        await conn.execute(
            "INSERT INTO fetches (url, final_url, redirects_json, status, content_type,"
            " fetched_at, sha256) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (url, fetched_at, sha256) DO NOTHING",
            (
                meta.url,
                meta.final_url,
                json.dumps(list(meta.redirects)),
                meta.status,
                meta.content_type,
                _stamp(meta.fetched_at),
                meta.sha256,
            ),
        )

    await store.write(insert)


async def get_raw(store: Store, sha256: str) -> bytes | None:
    row = await store.read_one("SELECT body FROM raw_bodies WHERE sha256 = ?", (sha256,))
    return None if row is None else bytes(row["body"])


async def latest_for_url(
    store: Store, url: str, max_age_s: float | None = None, *, now: datetime | None = None
) -> StoredBody | None:
    """The newest fetch of `url`, if it is at most `max_age_s` old (any age when None)."""
    sql = (
        "SELECT f.*, b.size FROM fetches f JOIN raw_bodies b ON b.sha256 = f.sha256 WHERE f.url = ?"
    )
    params: list[object] = [url]
    if max_age_s is not None:
        cutoff = (now or utc_now()) - timedelta(seconds=max_age_s)
        sql += " AND f.fetched_at >= ?"
        params.append(_stamp(cutoff))
    sql += " ORDER BY f.fetched_at DESC, f.id DESC LIMIT 1"
    row = await store.read_one(sql, params)
    return None if row is None else _meta(row)


class SqliteRawStore:
    """`extractors.storage.RawStore` over a `Store`."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self._clock = clock

    async def put_raw(self, meta: StoredBody, body: bytes) -> None:
        await put_raw(self.store, meta, body)

    async def get_raw(self, sha256: str) -> bytes | None:
        return await get_raw(self.store, sha256)

    async def latest_for_url(self, url: str, max_age_s: float | None = None) -> StoredBody | None:
        return await latest_for_url(self.store, url, max_age_s, now=self._clock())
