"""Fetching for the command line (and, later, the bot): one fetcher per command, closed after.

`open_fetcher(opts)` builds the whole stack from the front door's `PipelineOptions`: the
`FetchPolicy` (allowed hosts, the total timeout), the raw-body store (`SqliteRawStore` on the
options' cache path or the default file under the user's data dir; `MemoryRawStore` when the
cache is off), the guarded session and the `SafeFetcher`; everything is closed on exit.
`follow_urls` and `fetch_board` are what `bot.pipeline` calls for URLs.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from aiohttp.abc import AbstractResolver
from pydantic import ValidationError

from bot.options import PipelineOptions
from bot.store.db import Store, StoreError, default_db_path
from bot.store.fetch_cache import SqliteRawStore
from checks.reference import Reference
from extractors.boards import fetch_records
from extractors.errors import FetchTimeout, UsageError
from extractors.evidence import Reading
from extractors.fetch import FetchPolicy, SafeFetcher, open_session
from extractors.follow import follow
from extractors.storage import MemoryRawStore, RawStore

__all__ = ["fetch_board", "follow_urls", "open_fetcher", "policy_for", "shared_fetcher"]

MAX_BOARD_PAGES = 20  # pages of a paged board read by `sweep` (LocalScore: 100 runs a page)


def _resolver() -> AbstractResolver | None:
    """The inner DNS resolver: None is aiohttp's own. Tests replace this with one that answers
    nothing, so no test can reach a real host."""
    return None


def policy_for(opts: PipelineOptions) -> FetchPolicy:
    """The fetch policy: the allowed hosts (`--allow-host` and `CLAIMCHECK_ALLOW_HOSTS`, empty by
    default) and the total timeout."""
    allow = opts.allow_hosts
    total = opts.total_timeout_s
    try:
        return FetchPolicy(
            allow_hosts=frozenset(allow),
            total_timeout=total,
            read_timeout=min(10.0, total),
            connect_timeout=min(5.0, total),
        )
    except ValidationError as exc:
        first = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise UsageError(f"--allow-host: {first}") from None


async def _open_store(opts: PipelineOptions, stack: AsyncExitStack) -> RawStore:
    if not opts.use_cache:
        return MemoryRawStore()
    path = Path(opts.cache_path or default_db_path())
    try:
        store = await Store.open(path)
    except (StoreError, OSError) as exc:
        raise UsageError(f"cannot use the cache {path}: {exc}") from None
    stack.push_async_callback(store.close)
    return SqliteRawStore(store)


@asynccontextmanager
async def open_fetcher(opts: PipelineOptions) -> AsyncIterator[SafeFetcher]:
    """A SafeFetcher for one command; its session and store are closed on exit."""
    policy = policy_for(opts)
    async with AsyncExitStack() as stack:
        store = await _open_store(opts, stack)
        session = await stack.enter_async_context(open_session(policy, resolver=_resolver()))
        yield SafeFetcher(session, store, policy)


@asynccontextmanager
async def shared_fetcher(opts: PipelineOptions, store: Store) -> AsyncIterator[SafeFetcher]:
    """The bot's one long-lived SafeFetcher: bodies go into the bot's own store, one session
    for the bot's lifetime (one fetch in flight per URL across every audit)."""
    policy = policy_for(opts)
    raw: RawStore = SqliteRawStore(store) if opts.use_cache else MemoryRawStore()
    async with open_session(policy, resolver=_resolver()) as session:
        yield SafeFetcher(session, raw, policy)


@asynccontextmanager
async def _given_or_opened(opts: PipelineOptions,
                           fetcher: SafeFetcher | None) -> AsyncIterator[SafeFetcher]:
    if fetcher is not None:
        yield fetcher
        return
    async with open_fetcher(opts) as opened:
        yield opened


async def follow_urls(
    urls: Sequence[str], ref: Reference, opts: PipelineOptions, *, fetcher: SafeFetcher | None = None
) -> tuple[list[Reading], list[str]]:
    """Each URL fetched and its links followed: the readings (each URL's own first) and every
    line of what was searched for and not found. A URL that cannot be fetched raises. With no
    `fetcher` one is opened (and closed) for this call."""
    readings: list[Reading] = []
    not_found: list[str] = []
    async with _given_or_opened(opts, fetcher) as fetcher:
        for url in urls:
            result = await follow(
                url,
                fetcher,
                ref,
                max_fetches=opts.fetch_budget,
                deadline_s=opts.fetch_deadline_s,
                boards=list(opts.boards),
            )
            readings += result.readings
            not_found += [line for line in result.not_found if line not in not_found]
    return readings, not_found


async def fetch_board(url: str, ref: Reference, opts: PipelineOptions) -> Reading:
    """Every record of a leaderboard endpoint (paged boards read page by page)."""
    async with open_fetcher(opts) as fetcher:
        try:
            async with asyncio.timeout(opts.fetch_deadline_s):
                return await fetch_records(url, fetcher, ref, max_pages=MAX_BOARD_PAGES,
                                           boards=list(opts.boards))
        except TimeoutError:
            raise FetchTimeout(
                f"{url} was not read within the {opts.fetch_deadline_s:g} s deadline"
            ) from None
