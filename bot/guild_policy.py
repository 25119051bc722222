"""What a watched claim gets in a server, from the server's settings (`bot.store.guilds`).

`answer_kind(config, mode, verdict)` is the one decision, a pure function: in `thread` mode a
claim at least as severe as the server's `thread_threshold` opens a thread; below it the claim
gets its verdict's reaction (`below_threshold = "react"`) or nothing. `react` mode keeps its
meaning (a reaction on implausible and suspicious claims only).

`follow_up_request` reads a reply in one of the bot's claim threads together with the thread's
claim (when the server's `follow_ups` is on). `GuildConfigs` is the watcher's read-through cache
of the servers' settings (one store read per server, shared by a burst; `/claimcheck settings`
replaces the entry), built on `SharedReads` as the watcher's channel modes are. `RateHints` remembers which
members were told they hit the rate limit, so a limited member gets one quiet hint per limit
window instead of silence, and never a hint per message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

from bot.store.db import Store
from bot.store.guilds import GuildConfig, WatchMode, get_guild
from checks.models import Verdict

if TYPE_CHECKING:  # discord.py stays off the CLI's path (`claimcheck digest` imports this)
    import discord

    from bot.core import Request

__all__ = ["FOLLOW_UP_NOTE", "REACTION", "SEVERITY", "AnswerKind", "GuildConfigs", "RateHints",
           "SharedReads",
           "answer_kind", "follow_up_request", "pictures_text", "rate_hint_text", "settings_text"]

K = TypeVar("K")
V = TypeVar("V")
AnswerKind = Literal["thread", "react", "nothing"]
SEVERITY: dict[str, int] = {"implausible": 0, "suspicious": 1, "insufficient": 2, "consistent": 3}
# The verdict's reaction; `react` mode uses only the first two (a consistent claim is not news).
REACTION: dict[str, str] = {"implausible": "🛑", "suspicious": "⚠️", "insufficient": "❔",
                            "consistent": "✅"}
_REACT_MODE = ("implausible", "suspicious")
MAX_FOLLOW_UP = 4000  # characters of the claim and of the reply read (Discord's message limit)
MAX_HINTED = 10_000  # members remembered at once; expired entries are pruned first


def answer_kind(config: GuildConfig, mode: WatchMode, verdict: Verdict) -> AnswerKind:
    """Thread, reaction or nothing for a claim with this verdict, in a channel in `mode`."""
    if mode == "off":
        return "nothing"
    if mode == "react":
        return "react" if verdict in _REACT_MODE else "nothing"
    if SEVERITY[verdict] <= SEVERITY[config.thread_threshold]:
        return "thread"
    return "react" if config.below_threshold == "react" else "nothing"


class SharedReads(Generic[K, V]):
    """A read-through cache of store reads: the first reader of a key starts the read and
    every concurrent reader awaits the same one (a burst of messages costs one query); a read
    that failed is forgotten, so the next reader tries again. `put` replaces an entry (a
    command changed it), `clear` forgets them all."""

    def __init__(self) -> None:
        self._known: dict[K, asyncio.Future[V]] = {}

    async def get(self, key: K, read: Callable[[], Awaitable[V]]) -> V:
        known = self._known.get(key)
        if known is None:
            known = asyncio.ensure_future(read())
            self._known[key] = known
        try:
            # Shielded: a reader cancelled mid-read does not cancel the others' read.
            return await asyncio.shield(known)
        except Exception:
            self._known.pop(key, None)  # read again next time
            raise

    def put(self, key: K, value: V) -> None:
        done: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        done.set_result(value)
        self._known[key] = done

    def clear(self) -> None:
        self._known.clear()


class GuildConfigs:
    """Each server's settings, read from the store once (concurrent readers share the read)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: SharedReads[int, GuildConfig] = SharedReads()

    async def get(self, guild_id: int) -> GuildConfig:
        return await self._known.get(guild_id, lambda: get_guild(self.store, guild_id))

    def put(self, config: GuildConfig) -> None:
        self._known.put(config.guild_id, config)


class RateHints:
    """Who was hinted, until when: `first(key, now, retry_after)` is True once per window."""

    def __init__(self) -> None:
        self._until: dict[tuple[int, int], float] = {}

    def first(self, key: tuple[int, int], now: float, retry_after: float) -> bool:
        if self._until.get(key, 0.0) > now:
            return False
        if len(self._until) >= MAX_HINTED:
            self._until = {k: t for k, t in self._until.items() if t > now}
            if len(self._until) >= MAX_HINTED:
                return False  # a flood of distinct members: stay quiet rather than grow
        self._until[key] = now + retry_after
        return True


def rate_hint_text(rate: int, per_s: float, retry_after: float) -> str:
    """The one hint a limited member gets (ours, trusted; no mention)."""
    wait = max(1, round(retry_after))
    return (f"-# claimcheck reads at most {rate} claims per member every {per_s:g} s; your "
            f"messages in the next {wait} s are not audited. `/audit` works on a single claim.")


def pictures_text(post_images: int, image_max_bytes: int, *, ocr: bool) -> str:
    """The bot-wide picture policy as `/claimcheck settings` shows it (set in the bot's settings,
    not per server)."""
    if not ocr:
        return "not read: OCR is not installed (`pip install 'claimcheck[ocr]'`)"
    posts = (f"up to {post_images} picture{'s' if post_images != 1 else ''} per fetched post, "
             f"{image_max_bytes / 2**20:g} MiB each at most" if post_images
             else "no pictures of fetched posts")
    return f"screenshots dropped in chat and {posts}, read by OCR"


def settings_text(config: GuildConfig, *, channel_modes: dict[int, WatchMode],
                  sources: int, limits: tuple[int, float, int, float],
                  pictures: str | None = None) -> str:
    """`/claimcheck settings`: every setting of the server, one line each."""
    user_rate, user_per_s, channel_rate, channel_per_s = limits
    threshold = config.thread_threshold
    worse = [v for v, n in SEVERITY.items() if n <= SEVERITY[threshold]]
    below = "its verdict's reaction" if config.below_threshold == "react" else "nothing"
    digest = (f"<#{config.digest_channel_id}> at {config.digest_hour:02d}:00 UTC"
              if config.digest_channel_id is not None and config.digest_hour is not None
              else "off (`/claimcheck digest`)")
    lines = [
        "**claimcheck settings for this server**",
        f"- Default watch mode: `{config.default_mode}`",
        f"- Threads open for: {', '.join(worse)} (threshold `{threshold}`); "
        f"a claim below it gets {below}",
        "- Replies in claimcheck's threads: "
        + ("read as follow-ups of the thread's claim" if config.follow_ups else "not read"),
        f"- Daily digest: {digest}",
        f"- Watched sources: {sources}",
        f"- Rate limits: {user_rate} claims per member per {user_per_s:g} s, "
        f"{channel_rate} per channel per {channel_per_s:g} s",
    ]
    if pictures is not None:
        lines.append(f"- Pictures (bot-wide): {pictures}")
    if channel_modes:
        lines.append("- Channels: " + ", ".join(f"<#{cid}> `{mode}`"
                                                 for cid, mode in sorted(channel_modes.items())))
    else:
        lines.append("- Channels: all on the default mode")
    return "\n".join(lines)


async def follow_up_request(store: Store, config: GuildConfig, thread: discord.Thread,
                            message: discord.Message) -> Request | None:
    """A reply in one of the bot's claim threads, read together with the thread's claim: the
    claim's message (the thread's starter: a thread opened on a message shares its id) and the
    reply as one text, so "batch 8 actually" or "on a 4090" extends the claim rather than
    starting a report without context. None when the server reads no follow-ups, the thread is
    not a claim thread, or its claim is gone."""
    import discord

    from bot.core import Request
    from bot.store.audits import get_audit
    from extractors.document import RawDocument
    from extractors.inputs import split_links

    if not config.follow_ups or await get_audit(store, f"message:{thread.id}") is None:
        return None
    starter = thread.starter_message
    if starter is None and isinstance(thread.parent, discord.TextChannel):
        try:
            starter = await thread.parent.fetch_message(thread.id)
        except discord.HTTPException:
            return None
    if starter is None:
        return None
    claim, claim_urls = split_links(starter.content[:MAX_FOLLOW_UP])
    reply, reply_urls = split_links(message.content[:MAX_FOLLOW_UP])
    text = "\n".join(t for t in (claim.strip(), reply.strip()) if t)
    urls = tuple(dict.fromkeys([*claim_urls, *reply_urls]))
    if not text and not urls:
        return None
    return Request(docs=(RawDocument.from_text(text),) if text else (), urls=urls)


FOLLOW_UP_NOTE = "Follow-up: read together with this thread's claim."
