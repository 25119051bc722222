"""Watching chat: a message with a link or a pasted speed claim gets audited.

`prefilter(content)` decides first and is a pure function: small talk (no link, no number
followed by a speed unit) costs one pass over the text and nothing else — no fetch, no parse.
Bot and system messages are ignored. A link whose page holds no speed claim gets no reply (no
noise). With a claim, in `thread` mode a thread is opened on the message, named from the claim
("2103.6 tok/s · RTX 5090 · Qwen3.6-27B"), and the report posted inside; when threads are not
allowed (403) the report is a plain reply. In `react` mode an implausible or suspicious claim
gets a reaction and nothing else. Per-member and per-channel rate limits (discord.py
`CooldownMapping`, on the bot's clock) hold before any work. A subject audited before in this
guild (within the cache lifetime) is not redone: the reply points to the earlier thread. When a
re-audit changes the verdict, the update is posted in the original thread too.

Every door reads the same way (issue 15 part 1): the pre-filter is the text reader's own speed
grammar (`extractors.text.units.states_speed`) or a pasted tool output (`extractors.pasted`:
llama-bench Markdown/CSV, `vllm bench serve` printouts, in or out of code blocks); several
claims in one message are each audited (up to `MAX_CLAIMS`) and shown in one reply; quoted
lines (`> …`) are the claim being questioned, the member's own words around them are not; a
link that cannot be read is noted and the claim beside it is still audited. Files dropped in
chat are read as `/audit` reads them (the attachment cap, in the app's reading workers; images
through OCR there, or a one-line note when the OCR extra is not installed). A DM gets the audit
as a plain reply.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.common import claimbot, report_message
from bot.cogs.feedback import guarded, post_report
from bot.core import Request
from bot.guild_policy import (
    FOLLOW_UP_NOTE,
    REACTION,
    GuildConfigs,
    RateHints,
    SharedReads,
    answer_kind,
    follow_up_request,
    rate_hint_text,
)
from bot.render.discord import report_embed
from bot.service import AuditOutcome
from bot.store.audits import AuditPlace, set_answer
from bot.store.guilds import WatchMode, channel_mode
from extractors.document import RawDocument
from extractors.errors import ExtractError
from extractors.inputs import split_links
from extractors.pasted import is_tool_output, pasted_documents, strip_fences
from extractors.text.units import states_speed

__all__ = ["MAX_CLAIMS", "MAX_FILES", "OCR_HINT", "Candidate", "WatchCog", "prefilter", "setup", "split_claims",
           "wanted_attachment"]

log = logging.getLogger("claimcheck.bot")

_WATCHED_TYPES = (discord.MessageType.default, discord.MessageType.reply)
_SEVERITY = {"implausible": 0, "suspicious": 1, "insufficient": 2, "consistent": 3}
MAX_CONTENT = 4000  # Discord's own limit for Nitro messages


MAX_CLAIMS = 3  # claims of one message audited; the rest are counted in the reply
MAX_FILES = 3  # attachments of one message read
_FILE_TYPES = (".json", ".jsonl", ".csv", ".tsv", ".log", ".txt", ".md")
_IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp")
OCR_HINT = ("{name}: screenshot reading is not installed here (`pip install 'claimcheck[ocr]'`); "
            "paste the text or attach the tool's file instead.")
_QUOTE = re.compile(r"^\s{0,3}>{1,3}\s?")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=\S)")


@dataclass(frozen=True)
class Candidate:
    text: str | None  # the claim text (links removed), when it states a speed or pastes output
    urls: tuple[str, ...]
    parts: tuple[str, ...] = ()  # the claims in the text, one each (at most MAX_CLAIMS)
    quoted: bool = False  # the claim is a quote being questioned
    more: int = 0  # claims beyond MAX_CLAIMS, not audited


def _quoted(text: str) -> str | None:
    """The quoted lines (`> …`, `>>> …`) of a message, when they state a claim."""
    lines = [_QUOTE.sub("", line, count=1) for line in text.splitlines() if _QUOTE.match(line)]
    quote = "\n".join(lines)
    return quote if lines and (states_speed(quote) or is_tool_output(quote)) else None


def _own_subject(text: str) -> bool:
    """Does a piece name hardware or a model of its own (so it is a second claim, not the
    first one's baseline or detail)? A GPU or a parameter count ("70B") is the cheap sign."""
    from extractors.text.names import find_gpus

    return bool(find_gpus(text, None)) or re.search(r"(?i)\b\d{1,4}(?:\.\d)?\s?b\b", text) is not None


def split_claims(text: str) -> list[str]:
    """The claims in a message's text: each sentence or line stating a speed ends one; the
    words before it (no speed of their own) belong to it, the words after the last to the last.
    A piece that names no hardware or model of its own stays with the one before it
    ("150 tok/s on one H100. Baseline was 90 tok/s" is one claim)."""
    pieces = [p for line in text.splitlines() for p in _SENTENCE_END.split(line) if p.strip()]
    claims: list[str] = []
    pending: list[str] = []
    for piece in pieces:
        pending.append(piece)
        if not states_speed(piece):
            continue
        chunk = " ".join(pending)
        pending = []
        if claims and not _own_subject(chunk):
            claims[-1] = f"{claims[-1]} {chunk}"
        else:
            claims.append(chunk)
    if pending:
        tail = " ".join(pending)
        if claims:
            claims[-1] = f"{claims[-1]} {tail}"
        elif states_speed(tail):
            claims.append(tail)
    return claims


def prefilter(content: str) -> Candidate | None:
    """A message worth auditing, or None. Cheap first: without "http" or a digit nothing else
    runs; then the text reader's own speed grammar (`states_speed`) or a pasted tool output."""
    if "http" not in content and not any(ch.isdigit() for ch in content):
        return None
    content = content[:MAX_CONTENT]
    rest, urls = split_links(content) if "http" in content else (content, [])
    quote = _quoted(rest)
    if quote is not None:
        return Candidate(text=quote, urls=tuple(urls), parts=(quote,), quoted=True)
    pasted = is_tool_output(rest)
    text = rest if pasted or states_speed(rest) else None
    if text is None:
        return Candidate(text=None, urls=tuple(urls)) if urls else None
    parts = [text] if pasted else split_claims(strip_fences(text)) or [text]
    return Candidate(text=text, urls=tuple(urls), parts=tuple(parts[:MAX_CLAIMS]),
                     more=max(0, len(parts) - MAX_CLAIMS))


def _is_image_name(name: str) -> bool:
    return name.lower().endswith(_IMAGE_TYPES)


def wanted_attachment(name: str, content_type: str | None) -> bool:
    """A file the readers can read: a tool's text output or a screenshot."""
    lower = name.lower()
    kind = (content_type or "").split(";")[0].strip()
    return lower.endswith(_FILE_TYPES + _IMAGE_TYPES) or kind.startswith(("text/", "image/")) \
        or kind == "application/json"


class WatchCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = claimbot(bot)
        s = self.bot.settings.limits
        self.per_user = commands.CooldownMapping.from_cooldown(
            s.user_rate, s.user_per_s, commands.BucketType.member)
        self.per_channel = commands.CooldownMapping.from_cooldown(
            s.channel_rate, s.channel_per_s, commands.BucketType.channel)
        self.limited = 0  # messages dropped by the rate limits
        # Each channel's watch mode, read from the store once (a burst shares the one read);
        # /claimcheck watch calls `set_mode`.
        self._modes: SharedReads[int, WatchMode] = SharedReads()
        self.guilds = GuildConfigs(self.bot.store)  # per-server settings (bot.guild_policy)
        self.hints = RateHints()  # members told once that they hit the rate limit

    async def _mode(self, guild_id: int, channel_id: int) -> WatchMode:
        return await self._modes.get(
            channel_id, lambda: channel_mode(self.bot.store, guild_id, channel_id))

    def set_mode(self, channel_id: int, mode: WatchMode) -> None:
        self._modes.put(channel_id, mode)

    def forget_modes(self) -> None:
        """The server's default mode changed: read every channel's mode again."""
        self._modes.clear()

    async def _rate_hint(self, message: discord.Message) -> None:
        """One quiet hint (no ping, no notification) per member and limit window; a channel's
        own limit gives none (a busy channel would otherwise get a hint per member)."""
        assert message.guild is not None
        now = self.bot.clock().timestamp()
        bucket = self.per_user.get_bucket(message, now)
        if bucket is None or bucket.get_tokens(now) >= 1:
            return
        retry = bucket.get_retry_after(now)
        if not self.hints.first((message.guild.id, message.author.id), now, retry):
            return
        s = self.bot.settings.limits
        try:
            await message.reply(rate_hint_text(s.user_rate, s.user_per_s, retry), silent=True,
                                mention_author=False,
                                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("watch: no rate-limit hint in %s: %s", message.channel.id, exc)

    async def admit(self, message: discord.Message) -> bool:
        """May this message (new, edited or a follow-up) start an audit now? Takes a token of
        the member's and the channel's limits; when limited, the member gets the one quiet hint
        (in a server)."""
        if not self._over_limit(message):
            return True
        if message.guild is not None:
            await self._rate_hint(message)
        return False

    def _over_limit(self, message: discord.Message) -> bool:
        now = self.bot.clock().timestamp()
        user = self.per_user.get_bucket(message, now)
        channel = self.per_channel.get_bucket(message, now)
        if user is None or channel is None:
            return False
        # Take a token only when both have one, so a limited user does not drain the channel.
        if user.get_tokens(now) < 1 or channel.get_tokens(now) < 1:
            self.limited += 1
            return True
        user.update_rate_limit(now)
        channel.update_rate_limit(now)
        return False

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.type not in _WATCHED_TYPES:
            return
        if message.guild is not None and isinstance(message.channel, discord.Thread) \
                and self.bot.user is not None and message.channel.owner_id == self.bot.user.id:
            await self._follow_up(message, message.channel)  # the bot's own thread
            return
        files = [a for a in message.attachments if wanted_attachment(a.filename, a.content_type)]
        candidate = prefilter(message.content)
        if candidate is None and not files:
            return
        guild_id = message.guild.id if message.guild is not None else None
        # A DM is the member asking: it gets the audit as a plain reply, whatever the modes.
        mode: WatchMode = "thread" if guild_id is None else \
            await self._mode(guild_id, message.channel.id)
        if mode == "off":
            return
        if not await self.admit(message):
            return
        try:
            outcomes, notes = await self._audit_all(message, candidate, files[:MAX_FILES])
        except discord.HTTPException as exc:  # an attachment that could not be downloaded
            log.info("watch: could not read the attachments of %s: %s", message.id, exc)
            return
        if candidate is not None and candidate.more:
            notes.append(f"{candidate.more} more claim(s) in the message were not audited "
                         f"(at most {MAX_CLAIMS} a message).")
        if not outcomes:
            if notes and files:  # a file we could not read: say why, once
                await _reply(message, "\n".join(notes))
            return
        worst = _worst(outcomes)
        kind = "thread" if guild_id is None else answer_kind(
            await self.guilds.get(guild_id), mode, worst.report.verdict)
        if kind == "react":
            await guarded(f"reaction on message {message.id}",
                          message.add_reaction(REACTION[worst.report.verdict]))
        elif kind == "thread":
            await self._post(message, outcomes, notes,
                             quoted=bool(candidate and candidate.quoted))

    async def _follow_up(self, message: discord.Message, thread: discord.Thread) -> None:
        """A reply in a claim thread extends the thread's claim (bot.guild_policy); the new
        report is posted in the thread."""
        assert message.guild is not None
        config = await self.guilds.get(message.guild.id)
        request = await follow_up_request(self.bot.store, config, thread, message)
        if request is None:
            return
        if not await self.admit(message):
            return
        place = AuditPlace(subject=request.subject(), guild_id=message.guild.id,
                           channel_id=thread.id, message_id=message.id,
                           asked_by=message.author.id)
        try:
            outcome = await self.bot.auditor.audit(f"message:{message.id}", request, place)
            kwargs = await report_message(outcome, FOLLOW_UP_NOTE,
                                          chart=self.bot.settings.discord.charts)
            sent = await message.reply(**kwargs, mention_author=False)
        except ExtractError as exc:
            log.info("watch: follow-up %s read nothing: %s", message.id, exc)
            return
        except discord.HTTPException as exc:
            log.info("watch: follow-up in %s not posted: %s", thread.id, exc)
            return
        await set_answer(self.bot.store, outcome.record.id, message_id=sent.id,
                         thread_id=thread.id)

    async def _requests(self, message: discord.Message, candidate: Candidate | None,
                        files: list[discord.Attachment]) -> tuple[list[Request], list[str]]:
        """One request per claim: each claim of the text (the message's links with the first),
        then each file (with the text as its note when the text states no claim)."""
        notes: list[str] = []
        requests: list[Request] = []
        urls = candidate.urls if candidate is not None else ()
        parts = candidate.parts if candidate is not None else ()
        for i, part in enumerate(parts):
            requests.append(Request(docs=tuple(pasted_documents(part)),
                                    urls=urls if i == 0 else ()))
        if not parts and urls:
            requests.append(Request(urls=urls))
        cap = self.bot.settings.limits.attachment_max_bytes
        from extractors.image.ocr import ocr_available

        for att in files:
            name = att.filename[:100]
            if att.size > cap:
                notes.append(f"{name} is {att.size:,} bytes; I read files up to {cap:,} bytes.")
                continue
            if _is_image_name(name) and not ocr_available():
                notes.append(OCR_HINT.format(name=name))
                continue
            requests.append(Request(docs=(RawDocument(await att.read(), source=name),)))
        return requests, notes

    async def _audit_all(self, message: discord.Message, candidate: Candidate | None,
                         files: list[discord.Attachment]) -> tuple[list[AuditOutcome], list[str]]:
        requests, notes = await self._requests(message, candidate, files)
        outcomes: list[AuditOutcome] = []
        guild_id = message.guild.id if message.guild is not None else None
        for i, request in enumerate(requests):
            key = f"message:{message.id}" if i == 0 else f"message:{message.id}:{i}"
            try:
                outcome = await self._audit_one(message, key, request, guild_id)
            except ExtractError as exc:
                if not request.urls or not request.docs:
                    log.info("watch: nothing to report for %s: %s", key, exc)
                    if request.docs and request.docs[0].source not in ("text",):
                        notes.append(f"{request.docs[0].source}: {_why(exc)}")
                    continue
                # A dead or refused link beside a pasted claim: noted, the claim still audited.
                notes.append(f"The link {', '.join(f'<{u}>' for u in request.urls)} could not be "
                             f"used ({_why(exc)}); the claim in the message is audited without it.")
                try:
                    outcome = await self._audit_one(message, key, Request(docs=request.docs),
                                                    guild_id)
                except ExtractError as again:
                    log.info("watch: nothing to report for %s: %s", key, again)
                    continue
            if outcome.report.claim.tok_s is not None:
                outcomes.append(outcome)
        return outcomes, notes

    async def _audit_one(self, message: discord.Message, key: str, request: Request,
                         guild_id: int | None) -> AuditOutcome:
        # A link is its own subject even with words around it: dropped again, it is recognised.
        subject = request.urls[0] if request.urls else Request(docs=request.docs).subject()
        place = AuditPlace(subject=subject, guild_id=guild_id, channel_id=message.channel.id,
                           message_id=message.id, asked_by=message.author.id)
        return await self.bot.auditor.audit(key, request, place)

    async def _post(self, message: discord.Message, outcomes: list[AuditOutcome],
                    notes: list[str], *, quoted: bool = False) -> None:
        outcomes = sorted(outcomes, key=lambda o: _SEVERITY.get(o.report.verdict, 9))
        first = outcomes[0]
        earlier = first.record.jump_url() if first.reused else None
        if len(outcomes) == 1 and first.reused and earlier and not notes:
            await _reply(message, f"Audited before: {earlier}")
            return
        lead = ["The quoted claim, audited:"] if quoted else []
        if len(outcomes) > 1:
            lead.append(f"{len(outcomes)} claims in this message, each audited below.")
        note = "\n".join([*lead, *notes]) or None
        if message.guild is not None:
            # Permissions checked first, every send guarded, the reply recorded for edits,
            # deletes and buttons (bot/cogs/feedback.py); further claims as further embeds.
            sent = await post_report(self.bot, message, first, Request.from_message(
                message.content), note=note, extra=[o.report for o in outcomes[1:]])
        else:  # a DM: a plain reply
            sent = await guarded(f"reply to message {message.id}",
                                 message.reply(**await self._message(outcomes, note)))
        if sent is None:
            return
        thread_id = sent.channel.id if isinstance(sent.channel, discord.Thread) else None
        for outcome in outcomes:
            await set_answer(self.bot.store, outcome.record.id, message_id=sent.id,
                             thread_id=thread_id)
            if outcome.changed_from is not None:
                await self._post_update(outcome)

    async def _message(self, outcomes: list[AuditOutcome], note: str | None) -> dict[str, Any]:
        """One message for every claim: the first report with its chart, then one embed each."""
        kwargs = await report_message(outcomes[0], note, chart=self.bot.settings.discord.charts)
        if len(outcomes) > 1:
            kwargs["embeds"] = [kwargs.pop("embed"), *(report_embed(o.report) for o in outcomes[1:])]
        return kwargs

    async def _post_update(self, outcome: AuditOutcome) -> None:
        before = outcome.changed_from
        assert before is not None
        target_id = before.thread_id or before.channel_id
        if target_id is None:
            return
        channel = self.bot.get_channel(target_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(target_id)
            except discord.HTTPException:
                return
        if not isinstance(channel, discord.abc.Messageable):
            return
        embed = report_embed(outcome.report, note=f"Update: the verdict changed from "
                                                  f"{before.verdict} to {outcome.report.verdict}.")
        try:
            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("watch: could not post the update in %s: %s", target_id, exc)


def _worst(outcomes: list[AuditOutcome]) -> AuditOutcome:
    return min(outcomes, key=lambda o: _SEVERITY.get(o.report.verdict, 9))


def _why(exc: BaseException) -> str:
    from bot.render.escape import escape_untrusted

    return escape_untrusted(str(exc), limit=200)


async def _reply(message: discord.Message, text: str) -> None:
    try:
        await message.reply(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.info("watch: could not reply to %s: %s", message.id, exc)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WatchCog(bot))
