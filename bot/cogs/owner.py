"""`@bot sync [global|here]`: the owner's command to sync slash commands. Global sync happens
only here (it is rate limited and slow to reach clients); `dev_guild_id` covers development."""

from __future__ import annotations

import logging
from typing import Any

from discord.ext import commands

__all__ = ["OwnerCog", "setup"]

log = logging.getLogger("claimcheck.bot")


class OwnerCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[commands.Bot], scope: str = "global") -> None:
        if scope == "here" and ctx.guild is not None:
            self.bot.tree.copy_global_to(guild=ctx.guild)
            synced = await self.bot.tree.sync(guild=ctx.guild)
        else:
            synced = await self.bot.tree.sync()
        await ctx.reply(f"Synced {len(synced)} commands ({scope}).")

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        """Anyone but the owner gets silence: nothing to learn from a refusal."""
        if not isinstance(error, commands.NotOwner):
            log.warning("owner command failed: %s", error)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OwnerCog(bot))
