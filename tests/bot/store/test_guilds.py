"""Guild settings, watch modes, watched sources, seen records and digests in the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import AuditPlace, Store, latest_for_subject, save_audit, set_answer
from bot.store.guilds import (
    add_watched_source,
    channel_mode,
    get_guild,
    guilds_with_digest,
    list_watched_sources,
    new_records_since,
    remember_records,
    remove_watched_source,
    save_digest,
    set_channel_mode,
    set_digest,
)

NOW = datetime(2026, 1, 1, 9, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "s.sqlite3")
    yield s
    await s.close()


async def test_digest_settings_are_kept_per_guild_and_found_by_hour(store: Store) -> None:
    assert (await get_guild(store, 1)).digest_hour is None
    await set_digest(store, 1, 10, 9)
    await set_digest(store, 2, 20, 17)
    await set_digest(store, 1, 11, 9)  # moved to another channel
    assert [(g.guild_id, g.digest_channel_id) for g in await guilds_with_digest(store, 9)] == [(1, 11)]
    with pytest.raises(ValueError, match="0-23"):
        await set_digest(store, 1, 10, 24)


async def test_a_channel_without_a_mode_takes_the_guilds_default(store: Store) -> None:
    assert await channel_mode(store, 1, 100) == "thread"
    await set_channel_mode(store, 1, 100, "react")
    await set_channel_mode(store, 1, 100, "off")
    assert (await channel_mode(store, 1, 100), await channel_mode(store, 1, 101)) == ("off", "thread")


async def test_watched_sources_are_added_once_and_removed(store: Store) -> None:
    assert await add_watched_source(store, 1, "https://a.example/r", 5, NOW)
    assert not await add_watched_source(store, 1, "https://a.example/r", 6, NOW)
    assert await add_watched_source(store, 2, "https://a.example/r", 6, NOW)
    assert await list_watched_sources(store, 1) == ["https://a.example/r"]
    assert await remove_watched_source(store, 1, "https://a.example/r")
    assert not await remove_watched_source(store, 1, "https://a.example/r")
    assert await list_watched_sources(store, 1) == []


async def test_a_record_is_new_once_and_only_bad_new_records_reach_the_guilds_digest(store: Store) -> None:
    src = "https://a.example/r"
    await add_watched_source(store, 1, src, None, NOW)
    first = await remember_records(store, src, [("r1", "implausible", "h1"), ("r2", "consistent", "h2")], NOW)
    again = await remember_records(store, src, [("r1", "implausible", "h1"), ("r3", "suspicious", "h3")],
                                   NOW + timedelta(hours=1))
    assert (first, again) == ({"r1", "r2"}, {"r3"})
    rows = await new_records_since(store, NOW - timedelta(hours=1), NOW + timedelta(hours=2), 1)
    assert [(r["record_key"], r["verdict"]) for r in rows] == [("r1", "implausible"), ("r3", "suspicious")]
    assert await new_records_since(store, NOW - timedelta(hours=1), NOW + timedelta(hours=2), 2) == []


async def test_one_digest_per_guild_and_day(store: Store) -> None:
    assert await save_digest(store, 1, "2026-01-01", "body", NOW, channel_id=3)
    assert not await save_digest(store, 1, "2026-01-01", "again", NOW)
    assert await save_digest(store, 2, "2026-01-01", "body", NOW)


async def test_an_audit_keeps_where_it_was_asked_and_answered(store: Store) -> None:
    place = AuditPlace(subject="https://a.example/p", guild_id=1, channel_id=2, message_id=3, asked_by=4)
    audit_id = await save_audit(store, "message:3", "{}", "implausible", "h", created_at=NOW,
                                place=place, points=[(24, 1074.0), (56, 2103.6)])
    await set_answer(store, audit_id, thread_id=9)
    row = await latest_for_subject(store, "https://a.example/p", guild_id=1)
    assert row is not None and (row.asked_by, row.thread_id, row.points) == (4, 9, [(24, 1074.0), (56, 2103.6)])
    assert row.jump_url() == "https://discord.com/channels/1/9"
    assert await latest_for_subject(store, "https://a.example/p", guild_id=2) is None
