"""The moderators' daily digest: the last 24 h of a guild's audits and what the watched sources
added, built from the store alone (so `claimcheck digest` prints what the bot posts).

Order: audits by severity (implausible, suspicious, insufficient, consistent), newest first
within a verdict, each with its jump link; counts by verdict; the claims that need more
information (`insufficient`); new implausible/suspicious records from the watched leaderboards
(`sweep_new_records`, a sweep since the last digest: a record already seen is not new).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot.store.audits import AuditRecord, list_audits
from bot.store.db import Store
from bot.store.guilds import new_records_since, remember_records
from checks.models import Verdict

if TYPE_CHECKING:
    from bot.core import App

__all__ = ["SEVERITY", "Digest", "NewRecord", "build_digest", "digest_text", "disputes_section",
           "sweep_new_records"]

SEVERITY: dict[str, int] = {"implausible": 0, "suspicious": 1, "insufficient": 2, "consistent": 3}
MAX_LINES = 25  # per section: a digest is read in one glance


class NewRecord(BaseModel):
    source: str
    key: str
    verdict: Verdict
    headline: str


class Digest(BaseModel):
    guild_id: int | None
    since: datetime
    until: datetime
    ranked: list[AuditRecord]
    counts: dict[str, int]
    needs_info: list[AuditRecord]
    new_records: list[NewRecord] = []


def _record_key(row: object) -> str:
    rid = getattr(row, "record_id", None)
    if rid:
        return str(rid)
    parts = (getattr(row, name, None) for name in ("submitter", "hardware", "model", "tok_s"))
    return "|".join("" if p is None else str(p) for p in parts)


async def sweep_new_records(app: App, sources: Sequence[str],
                            now: datetime) -> list[NewRecord]:
    """Sweep each watched source (`App.sweep_board`: fetched with the app's own fetcher, audited
    in a reading worker; no second loop, store or session) and keep the implausible/suspicious
    records not seen before. A source that cannot be read is skipped; the next digest tries
    again."""
    store = await app.store()
    found: list[NewRecord] = []
    for source in sources:
        try:
            result = await app.sweep_board(source)
        except Exception:  # one broken board must not cost the guild its digest
            continue
        rows = [(r, _record_key(r)) for r in result.ranked]
        new = await remember_records(store, source, [(k, r.verdict, r.headline) for r, k in rows],
                                     now)
        found += [NewRecord(source=source, key=k, verdict=r.verdict, headline=r.headline)
                  for r, k in rows if k in new and r.verdict in ("implausible", "suspicious")]
    return found


async def build_digest(store: Store, guild_id: int | None, now: datetime) -> Digest:
    """The digest of the 24 h before `now`, from the store alone (the bot sweeps the watched
    sources first with `sweep_new_records`, so their new records are in the store too)."""
    since = now - timedelta(hours=24)
    new_records = [NewRecord(source=r["source_url"], key=r["record_key"], verdict=r["verdict"],
                             headline=r["headline"])
                   for r in await new_records_since(store, since, now, guild_id)]
    audits = [a for a in await list_audits(store, since, guild_id=guild_id) if a.created_at <= now]
    ranked = sorted(audits, key=lambda a: (SEVERITY[a.verdict], -a.created_at.timestamp(), a.id))
    counts = {v: sum(1 for a in audits if a.verdict == v) for v in SEVERITY}
    return Digest(guild_id=guild_id, since=since, until=now, ranked=ranked, counts=counts,
                  needs_info=[a for a in ranked if a.verdict == "insufficient"],
                  new_records=new_records)


def _line(a: AuditRecord) -> str:
    from bot.render.escape import escape_untrusted

    where = a.jump_url()
    head = escape_untrusted(a.headline, limit=160)
    return f"- **{a.verdict}** {head}" + (f" ({where})" if where else "")


def digest_text(d: Digest) -> str:
    """Markdown (Discord and the terminal): untrusted headlines escaped, links as jump URLs."""
    from bot.render.escape import escape_untrusted

    counts = ", ".join(f"{d.counts[v]} {v}" for v in SEVERITY)
    out = [f"**claimcheck digest** {d.since:%Y-%m-%d %H:%M} – {d.until:%Y-%m-%d %H:%M} UTC",
           f"{len(d.ranked)} audits: {counts}", ""]
    if d.ranked:
        out.append("**By severity**")
        out += [_line(a) for a in d.ranked[:MAX_LINES]]
        if len(d.ranked) > MAX_LINES:
            out.append(f"- … and {len(d.ranked) - MAX_LINES} more")
    else:
        out.append("No audits in the last 24 h.")
    if d.needs_info:
        out += ["", "**Need more information**"]
        out += [_line(a) for a in d.needs_info[:MAX_LINES]]
    if d.new_records:
        out += ["", "**New in watched sources**"]
        out += [f"- **{r.verdict}** {escape_untrusted(r.headline, limit=160)} "
                f"({escape_untrusted(r.key, limit=60)})" for r in d.new_records[:MAX_LINES]]
    return "\n".join(out) + "\n"


# ---- disputes (w2-thread: bot/store/disputes.py; the digest's layout calls this) ---------------

async def disputes_section(store: Store, guild_id: int, since: datetime) -> list[str]:
    """The digest's disputes section as lines (empty when there is nothing to say): a header
    with the count open, then each open dispute and each one resolved since `since` — who
    raised it, why, the state, and a masked link to the report. Reasons are members' words:
    escaped and folded onto one line."""
    from bot.render.escape import escape_untrusted
    from bot.store.disputes import list_disputes

    found = await list_disputes(store, guild_id, resolved_since=since)
    if not found:
        return []
    open_count = sum(d.state == "open" for d in found)
    lines = [f"**Disputes** ({open_count} open)"]
    for d in sorted(found, key=lambda d: (d.state != "open", d.created_at))[:MAX_LINES]:
        reason = escape_untrusted(d.reason, limit=160, single_line=True)
        where = f" — [report]({d.jump_url()})" if d.jump_url() else ""
        state = "open" if d.state == "open" else "resolved: " + escape_untrusted(
            d.resolution or "", limit=120, single_line=True)
        lines.append(f"- #{d.id} **{state}** — <@{d.raised_by}>: {reason}{where}")
    if len(found) > MAX_LINES:
        lines.append(f"- … and {len(found) - MAX_LINES} more (`/disputes list`)")
    return lines
