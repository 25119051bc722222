"""Disputes: a member says a report is a false alarm, with why; a moderator resolves it.

One row per dispute (who, why, when, on which audit and report), `open` until a moderator
resolves it (who, when, a note). The digest lists the open ones and the ones resolved since the
last digest (`bot.digest.disputes_section`).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Literal

import aiosqlite
from pydantic import BaseModel, ConfigDict

from bot.store.db import Store

__all__ = ["Dispute", "DisputeState", "add_dispute", "get_dispute", "list_disputes",
           "resolve_dispute"]

DisputeState = Literal["open", "resolved"]
MAX_REASON = 1000


class Dispute(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int | None
    audit_id: int
    reply_channel_id: int | None
    reply_message_id: int | None
    raised_by: int
    reason: str
    created_at: datetime
    state: DisputeState
    resolved_by: int | None = None
    resolved_at: datetime | None = None
    resolution: str | None = None

    def jump_url(self) -> str | None:
        if self.guild_id is None or self.reply_channel_id is None or self.reply_message_id is None:
            return None
        return (f"https://discord.com/channels/{self.guild_id}/{self.reply_channel_id}/"
                f"{self.reply_message_id}")


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def _dispute(row: sqlite3.Row) -> Dispute:
    return Dispute(id=row["id"], guild_id=row["guild_id"], audit_id=row["audit_id"],
                   reply_channel_id=row["reply_channel_id"],
                   reply_message_id=row["reply_message_id"], raised_by=row["raised_by"],
                   reason=row["reason"], created_at=datetime.fromisoformat(row["created_at"]),
                   state=row["state"], resolved_by=row["resolved_by"],
                   resolved_at=(datetime.fromisoformat(row["resolved_at"])
                                if row["resolved_at"] else None),
                   resolution=row["resolution"])


async def add_dispute(store: Store, *, guild_id: int | None, audit_id: int,
                      reply_channel_id: int | None, reply_message_id: int | None,
                      raised_by: int, reason: str, now: datetime) -> int:
    async def insert(conn: aiosqlite.Connection) -> int:
        cursor = await conn.execute(
            "INSERT INTO disputes (guild_id, audit_id, reply_channel_id, reply_message_id,"
            " raised_by, reason, created_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, 'open')",
            (guild_id, audit_id, reply_channel_id, reply_message_id, raised_by,
             reason.replace("\x00", "")[:MAX_REASON], _stamp(now)))
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    return await store.write(insert)


async def get_dispute(store: Store, dispute_id: int) -> Dispute | None:
    row = await store.read_one("SELECT * FROM disputes WHERE id = ?", (dispute_id,))
    return None if row is None else _dispute(row)


async def list_disputes(store: Store, guild_id: int, *, state: DisputeState | None = None,
                        resolved_since: datetime | None = None) -> list[Dispute]:
    """A guild's disputes, oldest first: all, or those in `state`; with `resolved_since`, the
    open ones and those resolved at or after it."""
    sql, params = "SELECT * FROM disputes WHERE guild_id = ?", list[object]([guild_id])
    if state is not None:
        sql += " AND state = ?"
        params.append(state)
    if resolved_since is not None:
        sql += " AND (state = 'open' OR resolved_at >= ?)"
        params.append(_stamp(resolved_since))
    return [_dispute(r) for r in await store.read(sql + " ORDER BY created_at, id", params)]


async def resolve_dispute(store: Store, dispute_id: int, *, guild_id: int, by: int,
                          note: str, now: datetime) -> bool:
    """Resolve an open dispute of this guild; False when there is none by that id."""

    async def update(conn: aiosqlite.Connection) -> bool:
        cursor = await conn.execute(
            "UPDATE disputes SET state = 'resolved', resolved_by = ?, resolved_at = ?,"
            " resolution = ? WHERE id = ? AND guild_id = ? AND state = 'open'",
            (by, _stamp(now), note.replace("\x00", "")[:MAX_REASON], dispute_id, guild_id))
        return cursor.rowcount == 1

    return await store.write(update)
