"""The buttons under a report and the two forms they open (discord.py `ui`).

The buttons are persistent: fixed `custom_id`s read by `ReportButton` (a `ui.DynamicItem`
registered once with `bot.add_dynamic_items` in the feedback cog's load), so they keep working
after a restart. They hold no state: a click finds its report through the message it was clicked
on (`bot.store.replies.reply_for_report`). The callbacks are
the feedback cog's (`bot.cogs.feedback`); this module is only the shapes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

if TYPE_CHECKING:
    from bot.cogs.feedback import FeedbackCog

__all__ = ["BUTTONS", "DETAIL_FIELDS", "DetailsModal", "DisputeModal", "ReportButton", "custom_id",
           "report_view"]

PREFIX = "claimcheck:"


def custom_id(action: str) -> str:
    return PREFIX + action


# (the fact key of bot/facts.py, the label, a placeholder): what "Add details" asks for
DETAIL_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("hardware", "Hardware", "RTX 4090, H100 SXM, M3 Max …"),
    ("hardware_count", "How many cards", "1"),
    ("batch", "Batch size (concurrent requests)", "1"),
    ("format", "Weight format", "Q4_K_M, FP8, BF16, NVFP4 …"),
    ("engine", "Engine", "llama.cpp, vLLM, SGLang, MLX …"),
)


# action -> (label, style, the FeedbackCog method it calls)
BUTTONS: dict[str, tuple[str, discord.ButtonStyle, str]] = {
    "full": ("Full report", discord.ButtonStyle.secondary, "full_report"),
    "details": ("Add details", discord.ButtonStyle.primary, "ask_details"),
    "dispute": ("False alarm?", discord.ButtonStyle.danger, "ask_dispute"),
    "rerun": ("Re-run", discord.ButtonStyle.secondary, "rerun"),
}


class ReportButton(ui.DynamicItem[ui.Button[ui.View]],
                   template=r"claimcheck:(?P<action>full|details|dispute|rerun)"):
    """One of the report's buttons. A DynamicItem: discord.py finds it by its custom id's
    pattern (`bot.add_dynamic_items`), so it works on every report, past runs' included, and
    nothing is kept per message (a persistent `View` would be stored once per report sent)."""

    def __init__(self, action: str) -> None:
        label, style, _ = BUTTONS[action]
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id(action)))
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: ui.Item[Any], match: re.Match[str]) -> ReportButton:
        return cls(match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.cogs.feedback import FeedbackCog

        cog = interaction.client.get_cog("FeedbackCog")  # type: ignore[attr-defined]
        if isinstance(cog, FeedbackCog):
            await getattr(cog, BUTTONS[self.action][2])(interaction)


def report_view() -> ui.View:
    """Full report · Add details · False alarm? · Re-run."""
    view = ui.View(timeout=None)
    for action in BUTTONS:
        view.add_item(ReportButton(action))
    return view


class DetailsModal(ui.Modal, title="Add what the claim leaves out"):
    """Hardware, count, batch, weight format, engine: each becomes a fact stated by the member."""

    def __init__(self, cog: FeedbackCog, report_message_id: int) -> None:
        super().__init__(timeout=600)
        self.cog = cog
        self.report_message_id = report_message_id
        self.inputs: dict[str, ui.TextInput[DetailsModal]] = {}
        for key, label, placeholder in DETAIL_FIELDS:
            field: ui.TextInput[DetailsModal] = ui.TextInput(
                label=label, placeholder=placeholder, required=False, max_length=100,
                custom_id=custom_id(f"detail:{key}"))
            self.inputs[key] = field
            self.add_item(field)

    def facts(self) -> list[str]:
        """`key=value` for every field filled in (bot/facts.py reads them)."""
        return [f"{key}={field.value.strip()}" for key, field in self.inputs.items()
                if field.value and field.value.strip()]

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.add_details(interaction, self.report_message_id, self.facts())


class DisputeModal(ui.Modal, title="Why is this report wrong?"):
    reason: ui.TextInput[DisputeModal] = ui.TextInput(
        label="What is wrong, and how you know", style=discord.TextStyle.paragraph,
        min_length=3, max_length=1000, custom_id=custom_id("dispute:reason"))

    def __init__(self, cog: FeedbackCog, report_message_id: int) -> None:
        super().__init__(timeout=600)
        self.cog = cog
        self.report_message_id = report_message_id

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.record_dispute(interaction, self.report_message_id,
                                      self.reason.value.strip())
