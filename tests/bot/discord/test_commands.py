"""/audit, /compare and the moderators' /claimcheck group through discord.py's real
CommandTree and interaction responses (simcord)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord
from discord import app_commands

from tests.bot.discord.conftest import BOARD, POST, SHOT, message_posts, serve_headline
from tests.fixtures.web.loopback import Loopback

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


async def test_audit_with_text_answers_with_the_report(world_factory: Any) -> None:
    async with world_factory() as w:
        res = await w.alice.slash(w.general, "audit", input="Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s")
        (embed,) = res.response.embeds
        assert embed.title.startswith("implausible — 900\\.0 tok/s is 107\\.5× the batch\\-1 ceiling")
        assert embed.colour.value == 0xD7263D
        # The compact reply: the deciding questions and the sources; all eight are one click away.
        assert [f.name for f in embed.fields] == ["🛑 7 Roofline", "⚠️ 1 Evidence in the post",
                                                  "Sources"]
        assert [a.filename for a in res.response.attachments] == ["claimcheck.png"]
        posts = message_posts(w.env)
        assert posts and all(p["allowed_mentions"] == {"parse": []} for p in posts)


async def test_audit_with_a_url_follows_the_post_to_its_record(
    world_factory: Any, server: Loopback
) -> None:
    url = serve_headline(server)
    async with world_factory() as w:
        res = await w.alice.slash(w.general, "audit", input=url)
        (embed,) = res.response.embeds
        assert embed.title.startswith("implausible — 2103\\.6 tok/s is 16\\.3×")
        assert server.paths() == [POST, SHOT, BOARD]


async def test_audit_with_an_attached_tool_json_reads_the_file(world_factory: Any) -> None:
    data = (FIXTURES / "vllm_bench" / "llama31_8b_eagle3_conc4.json").read_bytes()
    async with world_factory() as w:
        res = await w.alice.slash(w.general, "audit", input="my run last night",
                                  file=("bench.json", data))
        (embed,) = res.response.embeds
        assert "bench\\.json" in next(f.value for f in embed.fields if f.name == "Sources")
        full = await w.alice.click(res.response.message, label="Full report")
        (embed,) = full.response.embeds
        roofline = next(f.value for f in embed.fields if f.name.endswith("7 Roofline"))
        assert roofline == ("No ceiling for 123\\.41 tok/s\\: the record and the reference lack "
                            "hardware\\.\nmissing: hardware")
        assert "bench\\.json" in next(f.value for f in embed.fields if f.name == "Sources")


async def test_an_attachment_over_the_cap_is_refused_with_a_sentence(world_factory: Any) -> None:
    async with world_factory(attachment_max_bytes=100) as w:
        res = await w.alice.slash(w.general, "audit", input="x", file=("big.json", b"{}" * 100))
        assert res.response.content == "That file is 200 bytes; I read attachments up to 100 bytes."


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("what is the best GPU?", "I could not find a speed claim to audit there: "),
        ("http://10.0.0.1/x", "I could not read that page: "),
    ],
)
async def test_bad_input_gets_one_sentence_not_a_traceback(
    world_factory: Any, text: str, sentence: str
) -> None:
    async with world_factory() as w:
        res = await w.alice.slash(w.general, "audit", input=text)
        assert res.response.content.startswith(sentence)
        assert "Traceback" not in res.response.content and res.response.embeds == []


async def test_audit_cooldown_tells_the_member_when_to_retry(world_factory: Any) -> None:
    async with world_factory(user_rate=1, user_per_s=30) as w:
        await w.alice.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 150 tok/s")
        res = await w.alice.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 160 tok/s")
        assert res.response.content == "Slow down: try again in 30 s."
        assert res.response.ephemeral
        simcord.assert_error(w.env, app_commands.CommandOnCooldown)


async def test_compare_answers_with_the_difference_table(world_factory: Any) -> None:
    async with world_factory() as w:
        res = await w.alice.slash(
            w.general, "compare", a="Llama 3.1 8B on one H100, batch 1, 150 tok/s",
            b="Llama 3.1 8B on one H100, batch 32, EAGLE3 window 8, 2400 tok/s")
        (embed,) = res.response.embeds
        body = embed.description
        assert body.startswith("```\nnot comparable as they stand; differs on 1 knob: batch.")
        assert "hardware        H100 SXM ×1   H100 SXM ×1   same" in body


async def test_a_moderator_command_is_refused_without_manage_server(world_factory: Any) -> None:
    async with world_factory() as w:
        res = await w.alice.slash(w.general, "claimcheck digest", channel=w.general, hour=9)
        assert res.response.content == "Only members with Manage Server can change claimcheck's settings."
        assert res.response.ephemeral
        simcord.assert_error(w.env, app_commands.CheckFailure, contains="Manage Server")
        posts = message_posts(w.env)
        assert len(posts) == 1 and posts[0]["allowed_mentions"] == {"parse": []}
        ok = await w.mod.slash(w.general, "claimcheck digest", channel=w.general, hour=9)
        assert ok.response.content == f"The daily digest goes to <#{w.general.id}> at 09:00 UTC."


async def test_watched_sources_are_added_listed_and_removed(world_factory: Any) -> None:
    async with world_factory() as w:
        url = "https://board.example/api/records"
        first = await w.mod.slash(w.general, "claimcheck source-add", url=url)
        again = await w.mod.slash(w.general, "claimcheck source-add", url=url)
        listed = await w.mod.slash(w.general, "claimcheck sources")
        gone = await w.mod.slash(w.general, "claimcheck source-remove", url=url)
        assert [first.response.content, again.response.content, listed.response.content,
                gone.response.content] == [
            f"Now watching <{url}>.", f"Already watching <{url}>.", f"<{url}>",
            f"Stopped watching <{url}>."]


async def test_two_different_texts_are_two_audits_and_the_same_text_is_reused(world_factory: Any) -> None:
    async with world_factory(user_rate=10) as w:
        a = await w.alice.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 150 tok/s")
        b = await w.alice.slash(w.general, "audit", input="Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s")
        again = await w.mod.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 150 tok/s")
        assert [r.response.embeds[0].title.split(" ")[0] for r in (a, b, again)] == [
            "consistent", "implausible", "consistent"]
        assert w.bot.auditor.audits_run == 2
        assert again.response.embeds[0].description.startswith(
            f"Audited before: https://discord.com/channels/{w.guild.id}/{w.general.id}/{a.response.id}")


async def test_audit_channel_cooldown_holds_across_members(world_factory: Any) -> None:
    async with world_factory(user_rate=5, channel_rate=2, channel_per_s=60) as w:
        first = await w.alice.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 150 tok/s")
        second = await w.mod.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 160 tok/s")
        third = await w.mod.slash(w.general, "audit", input="Llama 3.1 8B on one H100, batch 1, 170 tok/s")
        assert first.response.embeds and second.response.embeds
        assert third.response.content == "Slow down: try again in 60 s."
        simcord.assert_error(w.env, app_commands.CommandOnCooldown)
