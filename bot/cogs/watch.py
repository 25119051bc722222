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
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

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
from extractors.inputs import SPEED, split_links

__all__ = ["Candidate", "WatchCog", "prefilter", "setup"]

log = logging.getLogger("claimcheck.bot")

_WATCHED_TYPES = (discord.MessageType.default, discord.MessageType.reply)
MAX_CONTENT = 4000  # Discord's own limit for Nitro messages


@dataclass(frozen=True)
class Candidate:
    text: str | None  # the pasted claim's text (links removed), when it states a speed
    urls: tuple[str, ...]


def prefilter(content: str) -> Candidate | None:
    """A message worth auditing, or None. Cheap first: without "http" or a digit nothing else
    runs."""
    if "http" not in content and not any(ch.isdigit() for ch in content):
        return None
    rest, urls = split_links(content[:MAX_CONTENT]) if "http" in content else (content, [])
    text = rest if SPEED.search(rest) else None
    if text is None and not urls:
        return None
    return Candidate(text=text, urls=tuple(urls))


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
        self._modes: dict[int, asyncio.Future[WatchMode]] = {}
        self.guilds = GuildConfigs(self.bot.store)  # per-server settings (bot.guild_policy)
        self.hints = RateHints()  # members told once that they hit the rate limit

    async def _mode(self, guild_id: int, channel_id: int) -> WatchMode:
        known = self._modes.get(channel_id)
        if known is None:
            known = asyncio.ensure_future(channel_mode(self.bot.store, guild_id, channel_id))
            self._modes[channel_id] = known
        try:
            return await asyncio.shield(known)
        except Exception:
            self._modes.pop(channel_id, None)  # read again next time
            raise

    def set_mode(self, channel_id: int, mode: WatchMode) -> None:
        done: asyncio.Future[WatchMode] = asyncio.get_running_loop().create_future()
        done.set_result(mode)
        self._modes[channel_id] = done

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
        if message.author.bot or message.guild is None or message.type not in _WATCHED_TYPES:
            return
        if isinstance(message.channel, discord.Thread) and self.bot.user is not None \
                and message.channel.owner_id == self.bot.user.id:
            await self._follow_up(message, message.channel)  # the bot's own thread
            return
        candidate = prefilter(message.content)
        if candidate is None:
            return
        mode = await self._mode(message.guild.id, message.channel.id)
        if mode == "off":
            return
        if self._over_limit(message):
            await self._rate_hint(message)
            return
        request = Request(docs=(RawDocument.from_text(candidate.text),) if candidate.text else (),
                          urls=candidate.urls)
        # A link is its own subject even with words around it: dropped again, it is recognised.
        subject = candidate.urls[0] if candidate.urls else Request(docs=request.docs).subject()
        place = AuditPlace(subject=subject, guild_id=message.guild.id,
                           channel_id=message.channel.id, message_id=message.id,
                           asked_by=message.author.id)
        try:
            outcome = await self.bot.auditor.audit(f"message:{message.id}", request, place)
        except ExtractError as exc:  # no claim on the page, refused or unreachable: stay quiet
            log.info("watch: nothing to report for message %s: %s", message.id, exc)
            return
        if outcome.report.claim.tok_s is None:
            return
        kind = answer_kind(await self.guilds.get(message.guild.id), mode, outcome.report.verdict)
        if kind == "react":
            await guarded(f"reaction on message {message.id}",
                          message.add_reaction(REACTION[outcome.report.verdict]))
        elif kind == "thread":
            await self._post(message, outcome, request)

    async def _follow_up(self, message: discord.Message, thread: discord.Thread) -> None:
        """A reply in a claim thread extends the thread's claim (bot.guild_policy); the new
        report is posted in the thread."""
        assert message.guild is not None
        config = await self.guilds.get(message.guild.id)
        request = await follow_up_request(self.bot.store, config, thread, message)
        if request is None:
            return
        if self._over_limit(message):
            await self._rate_hint(message)
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

    async def _post(self, message: discord.Message, outcome: AuditOutcome,
                    request: Request) -> None:
        earlier = outcome.record.jump_url() if outcome.reused else None
        if outcome.reused and earlier:
            await guarded(f"reply to message {message.id}", message.reply(
                f"Audited before: {earlier}", allowed_mentions=discord.AllowedMentions.none()))
            return
        # Permissions checked first, every send guarded, the reply recorded (bot/cogs/feedback.py).
        if await post_report(self.bot, message, outcome, request) is None:
            return
        if outcome.changed_from is not None:
            await self._post_update(outcome)

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


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WatchCog(bot))
