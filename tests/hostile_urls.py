"""Running the hostile URL list (tests/fixtures/hostile/urls.txt) through the real fetcher.

Everything is the production stack (URL policy, middleware on every redirect hop, the guarded
resolver, the connect-time re-check) except the two innermost pieces, which are spies: a DNS that
answers only the `.test` names below (rebinding to private, loopback and link-local addresses),
and a socket factory that records every address a connection was attempted to and connects only
to the loopback server, which is allow-listed so its redirects can be tried. A URL counts as
refused when the fetcher raised `FetchRefused` and no connection was attempted for it.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult

from extractors.errors import FetchError, FetchRefused
from extractors.fetch import FetchPolicy, SafeFetcher, open_session
from extractors.storage import MemoryRawStore
from tests.fixtures.web.loopback import Handler, Loopback

__all__ = ["HOSTILE_URLS", "Outcome", "load_hostile", "run_hostile"]

HOSTILE_URLS = Path(__file__).parent / "fixtures" / "hostile" / "urls.txt"

DNS: dict[str, list[str]] = {
    "localhost.test": ["127.0.0.1"],
    "metadata.test": ["169.254.169.254"],
    "rebind-private.test": ["10.0.0.5"],
    "rebind-mixed.test": ["93.184.216.34", "127.0.0.1"],  # one good address is not enough
    "rebind-v6.test": ["::1"],
    "rebind-mapped.test": ["::ffff:10.0.0.1"],
    "rebind-metadata.test": ["169.254.169.254"],
    "rebind-nat64.test": ["64:ff9b::a9fe:a9fe"],
}


class FakeDNS(AbstractResolver):
    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        addrs = DNS.get(host.lower().rstrip("."))
        if addrs is None:
            raise OSError(f"no such host in the test DNS: {host}")
        return [ResolveResult(hostname=host, host=a, port=port,
                              family=socket.AF_INET6 if ":" in a else socket.AF_INET,
                              proto=0, flags=socket.AI_NUMERICHOST) for a in addrs]

    async def close(self) -> None:
        pass


@dataclass
class Sockets:
    """The innermost socket factory: records every attempt, connects only to the loopback."""

    port: int
    attempts: list[str] = field(default_factory=list)

    def __call__(self, addr_info: tuple[Any, ...]) -> socket.socket:
        family, type_, proto, _, sockaddr = addr_info
        if (sockaddr[0], sockaddr[1]) != ("127.0.0.1", self.port):
            self.attempts.append(f"{sockaddr[0]}:{sockaddr[1]}")
            raise OSError(f"test safety net: no connection to {sockaddr[0]}")
        sock = socket.socket(family=family, type=type_, proto=proto)
        sock.setblocking(False)
        return sock


@dataclass(frozen=True)
class Outcome:
    url: str
    refused: bool
    said: str
    connected_to: tuple[str, ...] = ()


def load_hostile(path: Path = HOSTILE_URLS) -> list[str]:
    return [line.strip() for line in path.read_text("utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _serve_redirects(server: Loopback) -> None:
    async def redirect(request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(request.query["to"])

    server.handler("/redirect", redirect)
    server.handler("/loop", lambda r: _found("/loop"))
    for n in range(12):
        server.handler(f"/chain{n}", _redirect_to(f"/chain{n + 1}"))


async def _found(to: str) -> web.StreamResponse:
    raise web.HTTPFound(to)


def _redirect_to(to: str) -> Handler:
    """A handler that redirects to `to`, bound now rather than through a lambda default."""

    async def handler(request: web.Request) -> web.StreamResponse:
        return await _found(to)

    return handler


def _target(line: str, server: Loopback) -> str:
    if not line.startswith("REDIRECT "):
        return line
    to = line.removeprefix("REDIRECT ")
    if to == "LOOP":
        return server.url("/loop")
    if to == "CHAIN":
        return server.url("/chain0")
    return server.url("/redirect?to=" + to)  # aiohttp's server sends it as Location verbatim


async def run_hostile(lines: list[str]) -> list[Outcome]:
    server = await Loopback().start()
    _serve_redirects(server)
    sockets = Sockets(server.port)
    policy = FetchPolicy(allow_hosts=frozenset({server.host}), total_timeout=5.0)
    outcomes = []
    try:
        async with open_session(policy, resolver=FakeDNS(), socket_factory=sockets) as session:
            fetcher = SafeFetcher(session, MemoryRawStore(), policy)
            for line in lines:
                before = len(sockets.attempts)
                try:
                    await fetcher.fetch(_target(line, server))
                    refused, said = False, "fetched"
                except FetchRefused as exc:
                    refused, said = True, str(exc)
                except FetchError as exc:
                    refused, said = False, f"{type(exc).__name__}: {exc}"
                attempts = tuple(sockets.attempts[before:])
                outcomes.append(Outcome(line, refused and not attempts, said, attempts))
    finally:
        await server.close()
    return outcomes
