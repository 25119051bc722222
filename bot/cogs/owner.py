"""`@bot sync [global|here]`: the owner's command to sync slash commands. Global sync happens
only here (it is rate limited and slow to reach clients); `dev_guild_id` covers development."""

from __future__ import annotations

from discord.ext import commands

__all__ = ["OwnerCog", "setup"]


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


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OwnerCog(bot))
