"""The daily digest: every hour on the hour (`tasks.loop(time=…)`, UTC), each guild whose
digest hour it is gets its digest in its digest channel, in as many messages as it needs (one
embed per page of `bot.digest.digest_pages`, each within Discord's limits; nothing is cut). A
day's digest is recorded before it is posted (`digests` is unique per guild and day), so a
restart never posts it twice."""

from __future__ import annotations

import datetime as dt
import logging

import discord
from discord.ext import commands, tasks

from bot.cogs.common import claimbot
from bot.digest import build_digest, digest_pages, digest_text, sweep_new_records
from bot.store.guilds import GuildConfig, guilds_with_digest, list_watched_sources, save_digest

__all__ = ["DigestCog", "setup"]

log = logging.getLogger("claimcheck.bot")
HOURS = [dt.time(hour=h, tzinfo=dt.UTC) for h in range(24)]


class DigestCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = claimbot(bot)
        self.posted = 0

    async def cog_load(self) -> None:
        self.hourly.start()

    async def cog_unload(self) -> None:
        self.hourly.cancel()

    @tasks.loop(time=HOURS)
    async def hourly(self) -> None:
        now = self.bot.clock()
        for guild in await guilds_with_digest(self.bot.store, now.hour):
            try:
                await self.post_digest(guild, now)
            except discord.HTTPException as exc:
                log.warning("digest for guild %s not posted: %s", guild.guild_id, exc)
            except Exception:  # an exception escaping a tasks.loop stops it for good
                log.exception("digest for guild %s failed", guild.guild_id)

    @hourly.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def post_digest(self, guild: GuildConfig, now: dt.datetime) -> bool:
        assert guild.digest_channel_id is not None
        sources = await list_watched_sources(self.bot.store, guild.guild_id)
        await sweep_new_records(self.bot.app, sources, now)
        digest = await build_digest(self.bot.store, guild.guild_id, now)
        if not await save_digest(self.bot.store, guild.guild_id, f"{now:%Y-%m-%d}",
                                 digest_text(digest), now, channel_id=guild.digest_channel_id):
            return False
        channel = self.bot.get_channel(guild.digest_channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return False
        pages = digest_pages(digest)
        for n, page in enumerate(pages, start=1):
            embed = discord.Embed(description=page, colour=0x4A6FA5)
            if len(pages) > 1:
                embed.set_footer(text=f"digest {now:%Y-%m-%d} · part {n} of {len(pages)}")
            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        self.posted += 1
        await self.bot.store.checkpoint()
        return True


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DigestCog(bot))
