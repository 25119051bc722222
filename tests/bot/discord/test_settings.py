"""Per-server settings (`/claimcheck settings`) and the rate-limit hint, through simcord."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from tests.bot.discord.conftest import message_posts

CONSISTENT = "Llama 3.1 8B on one H100, batch 1, 150 tok/s"
IMPLAUSIBLE = "Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s"
INSUFFICIENT = "I got 40 tok/s"

DEFAULTS = [
    "**claimcheck settings for this server**",
    "- Default watch mode: `thread`",
    "- Threads open for: implausible, suspicious, insufficient, consistent (threshold "
    "`consistent`); a claim below it gets its verdict's reaction",
    "- Replies in claimcheck's threads: read as follow-ups of the thread's claim",
    "- Daily digest: off (`/claimcheck digest`)",
    "- Watched sources: 0",
    "- Rate limits: 3 claims per member per 60 s, 10 per channel per 60 s",
    "- Pictures (bot-wide): screenshots dropped in chat and up to 2 pictures per fetched post, "
    "8 MiB each at most, read by OCR",
    "- Channels: all on the default mode",
]


async def test_settings_shows_every_setting_and_only_moderators_see_it(world_factory: Any) -> None:
    async with world_factory() as w:
        res = await w.mod.slash(w.general, "claimcheck settings")
        assert res.response.ephemeral
        assert res.response.content.splitlines() == DEFAULTS
        res = await w.alice.slash(w.general, "claimcheck settings", thread_from="implausible")
        assert res.response.content == "Only members with Manage Server can change claimcheck's settings."
        simcord.assert_error(w.env, app_commands.CheckFailure, contains="Manage Server")
        mods = w.guild.create_text_channel("mods")
        await w.mod.slash(w.general, "claimcheck digest", channel=mods, hour=7)
        await w.mod.slash(w.general, "claimcheck watch", channel=mods, mode="off")
        res = await w.mod.slash(w.general, "claimcheck settings", follow_ups=False,
                                default_mode="react")
        lines = res.response.content.splitlines()
        assert lines[1] == "- Default watch mode: `react`"
        assert lines[2].startswith("- Threads open for: implausible, suspicious, insufficient, consistent")
        assert lines[3] == "- Replies in claimcheck's threads: not read"
        assert lines[4] == f"- Daily digest: <#{mods.id}> at 07:00 UTC"
        assert lines[8] == f"- Channels: <#{mods.id}> `off`"


@pytest.mark.parametrize(
    ("below", "reaction"),
    [("react", ["✅"]), ("nothing", [])],
)
async def test_a_consistent_claim_opens_no_thread_when_the_threshold_is_suspicious(
    world_factory: Any, below: str, reaction: list[str]
) -> None:
    async with world_factory() as w:
        res = await w.mod.slash(w.general, "claimcheck settings", thread_from="suspicious",
                                below=below)
        assert res.response.content.splitlines()[2] == (
            "- Threads open for: implausible, suspicious (threshold `suspicious`); a claim below "
            "it gets " + ("its verdict's reaction" if below == "react" else "nothing"))
        ok = await w.alice.send(w.general, CONSISTENT)
        assert w.general.threads == []
        assert w.bot.auditor.audits_run == 1  # audited (for the digest), answered quietly
        (mine,) = [m for m in w.general.history() if m.id == ok.id]
        assert [str(r.emoji) for r in mine.reactions] == reaction
        await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        assert thread.name == "900 tok/s · RTX 4090 · Llama 3.1 70B"
        assert thread.last_message.embeds[0].colour.value == 0xD7263D


async def test_the_default_mode_applies_to_channels_without_their_own(world_factory: Any) -> None:
    async with world_factory() as w:
        own = w.guild.create_text_channel("own")
        await w.mod.slash(w.general, "claimcheck watch", channel=own, mode="thread")
        await w.alice.send(w.general, CONSISTENT)  # read before the change: cached as thread
        assert len(w.general.threads) == 1
        await w.mod.slash(w.general, "claimcheck settings", default_mode="off")
        await w.alice.send(w.general, IMPLAUSIBLE)
        await w.alice.send(own, IMPLAUSIBLE)
        assert len(w.general.threads) == 1 and len(own.threads) == 1
        assert w.bot.auditor.audits_run == 2


async def test_a_rate_limited_member_gets_one_quiet_hint_per_window(world_factory: Any) -> None:
    async with world_factory(user_rate=2, user_per_s=60) as w:
        for n in range(5):
            await w.alice.send(w.general, f"I got {100 + n} tok/s")
        assert w.bot.auditor.audits_run == 2 and len(w.general.threads) == 2
        hints = [m for m in w.general.history()
                 if m.author.id == w.bot.user.id and m.type == discord.MessageType.reply]
        (hint,) = hints
        assert hint.content == ("-# claimcheck reads at most 2 claims per member every 60 s; your "
                                "messages in the next 60 s are not audited. `/audit` works on a "
                                "single claim.")
        assert hint.flags.suppress_notifications
        asked = [m for m in w.general.history() if m.author.id == w.alice.id]
        assert hint.reference.message_id == asked[2].id  # the first message over the limit
        assert [p["allowed_mentions"] for p in message_posts(w.env)][-1] == {
            "parse": [], "replied_user": False}  # no ping, not even of alice
        # Another member is not limited by alice's bucket and gets no hint.
        bob = w.guild.add_member(w.env.create_user("bob"))
        await bob.send(w.general, "I got 300 tok/s")
        assert w.bot.auditor.audits_run == 3
        # After the window, alice is read again; over the limit again, one new hint.
        await w.env.advance_time(61)
        for n in range(4):
            await w.alice.send(w.general, f"I got {200 + n} tok/s")
        assert w.bot.auditor.audits_run == 5
        hints = [m for m in w.general.history()
                 if m.author.id == w.bot.user.id and m.type == discord.MessageType.reply]
        assert len(hints) == 2


@pytest.mark.parametrize("follow_ups", [True, False])
async def test_a_reply_in_the_bots_thread_extends_the_threads_claim(
    world_factory: Any, follow_ups: bool
) -> None:
    async with world_factory() as w:
        await w.mod.slash(w.general, "claimcheck settings", follow_ups=follow_ups)
        await w.alice.send(w.general, INSUFFICIENT)
        (thread,) = w.general.threads
        assert thread.last_message.embeds[0].title.startswith("insufficient")
        await w.alice.send(thread, "on one RTX 4090 with Llama 3.1 8B Q4_K_M, batch 1")
        replies = [m for m in thread.history() if m.author.id == w.bot.user.id]
        assert len(w.general.threads) == 1  # never a second thread
        if not follow_ups:
            assert len(replies) == 1 and w.bot.auditor.audits_run == 1
            return
        assert len(replies) == 2 and w.bot.auditor.audits_run == 2
        (embed,) = replies[-1].embeds
        assert embed.description.startswith("Follow-up: read together with this thread's claim.")
        assert embed.title.startswith("consistent — 40\\.0 tok/s is 0\\.16 of the generous "
                                      "batch\\-1 ceiling of one RTX 4090")


@pytest.mark.parametrize(("post_images", "ocr", "shown"), [
    (2, True, "screenshots dropped in chat and up to 2 pictures per fetched post, 8 MiB each at most, "
              "read by OCR"),
    (1, True, "screenshots dropped in chat and up to 1 picture per fetched post, 8 MiB each at most, "
              "read by OCR"),
    (0, True, "screenshots dropped in chat and no pictures of fetched posts, read by OCR"),
    (2, False, "not read: OCR is not installed (`pip install 'claimcheck[ocr]'`)"),
])
def test_the_picture_policy_line_says_what_is_read(post_images: int, ocr: bool, shown: str) -> None:
    from bot.guild_policy import pictures_text

    assert pictures_text(post_images, 8 * 2**20, ocr=ocr) == shown
