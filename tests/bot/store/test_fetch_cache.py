"""Raw bodies and fetches in SQLite, against the same contract as the in-memory store."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.store import SqliteRawStore, Store
from extractors.storage import MemoryRawStore, RawStore, StoredBody

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def meta_for(body: bytes, url: str = "https://example.com/r.json", **kw: object) -> StoredBody:
    fields: dict[str, object] = {
        "sha256": hashlib.sha256(body).hexdigest(),
        "url": url,
        "final_url": url,
        "redirects": (),
        "status": 200,
        "content_type": "application/json",
        "fetched_at": NOW,
        "size": len(body),
    }
    fields.update(kw)
    return StoredBody(**fields)


@pytest.fixture(params=["sqlite", "memory"])
async def raw_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[RawStore]:
    def clock() -> datetime:
        return NOW
    if request.param == "memory":
        yield MemoryRawStore(clock=clock)
        return
    store = await Store.open(tmp_path / "db.sqlite3")
    yield SqliteRawStore(store, clock=clock)
    await store.close()


async def test_body_round_trips_with_its_metadata(raw_store: RawStore) -> None:
    body = b'{"tok_s": 42}'
    meta = meta_for(
        body,
        redirects=("https://example.com/a", "https://example.com/b"),
        final_url="https://example.com/c.json",
        content_type="application/json; charset=utf-8",
    )
    await raw_store.put_raw(meta, body)
    assert await raw_store.get_raw(meta.sha256) == body
    assert await raw_store.latest_for_url(meta.url) == meta
    assert isinstance(raw_store, RawStore)


async def test_put_raw_is_idempotent(raw_store: RawStore, tmp_path: Path) -> None:
    body = b"<html>hi</html>"
    meta = meta_for(body)
    for _ in range(3):
        await raw_store.put_raw(meta, body)
    assert await raw_store.latest_for_url(meta.url) == meta
    if isinstance(raw_store, SqliteRawStore):
        counts = await raw_store.store.read(
            "SELECT (SELECT count(*) FROM raw_bodies), (SELECT count(*) FROM fetches)"
        )
        assert tuple(counts[0]) == (1, 1)
    else:
        assert isinstance(raw_store, MemoryRawStore) and len(raw_store) == 1


async def test_same_body_fetched_twice_is_stored_once(raw_store: RawStore) -> None:
    body = b"[1, 2, 3]"
    await raw_store.put_raw(meta_for(body, fetched_at=NOW - timedelta(hours=2)), body)
    await raw_store.put_raw(meta_for(body, url="https://mirror.example/r.json"), body)
    assert (await raw_store.latest_for_url("https://mirror.example/r.json")) is not None
    if isinstance(raw_store, SqliteRawStore):
        rows = await raw_store.store.read("SELECT count(*) FROM raw_bodies")
        assert rows[0][0] == 1


async def test_latest_for_url_honours_max_age(raw_store: RawStore) -> None:
    old, new = b'{"v": 1}', b'{"v": 2}'
    await raw_store.put_raw(meta_for(old, fetched_at=NOW - timedelta(hours=3)), old)
    await raw_store.put_raw(meta_for(new, fetched_at=NOW - timedelta(minutes=10)), new)
    latest = await raw_store.latest_for_url("https://example.com/r.json")
    assert latest is not None and latest.sha256 == hashlib.sha256(new).hexdigest()
    assert await raw_store.latest_for_url("https://example.com/r.json", max_age_s=3600) == latest
    assert await raw_store.latest_for_url("https://example.com/r.json", max_age_s=60) is None
    assert await raw_store.latest_for_url("https://other.example/") is None


async def test_missing_body_is_none(raw_store: RawStore) -> None:
    assert await raw_store.get_raw("0" * 64) is None


async def test_bytes_that_do_not_match_their_metadata_are_refused(raw_store: RawStore) -> None:
    with pytest.raises(ValueError, match="does not match"):
        await raw_store.put_raw(meta_for(b"one"), b"two")


async def test_rows_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    body = b'{"a": 1}'
    async with await Store.open(path) as store:
        await SqliteRawStore(store).put_raw(meta_for(body), body)
    async with await Store.open(path) as store:
        assert await SqliteRawStore(store).get_raw(meta_for(body).sha256) == body


async def test_a_fetch_row_cannot_point_at_a_missing_body(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "db.sqlite3") as store:

        async def orphan(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO fetches (url, final_url, redirects_json, status, content_type,"
                " fetched_at, sha256) VALUES ('u', 'u', '[]', 200, NULL, 't', 'nope')"
            )

        with pytest.raises(sqlite3.IntegrityError):
            await store.write(orphan)


def test_naive_fetch_time_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        meta_for(b"x", fetched_at=datetime(2026, 1, 1))
