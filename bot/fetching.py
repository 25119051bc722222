"""Fetching for the command line (and, later, the bot): one fetcher per command, closed after.

`open_fetcher(args)` builds the whole stack from the command's options and the settings: the
`FetchPolicy` (`--allow-host` entries, the total timeout), the raw-body store (`SqliteRawStore`
on `--cache PATH`, the settings' cache path or the default file under the user's data dir;
`MemoryRawStore` with `--no-cache`), the guarded session and the `SafeFetcher`; everything is
closed on exit.
`follow_urls` and `fetch_board` are what `bot.pipeline` calls for URLs.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from aiohttp.abc import AbstractResolver
from pydantic import ValidationError

from bot.settings import Settings
from bot.store.db import Store, StoreError, default_db_path
from bot.store.fetch_cache import SqliteRawStore
from checks.reference import Reference
from extractors.boards import fetch_records
from extractors.errors import FetchTimeout, UsageError
from extractors.evidence import Reading
from extractors.fetch import FetchPolicy, SafeFetcher, open_session
from extractors.follow import follow
from extractors.storage import MemoryRawStore, RawStore

__all__ = ["fetch_board", "follow_urls", "open_fetcher", "policy_for"]

MAX_BOARD_PAGES = 20  # pages of a paged board read by `sweep` (LocalScore: 100 runs a page)


def _resolver() -> AbstractResolver | None:
    """The inner DNS resolver: None is aiohttp's own. Tests replace this with one that answers
    nothing, so no test can reach a real host."""
    return None


def _arg(args: argparse.Namespace | None, name: str, default: object) -> object:
    value = getattr(args, name, None) if args is not None else None
    return default if value is None else value


def policy_for(args: argparse.Namespace | None, settings: Settings) -> FetchPolicy:
    """The fetch policy: the `--allow-host` entries and the settings' (`CLAIMCHECK_ALLOW_HOSTS`,
    empty by default), the settings' total timeout."""
    allow = [*settings.allow_hosts, *(str(h) for h in _arg(args, "allow_host", []))]  # type: ignore[attr-defined]
    total = settings.total_timeout_s
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


async def _open_store(args: argparse.Namespace | None, settings: Settings,
                      stack: AsyncExitStack) -> RawStore:
    if _arg(args, "no_cache", False) or not settings.use_cache:
        return MemoryRawStore()
    path = Path(str(_arg(args, "cache", settings.cache_path or default_db_path())))
    try:
        store = await Store.open(path)
    except (StoreError, OSError) as exc:
        raise UsageError(f"cannot use the cache {path}: {exc}") from None
    stack.push_async_callback(store.close)
    return SqliteRawStore(store)


@asynccontextmanager
async def open_fetcher(
    args: argparse.Namespace | None, settings: Settings | None = None
) -> AsyncIterator[SafeFetcher]:
    """A SafeFetcher for one command; its session and store are closed on exit."""
    settings = settings or Settings()
    policy = policy_for(args, settings)
    async with AsyncExitStack() as stack:
        store = await _open_store(args, settings, stack)
        session = await stack.enter_async_context(open_session(policy, resolver=_resolver()))
        yield SafeFetcher(session, store, policy)


def _boards(args: argparse.Namespace | None, settings: Settings) -> list[str | Path]:
    return [*settings.board_files, *(_arg(args, "boards", []))]  # type: ignore[misc]


async def follow_urls(
    urls: Sequence[str], ref: Reference, args: argparse.Namespace | None
) -> tuple[list[Reading], list[str]]:
    """Each URL fetched and its links followed: the readings (each URL's own first) and every
    line of what was searched for and not found. A URL that cannot be fetched raises."""
    settings = Settings()
    readings: list[Reading] = []
    not_found: list[str] = []
    async with open_fetcher(args, settings) as fetcher:
        for url in urls:
            result = await follow(
                url,
                fetcher,
                ref,
                max_fetches=settings.fetch_budget,
                deadline_s=settings.fetch_deadline_s,
                boards=_boards(args, settings),
            )
            readings += result.readings
            not_found += [line for line in result.not_found if line not in not_found]
    return readings, not_found


async def fetch_board(url: str, ref: Reference, args: argparse.Namespace | None) -> Reading:
    """Every record of a leaderboard endpoint (paged boards read page by page)."""
    settings = Settings()
    async with open_fetcher(args, settings) as fetcher:
        try:
            async with asyncio.timeout(settings.fetch_deadline_s):
                return await fetch_records(url, fetcher, ref, max_pages=MAX_BOARD_PAGES,
                                           boards=_boards(args, settings))
        except TimeoutError:
            raise FetchTimeout(
                f"{url} was not read within the {settings.fetch_deadline_s:g} s deadline"
            ) from None
