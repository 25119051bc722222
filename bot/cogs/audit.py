"""`/audit input:<text or URL> [file:<attachment>]` and `/compare a:<…> b:<…>`.

The report is the compact one with its buttons (bot/cogs/feedback.py). Both defer at once (Discord wants an answer within 3 s; an audit that follows links takes
longer), then answer with a followup. An attachment is read only up to the configured cap.
Cooldowns are per member (`user_rate` per `user_per_s`) and per channel (`channel_rate` per
`channel_per_s`); a user over a limit is told when to try again. Every failure becomes one sentence in chat.
`/audit facts:"hardware=8x B200; batch=1"` adds what the record leaves out, each "stated by the
user" (bot/facts.py). `/compare` reads both claims and runs no checks.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import claimbot, error_sentence
from bot.cogs.feedback import FeedbackCog
from bot.core import Request
from bot.facts import parse_facts, split_facts
from bot.render.compare import render_comparison
from extractors.document import RawDocument
from extractors.errors import UsageError

__all__ = ["AuditCog", "setup"]


def _member_cooldown(interaction: discord.Interaction) -> app_commands.Cooldown:
    s = claimbot(interaction.client).settings.limits
    return app_commands.Cooldown(s.user_rate, s.user_per_s)


def _channel_cooldown(interaction: discord.Interaction) -> app_commands.Cooldown:
    s = claimbot(interaction.client).settings.limits
    return app_commands.Cooldown(s.channel_rate, s.channel_per_s)


def _channel_key(interaction: discord.Interaction) -> int | None:
    return interaction.channel_id


class AuditCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = claimbot(bot)

    @property
    def feedback(self) -> FeedbackCog:
        cog = self.bot.get_cog("FeedbackCog")
        assert isinstance(cog, FeedbackCog)  # loaded first (bot.app.COGS)
        return cog

    @app_commands.command(name="audit", description="Audit a speed claim: a URL, pasted text or a file")
    @app_commands.describe(input="a link to the post or record, or the claim's text",
                           file="a benchmark tool's JSON, a log or a leaderboard dump",
                           facts="what the record leaves out: key=value; key=value "
                                 "(hardware, batch, model, format, ...)")
    @app_commands.checks.dynamic_cooldown(_member_cooldown)
    @app_commands.checks.dynamic_cooldown(_channel_cooldown, key=_channel_key)
    async def audit(self, interaction: discord.Interaction, input: str,
                    file: discord.Attachment | None = None, facts: str | None = None) -> None:
        await interaction.response.defer(thinking=True)
        try:
            stated = parse_facts(split_facts(facts or ""))
        except UsageError as exc:
            await interaction.followup.send(f"Those facts cannot be read: {exc}")
            return
        cap = self.bot.settings.limits.attachment_max_bytes
        if file is not None and file.size > cap:
            await interaction.followup.send(
                f"That file is {file.size:,} bytes; I read attachments up to {cap:,} bytes.")
            return
        files = [RawDocument(await file.read(), source=file.filename[:100])] if file else []
        request = Request.from_message(input, files=files, facts=stated)
        if not request.docs and not request.urls:
            await interaction.followup.send("Give me a link, the claim's text, or a file to audit.")
            return
        outcome = await self.feedback.audit_for(interaction, f"interaction:{interaction.id}", request)
        if outcome is None:
            return
        note = None
        if outcome.reused and outcome.record.jump_url():
            note = f"Audited before: {outcome.record.jump_url()}"
        # The compact report with its buttons, recorded for them (bot/cogs/feedback.py).
        await self.feedback.answer_interaction(interaction, outcome, request, note=note)

    @app_commands.command(name="compare", description="Two claims side by side: the difference table")
    @app_commands.describe(a="the first claim (URL or text)", b="the second claim (URL or text)")
    @app_commands.checks.dynamic_cooldown(_member_cooldown)
    @app_commands.checks.dynamic_cooldown(_channel_cooldown, key=_channel_key)
    async def compare(self, interaction: discord.Interaction, a: str, b: str) -> None:
        await interaction.response.defer(thinking=True)
        try:
            comparison = await self.bot.app.compare(Request.from_message(a),
                                                    Request.from_message(b))
        except Exception as exc:
            await interaction.followup.send(error_sentence(exc))
            return
        table = render_comparison(comparison).replace("`", "'")
        body = table if len(table) <= 3900 else table[:3880] + "\n…(truncated)"
        embed = discord.Embed(title="Comparison", description=f"```\n{body}```", colour=0x4A6FA5)
        await interaction.followup.send(embed=embed,
                                        allowed_mentions=discord.AllowedMentions.none())

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CommandOnCooldown):
            text = f"Slow down: try again in {error.retry_after:.0f} s."
        else:
            original = getattr(error, "original", error)
            text = error_sentence(original)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AuditCog(bot))
