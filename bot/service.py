"""Stored audits for the bot: one audit per subject at a time, stored with where it was asked.

A subject is what was audited: the first URL of a message, or the hash of pasted text
(`Request.subject`). Concurrent requests for one subject wait on one lock, so a link dropped in
several places at once is fetched and audited once; a stored audit younger than the cache
lifetime is reused; an older one is redone, and when the verdict changed the caller is told, with
the earlier row, so it can post the update where the first report went. The audit itself is the
app's (`App.audit`): this adds only the store around it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from bot.store.audits import AuditPlace, AuditRecord
from checks.models import Report

if TYPE_CHECKING:
    from bot.core import App, Request

__all__ = ["AuditOutcome", "Auditor"]


class AuditOutcome(BaseModel):
    model_config = ConfigDict(frozen=True)

    record: AuditRecord
    report: Report
    reused: bool  # an earlier stored audit, not a new one
    changed_from: AuditRecord | None = None  # the earlier audit, when its verdict differs


class Auditor:
    def __init__(self, app: App, *, lifetime_s: float, clock: Callable[[], datetime]) -> None:
        self.app = app
        self.lifetime_s = lifetime_s
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}
        self.audits_run = 0  # audits computed (not reused) by this process

    @asynccontextmanager
    async def _single(self, subject: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(subject, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._locks.get(subject) is lock:
                del self._locks[subject]

    async def audit(self, key: str, request: Request, place: AuditPlace, *,
                    redo: bool = False) -> AuditOutcome:
        """Audit (or reuse) and store under `key` (the asking message or interaction). With
        `redo`, a stored audit of the subject is not reused (a re-audit), though a retry of the
        same `key` still is."""
        subject = place.subject or request.subject()
        store = await self.app.audits()
        async with self._single(subject):
            done = await store.get_audit(key)  # a retry of the same request
            if done is not None:
                return AuditOutcome(record=done, report=Report.model_validate_json(done.report_json),
                                    reused=True)
            prev = await store.latest_for_subject(subject, guild_id=place.guild_id)
            fresh = prev is not None and \
                (self.clock() - prev.created_at).total_seconds() <= self.lifetime_s
            if prev is not None and fresh and not redo:
                return AuditOutcome(record=prev, report=Report.model_validate_json(prev.report_json),
                                    reused=True)
            result = await self.app.audit(request)
            report = result.report
            self.audits_run += 1
            now, report_json = self.clock(), report.to_json()
            at = place.model_copy(update={"subject": subject})
            source_url = request.urls[0] if request.urls else None
            row_id = await store.save_audit(
                key, report_json, report.verdict, report.headline,
                source_url=source_url, created_at=now, place=at, points=result.points)
            record = AuditRecord(id=row_id, key=key, created_at=now, verdict=report.verdict,
                                 headline=report.headline, source_url=source_url,
                                 report_json=report_json, points=result.points,
                                 **at.model_dump())
            changed = prev if prev is not None and prev.verdict != report.verdict else None
            return AuditOutcome(record=record, report=report, reused=False, changed_from=changed)
