"""The owner's `@bot sync`: the only way to a global slash-command sync."""

from __future__ import annotations

from typing import Any

import simcord
from discord.ext import commands


async def test_only_an_owner_can_sync_globally(world_factory: Any) -> None:
    async with world_factory() as w:
        w.bot.owner_ids = {w.mod.id}
        await w.alice.send(w.general, f"<@{w.bot.user.id}> sync")
        simcord.assert_error(w.env, commands.NotOwner)
        assert w.general.last_message.author.id == w.alice.id
        await w.mod.send(w.general, f"<@{w.bot.user.id}> sync")
        reply = w.general.last_message
        assert reply.author.id == w.bot.user.id
        # /audit, /compare, /claimcheck, /help, /disputes and the "Audit this message" menu
        assert reply.content == "Synced 6 commands (global)."
