"""`/claimcheck …`: the moderators' settings. Guild only; Manage Server is checked here, in
code, on every call (`default_permissions` is only a hint that admins can change, and it is not
applied to subcommands: discord.py app_commands/commands.py)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import claimbot
from bot.cogs.watch import WatchCog
from bot.guild_policy import pictures_text, settings_text
from bot.render.discord import safe_url
from bot.store.guilds import (
    BelowThreshold,
    WatchMode,
    add_watched_source,
    get_guild,
    list_channel_modes,
    list_watched_sources,
    remove_watched_source,
    set_channel_mode,
    set_digest,
    set_policy,
)
from checks.models import Verdict
from extractors.image.ocr import ocr_available

__all__ = ["ModerationCog", "setup"]

NOT_ALLOWED = "Only members with Manage Server can change claimcheck's settings."


def _manage_guild(interaction: discord.Interaction) -> bool:
    if interaction.guild is None or not interaction.permissions.manage_guild:
        raise app_commands.CheckFailure(NOT_ALLOWED)
    return True


@app_commands.guild_only()
class ModerationCog(commands.GroupCog, group_name="claimcheck",
                    group_description="claimcheck settings for this server (Manage Server)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = claimbot(bot)
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return _manage_guild(interaction)

    @app_commands.command(name="digest", description="Where and when (UTC hour) the daily digest goes")
    async def digest(self, interaction: discord.Interaction, channel: discord.TextChannel,
                     hour: app_commands.Range[int, 0, 23]) -> None:
        assert interaction.guild_id is not None
        await set_digest(self.bot.store, interaction.guild_id, channel.id, hour)
        await interaction.response.send_message(
            f"The daily digest goes to {channel.mention} at {hour:02d}:00 UTC.", ephemeral=True)

    @app_commands.command(name="watch", description="How claimcheck watches a channel")
    async def watch(self, interaction: discord.Interaction, channel: discord.TextChannel,
                    mode: Literal["off", "react", "thread"]) -> None:
        assert interaction.guild_id is not None
        await set_channel_mode(self.bot.store, interaction.guild_id, channel.id, mode)
        watch = self.bot.get_cog("WatchCog")
        if isinstance(watch, WatchCog):
            watch.set_mode(channel.id, mode)
        await interaction.response.send_message(f"Watching {channel.mention}: {mode}.",
                                                ephemeral=True)

    @app_commands.command(name="settings",
                          description="Show every claimcheck setting here; change any given")
    @app_commands.describe(
        default_mode="Watch mode of channels without their own (/claimcheck watch)",
        thread_from="The least severe verdict that opens a thread",
        below="What a claim below that gets: its verdict's reaction, or nothing",
        follow_ups="Read replies in claimcheck's threads as follow-ups of the thread's claim")
    async def settings(self, interaction: discord.Interaction,
                       default_mode: WatchMode | None = None, thread_from: Verdict | None = None,
                       below: BelowThreshold | None = None,
                       follow_ups: bool | None = None) -> None:
        assert interaction.guild_id is not None
        store = self.bot.store
        changes = (default_mode, thread_from, below, follow_ups)
        if any(c is not None for c in changes):
            config = await set_policy(store, interaction.guild_id, default_mode=default_mode,
                                      thread_threshold=thread_from, below_threshold=below,
                                      follow_ups=follow_ups)
        else:
            config = await get_guild(store, interaction.guild_id)
        watch = self.bot.get_cog("WatchCog")
        if isinstance(watch, WatchCog):
            watch.guilds.put(config)
            if default_mode is not None:
                watch.forget_modes()  # channels without a row follow the new default
        lim, fetch = self.bot.settings.limits, self.bot.settings.fetch
        text = settings_text(config, channel_modes=await list_channel_modes(store, config.guild_id),
                             sources=len(await list_watched_sources(store, config.guild_id)),
                             limits=(lim.user_rate, lim.user_per_s, lim.channel_rate,
                                     lim.channel_per_s),
                             pictures=pictures_text(fetch.post_images, fetch.image_max_bytes,
                                                    ocr=ocr_available()))
        await interaction.response.send_message(text[:1900], ephemeral=True)

    @app_commands.command(name="source-add", description="Watch a leaderboard for the digest")
    async def source_add(self, interaction: discord.Interaction, url: str) -> None:
        assert interaction.guild_id is not None
        if not url.lower().startswith(("http://", "https://")):
            await interaction.response.send_message("Give the leaderboard's http(s) URL.",
                                                    ephemeral=True)
            return
        added = await add_watched_source(self.bot.store, interaction.guild_id, url[:500],
                                         interaction.user.id, self.bot.clock())
        word = "Now watching" if added else "Already watching"
        await interaction.response.send_message(f"{word} {safe_url(url)}.", ephemeral=True)

    @app_commands.command(name="source-remove", description="Stop watching a leaderboard")
    async def source_remove(self, interaction: discord.Interaction, url: str) -> None:
        assert interaction.guild_id is not None
        gone = await remove_watched_source(self.bot.store, interaction.guild_id, url)
        text = f"Stopped watching {safe_url(url)}." if gone else "That source was not watched."
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="sources", description="The watched leaderboards")
    async def sources(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        urls = await list_watched_sources(self.bot.store, interaction.guild_id)
        text = "\n".join(safe_url(u) for u in urls) or "No watched sources."
        await interaction.response.send_message(text[:1900], ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        text = str(error) if isinstance(error, app_commands.CheckFailure) else (
            "That setting could not be saved; it has been logged.")
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ModerationCog(bot))
