"""The store as the app core uses it: `bot.core.AuditStore` over the SQLite `Store`.

The app reaches finished audits and the fetch archive only through these methods, so a store
several hosts share (a server database; SQLite's WAL is for one host) is one class like this
one, not a change to the app.
"""

from __future__ import annotations

from datetime import datetime

from bot.store.audits import AuditPlace, AuditRecord, get_audit, latest_for_subject, save_audit
from bot.store.db import Store
from bot.store.fetch_cache import SqliteRawStore
from checks.models import Verdict
from extractors.storage import RawStore

__all__ = ["SqliteAudits"]


class SqliteAudits:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get_audit(self, key: str) -> AuditRecord | None:
        return await get_audit(self.store, key)

    async def latest_for_subject(self, subject: str, *, guild_id: int | None) -> AuditRecord | None:
        return await latest_for_subject(self.store, subject, guild_id=guild_id)

    async def save_audit(self, key: str, report_json: str, verdict: Verdict, headline: str, *,
                         source_url: str | None, created_at: datetime, place: AuditPlace,
                         points: list[tuple[int, float]]) -> int:
        return await save_audit(self.store, key, report_json, verdict, headline,
                                source_url=source_url, created_at=created_at, place=place,
                                points=points)

    def raw_bodies(self) -> RawStore:
        return SqliteRawStore(self.store)
