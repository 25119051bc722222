"""Per-guild configuration the moderators set, the sources they watch, and the digests posted.

Watch modes per channel: `off` (nothing), `react` (a reaction on a message whose claim is
implausible or suspicious, nothing more), `thread` (a thread with the report). A channel with no
row takes the guild's default mode (`thread` unless changed).

Per server besides: `thread_threshold`, the least severe verdict that opens a thread in `thread`
mode (`suspicious`: only suspicious and implausible claims get one), `below_threshold`, what a
claim below it gets (`react`: the verdict's reaction, `nothing`), and `follow_ups`, whether a reply
in one of the bot's threads is read together with the thread's claim. The defaults are what every
server had before these settings existed.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Literal

import aiosqlite
from pydantic import BaseModel

from bot.store.db import Store
from checks.models import Verdict

__all__ = [
    "BelowThreshold",
    "GuildConfig",
    "WatchMode",
    "add_watched_source",
    "channel_mode",
    "get_guild",
    "guilds_with_digest",
    "last_digest",
    "list_channel_modes",
    "list_watched_sources",
    "new_records_since",
    "remember_records",
    "remove_watched_source",
    "save_digest",
    "set_channel_mode",
    "set_digest",
    "set_policy",
]

WatchMode = Literal["off", "react", "thread"]
BelowThreshold = Literal["react", "nothing"]


class GuildConfig(BaseModel):
    guild_id: int
    digest_channel_id: int | None = None
    digest_hour: int | None = None  # UTC
    default_mode: WatchMode = "thread"
    thread_threshold: Verdict = "consistent"  # every verdict opens a thread
    below_threshold: BelowThreshold = "react"
    follow_ups: bool = True


def _config(row: sqlite3.Row) -> GuildConfig:
    return GuildConfig(guild_id=row["guild_id"], digest_channel_id=row["digest_channel_id"],
                       digest_hour=row["digest_hour"], default_mode=row["default_mode"],
                       thread_threshold=row["thread_threshold"],
                       below_threshold=row["below_threshold"], follow_ups=bool(row["follow_ups"]))


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds")


async def get_guild(store: Store, guild_id: int) -> GuildConfig:
    row = await store.read_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return GuildConfig(guild_id=guild_id) if row is None else _config(row)


async def set_policy(store: Store, guild_id: int, *, default_mode: WatchMode | None = None,
                     thread_threshold: Verdict | None = None,
                     below_threshold: BelowThreshold | None = None,
                     follow_ups: bool | None = None) -> GuildConfig:
    """Change the given server settings (None: unchanged) and return them all."""
    cfg = (await get_guild(store, guild_id)).model_copy(update={k: v for k, v in {
        "default_mode": default_mode, "thread_threshold": thread_threshold,
        "below_threshold": below_threshold, "follow_ups": follow_ups}.items() if v is not None})
    cfg = GuildConfig.model_validate(cfg.model_dump())  # the Literal checks, on the new values

    async def upsert(conn: aiosqlite.Connection) -> None:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, default_mode, thread_threshold,"
            " below_threshold, follow_ups) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE"
            " SET default_mode = excluded.default_mode,"
            " thread_threshold = excluded.thread_threshold,"
            " below_threshold = excluded.below_threshold, follow_ups = excluded.follow_ups",
            (guild_id, cfg.default_mode, cfg.thread_threshold, cfg.below_threshold,
             int(cfg.follow_ups)))

    await store.write(upsert)
    return cfg


async def set_digest(store: Store, guild_id: int, channel_id: int, hour: int) -> None:
    if not 0 <= hour <= 23:
        raise ValueError("the digest hour is 0-23 (UTC)")

    async def upsert(conn: aiosqlite.Connection) -> None:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, digest_channel_id, digest_hour) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET digest_channel_id = excluded.digest_channel_id,"
            " digest_hour = excluded.digest_hour",
            (guild_id, channel_id, hour),
        )

    await store.write(upsert)


async def guilds_with_digest(store: Store, hour: int) -> list[GuildConfig]:
    rows = await store.read(
        "SELECT * FROM guild_settings WHERE digest_hour = ? AND digest_channel_id IS NOT NULL"
        " ORDER BY guild_id", (hour,))
    return [_config(r) for r in rows]


async def set_channel_mode(store: Store, guild_id: int, channel_id: int, mode: WatchMode) -> None:
    async def upsert(conn: aiosqlite.Connection) -> None:
        await conn.execute(
            "INSERT INTO channel_modes (channel_id, guild_id, mode) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET mode = excluded.mode",
            (channel_id, guild_id, mode),
        )

    await store.write(upsert)


async def channel_mode(store: Store, guild_id: int, channel_id: int) -> WatchMode:
    row = await store.read_one("SELECT mode FROM channel_modes WHERE channel_id = ?", (channel_id,))
    if row is not None:
        mode: WatchMode = row["mode"]
        return mode
    return (await get_guild(store, guild_id)).default_mode


async def list_channel_modes(store: Store, guild_id: int) -> dict[int, WatchMode]:
    """The channels given their own watch mode, by channel id."""
    rows = await store.read("SELECT channel_id, mode FROM channel_modes WHERE guild_id = ?"
                            " ORDER BY channel_id", (guild_id,))
    return {r["channel_id"]: r["mode"] for r in rows}


async def add_watched_source(store: Store, guild_id: int, url: str, added_by: int | None,
                             now: datetime) -> bool:
    """Watch `url`; False when it was watched already."""

    async def insert(conn: aiosqlite.Connection) -> bool:
        cursor = await conn.execute(
            "INSERT INTO watched_sources (guild_id, url, added_by, added_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING", (guild_id, url, added_by, _stamp(now)))
        return cursor.rowcount == 1

    return await store.write(insert)


async def remove_watched_source(store: Store, guild_id: int, url: str) -> bool:
    async def delete(conn: aiosqlite.Connection) -> bool:
        cursor = await conn.execute(
            "DELETE FROM watched_sources WHERE guild_id = ? AND url = ?", (guild_id, url))
        return cursor.rowcount == 1

    return await store.write(delete)


async def list_watched_sources(store: Store, guild_id: int) -> list[str]:
    rows = await store.read(
        "SELECT url FROM watched_sources WHERE guild_id = ? ORDER BY added_at, url", (guild_id,))
    return [r["url"] for r in rows]


async def remember_records(store: Store, source_url: str,
                           records: list[tuple[str, Verdict, str]], now: datetime) -> set[str]:
    """Mark these records (key, verdict, headline) of a watched source as seen; return the keys
    not seen before."""

    async def insert(conn: aiosqlite.Connection) -> set[str]:
        new: set[str] = set()
        for key, verdict, headline in records:
            cursor = await conn.execute(
                "INSERT INTO seen_records (source_url, record_key, verdict, headline, first_seen)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (source_url, key, verdict, headline.replace("\x00", ""), _stamp(now)))
            if cursor.rowcount == 1:
                new.add(key)
        return new

    return await store.write(insert)


async def new_records_since(store: Store, since: datetime, until: datetime,
                            guild_id: int | None) -> list[sqlite3.Row]:
    """Implausible/suspicious records first seen in (since, until] in the guild's watched
    sources (every source when guild_id is None), most severe first. `since` is excluded: it is
    the previous digest's time, and the sweep before that digest stamped its records with it,
    so they were in that digest already."""
    sql = ("SELECT * FROM seen_records WHERE first_seen > ? AND first_seen <= ?"
           " AND verdict IN ('implausible', 'suspicious')")
    params: list[object] = [_stamp(since), _stamp(until)]
    if guild_id is not None:
        sql += " AND source_url IN (SELECT url FROM watched_sources WHERE guild_id = ?)"
        params.append(guild_id)
    sql += " ORDER BY verdict = 'suspicious', first_seen, source_url, record_key"
    return await store.read(sql, params)


async def save_digest(store: Store, guild_id: int, day: str, body: str, now: datetime, *,
                      channel_id: int | None = None, message_id: int | None = None) -> bool:
    """Record the digest of `day` (YYYY-MM-DD, UTC); False when that day's was posted already."""

    async def insert(conn: aiosqlite.Connection) -> bool:
        cursor = await conn.execute(
            "INSERT INTO digests (guild_id, day, created_at, channel_id, message_id, body)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (guild_id, day, _stamp(now), channel_id, message_id, body))
        return cursor.rowcount == 1

    return await store.write(insert)


async def last_digest(store: Store, guild_id: int) -> datetime | None:
    row = await store.read_one(
        "SELECT created_at FROM digests WHERE guild_id = ? ORDER BY created_at DESC LIMIT 1",
        (guild_id,))
    return None if row is None else datetime.fromisoformat(row["created_at"])
