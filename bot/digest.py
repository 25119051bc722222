"""The moderators' daily digest: the last 24 h of a guild's audits and what the watched sources
added, built from the store alone (so `claimcheck digest` prints what the bot posts).

Order: the counts by verdict first, then one section per verdict that occurred, most severe
first (implausible, suspicious, need more information, consistent), newest first within a
section; then the watched sources' implausible/suspicious records new since the last digest
(`sweep_new_records` sweeps before each digest; a record already seen, or already in the last
digest, is not new), then the disputes (`disputes_section`). Each audited subject appears once,
on its newest audit, as a masked link `[headline](jump)` to where its report is.

`digest_pages(d)` splits the digest into pages within Discord's embed description limit
(4096; `PAGE_LIMIT` leaves room) at line boundaries: every line is kept, a section that runs
over a page goes on under its heading marked "(continued)", and nothing is ever cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pydantic import BaseModel

from bot.guild_policy import SEVERITY
from bot.store.audits import AuditRecord, list_audits
from bot.store.db import Store
from bot.store.guilds import last_digest, new_records_since, remember_records
from checks.models import Verdict

if TYPE_CHECKING:
    from bot.core import App

__all__ = ["PAGE_LIMIT", "SEVERITY", "Digest", "NewRecord", "build_digest", "digest_lines",
           "digest_pages", "digest_text", "disputes_section", "sweep_new_records"]

PAGE_LIMIT = 4000  # an embed description holds 4096 characters; len() counts code points
HEADLINE_LIMIT = 160  # one line per item: the headline's figure and verdict reason fit
SECTION_TITLES: dict[str, str] = {"implausible": "🛑 Implausible", "suspicious": "⚠️ Suspicious",
                                  "insufficient": "❔ Need more information",
                                  "consistent": "✅ Consistent"}


class NewRecord(BaseModel):
    source: str
    key: str
    verdict: Verdict
    headline: str


class Digest(BaseModel):
    guild_id: int | None
    since: datetime
    until: datetime
    ranked: list[AuditRecord]  # each subject once (its newest audit), most severe first
    counts: dict[str, int]
    records_since: datetime | None = None  # the last digest: watched-source records after it
    new_records: list[NewRecord] = []
    disputes: list[str] = []  # Markdown lines from `disputes_section`, rendered as given

    @property
    def needs_info(self) -> list[AuditRecord]:
        return [a for a in self.ranked if a.verdict == "insufficient"]


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


async def disputes_section(store: Store, guild_id: int | None, *, since: datetime | None,
                           now: datetime) -> list[str]:
    """The disputes section's lines: each open dispute and each one resolved since `since` (the
    last digest) — its number, state, who raised it and why, and a masked link to the report.
    Reasons are members' words: escaped and folded onto one line (mentions never ping: the bot
    sends with no allowed mentions)."""
    from bot.render.escape import escape_untrusted
    from bot.store.disputes import list_disputes

    if guild_id is None:
        return []
    found = await list_disputes(store, guild_id, resolved_since=since)
    lines = []
    for d in sorted(found, key=lambda d: (d.state != "open", d.created_at)):
        reason = escape_untrusted(d.reason, limit=160, single_line=True)
        where = f" — [report]({d.jump_url()})" if d.jump_url() else ""
        state = "open" if d.state == "open" else "resolved: " + escape_untrusted(
            d.resolution or "", limit=120, single_line=True)
        lines.append(f"- #{d.id} **{state}** — <@{d.raised_by}>: {reason}{where}")
    return lines


def _one_per_subject(audits: Sequence[AuditRecord]) -> list[AuditRecord]:
    """The newest audit of each subject (a claim re-audited, or a link dropped in several
    channels, is one line, with its latest verdict)."""
    newest: dict[str, AuditRecord] = {}
    for a in audits:
        key = a.subject or a.key
        if key not in newest or (a.created_at, a.id) > (newest[key].created_at, newest[key].id):
            newest[key] = a
    return list(newest.values())


async def build_digest(store: Store, guild_id: int | None, now: datetime) -> Digest:
    """The digest of the 24 h before `now`, from the store alone (the bot sweeps the watched
    sources first with `sweep_new_records`, so their new records are in the store too). A
    watched-source record counts as new only after the guild's last digest."""
    since = now - timedelta(hours=24)
    last = await last_digest(store, guild_id) if guild_id is not None else None
    records_since = last if last is not None and last < now else since
    new_records = [NewRecord(source=r["source_url"], key=r["record_key"], verdict=r["verdict"],
                             headline=r["headline"])
                   for r in await new_records_since(store, records_since, now, guild_id)]
    audits = [a for a in await list_audits(store, since, guild_id=guild_id) if a.created_at <= now]
    audits = _one_per_subject(audits)
    ranked = sorted(audits, key=lambda a: (SEVERITY[a.verdict], -a.created_at.timestamp(), a.id))
    counts = {v: sum(1 for a in audits if a.verdict == v) for v in SEVERITY}
    disputes = await disputes_section(store, guild_id, since=last, now=now)
    return Digest(guild_id=guild_id, since=since, until=now, ranked=ranked, counts=counts,
                  records_since=records_since if last is not None else None,
                  new_records=new_records, disputes=disputes)


def _headline(verdict: str, headline: str) -> str:
    """The headline without its leading verdict word (the section already says it)."""
    for sep in (" — ", ": ", " - "):
        if headline.startswith(verdict + sep):
            return headline[len(verdict) + len(sep):]
    return headline


def _line(a: AuditRecord) -> str:
    from bot.render.escape import escape_untrusted

    head = escape_untrusted(_headline(a.verdict, a.headline), limit=HEADLINE_LIMIT,
                            single_line=True)
    where = a.jump_url()  # ours: a discord.com link built from ids
    return f"- [{head}]({where})" if where else f"- {head}"


def _record_line(r: NewRecord) -> str:
    from bot.render.escape import escape_untrusted

    head = escape_untrusted(_headline(r.verdict, r.headline), limit=HEADLINE_LIMIT,
                            single_line=True)
    host = urlsplit(r.source).netloc or r.source  # the board's host: which source, briefly
    return (f"- **{r.verdict}** {head} · {escape_untrusted(r.key, limit=60, single_line=True)}"
            f" · {escape_untrusted(host, limit=80, single_line=True)}")


def _sections(d: Digest) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for verdict, title in SECTION_TITLES.items():
        items = [a for a in d.ranked if a.verdict == verdict]
        if items:
            out.append((f"**{title}** ({len(items)})", [_line(a) for a in items]))
    after = "the last digest" if d.records_since is not None else "the last 24 h"
    out.append((f"**New in watched sources** ({len(d.new_records)})",
                [_record_line(r) for r in d.new_records] or [f"- nothing new since {after}"]))
    out.append((f"**Disputes** ({len(d.disputes)})", list(d.disputes) or ["- none open"]))
    return out


def _heading(d: Digest) -> list[str]:
    counts = ", ".join(f"{d.counts[v]} {v}" for v in SEVERITY)
    first = [f"**claimcheck digest** {d.since:%Y-%m-%d %H:%M} – {d.until:%Y-%m-%d %H:%M} UTC",
             f"{len(d.ranked)} audits: {counts}"]
    return first if d.ranked else [*first, "No audits in the last 24 h."]


def digest_lines(d: Digest) -> list[str]:
    """Every line of the digest, in order (Markdown; untrusted text escaped)."""
    out = _heading(d)
    for title, lines in _sections(d):
        out += ["", title, *lines]
    return out


def digest_text(d: Digest) -> str:
    """The whole digest as one Markdown text (the terminal, and the store's copy)."""
    return "\n".join(digest_lines(d)) + "\n"


def digest_pages(d: Digest, limit: int = PAGE_LIMIT) -> list[str]:
    """The digest in pages of at most `limit` characters, split between lines: the heading
    and counts open the first page, a section's title never ends a page, and a section that
    goes on over a page break repeats its title with "(continued)"."""
    pages: list[list[str]] = [list(_heading(d))]

    def size(lines: list[str]) -> int:
        return sum(len(x) + 1 for x in lines)

    for title, lines in _sections(d):
        page = pages[-1]
        if size(page) + len(title) + len(lines[0]) + 4 > limit:
            pages.append([])
            page = pages[-1]
        page += ["", title] if page else [title]
        for line in lines:
            if size(page) + len(line) + 1 > limit:
                pages.append([f"{title} (continued)"])
                page = pages[-1]
            page.append(line)
    return ["\n".join(p) for p in pages]
