"""What the cogs share: the bot's typed parts, the report as a message (embed + chart), and one
sentence for every error a user can cause. Inputs are split by `bot.core.Request.from_message`
(the one grammar, `extractors.inputs`)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.render.chart import render_chart
from bot.render.discord import report_embed
from bot.render.escape import escape_untrusted
from bot.service import AuditOutcome
from extractors.errors import ExtractError, FetchError, UnusableInput

if TYPE_CHECKING:
    from bot.app import ClaimBot

__all__ = ["chart_file", "claimbot", "error_sentence", "report_message"]

log = logging.getLogger("claimcheck.bot")


def claimbot(client: Any) -> ClaimBot:
    """The running bot with its store, auditor and settings (both bot classes have them)."""
    return cast("ClaimBot", client)


def error_sentence(exc: BaseException) -> str:
    """One sentence for the user; never a traceback."""
    if isinstance(exc, FetchError):  # the reason may quote the user's URL: escaped
        return f"I could not read that page: {escape_untrusted(str(exc), limit=300)}"
    if isinstance(exc, UnusableInput | ExtractError):
        return f"I could not find a speed claim to audit there: {escape_untrusted(str(exc), limit=300)}"
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return "That took too long; try again later or attach the record as a file."
    log.exception("audit failed", exc_info=exc)
    return "Something went wrong on my side while auditing that; it has been logged."


async def chart_file(outcome: AuditOutcome) -> discord.File | None:
    """The chart as an attachment (drawn in a worker thread), or None when there is nothing to
    draw."""
    png = await asyncio.to_thread(render_chart, outcome.report, outcome.record.points)
    return None if png is None else discord.File(io.BytesIO(png), filename="claimcheck.png")


async def report_message(outcome: AuditOutcome, note: str | None = None, *,
                         chart: bool = True) -> dict[str, Any]:
    """kwargs for `send`: the embed, the chart (shown in the embed), no pings."""
    embed = report_embed(outcome.report, note=note)
    kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}
    file = await chart_file(outcome) if chart else None
    if file is not None:
        embed.set_image(url="attachment://claimcheck.png")
        kwargs["file"] = file
    return kwargs
