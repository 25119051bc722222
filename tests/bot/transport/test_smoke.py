"""Smoke tests on the real transport: discord.py's aiohttp REST client and its gateway
websocket against a loopback fake Discord (tests/bot/transport/fake_discord.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket

from bot.app import create_bot
from bot.settings import Settings
from checks.reference import Reference
from tests.bot.transport.fake_discord import FakeDiscord

CLAIM = "Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s"


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord().start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(f"ws://127.0.0.1:{server.port}/gateway"))
    yield server
    await server.close()


@pytest.fixture
async def running(fake: FakeDiscord, tmp_path: Path, ref: Reference) -> AsyncIterator[Any]:
    bot = create_bot(Settings(db_path=tmp_path / "bot.sqlite3"), ref=ref)
    task = asyncio.create_task(bot.start("fake-token"))
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    yield bot
    await bot.close()
    await task


def _thread_post(fake: FakeDiscord) -> Any:
    def pred(r: tuple[str, str, Any]) -> bool:
        method, path, body = r
        return (method == "POST" and path.endswith("/messages") and isinstance(body, dict)
                and bool(body.get("embeds")) and not path.startswith(f"/channels/{fake.channel_id}/"))
    return pred


async def test_the_bot_logs_in_with_the_message_content_intent(fake: FakeDiscord, running: Any) -> None:
    assert [p for m, p, _ in fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    assert fake.identify is not None and fake.identify["token"] == "fake-token"
    assert fake.identify["intents"] & discord.Intents(message_content=True).value


async def test_a_message_create_gets_a_thread_and_the_report_without_pings(
    fake: FakeDiscord, running: Any
) -> None:
    said = await fake.user_says(CLAIM)
    _, path, body = await fake.wait_for(_thread_post(fake))
    threads = [b for m, p, b in fake.requests if p == f"/channels/{fake.channel_id}/messages/{said['id']}/threads"]
    assert threads == [{"name": "900 tok/s · RTX 4090 · Llama 3.1 70B", "auto_archive_duration": 1440,
                        "rate_limit_per_user": None}]
    assert body["allowed_mentions"] == {"parse": []}
    assert body["embeds"][0]["title"].startswith("implausible — 900\\.0 tok/s")


async def test_a_429_is_waited_out_and_the_report_still_arrives(
    fake: FakeDiscord, running: Any
) -> None:
    fake.rate_limit_next_posts = 1
    await fake.user_says(CLAIM)
    _, _, body = await fake.wait_for(_thread_post(fake), count=2)
    assert body["embeds"][0]["title"].startswith("implausible")
    posts = [p for m, p, b in fake.requests if m == "POST" and p.endswith("/messages")]
    assert len(posts) == 2 and posts[0] == posts[1]  # refused once, then delivered
    assert running.is_ready() and not running.is_closed()
