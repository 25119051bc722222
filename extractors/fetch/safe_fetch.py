"""The one way claimcheck fetches a URL: guarded against SSRF, capped, and stored before parsing.

Four layers, each enough on its own for the cases it sees (aiohttp runs a client middleware
again on every redirect hop: docs.aiohttp.org, "Client Middleware"):

1. `check_url` before anything happens, and again in a client **middleware** on every redirect
   hop (in `guards`, with layers 2 and 3).
2. `GuardResolver` refuses the host if **any** address it resolves to fails the IP policy.
3. A `socket_factory` re-checks the final socket address.
4. Limits: at most `max_redirects` redirects, `ClientTimeout(total, sock_connect, sock_read)`,
   byte caps checked from Content-Length and again while streaming, no cookies
   (`DummyCookieJar`), no proxy from the environment (`trust_env=False`).

Raw bytes first: every body is written to the `RawStore` (with final URL, redirect chain, status,
content type, time and sha256) before anything parses it, and `Fetched.document()` reads the
stored bytes back. Concurrent fetches of one URL share one request.

A body labelled with a generic type (`application/octet-stream`, `binary/octet-stream`; raw file
hosts and object stores serve JSON that way) is sniffed by its first bytes, within the JSON cap:
text and JSON are read, binary is refused with a clear line. Any body whose first bytes are not
text is refused whatever its label says (`extractors.document.is_binary`).

Every failure is an `extractors.errors.FetchError` holding one sentence for the user, folded onto
one line and cleaned of control characters (`checks.text.one_line`): a reason phrase, a content
type or a redirect target chosen by a server never reaches a terminal raw.
"""

from __future__ import annotations

import asyncio
import http

import aiohttp
from aiohttp import hdrs
from aiohttp.client_reqrep import ClientResponse
from pydantic import PrivateAttr
from yarl import URL

from checks.models import Source, SourceKind
from checks.text import one_line
from extractors.document import SNIFF_BYTES, RawDocument, is_binary
from extractors.errors import (
    FetchBadResponse,
    FetchError,
    FetchRefused,
    FetchTimeout,
    FetchTooLarge,
)
from extractors.fetch.fetch_policy import Family, FetchPolicy, MiB
from extractors.fetch.guards import TRAIL, GuardedConnector, Trail, refusal_in
from extractors.fetch.url_policy import check_url
from extractors.image.sniff import is_image
from extractors.storage import RawStore, StoredBody, sha256_hex, utc_now

__all__ = ["Fetched", "SafeFetcher"]

_CHUNK = 64 * 1024

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
    "image/png": "image",
    "image/jpeg": "image",
    "image/gif": "image",
    "image/webp": "image",
}
_KIND_OF: dict[Family, SourceKind] = {"json": "record", "html": "page", "text": "text",
                                      "image": "file"}


# Generic labels: the body decides (issue 6 part 8). Read as "text" once sniffed; the readers look
# at the bytes themselves, so JSON served this way is still read as JSON.
_GENERIC = frozenset({"application/octet-stream", "binary/octet-stream", "application/unknown"})


def _family(mime: str) -> Family | None:
    if mime in _GENERIC:
        return "text"
    return _FAMILIES.get(mime) or ("json" if mime.endswith("+json") else None)


def _mib(n: float) -> str:
    return f"{n / MiB:.3g} MiB"


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


# ---- the fetcher ------------------------------------------------------------------------------


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
        connector = session.connector
        # The session is a ClientSession either way: what is wrong is its value, so ValueError.
        if not isinstance(connector, GuardedConnector):
            raise ValueError(  # noqa: TRY004
                "SafeFetcher needs a session from open_session(); it has the guards"
            )
        self.policy = policy if policy is not None else connector.policy
        if self.policy.allow_hosts != connector.policy.allow_hosts:
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
            task = asyncio.create_task(self._fetch_clean(checked))
            self._inflight[key] = task
            task.add_done_callback(lambda t: self._settle(key, t))
        fetched = await asyncio.shield(task)
        return fetched.model_copy(update={"kind": kind_hint}) if kind_hint else fetched

    async def _fetch_clean(self, url: URL) -> Fetched:
        try:
            return await self._fetch_and_store(url)
        except FetchError as exc:
            raise type(exc)(one_line(exc, 500)) from None

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
        trail = Trail()
        TRAIL.set(trail)  # this runs in its own task, so the setting stays with this fetch
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
            reason = refusal_in(exc) or trail.refusal
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
        except (UnicodeError, ValueError) as exc:  # a header or a name aiohttp cannot encode
            raise FetchRefused(f"could not fetch {shown}: {type(exc).__name__}") from None

    @staticmethod
    def _refuse_binary(final: str, mime: str, body: bytearray, family: Family = "text") -> None:
        if family == "image":  # a picture must be one by its magic bytes, whatever its label
            if not is_image(bytes(body[:16])):
                raise FetchBadResponse(f"{final} is {mime} but its first bytes are no image")
            return
        if is_binary(bytes(body[:SNIFF_BYTES])):
            raise FetchBadResponse(
                f"{final} is {mime} and its first bytes are binary, not a page, text or JSON"
            )

    async def _read(self, url: URL, resp: ClientResponse) -> tuple[StoredBody, bytes]:
        final = str(resp.url)
        if not 200 <= resp.status < 300:
            raise FetchBadResponse(
                f"{final} answered {resp.status} {_phrase(resp.status, resp.reason)}"
            )
        if hdrs.CONTENT_TYPE not in resp.headers:
            raise FetchBadResponse(f"{final} sent no content type, so it is not a page or JSON")
        family = _family(resp.content_type)
        if family == "image" and self.policy.image_cap == 0:  # pictures not asked for
            family = None
        if family is None:
            raise FetchBadResponse(f"{final} is {resp.content_type}, not a page or JSON")
        cap = self.policy.cap_for(family)
        if resp.content_length is not None and resp.content_length > cap:
            raise FetchTooLarge(
                f"{final} is {_mib(resp.content_length)}, over the {_mib(cap)} cap for {family}"
            )
        body = bytearray()
        sniffed = False
        async for chunk in resp.content.iter_chunked(_CHUNK):
            body += chunk
            if len(body) > cap:
                resp.close()  # drop the connection: the rest is never read
                raise FetchTooLarge(f"{final} went over the {_mib(cap)} cap for {family}")
            if not sniffed and len(body) >= SNIFF_BYTES:
                sniffed = True
                self._refuse_binary(final, resp.content_type, body, family)
        if not sniffed:
            self._refuse_binary(final, resp.content_type, body, family)
        data = bytes(body)
        meta = StoredBody(
            sha256=sha256_hex(data),
            url=str(url),
            final_url=final,
            redirects=tuple(str(r.url) for r in resp.history),
            status=resp.status,
            content_type=one_line(resp.headers.get(hdrs.CONTENT_TYPE, ""), 200) or None,
            fetched_at=utc_now(),
            size=len(data),
        )
        return meta, data
