"""A Report as a Discord message: one embed coloured by verdict, plus the thread's name.

Layout (the target rendering of the headline case): the headline as title, the setup line as
description, the eight questions as fields (status emoji, number, title; the answer's one
sentence with its figure, and for `unanswerable` what is missing), the extra findings that fired,
the sources, and the caveat in the footer.

Safety: every piece of text that can come from outside (headline and answers quote record fields;
URLs; model and hardware names) goes through `escape_untrusted` (sanitise → Markdown-escape →
defuse mentions). URLs are shown as `<url>` so Discord does not unfurl an attacker's page.
Limits: Discord rejects an embed over its limits (title 256, description 4096, field value 1024,
footer 2048, 25 fields, 6000 in total; discord.py `Embed` docstrings), so every part is cut with
a visible marker and the whole is shrunk until it fits — never rejected.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.escape import escape_untrusted
from bot.render.labels import (
    FINDING_TITLES,
    QUESTION_TITLES,
    claim_line,
    format_figure,
    source_format,
)
from checks.models import Answer, Question, Report
from checks.text import sanitise

__all__ = [
    "EMBED_TOTAL",
    "MARK",
    "STATUS_EMOJI",
    "VERDICT_COLOUR",
    "compact_embed",
    "cut",
    "deciding_questions",
    "report_embed",
    "safe_url",
    "short_headline",
    "thread_name",
]

VERDICT_COLOUR = {"implausible": 0xD7263D, "suspicious": 0xF29E4C, "insufficient": 0x8A8F98,
                  "consistent": 0x2EAD68}
STATUS_EMOJI = {"stop": "🛑", "flag": "⚠️", "ok": "✅", "unanswerable": "❔", "plan": "🧪",
                "n/a": "➖", "error": "❌"}
MARK = " …(truncated)"
EMBED_TOTAL = 5800  # Discord's 6000, with room: it may count UTF-16 units, len() code points
_FIRED = ("stop", "flag", "error")


def cut(text: str, limit: int) -> str:
    """`text` within `limit` characters, ending in MARK when something was cut."""
    if len(text) <= limit:
        return text
    head = text[: max(0, limit - len(MARK))]
    if head.endswith("\\") and not head.endswith("\\\\"):
        head = head[:-1]  # a lone backslash would escape the marker
    return head + MARK


def safe_url(url: str) -> str:
    """`<url>`: clickable, not unfurled; controls and spaces removed, `>` cannot close it."""
    clean = sanitise(url, limit=400).replace(">", "%3E").replace("<", "%3C")
    clean = "".join(clean.split())
    if not clean.lower().startswith(("http://", "https://")):
        return escape_untrusted(clean, limit=400)
    scheme, _, rest = clean.partition("://")
    host, slash, path = rest.partition("/")
    # "@everyone" in a path is still a link, but shown as text it should not read as a mention.
    return f"<{scheme}://{host}{slash}{path.replace('@', '%40')}>"


def _answer_value(a: Answer) -> str:
    text = escape_untrusted(a.summary, limit=900)
    if a.status == "unanswerable" and a.missing:
        text += "\nmissing: " + escape_untrusted(", ".join(a.missing), limit=300)
    return cut(text or "—", 1024)


def _findings_value(report: Report) -> str | None:
    fired = [f for f in report.findings if f.status in _FIRED]
    if not fired:
        return None
    lines = [f"{STATUS_EMOJI.get(f.status, '•')} **{FINDING_TITLES.get(f.key, f.key)}**: "
             + escape_untrusted(f.summary, limit=300) for f in fired]
    return cut("\n".join(lines), 1024)


def _sources_value(report: Report) -> str | None:
    if not report.sources:
        return None
    lines = []
    for s in report.sources:
        fmt = source_format(s)
        what = f" ({escape_untrusted(fmt, limit=60)})" if fmt else ""
        lines.append(safe_url(s.url) + what if "://" in s.url else escape_untrusted(s.url, limit=80) + what)
    return cut("\n".join(lines), 1024)


def _shrink(embed: discord.Embed) -> None:
    """Cut the longest field until the embed is within the total limit."""
    while len(embed) > EMBED_TOTAL:
        longest = max(range(len(embed.fields)), key=lambda i: len(embed.fields[i].value or ""))
        field = embed.fields[longest]
        value = field.value or ""
        excess = len(embed) - EMBED_TOTAL
        limit = max(len(MARK) + 1, len(value) - max(excess, len(value) // 4))
        embed.set_field_at(longest, name=field.name, value=cut(value, limit), inline=False)
        if len(value) <= len(MARK) + 1:  # nothing left to cut in fields: cut the description
            embed.description = cut(embed.description or "", max(len(MARK) + 1, 200))
            break


def report_embed(report: Report, *, note: str | None = None) -> discord.Embed:
    """The report as one embed within Discord's limits. `note` (trusted, ours) goes first in
    the description, e.g. "audited before: <jump link>"."""
    title = cut(escape_untrusted(report.headline, limit=600), 256)
    setup = escape_untrusted(claim_line(report.claim, report), limit=600)
    description = cut((note + "\n" if note else "") + f"*{setup}*", 1024)
    embed = discord.Embed(title=title, description=description,
                          colour=VERDICT_COLOUR.get(report.verdict, 0x555555))
    return _with_fields(embed, report, report.questions, findings=True)


def _with_fields(embed: discord.Embed, report: Report, questions: Sequence[Question], *,
                 findings: bool) -> discord.Embed:
    """The questions' fields, the extra findings (full report only), the sources and the
    caveat, then shrunk to Discord's limits: what the full and the compact embed share."""
    for q in questions:
        name = f"{STATUS_EMOJI.get(q.status, '•')} {q.n} {QUESTION_TITLES.get(q.key, q.key)}"
        embed.add_field(name=cut(name, 256), value=_answer_value(q), inline=False)
    also = _findings_value(report) if findings else None
    if also:
        embed.add_field(name="Also", value=also, inline=False)
    sources = _sources_value(report)
    if sources:
        embed.add_field(name="Sources", value=sources, inline=False)
    embed.set_footer(text=cut(sanitise(report.caveat, limit=2000), 2048))
    _shrink(embed)
    return embed


TITLE_LIMIT = 256  # Discord's embed title limit
MAX_DECIDING = 3
# Which answers decided a verdict, most telling first: a stop or a flag always does; for
# `insufficient` the questions that could not be answered (what is missing), for `consistent`
# the questions that checked out.
_DECIDING_RANK = {"stop": 0, "error": 0, "flag": 1}
_SECOND_RANK = {"insufficient": "unanswerable", "consistent": "ok"}
# Within a rank the figure-bearing questions come first: a ratio to a ceiling decides more than
# a missing link does.
_MEASURED = ("roofline", "acceptance", "power")


def short_headline(report: Report) -> tuple[str, str]:
    """(the title, the rest): the headline's first clause as the title — it names the verdict
    and the deciding figure ("implausible — 900.0 tok/s is 1036.7× the batch-1 ceiling …") —
    and the clauses after it for the description. A first clause too long for a title gives
    way to the verdict and the claimed figure alone, so the title is never cut."""
    head, _, rest = report.headline.partition("; ")
    title = escape_untrusted(head, limit=600)
    if len(title) <= TITLE_LIMIT:
        return title, rest
    figure = report.claim.tok_s
    plain = report.verdict + (f" — {format_figure(figure)} tok/s" if figure is not None else "")
    return escape_untrusted(plain, limit=TITLE_LIMIT), report.headline


def deciding_questions(report: Report) -> list[Question]:
    """The two or three questions that decided the verdict (see `_DECIDING_RANK`)."""
    second = _SECOND_RANK.get(report.verdict)
    ranked = [(_DECIDING_RANK.get(q.status, 2), q.key not in _MEASURED, q.n, q)
              for q in report.questions if q.status in _DECIDING_RANK or q.status == second]
    return [t[-1] for t in sorted(ranked, key=lambda t: t[:3])][:MAX_DECIDING]


def compact_embed(report: Report, *, note: str | None = None) -> discord.Embed:
    """The first reply: the verdict and its headline's first clause as the title (never cut),
    the rest of the headline and the setup line as the description, the deciding questions as
    fields, the sources; the eight questions are one click away (Full report)."""
    title, rest = short_headline(report)
    setup = escape_untrusted(claim_line(report.claim, report), limit=600)
    lines = [note] if note else []
    if rest:
        lines.append(escape_untrusted(rest, limit=900))
    lines.append(f"*{setup}*")
    embed = discord.Embed(title=title, description=cut("\n".join(lines), 2048),
                          colour=VERDICT_COLOUR.get(report.verdict, 0x555555))
    return _with_fields(embed, report, deciding_questions(report), findings=False)


def thread_name(report: Report) -> str:
    """'2103.6 tok/s · RTX 5090 · Qwen3.6-27B' (Discord: 1–100 characters); the card as the
    reference table names it when a row matched."""
    claim = report.claim
    parts = []
    if claim.tok_s is not None:
        parts.append(f"{format_figure(claim.tok_s)} tok/s")
    for value in (report.hardware_name or claim.hardware, claim.model):
        if value:
            parts.append(sanitise(value, limit=60))
    name = " · ".join(parts) or "claim audit"
    return name if len(name) <= 100 else name[:99] + "…"
