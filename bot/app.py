"""The Discord bot: `create_bot(settings)` builds it, `run_bot(settings)` runs it.

The bot owns its store (the SQLite file of `settings.db_path`) and one long-lived fetcher (one
aiohttp session): both are opened in `setup_hook`, before any event is dispatched, and closed in
`close`. One Cog per feature (bot/cogs/). `AllowedMentions.none()` is the bot-wide default, so no
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
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.options import PipelineOptions
from bot.service import Auditor
from bot.settings import Settings
from bot.store.db import Store, StoreError, default_db_path
from checks.reference import Reference, load_reference

__all__ = ["COGS", "ClaimBot", "ShardedClaimBot", "create_bot", "intents_for", "run_bot"]

log = logging.getLogger("claimcheck.bot")

COGS = ("bot.cogs.audit", "bot.cogs.watch", "bot.cogs.moderation", "bot.cogs.digest",
        "bot.cogs.owner")


def intents_for() -> discord.Intents:
    """Guild messages with their content (for watching chat; privileged, enabled in the
    developer portal); no members, no presences."""
    intents = discord.Intents.default()
    intents.message_content = True
    return intents


class _ClaimBotMixin:
    """What both bot classes share: the store, the fetcher, the auditor, the lifecycle."""

    settings: Settings
    ref: Reference
    options: PipelineOptions
    store: Store
    auditor: Auditor
    _stack: AsyncExitStack

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
                         clock: Callable[[], datetime] | None) -> None:
        self.settings = settings
        self.ref = ref if ref is not None else load_reference(*settings.reference_files)
        self.options = PipelineOptions.from_settings(settings)
        self.clock = clock or discord.utils.utcnow  # virtual under simcord
        self._stack = AsyncExitStack()

    async def _open_claimcheck(self) -> None:
        from bot.fetching import shared_fetcher

        path = Path(self.settings.db_path or default_db_path())
        self.store = await Store.open(path)
        self._stack.push_async_callback(self.store.close)
        health = await self.store.integrity_check()
        if health != "ok":
            raise StoreError(f"{path} failed PRAGMA integrity_check: {health[:200]}")
        fetcher = await self._stack.enter_async_context(shared_fetcher(self.options, self.store))
        self.auditor = Auditor(self.store, fetcher, self.ref, self.options,
                               lifetime_s=self.settings.cache_lifetime_s, clock=self.clock)

    async def _load_cogs(self: Any) -> None:
        for name in COGS:
            await self.load_extension(name)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def _close_claimcheck(self) -> None:
        await self._stack.aclose()


class ClaimBot(_ClaimBotMixin, commands.Bot):
    def __init__(self, settings: Settings, *, ref: Reference | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents_for(),
                         allowed_mentions=discord.AllowedMentions.none(),
                         owner_ids=set(settings.owner_ids) or None, help_command=None)
        self._init_claimcheck(settings, ref, clock)


def _shard_ids(settings: Settings) -> dict[str, Any]:
    """discord.py takes shard_ids only when given (None is not "all")."""
    return {"shard_ids": settings.shard_ids} if settings.shard_ids else {}


class ShardedClaimBot(_ClaimBotMixin, commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, ref: Reference | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents_for(),
                         allowed_mentions=discord.AllowedMentions.none(),
                         owner_ids=set(settings.owner_ids) or None, help_command=None,
                         shard_count=settings.shard_count,
                         **_shard_ids(settings))
        self._init_claimcheck(settings, ref, clock)


def create_bot(settings: Settings, *, ref: Reference | None = None,
               clock: Callable[[], datetime] | None = None) -> ClaimBot | ShardedClaimBot:
    """The bot, not yet connected: `AutoShardedBot` when sharding is configured."""
    if settings.sharded:
        return ShardedClaimBot(settings, ref=ref, clock=clock)
    return ClaimBot(settings, ref=ref, clock=clock)


async def run_bot(settings: Settings) -> None:
    """Log in and serve until closed (Ctrl-C, or the process is stopped)."""
    assert settings.token is not None
    bot = create_bot(settings)
    async with bot:
        await bot.start(settings.token.get_secret_value())
