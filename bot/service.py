"""Audits for the bot: one audit per subject at a time, stored with where it was asked.

A subject is what was audited: the first URL of a message, or `audit_key(text)` for pasted
text. Concurrent requests for one subject wait on one lock, so a link dropped in several places
at once is fetched and audited once; a stored audit younger than the cache lifetime is reused;
an older one is redone, and when the verdict changed the caller is told, with the earlier row, so
it can post the update where the first report went.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from bot.options import PipelineOptions
from bot.pipeline import evidence_async
from bot.render.chart import chart_points
from bot.store.audits import (
    AuditPlace,
    AuditRecord,
    audit_key,
    get_audit,
    latest_for_subject,
    save_audit,
)
from bot.store.db import Store
from checks.models import Report
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.fetch import SafeFetcher

__all__ = ["AuditOutcome", "Auditor", "subject_of"]


class AuditOutcome(BaseModel):
    model_config = ConfigDict(frozen=True)

    record: AuditRecord
    report: Report
    reused: bool  # an earlier stored audit, not a new one
    changed_from: AuditRecord | None = None  # the earlier audit, when its verdict differs


def subject_of(urls: Sequence[str], docs: Sequence[RawDocument] = ()) -> str:
    """What is being audited: a lone link is its URL (so a link dropped again is recognised);
    anything with text or a file in it is the hash of all of it."""
    if urls and not docs:
        return urls[0]
    return audit_key("inputs", *urls, *(d.data.decode("utf-8", "replace") for d in docs))


class Auditor:
    def __init__(self, store: Store, fetcher: SafeFetcher | None, ref: Reference,
                 opts: PipelineOptions, *, lifetime_s: float,
                 clock: Callable[[], datetime]) -> None:
        self.store = store
        self.fetcher = fetcher
        self.ref = ref
        self.opts = opts
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

    async def fresh(self, subject: str, guild_id: int | None) -> AuditRecord | None:
        """The stored audit of `subject` in this guild, if younger than the cache lifetime."""
        prev = await latest_for_subject(self.store, subject, guild_id=guild_id)
        if prev is None or (self.clock() - prev.created_at).total_seconds() > self.lifetime_s:
            return None
        return prev

    async def audit(self, key: str, docs: Sequence[RawDocument], urls: Sequence[str],
                    place: AuditPlace) -> AuditOutcome:
        """Audit (or reuse) and store under `key` (the asking message or interaction)."""
        subject = place.subject or subject_of(urls, docs)
        async with self._single(subject):
            done = await get_audit(self.store, key)  # a retry of the same request
            if done is not None:
                return AuditOutcome(record=done, report=Report.model_validate_json(done.report_json),
                                    reused=True)
            prev = await latest_for_subject(self.store, subject, guild_id=place.guild_id)
            if prev is not None and (self.clock() - prev.created_at).total_seconds() <= self.lifetime_s:
                return AuditOutcome(record=prev, report=Report.model_validate_json(prev.report_json),
                                    reused=True)
            ev = await evidence_async(docs, urls, self.ref, self.opts, fetcher=self.fetcher)
            report = audit(ev, self.ref)
            self.audits_run += 1
            now, report_json = self.clock(), report.to_json()
            at = place.model_copy(update={"subject": subject})
            points = chart_points(ev.claim, ev.siblings)
            row_id = await save_audit(
                self.store, key, report_json, report.verdict, report.headline,
                source_url=urls[0] if urls else None, created_at=now, place=at, points=points)
            record = AuditRecord(id=row_id, key=key, created_at=now, verdict=report.verdict,
                                 headline=report.headline, source_url=urls[0] if urls else None,
                                 report_json=report_json, points=points,
                                 **at.model_dump())
            changed = prev if prev is not None and prev.verdict != report.verdict else None
            return AuditOutcome(record=record, report=report, reused=False, changed_from=changed)
