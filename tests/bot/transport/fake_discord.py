"""A loopback "fake Discord": REST and gateway on 127.0.0.1, for smoke tests of the real
transport (discord.py's aiohttp HTTPClient with its 429 handling, and its DiscordWebSocket:
HELLO / IDENTIFY / READY / dispatch), the two layers simcord replaces.

Hooks: `discord.http.Route.BASE` (also used for interaction webhooks) and
`DiscordWebSocket.DEFAULT_GATEWAY`, both pointed here by the fixture. Two details of discord.py
2.7.1 matter: JSON bodies must be sent with a content type of exactly `application/json`
(`http.json_or_text`), and a 429 is honoured as a rate limit only when the response carries a
`Via` header (`http.py`, otherwise it is taken for a Cloudflare ban).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

WHEN = "2024-01-01T00:00:00+00:00"


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


class FakeDiscord:
    def __init__(self) -> None:
        ids = itertools.count(1_000_000_000_000_000)
        self.app_id, self.guild_id, self.channel_id, self.human_id = (str(next(ids)) for _ in range(4))
        self._ids = ids
        self.bot_user = {"id": self.app_id, "username": "claimcheck", "discriminator": "0",
                         "avatar": None, "bot": True, "global_name": None}
        self.human = {"id": self.human_id, "username": "alice", "discriminator": "0",
                      "avatar": None, "global_name": None}
        self.requests: list[tuple[str, str, Any]] = []
        self._changed = asyncio.Condition()
        self.identify: dict[str, Any] | None = None
        self.rate_limit_next_posts = 0
        self.ws: web.WebSocketResponse | None = None
        self.seq = 0
        self.port = 0
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)

    async def start(self) -> FakeDiscord:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        await self._runner.cleanup()

    # ---- gateway ------------------------------------------------------------------------

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self.ws is not None
        self.seq += 1
        await self.ws.send_str(json.dumps({"op": 0, "t": event, "s": self.seq, "d": data}))

    def _member(self, user: dict[str, Any]) -> dict[str, Any]:
        return {"user": user, "roles": [], "joined_at": WHEN, "deaf": False, "mute": False,
                "flags": 0}

    def _guild(self) -> dict[str, Any]:
        everyone = {"id": self.guild_id, "name": "@everyone", "permissions": str((1 << 41) - 1),
                    "position": 0, "color": 0, "hoist": False, "managed": False,
                    "mentionable": False, "flags": 0}
        return {"id": self.guild_id, "name": "G", "owner_id": self.human_id, "unavailable": False,
                "roles": [everyone], "emojis": [], "stickers": [], "features": [],
                "member_count": 2, "large": False, "joined_at": WHEN,
                "members": [self._member(self.bot_user), self._member(self.human)],
                "channels": [{"id": self.channel_id, "type": 0, "name": "general", "position": 0,
                              "permission_overwrites": []}],
                "threads": [], "voice_states": [], "presences": []}

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif frame["op"] == 2:
                self.identify = frame["d"]
                await self.dispatch("READY", {
                    "v": 10, "user": self.bot_user,
                    "guilds": [{"id": self.guild_id, "unavailable": True}], "session_id": "s1",
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                    "application": {"id": self.app_id, "flags": 0}})
                await self.dispatch("GUILD_CREATE", self._guild())
        return ws

    def _message(self, author: dict[str, Any], channel_id: str, **extra: Any) -> dict[str, Any]:
        return {"id": str(next(self._ids)), "channel_id": channel_id, "guild_id": self.guild_id,
                "author": author, "content": "", "timestamp": WHEN, "edited_timestamp": None,
                "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
                "attachments": [], "embeds": [], "pinned": False, "type": 0, **extra}

    async def user_says(self, content: str) -> dict[str, Any]:
        msg = self._message(self.human, self.channel_id, content=content,
                            member={"roles": [], "joined_at": WHEN, "deaf": False, "mute": False,
                                    "flags": 0})
        await self.dispatch("MESSAGE_CREATE", msg)
        return msg

    async def wait_for(self, pred: Callable[[tuple[str, str, Any]], bool], count: int = 1,
                       timeout: float = 10.0) -> tuple[str, str, Any]:
        """The `count`-th request matching `pred`, waiting for it to arrive."""
        async def seen() -> tuple[str, str, Any]:
            async with self._changed:
                while True:
                    hits = [r for r in self.requests if pred(r)]
                    if len(hits) >= count:
                        return hits[count - 1]
                    await self._changed.wait()

        return await asyncio.wait_for(seen(), timeout)

    # ---- REST ---------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            else:
                form = await request.post()
                body = json.loads(str(form["payload_json"])) if "payload_json" in form else None
        self.requests.append((request.method, path, body))
        async with self._changed:
            self._changed.notify_all()
        if request.method == "GET" and path == "/users/@me":
            return _json(self.bot_user)
        if request.method == "GET" and path == "/oauth2/applications/@me":
            return _json({"id": self.app_id, "name": "claimcheck", "icon": None,
                          "description": "", "bot_public": True, "bot_require_code_grant": False,
                          "verify_key": "x", "flags": 0, "owner": self.human, "team": None})
        parts = path.strip("/").split("/")
        if request.method == "POST" and len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            if self.rate_limit_next_posts > 0:
                self.rate_limit_next_posts -= 1
                return _json({"message": "You are being rate limited.", "retry_after": 0.05,
                              "global": False}, status=429,
                             headers={"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                                      "X-RateLimit-Reset-After": "0.05", "X-RateLimit-Bucket": "abc",
                                      "X-RateLimit-Scope": "user", "Retry-After": "1",
                                      "Via": "1.1 google"})
            msg = self._message(self.bot_user, parts[1], content=(body or {}).get("content") or "",
                                embeds=(body or {}).get("embeds") or [])
            if body and body.get("message_reference"):
                msg.update(message_reference=body["message_reference"], type=19)
            await self.dispatch("MESSAGE_CREATE", msg)
            return _json(msg)
        if request.method == "POST" and len(parts) == 5 and parts[2] == "messages" and parts[4] == "threads":
            thread = {"id": str(next(self._ids)), "type": 11, "guild_id": self.guild_id,
                      "parent_id": parts[1], "name": (body or {}).get("name", ""),
                      "owner_id": self.app_id, "message_count": 0, "member_count": 1,
                      "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                          "archive_timestamp": WHEN, "locked": False}}
            await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
            return _json(thread)
        return _json({"message": f"fake: no route {request.method} {path}", "code": 0}, status=404)
