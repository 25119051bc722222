"""The safe fetcher against real aiohttp servers on 127.0.0.1 (loopback only, nothing else).

Every test injects a resolver spy (no real DNS) and a socket spy that records each connection
attempt and refuses, as a test-side safety net, to open a socket to anything but loopback.
"Made no connection" is asserted three ways: the server saw no request, the socket spy saw no
attempt, and (where the name is never resolved) the resolver spy saw no lookup.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypedDict, cast

import aiohttp
import pytest
from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.test_utils import TestServer

import extractors.fetch as fetch_pkg
from extractors.errors import (
    FetchBadResponse,
    FetchError,
    FetchRefused,
    FetchTimeout,
    FetchTooLarge,
)
from extractors.fetch import FetchPolicy, SafeFetcher, open_session
from extractors.fetch.fetch_policy import USER_AGENT
from extractors.fetch.guards import GuardedConnector, _AddressRefused
from extractors.storage import MemoryRawStore, RawStore, StoredBody

MiB = 1024 * 1024
PAYLOAD = {"results": [{"gpu": "RTX 4090", "tokens_per_second": 123.4}]}


# ---- spies ------------------------------------------------------------------------------------


class SpyResolver(AbstractResolver):
    """Answers from a fixed table; never asks real DNS."""

    def __init__(self, answers: dict[str, list[str]] | None = None) -> None:
        self.answers = answers or {}
        self.calls: list[str] = []

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        self.calls.append(host)
        if host not in self.answers:
            raise OSError(f"test resolver has no answer for {host}")
        return [
            ResolveResult(
                hostname=host,
                host=ip,
                port=port,
                family=socket.AF_INET6 if ":" in ip else socket.AF_INET,
                proto=0,
                flags=0,
            )
            for ip in self.answers[host]
        ]

    async def close(self) -> None:
        pass


@dataclass
class SocketSpy:
    calls: list[tuple[str, int]] = field(default_factory=list)

    def __call__(self, addr_info: tuple) -> socket.socket:
        family, type_, proto, _, sockaddr = addr_info
        self.calls.append((sockaddr[0], sockaddr[1]))
        if not ipaddress.ip_address(sockaddr[0]).is_loopback:  # test safety net
            raise OSError(f"test refuses to connect to non-loopback {sockaddr[0]}")
        sock = socket.socket(family=family, type=type_, proto=proto)
        sock.setblocking(False)
        return sock


# ---- the loopback server ----------------------------------------------------------------------


class BigBody(TypedDict):
    """What the /big route has sent so far, and whether it has stopped."""

    sent: int
    done: asyncio.Event


@dataclass
class Server:
    port: int
    hits: list[str]
    headers: list[dict[str, str]]
    release: asyncio.Event
    big: BigBody

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def entry(self) -> str:
        return f"127.0.0.1:{self.port}"


def _app(
    hits: list[str], headers: list[dict[str, str]], release: asyncio.Event, big: BigBody
) -> web.Application:
    routes = web.RouteTableDef()

    @web.middleware
    async def count(request: web.Request, handler: Callable[..., Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        hits.append(request.path)
        headers.append(dict(request.headers))
        return await handler(request)

    @routes.get("/json")
    async def json_body(request: web.Request) -> web.Response:
        return web.json_response(PAYLOAD)

    @routes.get("/slow-json")
    async def slow_json(request: web.Request) -> web.Response:
        await asyncio.sleep(0.2)
        return web.json_response(PAYLOAD)

    @routes.get("/html")
    async def html(request: web.Request) -> web.Response:
        return web.Response(text="<html><body>42 tok/s</body></html>", content_type="text/html")

    @routes.get("/text")
    async def text(request: web.Request) -> web.Response:
        return web.Response(text="eval time = 1000 ms / 42 tokens", content_type="text/plain")

    @routes.get("/png")
    async def png(request: web.Request) -> web.Response:
        return web.Response(body=b"\x89PNG\r\n\x1a\n", content_type="image/png")

    @routes.get("/no-type")
    async def no_type(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        resp.content_length = 2
        await resp.prepare(request)
        await resp.write(b"{}")
        return resp

    @routes.get("/typed/{kind}")
    async def typed(request: web.Request) -> web.Response:
        # A body and the generic label it is served with (issue 6 part 8).
        bodies = {"json": b'{"output_throughput": 150.2}', "text": b"eval time = 1000 ms / 42 tokens",
                  "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4,
                  "noise": bytes((i * 7919) % 256 for i in range(20000))}
        kind = request.match_info["kind"]
        mime = request.query.get("type", "application/octet-stream")
        return web.Response(body=bodies[kind], headers={"Content-Type": mime})

    @routes.get("/status/{code}")
    async def status(request: web.Request) -> web.Response:
        return web.Response(status=int(request.match_info["code"]), text="no")

    @routes.get("/redirect")
    async def redirect(request: web.Request) -> web.Response:
        raise web.HTTPFound(request.query["to"])

    @routes.get("/chain/{n}")
    async def chain(request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        if n == 0:
            return web.json_response(PAYLOAD)
        raise web.HTTPFound(f"/chain/{n - 1}")

    @routes.get("/loop")
    async def loop(request: web.Request) -> web.Response:
        raise web.HTTPFound("/loop")

    @routes.get("/set-cookie")
    async def set_cookie(request: web.Request) -> web.Response:
        resp = web.HTTPFound("/echo")
        resp.set_cookie("session", "secret")
        raise resp

    @routes.get("/echo")
    async def echo(request: web.Request) -> web.Response:
        return web.json_response(dict(request.headers))

    @routes.get("/stall")
    async def stall(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "application/json"})
        await resp.prepare(request)
        await resp.write(b'{"partial": ')
        await release.wait()  # set at teardown, so the server can shut down promptly
        return resp

    @routes.get("/big")
    async def big_body(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/html"})  # chunked, no length
        await resp.prepare(request)
        chunk = b"x" * (64 * 1024)
        try:
            while big["sent"] < 50 * MiB:
                await resp.write(chunk)
                big["sent"] += len(chunk)
        except (ConnectionError, aiohttp.ClientConnectionResetError):
            pass
        finally:
            big["done"].set()
        return resp

    @routes.get("/declared-big")
    async def declared_big(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/html"})
        resp.content_length = 3 * MiB
        await resp.prepare(request)
        await resp.write(b"x" * 1024)
        return resp

    app = web.Application(middlewares=[count])
    app.add_routes(routes)
    return app


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    hits: list[str] = []
    headers: list[dict[str, str]] = []
    release = asyncio.Event()
    big: BigBody = {"sent": 0, "done": asyncio.Event()}
    test_server = TestServer(_app(hits, headers, release, big), host="127.0.0.1")
    await test_server.start_server()
    assert test_server.port is not None  # bound by start_server
    try:
        yield Server(test_server.port, hits, headers, release, big)
    finally:
        release.set()
        await test_server.close()


@dataclass
class Rig:
    fetcher: SafeFetcher
    store: RawStore
    resolver: SpyResolver
    sockets: SocketSpy
    session: aiohttp.ClientSession


MakeRig = Callable[..., Awaitable[Rig]]


@pytest.fixture
async def make_rig(server: Server) -> AsyncIterator[MakeRig]:
    """Builds fetchers whose allow-list is exactly the loopback server unless told otherwise."""
    async with AsyncExitStack() as stack:

        async def make(
            *,
            allow: set[str] | None = None,
            answers: dict[str, list[str]] | None = None,
            store: RawStore | None = None,
            **policy_fields: object,
        ) -> Rig:
            policy = FetchPolicy(
                allow_hosts=frozenset({server.entry} if allow is None else allow),
                **policy_fields,
            )
            resolver, sockets = SpyResolver(answers), SocketSpy()
            session = await stack.enter_async_context(
                open_session(policy, resolver=resolver, socket_factory=sockets)
            )
            store = store if store is not None else MemoryRawStore()
            return Rig(SafeFetcher(session, store, policy), store, resolver, sockets, session)

        yield make


# ---- the happy path ---------------------------------------------------------------------------


async def test_json_body_is_fetched_stored_and_read_back_from_the_store(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    url = server.url("/redirect?to=/chain/1")
    got = await rig.fetcher.fetch(url)

    body = json.dumps(PAYLOAD).encode()
    assert got.sha256 == hashlib.sha256(body).hexdigest()
    assert got.size == len(body)
    assert await rig.store.get_raw(got.sha256) == body
    assert got.url == url
    assert got.final_url == server.url("/chain/0")
    assert got.redirects == (url, server.url("/chain/1"))
    assert got.status == 200
    assert got.content_type is not None and got.content_type.startswith("application/json")
    assert got.fetched_at.tzinfo is not None

    doc = await got.document()
    assert doc.json() == PAYLOAD
    assert doc.source == url

    source = got.source()
    assert (source.sha256, source.final_url, source.kind) == (got.sha256, got.final_url, "record")
    assert source.redirects == list(got.redirects)
    assert server.hits == ["/redirect", "/chain/1", "/chain/0"]
    assert all(host == "127.0.0.1" for host, _ in rig.sockets.calls)
    assert rig.resolver.calls == []  # an IP literal never reaches the resolver


async def test_body_is_stored_before_anything_parses_it(server: Server, make_rig: MakeRig) -> None:
    events: list[str] = []

    class RecordingStore(MemoryRawStore):
        async def put_raw(self, meta: StoredBody, body: bytes) -> None:
            events.append("put")
            await super().put_raw(meta, body)

        async def get_raw(self, sha256: str) -> bytes | None:
            events.append("get")
            return await super().get_raw(sha256)

    rig = await make_rig(store=RecordingStore())
    got = await rig.fetcher.fetch(server.url("/json"))
    assert events == ["put"]
    await got.document()
    assert events == ["put", "get"]


async def test_document_fails_cleanly_when_the_stored_copy_is_gone(
    server: Server, make_rig: MakeRig
) -> None:
    class ForgetfulStore(MemoryRawStore):
        async def get_raw(self, sha256: str) -> bytes | None:
            return None

    rig = await make_rig(store=ForgetfulStore())
    got = await rig.fetcher.fetch(server.url("/json"))
    with pytest.raises(FetchError, match="stored copy .* is missing"):
        await got.document()


async def test_html_and_plain_text_are_accepted_with_their_kinds(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    page = await rig.fetcher.fetch(server.url("/html"))
    text = await rig.fetcher.fetch(server.url("/text"), kind_hint="log")
    assert page.source().kind == "page"
    assert text.source().kind == "log"
    assert b"42 tok/s" in (await page.document()).data


async def test_exactly_five_redirects_are_followed(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    got = await rig.fetcher.fetch(server.url("/chain/5"))
    assert len(got.redirects) == 5
    assert got.final_url == server.url("/chain/0")


async def test_requests_carry_our_headers_and_no_cookies(
    server: Server, make_rig: MakeRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # ignored: trust_env=False
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    rig = await make_rig()
    got = await rig.fetcher.fetch(server.url("/set-cookie"))
    echoed = json.loads((await got.document()).data)
    assert echoed["User-Agent"] == USER_AGENT
    assert echoed["Accept"] == "application/json, text/html;q=0.9, text/plain;q=0.5"
    assert "Cookie" not in echoed
    assert server.hits == ["/set-cookie", "/echo"]


# ---- the hostile-URL table --------------------------------------------------------------------

HOSTILE = [
    ("http://127.0.0.2/", "127.0.0.2 is a loopback address"),
    ("http://0x7f000001/", "0x7f000001 means 127.0.0.1, which is a loopback address"),
    ("http://[::1]/", "::1 is a loopback address"),
    ("http://[::ffff:127.0.0.1]/", "IPv4-mapped for 127.0.0.1"),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is link-local"),
    ("http://100.100.100.200/", "100.100.100.200 is in the shared carrier-grade NAT range"),
    ("http://[fd00:ec2::254]/", "fd00:ec2::254 is a private address"),
    ("http://0.0.0.0/", "0.0.0.0 is the unspecified address"),
    ("http://[2002:7f00:1::]/", "6to4 for 127.0.0.1, which is a loopback address"),
    ("http://[64:ff9b::a9fe:a9fe]/", "NAT64 for 169.254.169.254, which is link-local"),
    ("file:///etc/passwd", "only http and https links are fetched, not file:"),
    ("ftp://ftp.example.com/pub/results.json", "not ftp:"),
    ("gopher://gopher.example.com/1", "not gopher:"),
    ("http://user:pass@example.com/", "carries a user name or password"),
    ("http://example.com:8080/", "port 8080 is not 80 or 443"),
]


@pytest.mark.parametrize(("url", "expected"), HOSTILE)
async def test_hostile_url_is_refused_before_any_connection(
    server: Server, make_rig: MakeRig, url: str, expected: str
) -> None:
    rig = await make_rig()
    with pytest.raises(FetchRefused) as err:
        await rig.fetcher.fetch(url)
    assert expected in str(err.value)
    assert str(err.value).startswith("that ")
    assert rig.resolver.calls == []
    assert rig.sockets.calls == []
    assert server.hits == []


async def test_localhost_is_refused_by_the_resolver_layer(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig(answers={"localhost": ["127.0.0.1"]})
    with pytest.raises(FetchRefused) as err:
        await rig.fetcher.fetch("http://localhost/")
    assert str(err.value) == (
        "that address is not allowed: localhost resolves to 127.0.0.1, which is a loopback address"
    )
    assert rig.resolver.calls == ["localhost"]
    assert rig.sockets.calls == []


async def test_dns_rebinding_to_a_private_address_is_refused_before_connecting(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig(answers={"rebind.example": ["10.0.0.5"]})
    with pytest.raises(
        FetchRefused, match="rebind.example resolves to 10.0.0.5, which is a private"
    ):
        await rig.fetcher.fetch("http://rebind.example/results.json")
    assert rig.resolver.calls == ["rebind.example"]
    assert rig.sockets.calls == []


async def test_one_bad_address_among_good_ones_refuses_the_whole_host(
    server: Server, make_rig: MakeRig
) -> None:
    # The socket spy would refuse the public address anyway: nothing leaves loopback.
    rig = await make_rig(answers={"mixed.example": ["93.184.215.14", "169.254.169.254"]})
    with pytest.raises(FetchRefused, match="169.254.169.254, which is link-local"):
        await rig.fetcher.fetch("https://mixed.example/")
    assert rig.sockets.calls == []


async def test_loopback_server_is_refused_without_an_allow_list_entry(
    server: Server, make_rig: MakeRig
) -> None:
    for allow in (set(), {f"127.0.0.1:{server.port + 1}"}, {"127.0.0.1"}):
        rig = await make_rig(allow=allow)
        with pytest.raises(FetchRefused, match="127.0.0.1 is a loopback address"):
            await rig.fetcher.fetch(server.url("/json"))
        assert rig.sockets.calls == []
    assert server.hits == []


async def test_allow_listed_name_is_let_through_at_every_layer(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig(allow={f"board.test:{server.port}"}, answers={"board.test": ["127.0.0.1"]})
    got = await rig.fetcher.fetch(f"http://board.test:{server.port}/json")
    assert got.status == 200
    assert rig.resolver.calls == ["board.test"]
    assert rig.sockets.calls == [("127.0.0.1", server.port)]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("http://127.0.0.2/", "127.0.0.2 is a loopback address"),
        ("http://[::1]:{port}/json", "::1 is a loopback address"),
        ("http://0x7f000001/", "means 127.0.0.1"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is link-local"),
        ("file:///etc/passwd", "only http and https links are fetched"),
        ("http://u:p@127.0.0.1:{port}/json", "user name or password"),
    ],
)
async def test_redirect_to_a_forbidden_target_is_refused_at_hop_two(
    server: Server, make_rig: MakeRig, target: str, expected: str
) -> None:
    rig = await make_rig()
    start = server.url("/redirect?to=" + target.format(port=server.port))
    with pytest.raises(FetchRefused) as err:
        await rig.fetcher.fetch(start)
    assert expected in str(err.value)
    assert server.hits == ["/redirect"]  # hop 1 only
    assert rig.sockets.calls == [("127.0.0.1", server.port)]
    assert rig.resolver.calls == []


async def test_redirect_to_a_rebinding_name_is_refused_by_the_resolver(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig(answers={"rebind.example": ["10.0.0.5"]})
    with pytest.raises(FetchRefused, match="rebind.example resolves to 10.0.0.5"):
        await rig.fetcher.fetch(server.url("/redirect?to=http://rebind.example/"))
    assert server.hits == ["/redirect"]
    assert rig.sockets.calls == [("127.0.0.1", server.port)]


async def test_redirect_loop_stops_after_five_redirects(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    with pytest.raises(FetchError, match="redirected more than 5 times"):
        await rig.fetcher.fetch(server.url("/loop"))
    assert server.hits == ["/loop"] * 6


# ---- the lower layers on their own ------------------------------------------------------------


async def test_socket_factory_refuses_an_ip_literal_when_the_middleware_is_bypassed(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    # Per-request middlewares=() switches layer 1 off; IP literals skip the resolver (layer 2).
    with pytest.raises(aiohttp.ClientConnectorError) as err:
        async with rig.session.get("http://127.0.0.2/", middlewares=()):
            pass
    assert isinstance(err.value.__cause__, _AddressRefused)
    assert "127.0.0.2 is a loopback address" in str(err.value.__cause__)
    assert rig.sockets.calls == []  # refused before the inner socket factory was asked


async def test_resolver_refuses_a_private_answer_when_the_middleware_is_bypassed(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig(answers={"rebind.example": ["10.0.0.5"]})
    with pytest.raises(FetchRefused, match="10.0.0.5"):
        async with rig.session.get("http://rebind.example/", middlewares=()):
            pass
    assert rig.sockets.calls == []


async def test_socket_factory_lets_the_allow_listed_address_through(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    guard = cast(GuardedConnector, rig.session.connector).guard
    info = (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", server.port))
    guard.socket_factory(info).close()
    with pytest.raises(_AddressRefused, match="port"):
        guard.socket_factory(info[:4] + (("127.0.0.1", server.port + 1),))
    with pytest.raises(_AddressRefused, match="169.254.169.254 is link-local"):
        guard.socket_factory(info[:4] + (("169.254.169.254", 80),))
    assert rig.sockets.calls == [("127.0.0.1", server.port)]


async def test_fetcher_refuses_a_session_without_the_guards() -> None:
    async with aiohttp.ClientSession() as plain:
        with pytest.raises(ValueError, match="open_session"):
            SafeFetcher(plain, MemoryRawStore(), FetchPolicy())


async def test_fetcher_refuses_a_policy_whose_allow_list_differs_from_its_session() -> None:
    async with open_session(FetchPolicy(), resolver=SpyResolver()) as session:
        with pytest.raises(ValueError, match="allow-list"):
            SafeFetcher(session, MemoryRawStore(), FetchPolicy(allow_hosts={"a.example"}))


# ---- faults -----------------------------------------------------------------------------------


async def test_stalling_server_times_out_within_the_deadline(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig(total_timeout=1.0)
    started = time.monotonic()
    with pytest.raises(FetchTimeout, match=r"did not answer within 1 s"):
        await rig.fetcher.fetch(server.url("/stall"))
    # The server never answers: ending at all is the timeout's work (margin for a loaded machine).
    assert time.monotonic() - started < 10


async def test_stream_over_the_cap_is_cut_off_early(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    with pytest.raises(FetchTooLarge, match="went over the 2 MiB cap for html"):
        await rig.fetcher.fetch(server.url("/big"))
    await asyncio.wait_for(server.big["done"].wait(), 2)
    assert server.big["sent"] < 20 * MiB  # the server never got to send its 50 MiB


async def test_declared_length_over_the_cap_is_refused_before_reading(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    with pytest.raises(FetchTooLarge, match="is 3 MiB, over the 2 MiB cap for html"):
        await rig.fetcher.fetch(server.url("/declared-big"))


@pytest.mark.parametrize(
    ("code", "phrase"), [(404, "404 Not Found"), (500, "500 Internal Server Error")]
)
async def test_error_status_is_a_bad_response_naming_it(
    server: Server, make_rig: MakeRig, code: int, phrase: str
) -> None:
    rig = await make_rig()
    with pytest.raises(FetchBadResponse, match=f"answered {phrase}$"):
        await rig.fetcher.fetch(server.url(f"/status/{code}"))


async def test_image_is_a_bad_response(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    with pytest.raises(FetchBadResponse, match="is image/png, not a page or JSON"):
        await rig.fetcher.fetch(server.url("/png"))


async def test_json_served_without_a_type_is_sniffed_and_read(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    fetched = await rig.fetcher.fetch(server.url("/no-type"))  # aiohttp's server: octet-stream
    assert fetched.content_type == "application/octet-stream"
    assert (await fetched.document()).json() == {}


@pytest.mark.parametrize("mime", ["application/octet-stream", "binary/octet-stream", "text/plain"])
@pytest.mark.parametrize("kind", ["json", "text"])
async def test_text_and_json_under_a_generic_type_are_read(
    server: Server, make_rig: MakeRig, mime: str, kind: str
) -> None:
    rig = await make_rig()
    fetched = await rig.fetcher.fetch(server.url(f"/typed/{kind}?type={mime}"))
    doc = await fetched.document()
    assert fetched.content_type == mime and fetched.source().kind == "text"
    assert (doc.json() == {"output_throughput": 150.2}) if kind == "json" else doc.text.startswith("eval time")


@pytest.mark.parametrize("mime", ["application/octet-stream", "binary/octet-stream", "text/plain", "text/html"])
@pytest.mark.parametrize("kind", ["png", "noise"])
async def test_binary_bodies_are_refused_whatever_their_label(
    server: Server, make_rig: MakeRig, mime: str, kind: str
) -> None:
    rig = await make_rig()
    url = server.url(f"/typed/{kind}?type={mime}")
    with pytest.raises(FetchBadResponse) as err:
        await rig.fetcher.fetch(url)
    assert str(err.value) == f"{url} is {mime} and its first bytes are binary, not a page, text or JSON"
    assert isinstance(rig.store, MemoryRawStore)  # make_rig's default store
    assert len(rig.store) == 0  # nothing stored


async def test_missing_content_type_is_a_bad_response(make_rig: MakeRig) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        await writer.drain()
        writer.close()

    raw = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = raw.sockets[0].getsockname()[1]
    try:
        rig = await make_rig(allow={f"127.0.0.1:{port}"})
        with pytest.raises(FetchBadResponse, match="sent no content type"):
            await rig.fetcher.fetch(f"http://127.0.0.1:{port}/")
    finally:
        raw.close()
        await raw.wait_closed()


async def test_nothing_is_stored_for_a_failed_fetch(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    with pytest.raises(FetchBadResponse):
        await rig.fetcher.fetch(server.url("/status/404"))
    assert await rig.store.latest_for_url(server.url("/status/404")) is None


# ---- sharing and caching ----------------------------------------------------------------------


async def test_concurrent_fetches_of_one_url_make_one_request(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    results = await asyncio.gather(*(rig.fetcher.fetch(server.url("/slow-json")) for _ in range(5)))
    assert server.hits == ["/slow-json"]
    assert len({r.sha256 for r in results}) == 1
    assert rig.fetcher._inflight == {}


async def test_concurrent_failures_are_shared_too(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    results = await asyncio.gather(
        *(rig.fetcher.fetch(server.url("/status/500")) for _ in range(3)), return_exceptions=True
    )
    assert all(isinstance(r, FetchBadResponse) for r in results)
    assert server.hits == ["/status/500"]


async def test_a_cancelled_caller_does_not_cancel_the_shared_fetch(
    server: Server, make_rig: MakeRig
) -> None:
    rig = await make_rig()
    first = asyncio.create_task(rig.fetcher.fetch(server.url("/slow-json")))
    second = asyncio.create_task(rig.fetcher.fetch(server.url("/slow-json")))
    await asyncio.sleep(0.05)
    first.cancel()
    got = await second
    assert got.status == 200
    assert server.hits == ["/slow-json"]


async def test_cache_hit_within_max_age_makes_no_request(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    first = await rig.fetcher.fetch(server.url("/json"))
    again = await rig.fetcher.fetch(server.url("/json"), max_age_s=60)
    assert server.hits == ["/json"]
    assert again.from_cache and not first.from_cache
    assert again.sha256 == first.sha256
    assert (await again.document()).json() == PAYLOAD


async def test_stale_copy_is_fetched_again(server: Server, make_rig: MakeRig) -> None:
    later = datetime.now(UTC) + timedelta(hours=1)
    rig = await make_rig(store=MemoryRawStore(clock=lambda: later))
    await rig.fetcher.fetch(server.url("/json"))
    again = await rig.fetcher.fetch(server.url("/json"), max_age_s=60)
    assert not again.from_cache
    assert server.hits == ["/json", "/json"]


async def test_without_max_age_the_cache_is_not_used(server: Server, make_rig: MakeRig) -> None:
    rig = await make_rig()
    await rig.fetcher.fetch(server.url("/json"))
    await rig.fetcher.fetch(server.url("/json"))
    assert server.hits == ["/json", "/json"]


# ---- the package ------------------------------------------------------------------------------


def test_policy_defaults_are_the_spec_limits() -> None:
    policy = FetchPolicy()
    assert policy.allow_hosts == frozenset()
    assert (policy.max_redirects, policy.total_timeout) == (5, 15.0)
    assert (policy.html_cap, policy.json_cap) == (2 * MiB, 8 * MiB)
    assert FetchPolicy(allow_hosts={"Board.Example:8080", "[0::1]:9"}).allow_hosts == {
        "board.example:8080",
        "[::1]:9",
    }
    with pytest.raises(ValueError):
        FetchPolicy(allow_hosts={"http://x/"})


def test_public_names_are_exact() -> None:
    assert sorted(fetch_pkg.__all__) == [
        "FetchPolicy",
        "Fetched",
        "GuardResolver",
        "SafeFetcher",
        "check_url",
        "describe_refusal",
        "is_allow_listed",
        "is_allowed_ip",
        "open_session",
        "refusal_reason",
    ]
    assert all(hasattr(fetch_pkg, name) for name in fetch_pkg.__all__)
