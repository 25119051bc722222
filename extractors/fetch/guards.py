"""The guards on every connection a fetcher makes, and the session that carries them.

Three of the four layers of `safe_fetch`, each enough on its own
for the cases it sees:

1. `check_url` in a client **middleware** on every redirect hop (aiohttp runs the middleware chain
   inside its redirect loop): scheme, port, userinfo, IP-literal hosts, the allow-list.
2. `GuardResolver` wraps the real resolver and refuses the host if **any** address it returns
   fails the IP policy. aiohttp connects to exactly the addresses the resolver returned, so a
   DNS-rebinding answer cannot slip in between check and connect.
3. A `socket_factory` re-checks the final socket address. IP literals skip the resolver, so this
   is the backstop for them (and for anything the layers above miss).

`open_session` builds the aiohttp session with all three in place, plus the session-wide limits
(no cookies, no proxy from the environment, the policy's timeouts). Its connector is a
`GuardedConnector`, which carries the policy: that is how `SafeFetcher` knows a session has the
guards, with no registry of sessions on the side.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import hdrs
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.client_middlewares import ClientHandlerType
from aiohttp.client_reqrep import ClientRequest, ClientResponse
from aiohttp.resolver import DefaultResolver

from extractors.errors import FetchRefused
from extractors.fetch.fetch_policy import FetchPolicy
from extractors.fetch.ip_policy import describe_refusal, refusal_reason
from extractors.fetch.url_policy import ALLOWED_PORTS, check_url, host_key, is_allow_listed

__all__ = [
    "ACCEPT",
    "TRAIL",
    "GuardResolver",
    "GuardedConnector",
    "SocketFactory",
    "Trail",
    "open_session",
    "refusal_in",
]

ACCEPT = "application/json, text/html;q=0.9, text/plain;q=0.5"

SocketFactory = Callable[[tuple], socket.socket]  # aiohappyeyeballs' AddrInfoType -> socket


@dataclass
class Trail:
    """What one fetch saw: the hops requested, and a refusal from a layer that cannot raise it."""

    hops: list[str] = field(default_factory=list)
    refusal: str | None = None


# Set inside each download task; the middleware and socket factory run in that task (or in
# tasks copied from its context), so they can annotate the right fetch.
TRAIL: ContextVar[Trail | None] = ContextVar("claimcheck_fetch_trail", default=None)


class _AddressRefused(OSError):
    """Raised by the socket factory; aiohttp wraps it in ClientConnectorError."""


class GuardResolver(AbstractResolver):
    """Resolves with `inner`, then refuses the host if ANY address fails the IP policy.

    Addresses of allow-listed names are let through and remembered in `approved`, so the socket
    factory can tell them from addresses nobody vouched for. Closing this closes `inner`.
    """

    def __init__(
        self, inner: AbstractResolver | None = None, *, allow_hosts: frozenset[str] = frozenset()
    ) -> None:
        self._inner = inner if inner is not None else DefaultResolver()
        self._allow_hosts = allow_hosts
        self.approved: set[tuple[str, int]] = set()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        allow_listed = is_allow_listed(host, port, self._allow_hosts)
        if not allow_listed and port not in ALLOWED_PORTS:
            raise FetchRefused(f"that URL is not allowed: port {port} is not 80 or 443")
        try:
            results = await self._inner.resolve(host, port, family)
        except UnicodeError:  # the IDNA codec refuses the name (a label over 63 characters)
            raise FetchRefused(
                f"that URL is not allowed: {host[:60]} is not a valid host name"
            ) from None
        for r in results:
            key = host_key(r["host"])
            if allow_listed:
                self.approved.add((key, r["port"]))
                continue
            why = describe_refusal(key)
            if why is not None:
                raise FetchRefused(
                    f"that address is not allowed: {host} resolves to {key}, which is {why}"
                )
        return results

    async def close(self) -> None:
        await self._inner.close()


def _plain_socket(addr_info: tuple) -> socket.socket:
    family, type_, proto, _, _ = addr_info
    sock = socket.socket(family=family, type=type_, proto=proto)
    sock.setblocking(False)
    return sock


@dataclass
class _Guard:
    """The policy of one session: its middleware and socket factory, and its resolver."""

    policy: FetchPolicy
    resolver: GuardResolver
    inner_socket: SocketFactory = _plain_socket

    def address_refusal(self, sockaddr: tuple) -> str | None:
        key, port = host_key(str(sockaddr[0])), int(sockaddr[1])
        if (key, port) in self.resolver.approved:
            return None
        if is_allow_listed(key, port, self.policy.allow_hosts):
            return None
        if port not in ALLOWED_PORTS:
            return f"port {port} is not 80 or 443"
        return refusal_reason(ipaddress.ip_address(key))

    def socket_factory(self, addr_info: tuple) -> socket.socket:
        reason = self.address_refusal(addr_info[4])
        if reason is not None:
            trail = TRAIL.get()
            if trail is not None:
                trail.refusal = reason
            raise _AddressRefused(reason)
        return self.inner_socket(addr_info)

    async def middleware(self, req: ClientRequest, handler: ClientHandlerType) -> ClientResponse:
        trail = TRAIL.get()
        try:
            check_url(req.url, self.policy.allow_hosts)
            if hdrs.AUTHORIZATION in req.headers:  # userinfo in a redirect target, moved there
                raise FetchRefused("that URL is not allowed: it carries a user name or password")
        except FetchRefused as exc:
            if trail is not None and trail.hops:
                raise FetchRefused(f"{exc} (a redirect from {trail.hops[-1]} led there)") from None
            raise
        if trail is not None:
            trail.hops.append(str(req.url))
        return await handler(req)


class GuardedConnector(aiohttp.TCPConnector):
    """A TCP connector carrying one policy's guards: the guarded resolver and socket factory.

    `SafeFetcher` reads the policy back from its session's connector, so only a session built
    with these guards is accepted. `options` are the ordinary TCPConnector limits.
    """

    def __init__(
        self, policy: FetchPolicy, resolver: GuardResolver, inner_socket: SocketFactory,
        **options: Any,
    ) -> None:
        self.guard = _Guard(policy, resolver, inner_socket)
        super().__init__(resolver=resolver, socket_factory=self.guard.socket_factory, **options)

    @property
    def policy(self) -> FetchPolicy:
        return self.guard.policy


@asynccontextmanager
async def open_session(
    policy: FetchPolicy,
    *,
    resolver: AbstractResolver | None = None,
    socket_factory: SocketFactory | None = None,
) -> AsyncIterator[aiohttp.ClientSession]:
    """An aiohttp session with every guard in place. `resolver` and `socket_factory` are the
    *inner* ones (the real DNS resolver and plain socket by default): tests inject spies there."""
    guard_resolver = GuardResolver(resolver, allow_hosts=policy.allow_hosts)
    connector = GuardedConnector(
        policy,
        guard_resolver,
        socket_factory or _plain_socket,
        limit=20,
        limit_per_host=4,
        ttl_dns_cache=10,
        keepalive_timeout=policy.keepalive_timeout,
    )
    session = aiohttp.ClientSession(
        connector=connector,
        middlewares=(connector.guard.middleware,),
        timeout=policy.client_timeout(),
        cookie_jar=aiohttp.DummyCookieJar(),
        trust_env=False,
        headers={hdrs.USER_AGENT: policy.user_agent, hdrs.ACCEPT: ACCEPT},
    )
    try:
        yield session
    finally:
        await session.close()
        await guard_resolver.close()  # aiohttp closes only resolvers it made itself


def refusal_in(exc: BaseException) -> str | None:
    """The socket factory's refusal, if it is anywhere in `exc`'s chain (aiohttp wraps it)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, _AddressRefused):
            return str(seen)
        seen = seen.__cause__ or seen.__context__
    return None
