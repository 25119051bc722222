"""The Discord bot: `create_bot(settings)` builds it, `run_bot(settings)` runs it.

The bot is a Discord adapter over one `bot.core.App` (the reading workers, the store — the SQLite
file of `settings.store.db_path` — and one long-lived fetcher): it is opened in `setup_hook`,
before any event is dispatched, and closed in `close`. `network` (how the fetcher reaches hosts)
is passed in: tests give a loopback-only one. One Cog per feature (bot/cogs/). `AllowedMentions.none()` is the bot-wide default, so no
reply, followup or thread message can ping anyone, whatever the audited page says. Slash commands
are synced to `dev_guild_id` at start when set (visible at once); a global sync happens only
through the owner's `@bot sync global` command (Rapptz/discord.py examples/advanced_startup.py:
"those should only be synced when changes happen"). With `shard_count` set the bot is an
`AutoShardedBot` running the shards in `shard_ids` (all of them when unset).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AsyncExitStack
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from bot.core import App, Network
from bot.options import PipelineOptions
from bot.service import Auditor
from bot.settings import Settings
from bot.store.db import Store
from checks.reference import Reference, load_reference
from extractors.image.ocr import worker_warm_up as ocr_warm_up
from extractors.offloop import ReadingPool, default_size

__all__ = ["COGS", "ClaimBot", "ShardedClaimBot", "create_bot", "intents_for", "run_bot"]

log = logging.getLogger("claimcheck.bot")

COGS = ("bot.cogs.feedback", "bot.cogs.audit", "bot.cogs.watch", "bot.cogs.moderation",
        "bot.cogs.digest", "bot.cogs.owner")


def intents_for() -> discord.Intents:
    """Guild messages with their content (for watching chat; privileged, enabled in the
    developer portal); no members, no presences."""
    intents = discord.Intents.default()
    intents.message_content = True
    return intents


class _ClaimBotMixin:
    """What both bot classes share: the app (store, fetcher, workers), the lifecycle."""

    settings: Settings
    ref: Reference
    options: PipelineOptions
    app: App
    store: Store
    network: Network | None
    pool: ReadingPool
    _stack: AsyncExitStack

    @property
    def auditor(self) -> Auditor:
        return self.app.auditor

    # The mixin comes first in both bots' bases, so super() here is discord.py's Bot.
    async def setup_hook(self) -> None:
        await self._open_claimcheck()
        await self._load_cogs()

    async def close(self) -> None:
        try:
            await super().close()  # type: ignore[misc]
        finally:
            await self._close_claimcheck()

    def _init_claimcheck(self, settings: Settings, ref: Reference | None,
                         clock: Callable[[], datetime] | None,
                         network: Network | None = None) -> None:
        self.settings = settings
        self.network = network
        self.ref = ref if ref is not None else load_reference(*settings.reference_files)
        # The reading workers start with the bot object, before discord.py, aiohttp or the
        # store start a thread (and outside any event loop's clock).
        # Each worker loads the OCR models as it starts (when the extra is installed), in the
        # worker, so the first screenshot does not pay the load and the bot's start waits for
        # nothing.
        self.pool = ReadingPool(self.ref, settings.limits.readers or default_size(),
                                warm=ocr_warm_up() if settings.limits.warm_ocr else None).start()
        self.options = PipelineOptions.from_settings(settings)
        self.clock = clock or discord.utils.utcnow  # virtual under simcord
        self._stack = AsyncExitStack()

    async def _open_claimcheck(self) -> None:
        self._stack.callback(self.pool.close)
        self.app = await self._stack.enter_async_context(App.open(
            self.settings, ref=self.ref, options=self.options, network=self.network,
            pool=self.pool, open_store=True, clock=self.clock))
        self.store = await self.app.store()

    async def _load_cogs(self: Any) -> None:
        for name in COGS:
            await self.load_extension(name)
        if self.settings.discord.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.discord.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def _close_claimcheck(self) -> None:
        await self._stack.aclose()


class ClaimBot(_ClaimBotMixin, commands.Bot):
    def __init__(self, settings: Settings, *, ref: Reference | None = None,
                 clock: Callable[[], datetime] | None = None,
                 network: Network | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents_for(),
                         allowed_mentions=discord.AllowedMentions.none(),
                         owner_ids=set(settings.discord.owner_ids) or None, help_command=None)
        self._init_claimcheck(settings, ref, clock, network)


def _shard_ids(settings: Settings) -> dict[str, Any]:
    """discord.py takes shard_ids only when given (None is not "all")."""
    ids = settings.discord.shard_ids
    return {"shard_ids": ids} if ids else {}


class ShardedClaimBot(_ClaimBotMixin, commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, ref: Reference | None = None,
                 clock: Callable[[], datetime] | None = None,
                 network: Network | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents_for(),
                         allowed_mentions=discord.AllowedMentions.none(),
                         owner_ids=set(settings.discord.owner_ids) or None, help_command=None,
                         shard_count=settings.discord.shard_count,
                         **_shard_ids(settings))
        self._init_claimcheck(settings, ref, clock, network)


def create_bot(settings: Settings, *, ref: Reference | None = None,
               clock: Callable[[], datetime] | None = None,
               network: Network | None = None) -> ClaimBot | ShardedClaimBot:
    """The bot, not yet connected: `AutoShardedBot` when sharding is configured."""
    if settings.sharded:
        return ShardedClaimBot(settings, ref=ref, clock=clock, network=network)
    return ClaimBot(settings, ref=ref, clock=clock, network=network)


async def run_bot(settings: Settings) -> None:
    """Log in and serve until closed (Ctrl-C, or the process is stopped)."""
    token = settings.discord.token
    assert token is not None
    bot = create_bot(settings)
    async with bot:
        await bot.start(token.get_secret_value())
