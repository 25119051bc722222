"""The one way claimcheck fetches a URL: guarded against SSRF, capped, and stored before parsing.

Four layers (validation-and-security.md §3.4), each enough on its own for the cases it sees:

1. `check_url` before anything happens, and again in a client **middleware** on every redirect
   hop (aiohttp runs the middleware chain inside its redirect loop): scheme, port, userinfo,
   IP-literal hosts, the allow-list.
2. `GuardResolver` wraps the real resolver and refuses the host if **any** address it returns
   fails the IP policy. aiohttp connects to exactly the addresses the resolver returned, so a
   DNS-rebinding answer cannot slip in between check and connect.
3. A `socket_factory` re-checks the final socket address. IP literals skip the resolver, so this
   is the backstop for them (and for anything the layers above miss).
4. Limits: at most `max_redirects` redirects, `ClientTimeout(total, sock_connect, sock_read)`,
   byte caps checked from Content-Length and again while streaming, no cookies
   (`DummyCookieJar`), no proxy from the environment (`trust_env=False`).

Raw bytes first: every body is written to the `RawStore` (with final URL, redirect chain, status,
content type, time and sha256) before anything parses it, and `Fetched.document()` reads the
stored bytes back. Concurrent fetches of one URL share one request.

Every failure is an `extractors.errors.FetchError` holding one sentence for the user.
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import socket
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

import aiohttp
from aiohttp import hdrs
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.client_middlewares import ClientHandlerType
from aiohttp.client_reqrep import ClientRequest, ClientResponse
from aiohttp.resolver import DefaultResolver
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator
from yarl import URL

from checks.models import Source, SourceKind
from extractors.document import RawDocument
from extractors.errors import (
    FetchBadResponse,
    FetchError,
    FetchRefused,
    FetchTimeout,
    FetchTooLarge,
)
from extractors.fetch.ip_policy import describe_refusal, refusal_reason
from extractors.fetch.url_policy import (
    ALLOWED_PORTS,
    check_url,
    host_key,
    is_allow_listed,
    parse_allow_entry,
)
from extractors.storage import RawStore, StoredBody, sha256_hex, utc_now

__all__ = [
    "ACCEPT",
    "USER_AGENT",
    "FetchPolicy",
    "Fetched",
    "GuardResolver",
    "SafeFetcher",
    "SocketFactory",
    "open_session",
]

MiB = 1024 * 1024
USER_AGENT = "claimcheck/0.1 (+https://github.com/claimcheck/claimcheck; audits LLM speed claims)"
ACCEPT = "application/json, text/html;q=0.9, text/plain;q=0.5"
_CHUNK = 64 * 1024

Family = Literal["json", "html", "text"]
_FAMILIES: dict[str, Family] = {
    "application/json": "json",
    "text/json": "json",
    "application/x-ndjson": "json",
    "application/jsonl": "json",
    "application/x-jsonlines": "json",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
    "text/markdown": "text",
}
_KIND_OF: dict[Family, SourceKind] = {"json": "record", "html": "page", "text": "text"}

SocketFactory = Callable[[tuple], socket.socket]  # aiohappyeyeballs' AddrInfoType -> socket


def _family(mime: str) -> Family | None:
    return _FAMILIES.get(mime) or ("json" if mime.endswith("+json") else None)


def _mib(n: float) -> str:
    return f"{n / MiB:.3g} MiB"


def _render_entry(host: str, port: int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return shown if port is None else f"{shown}:{port}"


class FetchPolicy(BaseModel):
    """Limits and the allow-list for one fetcher (SPEC §9). Defaults are the production ones."""

    model_config = ConfigDict(frozen=True)

    allow_hosts: frozenset[str] = frozenset()  # "host[:port]" let through address and port rules
    max_redirects: int = Field(5, ge=0, le=20)
    total_timeout: float = Field(15.0, gt=0)
    connect_timeout: float = Field(5.0, gt=0)
    read_timeout: float = Field(10.0, gt=0)
    html_cap: int = Field(2 * MiB, gt=0)
    json_cap: int = Field(8 * MiB, gt=0)
    # text/plain gets the JSON cap: raw.githubusercontent.com and gists serve JSON as text/plain.
    text_cap: int = Field(8 * MiB, gt=0)
    user_agent: str = USER_AGENT

    @field_validator("allow_hosts")
    @classmethod
    def _normalise(cls, value: frozenset[str]) -> frozenset[str]:
        return frozenset(_render_entry(*parse_allow_entry(e)) for e in value)

    def cap_for(self, family: Family) -> int:
        return {"json": self.json_cap, "html": self.html_cap, "text": self.text_cap}[family]

    def client_timeout(self) -> aiohttp.ClientTimeout:
        return aiohttp.ClientTimeout(
            total=self.total_timeout,
            sock_connect=self.connect_timeout,
            sock_read=self.read_timeout,
        )


class Fetched(StoredBody):
    """A fetched body as stored. `document()` reads the bytes back from the store."""

    kind: SourceKind | None = None
    from_cache: bool = False
    _store: RawStore | None = PrivateAttr(default=None)

    def bind(self, store: RawStore) -> Fetched:
        self._store = store
        return self

    @property
    def family(self) -> Family | None:
        mime = (self.content_type or "").split(";", 1)[0].strip().lower()
        return _family(mime)

    def source(self) -> Source:
        family = self.family
        kind = self.kind or (_KIND_OF[family] if family else "page")
        return Source(
            url=self.url,
            final_url=self.final_url,
            redirects=list(self.redirects),
            fetched_at=self.fetched_at,
            status=self.status,
            content_type=self.content_type,
            sha256=self.sha256,
            kind=kind,
        )

    async def document(self) -> RawDocument:
        if self._store is None:
            raise FetchError(f"the stored copy of {self.url} cannot be read: no store is attached")
        body = await self._store.get_raw(self.sha256)
        if body is None:
            raise FetchError(f"the stored copy of {self.url} is missing")
        if sha256_hex(body) != self.sha256:
            raise FetchError(f"the stored copy of {self.url} does not match its checksum")
        return RawDocument(body, source=self.url, content_type=self.content_type)


# ---- the guards -------------------------------------------------------------------------------


@dataclass
class _Trail:
    """What one fetch saw: the hops requested, and a refusal from a layer that cannot raise it."""

    hops: list[str] = field(default_factory=list)
    refusal: str | None = None


# Set inside each download task; the middleware and socket factory run in that task (or in
# tasks copied from its context), so they can annotate the right fetch.
_TRAIL: ContextVar[_Trail | None] = ContextVar("claimcheck_fetch_trail", default=None)


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
        results = await self._inner.resolve(host, port, family)
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
            trail = _TRAIL.get()
            if trail is not None:
                trail.refusal = reason
            raise _AddressRefused(reason)
        return self.inner_socket(addr_info)

    async def middleware(self, req: ClientRequest, handler: ClientHandlerType) -> ClientResponse:
        trail = _TRAIL.get()
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


# Sessions built by open_session, and their guards: SafeFetcher refuses any other session.
_GUARDS: weakref.WeakKeyDictionary[aiohttp.ClientSession, _Guard] = weakref.WeakKeyDictionary()


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
    guard = _Guard(policy, guard_resolver, socket_factory or _plain_socket)
    connector = aiohttp.TCPConnector(
        resolver=guard_resolver,
        socket_factory=guard.socket_factory,
        limit=20,
        limit_per_host=4,
        ttl_dns_cache=10,
    )
    session = aiohttp.ClientSession(
        connector=connector,
        middlewares=(guard.middleware,),
        timeout=policy.client_timeout(),
        cookie_jar=aiohttp.DummyCookieJar(),
        trust_env=False,
        headers={hdrs.USER_AGENT: policy.user_agent, hdrs.ACCEPT: ACCEPT},
    )
    _GUARDS[session] = guard
    try:
        yield session
    finally:
        await session.close()
        await guard_resolver.close()  # aiohttp closes only resolvers it made itself


# ---- the fetcher ------------------------------------------------------------------------------


def _refusal_in(exc: BaseException) -> str | None:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, _AddressRefused):
            return str(seen)
        seen = seen.__cause__ or seen.__context__
    return None


def _phrase(status: int, reason: str | None) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return (reason or "").strip()[:80]


class SafeFetcher:
    """Fetches URLs through a session from `open_session`, storing every body before use."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        store: RawStore,
        policy: FetchPolicy | None = None,
    ) -> None:
        guard = _GUARDS.get(session)
        if guard is None:
            raise ValueError("SafeFetcher needs a session from open_session(); it has the guards")
        self.policy = policy if policy is not None else guard.policy
        if self.policy.allow_hosts != guard.policy.allow_hosts:
            raise ValueError("the fetcher's allow-list differs from its session's")
        self._session = session
        self.store = store
        self._inflight: dict[str, asyncio.Task[Fetched]] = {}

    async def fetch(
        self,
        url: str,
        *,
        kind_hint: SourceKind | None = None,
        max_age_s: float | None = None,
    ) -> Fetched:
        """Fetch `url` (or reuse a stored copy younger than `max_age_s`). Raises FetchError."""
        checked = check_url(url, self.policy.allow_hosts)
        key = str(checked)
        task = self._inflight.get(key)
        if task is None and max_age_s is not None:
            meta = await self.store.latest_for_url(key, max_age_s)
            if meta is not None:
                hit = Fetched(**meta.model_dump(), kind=kind_hint, from_cache=True)
                return hit.bind(self.store)
            task = self._inflight.get(key)  # another caller may have started while we looked
        if task is None:
            task = asyncio.create_task(self._fetch_and_store(checked))
            self._inflight[key] = task
            task.add_done_callback(lambda t: self._settle(key, t))
        fetched = await asyncio.shield(task)
        return fetched.model_copy(update={"kind": kind_hint}) if kind_hint else fetched

    def _settle(self, key: str, task: asyncio.Task[Fetched]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if not task.cancelled():
            task.exception()  # retrieved: every caller may have been cancelled meanwhile

    async def _fetch_and_store(self, url: URL) -> Fetched:
        meta, body = await self._download(url)
        await self.store.put_raw(meta, body)  # raw bytes first: nothing has parsed them yet
        return Fetched(**meta.model_dump()).bind(self.store)

    async def _download(self, url: URL) -> tuple[StoredBody, bytes]:
        trail = _Trail()
        _TRAIL.set(trail)  # this runs in its own task, so the setting stays with this fetch
        policy, shown = self.policy, str(url)
        try:
            async with asyncio.timeout(policy.total_timeout):
                async with self._session.get(
                    url,
                    max_redirects=policy.max_redirects + 1,  # aiohttp stops AT the limit
                    timeout=policy.client_timeout(),
                ) as resp:
                    return await self._read(url, resp)
        except FetchError:
            raise
        except TimeoutError:
            raise FetchTimeout(
                f"{shown} did not answer within {policy.total_timeout:g} s"
            ) from None
        except aiohttp.TooManyRedirects:
            raise FetchRefused(
                f"{shown} redirected more than {policy.max_redirects} times"
            ) from None
        except aiohttp.NonHttpUrlRedirectClientError as exc:
            target = str(exc.args[0])[:200] if exc.args else "another scheme"
            raise FetchRefused(
                f"that URL is not allowed: {shown} redirected to {target}, "
                "and only http and https links are fetched"
            ) from None
        except aiohttp.NonHttpUrlClientError:
            raise FetchRefused(
                "that URL is not allowed: only http and https links are fetched"
            ) from None
        except aiohttp.InvalidUrlClientError as exc:
            raise FetchRefused(
                f"that URL is not allowed: {str(exc.url)[:200]} is not a link we can fetch"
            ) from None
        except aiohttp.ClientConnectorError as exc:
            reason = _refusal_in(exc) or trail.refusal
            if reason is not None:
                raise FetchRefused(f"that address is not allowed: {reason}") from None
            if isinstance(exc, aiohttp.ClientConnectorDNSError):
                raise FetchError(f"could not find the host {exc.host}") from None
            raise FetchError(f"could not connect to {exc.host}:{exc.port}") from None
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError):
            raise FetchBadResponse(
                f"{shown} closed the connection before the body was complete"
            ) from None
        except aiohttp.ClientResponseError as exc:
            raise FetchBadResponse(
                f"{shown} sent a response we cannot read ({exc.message})"
            ) from None
        except aiohttp.ClientError as exc:
            raise FetchError(f"could not fetch {shown}: {type(exc).__name__}") from None

    async def _read(self, url: URL, resp: ClientResponse) -> tuple[StoredBody, bytes]:
        final = str(resp.url)
        if not 200 <= resp.status < 300:
            raise FetchBadResponse(
                f"{final} answered {resp.status} {_phrase(resp.status, resp.reason)}"
            )
        if hdrs.CONTENT_TYPE not in resp.headers:
            raise FetchBadResponse(f"{final} sent no content type, so it is not a page or JSON")
        family = _family(resp.content_type)
        if family is None:
            raise FetchBadResponse(f"{final} is {resp.content_type}, not a page or JSON")
        cap = self.policy.cap_for(family)
        if resp.content_length is not None and resp.content_length > cap:
            raise FetchTooLarge(
                f"{final} is {_mib(resp.content_length)}, over the {_mib(cap)} cap for {family}"
            )
        body = bytearray()
        async for chunk in resp.content.iter_chunked(_CHUNK):
            body += chunk
            if len(body) > cap:
                resp.close()  # drop the connection: the rest is never read
                raise FetchTooLarge(f"{final} went over the {_mib(cap)} cap for {family}")
        data = bytes(body)
        meta = StoredBody(
            sha256=sha256_hex(data),
            url=str(url),
            final_url=final,
            redirects=tuple(str(r.url) for r in resp.history),
            status=resp.status,
            content_type=resp.headers.get(hdrs.CONTENT_TYPE),
            fetched_at=utc_now(),
            size=len(data),
        )
        return meta, data
