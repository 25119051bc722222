"""Which bot reply answers which message: the map edits, deletes and the buttons go through.

One row per report the bot posted: the member's message (or the interaction) it answers, where
the report is (its message, its thread), the audit it shows, and the request that produced it
(the texts, files and links read, the facts stated) so a button or an edit re-audits the same
thing after a restart — nothing of it lives only in memory. `state` is `live`, or `deleted` /
`archived` once the member's message was deleted and the reply went with it: the row (and the
audit it shows) is kept, only its state changes. `message_id` is the member's message a report
audits (the watched message, or the target of "Audit this message"; None for `/audit`):
`replies_for_message` finds every report of a message, `live_replies_since` the live reports
whose message a start checks (a delete while the bot was offline sends no event).
"""

from __future__ import annotations

import base64
import sqlite3
from typing import Literal

import aiosqlite
from pydantic import BaseModel, ConfigDict

from bot.store.db import Store

__all__ = ["Reply", "ReplyState", "StoredDoc", "StoredRequest", "live_replies_since",
           "replies_for_message", "reply_for_message", "reply_for_report", "save_reply",
           "set_reply_audit", "set_reply_state"]

ReplyState = Literal["live", "deleted", "archived"]


class StoredDoc(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    data_b64: str


class StoredRequest(BaseModel):
    """A `bot.core.Request` as stored: documents (bytes, base64), links, the facts as given."""

    model_config = ConfigDict(frozen=True)

    docs: tuple[StoredDoc, ...] = ()
    urls: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()  # `key=value` as the member gave them (bot/facts.py)

    @classmethod
    def of(cls, docs: list[tuple[str, bytes]], urls: tuple[str, ...],
           facts: tuple[str, ...]) -> StoredRequest:
        return cls(docs=tuple(StoredDoc(source=s, data_b64=base64.b64encode(d).decode("ascii"))
                              for s, d in docs), urls=urls, facts=facts)

    def documents(self) -> list[tuple[str, bytes]]:
        return [(d.source, base64.b64decode(d.data_b64)) for d in self.docs]


class Reply(BaseModel):
    model_config = ConfigDict(frozen=True)

    source_id: int  # the member's message, or the interaction for /audit and the context menu
    guild_id: int | None
    channel_id: int  # where the source message is
    reply_channel_id: int  # where the report is: the thread, or the channel
    reply_message_id: int
    thread_id: int | None
    audit_id: int
    asked_by: int | None
    request: StoredRequest
    state: ReplyState
    edits: int  # re-audits after the member edited the message
    message_id: int | None = None  # the member's message audited (None: /audit, older rows)


def _reply(row: sqlite3.Row) -> Reply:
    return Reply(source_id=row["source_id"], guild_id=row["guild_id"],
                 channel_id=row["channel_id"], reply_channel_id=row["reply_channel_id"],
                 reply_message_id=row["reply_message_id"], thread_id=row["thread_id"],
                 audit_id=row["audit_id"], asked_by=row["asked_by"],
                 request=StoredRequest.model_validate_json(row["request_json"]),
                 state=row["state"], edits=row["edits"], message_id=row["message_id"])


async def save_reply(store: Store, reply: Reply, *, answered: bool = True) -> None:
    """Record a posted report; a second save for the same source keeps the first row. With
    `answered`, the audit's row records where its report went too, in the same transaction
    (one write per report: a burst of reports queues on the one write path)."""

    async def insert(conn: aiosqlite.Connection) -> None:
        if answered:
            await conn.execute(
                "UPDATE audits SET message_id = ?, thread_id = coalesce(?, thread_id)"
                " WHERE id = ?", (reply.reply_message_id, reply.thread_id, reply.audit_id))
        await conn.execute(
            "INSERT INTO replies (source_id, guild_id, channel_id, reply_channel_id,"
            " reply_message_id, thread_id, audit_id, asked_by, request_json, state, edits,"
            " message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (source_id) DO NOTHING",
            (reply.source_id, reply.guild_id, reply.channel_id, reply.reply_channel_id,
             reply.reply_message_id, reply.thread_id, reply.audit_id, reply.asked_by,
             reply.request.model_dump_json(), reply.state, reply.edits, reply.message_id))

    await store.write(insert)


async def reply_for_message(store: Store, source_id: int) -> Reply | None:
    row = await store.read_one("SELECT * FROM replies WHERE source_id = ?", (source_id,))
    return None if row is None else _reply(row)


async def replies_for_message(store: Store, message_id: int) -> list[Reply]:
    """Every report of a member's message: its watched report and the "Audit this message"
    reports of it, oldest first."""
    rows = await store.read(
        "SELECT * FROM replies WHERE source_id = ? OR message_id = ? ORDER BY source_id",
        (message_id, message_id))
    return [_reply(row) for row in rows]


async def live_replies_since(store: Store, min_message_id: int, limit: int) -> list[Reply]:
    """The live reports of members' messages posted since a snowflake, newest first, at most
    `limit`."""
    rows = await store.read(
        "SELECT * FROM replies WHERE state = 'live' AND message_id >= ?"
        " ORDER BY message_id DESC LIMIT ?", (min_message_id, limit))
    return [_reply(row) for row in rows]


async def reply_for_report(store: Store, reply_message_id: int) -> Reply | None:
    """The row of the report message a button was clicked on."""
    row = await store.read_one("SELECT * FROM replies WHERE reply_message_id = ?",
                               (reply_message_id,))
    return None if row is None else _reply(row)


async def set_reply_audit(store: Store, source_id: int, audit_id: int, *,
                          request: StoredRequest | None = None, edited: bool = False) -> None:
    """The report now shows another audit (a re-run, details added, the message edited)."""

    async def update(conn: aiosqlite.Connection) -> None:
        await conn.execute(
            "UPDATE replies SET audit_id = ?, request_json = coalesce(?, request_json),"
            " edits = edits + ? WHERE source_id = ?",
            (audit_id, request.model_dump_json() if request else None, int(edited), source_id))

    await store.write(update)


async def set_reply_state(store: Store, source_id: int, state: ReplyState) -> None:
    async def update(conn: aiosqlite.Connection) -> None:
        await conn.execute("UPDATE replies SET state = ? WHERE source_id = ?", (state, source_id))

    await store.write(update)
