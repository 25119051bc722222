"""Watching chat through discord.py's real code paths (simcord), pages on a loopback server."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.watch import prefilter
from tests.bot.discord.conftest import BOARD, POST, SHOT, message_posts, serve_headline
from tests.fixtures.web.loopback import Loopback

CONSISTENT = "Llama 3.1 8B on one H100, batch 1, 150 tok/s"
IMPLAUSIBLE = "Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s"


async def test_a_dropped_link_opens_a_thread_named_from_the_claim_with_embed_and_chart(
    world_factory: Any, server: Loopback
) -> None:
    url = serve_headline(server)
    async with world_factory() as w:
        await w.alice.send(w.general, f"look at this {url}")
        (thread,) = w.general.threads
        assert thread.name == "2103.6 tok/s · RTX 5090 · Qwen3.6-27B"
        msg = thread.last_message
        (embed,) = msg.embeds
        assert embed.colour.value == 0xD7263D
        assert embed.title.startswith("implausible — 2103\\.6 tok/s is 16\\.3×")
        fields = {f.name: f.value for f in embed.fields}
        assert fields["🛑 5 AL / window"].startswith("AL 56\\.0 / window 56 = 1\\.000")
        assert "ceiling of 128\\.9 tok/s" in fields["⚠️ 7 Roofline"]
        assert fields["Sources"].splitlines()[0] == f"<{url}> (html)"
        assert embed.footer.text.startswith("Circumstantial")
        assert embed.image.url == "attachment://claimcheck.png"
        assert [a.filename for a in msg.attachments] == ["claimcheck.png"]
        assert server.paths() == [POST, SHOT, BOARD]
        assert all(p["allowed_mentions"] == {"parse": []} for p in message_posts(w.env))


@pytest.mark.parametrize(
    "content",
    [
        "good morning everyone, anyone tried the new drivers?",
        "I have 2 GPUs and 64 GB of RAM",
        "meeting at 5, bring snacks",
    ],
)
async def test_small_talk_gets_nothing_and_fetches_nothing(
    world_factory: Any, server: Loopback, content: str
) -> None:
    serve_headline(server)
    async with world_factory() as w:
        await w.alice.send(w.general, content)
        assert w.general.threads == []
        assert [m.author.id for m in w.general.history()] == [w.alice.id]
        assert server.requests == [] and w.bot.auditor.audits_run == 0


@pytest.mark.parametrize(
    ("content", "text", "urls"),
    [
        ("hello there", None, ()),
        ("got 2103.6 tok/s on a 5090", "got 2103.6 tok/s on a 5090", ()),
        ("see https://x.example/p, wow", None, ("https://x.example/p",)),
        ("1,200 tokens/s batch 1", "1,200 tokens/s batch 1", ()),
        ("55 t/s here https://a.example/b", "55 t/s here", ("https://a.example/b",)),
        ("I have 2 GPUs", None, ()),
    ],
)
def test_prefilter_keeps_links_and_speed_claims_only(
    content: str, text: str | None, urls: tuple[str, ...]
) -> None:
    got = prefilter(content)
    if text is None and not urls:
        assert got is None
    else:
        assert got is not None and got.text == text and got.urls == urls


async def test_a_link_whose_page_has_no_claim_gets_no_reply(
    world_factory: Any, server: Loopback
) -> None:
    url = server.file("/about", "web/no_claim_page.html", "text/html")
    async with world_factory() as w:
        await w.alice.send(w.general, f"our board: {url}")
        assert w.general.threads == []
        assert [m.author.id for m in w.general.history()] == [w.alice.id]
        assert server.paths() == ["/about"]


async def test_a_pasted_claim_is_audited_in_a_thread(world_factory: Any) -> None:
    async with world_factory() as w:
        await w.alice.send(w.general, IMPLAUSIBLE)
        (thread,) = w.general.threads
        assert thread.name == "900 tok/s · RTX 4090 · Llama 3.1 70B"
        assert thread.last_message.embeds[0].title.startswith("implausible — 900\\.0 tok/s is 107\\.5×")


async def test_a_403_on_thread_creation_falls_back_to_a_reply(world_factory: Any) -> None:
    async with world_factory() as w:
        w.env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013,
                           message="Missing Permissions")
        sent = await w.alice.send(w.general, IMPLAUSIBLE)
        assert w.general.threads == []
        reply = w.general.last_message
        assert reply.author.id == w.bot.user.id
        assert reply.reference is not None and reply.reference.message_id == sent.id
        assert reply.embeds[0].title.startswith("implausible")


async def test_a_link_audited_before_points_to_the_earlier_thread_without_refetching(
    world_factory: Any, server: Loopback
) -> None:
    url = serve_headline(server)
    async with world_factory() as w:
        await w.alice.send(w.general, url)
        (thread,) = w.general.threads
        await w.mod.send(w.general, f"again: {url}")
        assert len(w.general.threads) == 1
        reply = w.general.last_message
        assert reply.content == (
            f"Audited before: https://discord.com/channels/{w.guild.id}/{thread.id}")
        assert server.paths() == [POST, SHOT, BOARD] and w.bot.auditor.audits_run == 1


async def test_a_reaudit_whose_verdict_changed_posts_the_update_in_the_original_thread(
    world_factory: Any, server: Loopback
) -> None:
    page = "<html><body><p>{}</p></body></html>"
    url = server.text("/post", page.format(CONSISTENT))
    async with world_factory(cache_lifetime_s=3600) as w:
        await w.alice.send(w.general, url)
        (first,) = w.general.threads
        assert first.last_message.embeds[0].title.startswith("consistent")
        server.text("/post", page.format(IMPLAUSIBLE))  # the author edited the post
        await w.env.advance_time(7200)
        await w.alice.send(w.general, url)
        assert len(w.general.threads) == 2
        update = first.last_message.embeds[0]
        assert update.description.startswith("Update: the verdict changed from consistent to implausible.")
        assert server.paths() == ["/post", "/post"]


async def test_react_mode_only_reacts_to_a_bad_claim(world_factory: Any) -> None:
    async with world_factory() as w:
        res = await w.mod.slash(w.general, "claimcheck watch", channel=w.general, mode="react")
        assert res.response.content == f"Watching <#{w.general.id}>: react."
        bad = await w.alice.send(w.general, IMPLAUSIBLE)
        await w.alice.send(w.general, CONSISTENT)
        assert w.general.threads == []
        (msg_bad, msg_ok) = [m for m in w.general.history() if m.author.id == w.alice.id][-2:]
        assert msg_bad.id == bad.id
        assert [str(r.emoji) for r in msg_bad.reactions] == ["🛑"]
        assert msg_ok.reactions == []


async def test_off_mode_audits_nothing(world_factory: Any) -> None:
    async with world_factory() as w:
        await w.mod.slash(w.general, "claimcheck watch", channel=w.general, mode="off")
        await w.alice.send(w.general, IMPLAUSIBLE)
        assert w.general.threads == [] and w.bot.auditor.audits_run == 0


async def test_a_member_over_the_rate_limit_is_not_audited(world_factory: Any) -> None:
    async with world_factory(user_rate=2, user_per_s=60) as w:
        for n in (100, 200, 300):
            await w.alice.send(w.general, f"Llama 3.1 8B on one H100, batch 1, {n} tok/s")
        assert len(w.general.threads) == 2
        await w.env.advance_time(61)
        await w.alice.send(w.general, "Llama 3.1 8B on one H100, batch 1, 400 tok/s")
        assert len(w.general.threads) == 3


async def test_no_ping_even_when_the_page_says_everyone(
    world_factory: Any, server: Loopback
) -> None:
    url = server.text("/post", "<html><head><title>@everyone look</title></head><body>"
                      f"<p>@everyone {IMPLAUSIBLE} <@123456789012345678></p></body></html>")
    async with world_factory() as w:
        await w.alice.send(w.general, url)
        (thread,) = w.general.threads
        posts = message_posts(w.env)
        assert posts and all(p["allowed_mentions"] == {"parse": []} for p in posts)
        text = str(thread.last_message.embeds[0].to_dict())
        assert "@everyone" not in text and "<@1234" not in text


async def test_messages_from_bots_are_ignored(world_factory: Any) -> None:
    async with world_factory() as w:
        other = w.guild.add_member(w.env.create_user("benchbot", bot=True))
        await other.send(w.general, IMPLAUSIBLE)
        assert w.general.threads == [] and w.bot.auditor.audits_run == 0
