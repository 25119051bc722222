"""The report as a conversation, through discord.py's real code paths (simcord): the compact
reply and every button, the Add details form, disputes, the context menu, /help, an edited and a
deleted message, and the permission edges."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.cogs.feedback import HELP_TEXT, NOT_YOURS
from bot.digest import disputes_section
from bot.store.disputes import list_disputes
from bot.store.replies import reply_for_message

IMPLAUSIBLE = "Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s"
NO_HARDWARE = "Llama 3.1 8B, 150 tok/s"
BUTTONS = [("Full report", "claimcheck:full"), ("Add details", "claimcheck:details"),
           ("False alarm?", "claimcheck:dispute"), ("Re-run", "claimcheck:rerun")]


def _buttons(message: Any) -> list[tuple[str, str]]:
    return [(c.label, c.custom_id) for row in message.components for c in row.children]


async def test_the_thread_opens_with_a_compact_embed_the_chart_and_four_buttons(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        msg = thread.last_message
        (embed,) = msg.embeds
        assert embed.title == ("implausible — 900\\.0 tok/s is 107\\.5× the batch\\-1 ceiling of "
                               "one RTX 4090 \\(141\\.1 GB of BF16 weights, 0\\.82 of them read from system "
                               "memory\\)")
        assert embed.description == ("no evidence in the post; no config found\n"
                                     "*Llama 3\\.1 70B · BF16 · RTX 4090 ×1 · pasted text*")
        assert [f.name for f in embed.fields] == ["🛑 7 Roofline", "⚠️ 1 Evidence in the post",
                                                  "Sources"]
        assert embed.image.url == "attachment://claimcheck.png"
        assert _buttons(msg) == BUTTONS


async def test_full_report_is_ephemeral_with_the_eight_questions_and_the_markdown_file(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        res = await w.mod.click(thread.last_message, label="Full report")
        assert res.ephemeral
        (embed,) = res.response.embeds
        assert [f.name.split(" ", 2)[1] for f in embed.fields[:8]] == list("12345678")
        assert [a.filename for a in res.response.attachments] == ["claimcheck-report.md"]


async def test_add_details_reaudits_with_the_members_facts_and_edits_the_report(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, NO_HARDWARE)
        (thread,) = w.general.threads
        report = thread.last_message
        assert report.embeds[0].title == "insufficient — too little to judge 150\\.0 tok/s"
        by_mod = await w.mod.click(report, label="Add details")  # a moderator may
        assert by_mod.modal is not None
        other = w.guild.add_member(w.env.create_user("bob"))
        denied = await other.click(report, label="Add details")
        assert denied.ephemeral and denied.response.content == NOT_YOURS
        shown = await w.alice.click(report, label="Add details")
        assert shown.modal is not None and shown.modal["title"] == "Add what the claim leaves out"
        done = await w.alice.submit_modal(shown, {"claimcheck:detail:hardware": "H100 SXM",
                                                  "claimcheck:detail:batch": "1"})
        assert done.response.content == "Re-audited with your details: consistent."
        edited = thread.last_message
        assert edited.id == report.id  # edited in place, not a new message
        (embed,) = edited.embeds
        assert embed.title.startswith("consistent — 150\\.0 tok/s is 0\\.")
        assert embed.description.startswith(
            "Updated with details stated by alice: hardware=H100 SXM; batch=1.")
        assert thread.name == "150 tok/s · H100 SXM · Llama 3.1 8B"
        row = await reply_for_message(w.bot.store, w.general.history()[0].id)
        assert row is not None and row.request.facts == ("hardware=H100 SXM", "batch=1")


async def test_add_details_with_a_bad_value_answers_in_one_sentence(world_factory: Any) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, NO_HARDWARE)
        (thread,) = w.general.threads
        shown = await w.alice.click(thread.last_message, label="Add details")
        done = await w.alice.submit_modal(shown, {"claimcheck:detail:batch": "zero"})
        assert done.ephemeral
        assert done.response.content.startswith(
            "Those details cannot be read: batch='zero' is not a whole number")


async def test_false_alarm_records_a_dispute_a_moderator_resolves(world_factory: Any) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        shown = await w.alice.click(thread.last_message, label="False alarm?")
        assert shown.modal is not None and shown.modal["title"] == "Why is this report wrong?"
        done = await w.alice.submit_modal(shown, {"claimcheck:dispute:reason":
                                                  "it was the 8B, not the 70B"})
        assert done.ephemeral and done.response.content.startswith("Dispute #1 recorded")
        (dispute,) = await list_disputes(w.bot.store, w.guild.id, state="open")
        assert (dispute.raised_by, dispute.reason) == (w.alice.id, "it was the 8B, not the 70B")
        listed = await w.mod.slash(w.general, "disputes list")
        assert listed.response.content.startswith(
            f"#1 by <@{w.alice.id}>: it was the 8B, not the 70B — [report](https://discord.com/")
        nope = await w.alice.slash(w.general, "disputes resolve", number=1, note="no")
        assert nope.response.content == "Only members with Manage Server can resolve disputes."
        ok = await w.mod.slash(w.general, "disputes resolve", number=1, note="re-posted as 8B")
        assert ok.response.content == "Dispute #1 resolved."
        again = await w.mod.slash(w.general, "disputes resolve", number=1, note="x")
        assert again.response.content == "There is no open dispute #1 in this server."
        (resolved,) = await list_disputes(w.bot.store, w.guild.id)
        assert (resolved.state, resolved.resolved_by, resolved.resolution) == (
            "resolved", w.mod.id, "re-posted as 8B")
        jump = f"https://discord.com/channels/{w.guild.id}/{thread.id}/{thread.last_message.id}"
        since = resolved.created_at - timedelta(days=1)
        now = resolved.created_at + timedelta(days=1)
        # the digest titles the section itself ("**Disputes** (n)"): these are its lines
        assert await disputes_section(w.bot.store, w.guild.id, since=since, now=now) == [
            f"- #1 **resolved: re\\-posted as 8B** — <@{w.alice.id}>: it was the 8B, not the "
            f"70B — [report]({jump})"]
        assert resolved.resolved_at is not None
        later = resolved.resolved_at + timedelta(seconds=1)  # resolved before the last digest
        assert await disputes_section(w.bot.store, w.guild.id, since=later, now=now) == []


async def test_rerun_audits_afresh_and_says_so(world_factory: Any) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        res = await w.mod.click(thread.last_message, label="Re-run")
        assert res.response.content == "Re-run: implausible."
        assert w.bot.auditor.audits_run == 2
        assert thread.last_message.embeds[0].description.startswith("Re-run by mod.")


async def test_the_context_menu_audits_a_message_in_an_unwatched_channel(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        quiet = w.guild.create_text_channel("quiet")
        await w.mod.slash(w.general, "claimcheck watch", channel=quiet, mode="off")
        msg = await w.alice.send(quiet, IMPLAUSIBLE)
        assert quiet.threads == [] and w.bot.auditor.audits_run == 0
        res = await w.mod.context_menu(quiet, "Audit this message", msg)
        reply = res.response
        assert reply.embeds[0].title.startswith("implausible — 900\\.0 tok/s is 107\\.5×")
        full = await w.mod.click(reply.message, label="Full report")
        assert len(full.response.embeds[0].fields) >= 8


async def test_help_is_one_short_ephemeral_message_and_a_mention_gets_it_too(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        res = await w.alice.slash(w.general, "help")
        assert res.ephemeral and res.response.content == HELP_TEXT
        assert len(HELP_TEXT) < 2000
        await w.alice.send(w.general, f"{w.bot.user.mention} help")
        assert w.general.last_message.content == HELP_TEXT


async def test_an_edited_message_is_reaudited_and_its_report_edited_in_place(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        sent = await w.alice.send(w.general, "Llama 3.1 8B on one H100, batch 1, 15000 tok/s")
        (thread,) = w.general.threads
        report = thread.last_message
        assert report.embeds[0].title.startswith("implausible — 15000\\.0 tok/s is 18\\.0×")
        await w.alice.edit(sent, "Llama 3.1 8B on one H100, batch 1, 150 tok/s")
        assert len(w.general.threads) == 1
        edited = thread.last_message
        assert edited.id == report.id
        (embed,) = edited.embeds
        assert embed.title.startswith("consistent — 150\\.0 tok/s")
        assert embed.description.startswith(
            "Updated: the message was edited (this report was implausible, 15000 tok/s).")
        assert thread.name == "150 tok/s · H100 SXM · Llama 3.1 8B"
        row = await reply_for_message(w.bot.store, sent.id)
        assert row is not None and row.edits == 1
        await w.alice.edit(sent, "Llama 3.1 8B on one H100, batch 1, 150 tok/s")  # same text
        assert w.bot.auditor.audits_run == 2


@pytest.mark.parametrize(("on_delete", "state"), [("delete", "deleted"), ("archive", "archived")])
async def test_a_deleted_message_takes_its_thread_with_it(
    world_factory: Any, on_delete: str, state: str
) -> None:
    async with world_factory(on_delete=on_delete) as w:
        sent = await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        await w.alice.delete(sent)
        row = await reply_for_message(w.bot.store, sent.id)
        assert row is not None and row.state == state
        if on_delete == "delete":
            assert w.general.threads == []
        else:
            stored = w.env.backend.get_channel(thread.id)
            assert stored.thread_metadata is not None
            assert stored.thread_metadata.archived and stored.thread_metadata.locked
            assert thread.last_message.content == ("The message this audit answered was deleted; "
                                                   "the thread is archived and locked.")


@pytest.mark.parametrize(
    ("denied", "where"),
    [
        ({"create_public_threads": False}, "reply"),
        ({"send_messages_in_threads": False}, "reply"),
        ({"create_public_threads": False, "send_messages": False}, "nothing"),
    ],
)
async def test_permissions_are_checked_before_a_thread_is_created(
    world_factory: Any, caplog: pytest.LogCaptureFixture, denied: dict[str, bool], where: str
) -> None:
    async with world_factory() as w:
        me = w.guild.me
        ch = w.guild.create_text_channel("locked", overwrites={
            me: discord.PermissionOverwrite(**denied)})
        with caplog.at_level(logging.WARNING, logger="claimcheck.bot"):
            sent = await w.alice.send(ch, IMPLAUSIBLE)
        assert ch.threads == []  # never an empty thread
        last = ch.last_message
        if where == "reply":
            assert last.author.id == w.bot.user.id and last.reference.message_id == sent.id
            assert last.embeds[0].title.startswith("implausible")
        else:
            assert last.id == sent.id
            assert f"watch: no permission to answer in channel {ch.id}" in caplog.text


async def test_a_forbidden_send_in_the_thread_deletes_the_thread_and_replies_instead(
    world_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    async with world_factory() as w:
        w.env.inject_error("POST", "/channels/*/messages", status=403, code=50013,
                           message="Missing Permissions", times=1)
        with caplog.at_level(logging.WARNING, logger="claimcheck.bot"):
            sent = await w.alice.send(w.general, IMPLAUSIBLE)
        assert w.general.threads == []  # the empty thread was deleted
        assert "report in thread" in caplog.text and "forbidden (403 50013)" in caplog.text
        reply = w.general.last_message
        assert reply.author.id == w.bot.user.id and reply.reference.message_id == sent.id


async def test_every_send_forbidden_is_logged_never_raised(
    world_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    async with world_factory() as w:
        w.env.inject_error("POST", "/channels/*/messages", status=403, code=50013,
                           message="Missing Permissions", times=None)
        with caplog.at_level(logging.WARNING, logger="claimcheck.bot"):
            sent = await w.alice.send(w.general, IMPLAUSIBLE)  # simcord fails on a raised error
        assert w.general.threads == []
        assert [m for m in w.general.history() if m.embeds] == []
        assert f"reply to message {sent.id}: forbidden (403 50013)" in caplog.text


async def test_after_a_restart_the_buttons_and_edits_still_find_their_report(
    world_factory: Any, tmp_path: Any, server: Any, ref: Any
) -> None:
    from bot.app import create_bot
    from tests.bot.discord.conftest import make_settings
    from tests.fixtures.web.loopback import loopback_network

    async with world_factory() as w:
        sent = await w.alice.send(w.general, "Llama 3.1 8B on one H100, batch 1, 15000 tok/s")
        (thread,) = w.general.threads
        report = thread.last_message
        fresh = create_bot(make_settings(tmp_path, server), ref=ref, network=loopback_network)
        try:
            await w.env.restart_bot(fresh)  # a new process: nothing in memory, the same store
            full = await w.mod.click(report, label="Full report")
            assert full.ephemeral and len(full.response.embeds[0].fields) >= 8
            await w.alice.edit(sent, "Llama 3.1 8B on one H100, batch 1, 150 tok/s")
            assert thread.last_message.embeds[0].title.startswith("consistent — 150\\.0 tok/s")
            assert fresh.auditor.audits_run == 1
        finally:
            await fresh.close()


async def test_an_edit_counts_against_the_rate_limit_like_a_new_message(world_factory: Any) -> None:
    from bot.cogs.feedback import EDIT_LIMITED

    async with world_factory(user_rate=2, user_per_s=60) as w:
        sent = await w.alice.send(w.general, "Llama 3.1 8B on one H100, batch 1, 15000 tok/s")
        (thread,) = w.general.threads
        await w.alice.edit(sent, "Llama 3.1 8B on one H100, batch 1, 1500 tok/s")  # the 2nd audit
        assert thread.last_message.embeds[0].title.startswith("suspicious — 1500\\.0 tok/s")
        await w.alice.edit(sent, "Llama 3.1 8B on one H100, batch 1, 150 tok/s")  # over the limit
        assert w.bot.auditor.audits_run == 2
        report = thread.last_message
        assert report.content == EDIT_LIMITED
        assert report.embeds[0].title.startswith("suspicious — 1500\\.0 tok/s")
        hint = w.general.last_message
        assert hint.author.id == w.bot.user.id and hint.reference.message_id == sent.id
        assert hint.content.startswith("-# claimcheck reads at most 2 claims per member every 60 s")
        await w.env.advance_time(61)
        await w.alice.edit(sent, "Llama 3.1 8B on one H100, batch 1, 151 tok/s")
        assert thread.last_message.embeds[0].title.startswith("consistent — 151\\.0 tok/s")


async def test_the_context_menus_report_follows_its_messages_edit_and_delete(
    world_factory: Any,
) -> None:
    """"Audit this message" is about that message: an edit re-audits the report in place, as a
    watched message's; a delete takes the report with it (the row is kept, marked)."""
    from bot.store.replies import replies_for_message

    async with world_factory() as w:
        quiet = w.guild.create_text_channel("quiet")
        await w.mod.slash(w.general, "claimcheck watch", channel=quiet, mode="off")
        msg = await w.alice.send(quiet, IMPLAUSIBLE)
        res = await w.mod.context_menu(quiet, "Audit this message", msg)
        report = res.response.message
        assert report.embeds[0].title.startswith("implausible — 900\\.0 tok/s")
        await w.alice.edit(msg, "Llama 3.1 8B on one H100, batch 1, 150 tok/s")
        edited = quiet.history()[-1]
        assert edited.id == report.id
        assert edited.embeds[0].title.startswith("consistent — 150\\.0 tok/s")
        assert edited.embeds[0].description.startswith(
            "Updated: the message was edited (this report was implausible, 900 tok/s).")
        await w.alice.delete(msg)
        assert [m.id for m in quiet.history()] == []
        (row,) = await replies_for_message(w.bot.store, msg.id)
        assert (row.state, row.reply_message_id, row.message_id) == ("deleted", report.id, msg.id)
        assert row.source_id != msg.id  # the interaction's row, found through its message


async def test_a_claim_deleted_while_the_bot_was_offline_takes_its_thread_at_start(
    world_factory: Any, tmp_path: Any, server: Any, ref: Any
) -> None:
    """No event reaches a bot that is not connected: at READY it fetches the messages of its
    live reports once (no channel history) and takes down those whose message is gone."""
    from bot.app import create_bot
    from tests.bot.discord.conftest import make_settings
    from tests.fixtures.web.loopback import loopback_network

    async with world_factory() as w:
        kept = await w.alice.send(w.general, IMPLAUSIBLE)
        gone = await w.alice.send(w.general, "Llama 3.1 8B on one H100, batch 1, 15000 tok/s")
        assert len(w.general.threads) == 2
        fresh = create_bot(make_settings(tmp_path, server), ref=ref, network=loopback_network)
        try:
            w.env.backend.delete_message(w.general.id, gone.id)  # no bot is told
            await w.env.restart_bot(fresh)
            assert [t.id for t in w.general.threads] == [kept.id]
            row = await reply_for_message(fresh.store, gone.id)
            assert row is not None and row.state == "deleted"
            still = await reply_for_message(fresh.store, kept.id)
            assert still is not None and still.state == "live"
        finally:
            await fresh.close()
