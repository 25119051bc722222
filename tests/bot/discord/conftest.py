"""The bot under simcord (an in-process Discord running discord.py's real Bot, Cogs, CommandTree,
state parsers, HTTPClient routes and tasks), with pages served by a loopback aiohttp server.

DNS answers nothing and the socket factory refuses any address but 127.0.0.1, so the bot can reach
only the test's own server; the store is a real SQLite file in tmp_path.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import ClaimBot, ShardedClaimBot, create_bot
from bot.settings import Settings
from checks.reference import Reference
from tests.fixtures.web.loopback import Loopback, loopback_network

POST = "/posts/new-record"
BOARD = "/api/records"
SHOT = "/img/leaderboard-screenshot.png"  # the post's picture: fetched for OCR, not served (404)


def serve_headline(server: Loopback) -> str:
    """The headline post (2103.6 tok/s) linking the community board record r-56 and siblings."""
    server.file(BOARD, "generic_board/community_board.json")
    return server.file(POST, "web/headline_post.html", "text/html; charset=utf-8")


def message_posts(env: Any) -> list[dict[str, Any]]:
    """The JSON of every request that sent or edited a message (channel sends, replies,
    interaction responses and followups)."""
    bodies = [e.json.get("data", e.json) for e in env.http_requests
              if e.method in ("POST", "PATCH") and isinstance(e.json, dict)]
    return [b for b in bodies if isinstance(b, dict) and {"content", "embeds"} & b.keys()]


@dataclass
class World:
    env: Any
    bot: ClaimBot | ShardedClaimBot
    guild: Any
    general: Any
    alice: Any
    mod: Any


def make_settings(tmp_path: Path, server: Loopback, **over: Any) -> Settings:
    # simcord's settle waits in real time for a timer due before its deadline (12 s here: a
    # reading worker's CPU time on two shared cores, with the suite's other worker busy beside
    # it, can pass simcord's 5 s default). The fetch timeouts are later than that, so they are
    # parked, never waited out. aiohttp's keep-alive cleanup timer is put an hour away: at its
    # 15 s default, a test that runs longer than that on a loaded machine had it fire in real
    # time in the middle of a wave of messages, and simcord's advance of the clock to it could
    # not settle before the wave's deadline ("bot did not settle while advancing time").
    # The reading workers skip the OCR warm-up (about a CPU-second each) unless a test asks.
    given: dict[str, Any] = {"total_timeout_s": 25.0, "fetch_deadline_s": 30.0,
                             "keepalive_s": 3600.0, "warm_ocr": False, **over}
    return Settings(db_path=tmp_path / "bot.sqlite3", allow_hosts=[server.host], **given)


@pytest.fixture
def world_factory(tmp_path: Path, server: Loopback, ref: Reference) -> Callable[..., Any]:
    """`async with world_factory(**settings) as w:` a running bot in one guild with a member
    alice and a moderator (Manage Server)."""
    import contextlib

    import discord

    @contextlib.asynccontextmanager
    async def make(settle_timeout: float = 12.0, **over: Any) -> AsyncIterator[World]:
        # Every bot here fetches from loopback only: its network is passed in.
        b = create_bot(make_settings(tmp_path, server, **over), ref=ref, network=loopback_network)
        try:
            async with simcord.run(b, strict_sync=False, settle_timeout=settle_timeout) as env:
                g = env.create_guild("LocalLLM")
                ch = g.create_text_channel("general")
                alice = g.add_member(env.create_user("alice"))
                mods = g.create_role("mods", permissions=discord.Permissions(manage_guild=True))
                mod = g.add_member(env.create_user("mod"), roles=[mods])
                yield World(env=env, bot=b, guild=g, general=ch, alice=alice, mod=mod)
        finally:
            await b.close()  # simcord detaches the bot but leaves closing it to its owner

    return make
