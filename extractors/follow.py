"""Following a post's links to the record behind it: the page that has the real config.

`follow(url, fetcher, ref)` fetches the URL the user gave (known pages rewritten to their JSON or
raw form first), reads it, and when it is a post follows its links breadth-first:

- links are ranked by `extractors.links.rank_links` (boards, raw JSON, gists, repositories
  first); pictures are counted, never fetched; social and navigation links are not followed;
  shortlinks (t.co, …) are expanded first by fetching them, so they rank as where they lead;
- depth 1 is the post's links, depth 2 the links on pages found at depth 1 (`max_depth`);
- at most `max_fetches` requests (pages of a paged board included) and one `deadline_s` for
  everything (asyncio.timeout); no URL is fetched twice;
- it stops as soon as a record matching the post's number (within 0.5%,
  `extractors.select.matching_number`) has been read;
- a link the URL policy refuses (a private address, a host name no resolver accepts, a scheme
  other than http/https) is listed as refused: it spends nothing of the budget, and it is taken
  out of the post's links, so Q1 never counts it as evidence;
- every body is read off the event loop (`extractors.offloop`), under the same deadline.

Only the first URL's failure raises. Every later failure (refused, timed out, 404, not JSON, a
format we do not read) becomes a line of `not_found`, beside what was searched for and not found
("no link in the post points at …", "no record on … matches 2103.6 tok/s"): those lines feed Q1
and Q2. Everything fetched is a Source with the sha256 of the stored bytes.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.models import Source
from checks.reference import Reference
from checks.text import one_line
from extractors.boards import fetch_records, is_localscore_list
from extractors.errors import FetchError, FetchRefused, FetchTimeout, UnusableInput
from extractors.evidence import Reading
from extractors.fetch.url_policy import check_url
from extractors.links import is_evidence_link, is_image_link, rank_links
from extractors.offloop import ReadingPool, read_page_async
from extractors.select import matching_number
from extractors.web import PageReading, rewrite_url
from extractors.web.images import MAX_POST_IMAGES, post_images
from extractors.web.twitter import expand_shortlinks, is_shortlink

__all__ = ["NO_EVIDENCE_LINK", "FetchBudgetExhausted", "FollowResult", "follow"]

NO_EVIDENCE_LINK = "no link in the post points at a config, record, log or repository"
# A source with this many records or fewer (a tool output, a llama-bench array) is taken to be the
# post's own measurement even when no record matches its number; a bigger board that matches
# nothing is listed as searched, and its records stay out of the evidence.
MAX_UNMATCHED_RECORDS = 8
NOT_FOLLOWED_SCORE = 10  # rank_links: social and navigation links (images score 0)
SHOWN_LINKS = 3  # URLs quoted in one "not followed" line


class FetchBudgetExhausted(FetchError):
    """The fetch budget of one follow is spent."""


@dataclass
class FollowResult:
    """What following one URL found. `readings[0]` is the URL's own reading (the post);
    `not_found` holds every line for the report (failures included); `failures` only the
    fetches and reads that failed; `fetched` every URL requested, in order."""

    readings: list[Reading] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    fetched: list[str] = field(default_factory=list)


class _Budget:
    """A fetcher that counts requests, refuses past the budget and never fetches a URL twice."""

    def __init__(self, inner: Any, limit: int) -> None:
        self.inner, self.limit = inner, limit
        self.used = 0
        self.requested: list[str] = []
        self._memo: dict[str, Any] = {}

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    async def fetch(
        self, url: str, *, kind_hint: Any = None, max_age_s: float | None = None
    ) -> Any:
        if url in self._memo:
            return self._memo[url]
        if self.used >= self.limit:
            raise FetchBudgetExhausted(f"the fetch budget of {self.limit} requests is spent")
        self.used += 1
        self.requested.append(url)
        try:
            fetched = await self.inner.fetch(url, kind_hint=kind_hint, max_age_s=max_age_s)
        except FetchRefused:
            # Refused before any connection: not a fetch, so it costs nothing of the budget.
            self.used -= 1
            self.requested.remove(url)
            raise
        self._memo[url] = fetched
        self._memo.setdefault(fetched.final_url, fetched)
        return fetched


def _reason(exc: Exception, *urls: str) -> str:
    """The part of a fetch error worth a not_found line after the URL ("404 Not Found",
    "timed out (…)", "image/png, not a page or JSON")."""
    msg = str(exc)
    if isinstance(exc, FetchTimeout):
        m = re.search(r"within (\d+(?:\.\d+)? s)", msg)
        return f"timed out (no answer within {m[1]})" if m else "timed out"
    m = re.search(r"\banswered (\d{3}\b.*)$", msg)
    if m:
        return m[1]
    for url in urls:
        if msg.startswith(url + " "):
            return msg[len(url) + 1:].removeprefix("is ")
    return msg


def _fmt(n: float) -> str:
    return f"{n:g}"


class _Follower:
    def __init__(self, fetcher: Any, ref: Reference, *, max_depth: int, max_fetches: int,
                 boards: Sequence[str | Path], pool: ReadingPool | None = None,
                 max_images: int = MAX_POST_IMAGES) -> None:
        self.pool = pool
        self.max_images = max_images
        self.budget = _Budget(fetcher, max_fetches)
        self.ref, self.max_depth, self.boards = ref, max_depth, boards
        self.result = FollowResult()
        self.post: Reading | None = None
        self.numbers: list[float] = []
        self.seen: set[str] = set()
        self.current: str | None = None
        self.started = False
        self.done = False
        self.unvisited: list[str] = []
        self.queue: list[str] = []  # the rest of the level being followed
        self.found_evidence = False
        self.refused: list[str] = []

    # ---- bookkeeping ---------------------------------------------------------------------

    def fail(self, url: str, reason: str) -> None:
        line = one_line(f"{url}: {reason}", 600)
        self.result.failures.append(line)
        self.result.not_found.append(line)

    def note(self, line: str) -> None:
        line = one_line(line, 600)
        if line not in self.result.not_found:
            self.result.not_found.append(line)

    @staticmethod
    def _source(fetched: Any, asked: str) -> Source:
        src: Source = fetched.source()
        return src.model_copy(update={"url": asked}) if asked != src.url else src

    async def _read(self, asked: str, target: str, *, as_post: bool) -> PageReading:
        if is_localscore_list(target):
            reading = await fetch_records(target, self.budget, self.ref,
                                          max_pages=max(1, self.budget.left), boards=self.boards)
            if asked != reading.source.url:
                reading.source = reading.source.model_copy(update={"url": asked})
            return PageReading(reading)
        fetched = await self.budget.fetch(target)
        self.seen.add(fetched.final_url)
        doc = await fetched.document()
        return await read_page_async(doc, self.ref, self._source(fetched, asked),
                                     as_post=as_post, boards=self.boards, pool=self.pool)

    # ---- the first URL -------------------------------------------------------------------

    async def start(self, url: str) -> None:
        try:
            target = rewrite_url(url)
        except ValueError:  # urlsplit: an unreadable IPv6 literal, a bad port
            raise FetchRefused(f"that is not a link we can read: {url[:200]}") from None
        self.seen.update((url, target))
        self.current = url
        page = await self._read(url, target, as_post=True)
        self.started = True
        self.current = None
        self.result.readings.append(page.reading)
        if page.reading.is_post and page.reading.text is not None:
            self.post = page.reading
            self.numbers = list(page.reading.text.numbers)

    # ---- following -----------------------------------------------------------------------

    def _matches(self, reading: Reading) -> bool:
        return any(matching_number(c, self.numbers) is not None for c in reading.records)

    def _take(self, page: PageReading, url: str) -> None:
        reading = page.reading
        if not reading.records:
            self.result.readings.append(reading)
            if reading.text is not None:  # a log or a config
                self.found_evidence = True
            return
        self.found_evidence = True
        if not self.numbers:
            self.result.readings.append(reading)
            self.done = True  # the post quotes no number: the first record is the claim's
            return
        if self._matches(reading):
            self.result.readings.append(reading)
            self.done = True
            return
        shown = ", ".join(f"{_fmt(n)} tok/s" for n in self.numbers[:3])
        self.note(f"no record on {url} matches {shown}")
        if len(reading.records) <= MAX_UNMATCHED_RECORDS:
            self.result.readings.append(reading)
        else:
            note = f"{len(reading.records)} records, none matching the post's number"
            src = reading.source.model_copy(update={"note": note})
            self.result.readings.append(Reading(source=src, warnings=reading.warnings))

    async def visit(self, link: str) -> PageReading | None:
        try:
            target = rewrite_url(link)
        except ValueError:  # urlsplit: an unreadable IPv6 literal, a bad port
            self.refuse(link, "that is not a link we can read")
            return None
        if link in self.seen or target in self.seen:
            return None
        self.seen.update((link, target))
        self.current = link  # left set if the deadline cancels this visit: timed_out names it
        try:
            page = await self._read(link, target, as_post=False)
        except FetchBudgetExhausted:
            self.unvisited.append(link)
            page = None
        except FetchRefused as exc:
            self.refuse(link, _reason(exc, link, target))
            page = None
        except FetchError as exc:
            self.fail(link, _reason(exc, link, target))
            page = None
        except UnusableInput as exc:
            self.fail(link, str(exc).removeprefix(f"{target}: ").removeprefix(f"{link}: "))
            page = None
        self.current = None
        if page is None:
            return None
        self._take(page, link)
        return page

    def _screen(self, links: list[str]) -> list[str]:
        """The post's links the URL policy lets through; the others are refused up front, so a
        refused link is never counted as evidence even when the follow stops early."""
        policy = getattr(self.budget.inner, "policy", None)
        allow: frozenset[str] = getattr(policy, "allow_hosts", frozenset())
        kept = []
        for link in links:
            try:
                check_url(link, allow)
            except FetchRefused as exc:
                self.seen.add(link)
                self.refuse(link, _reason(exc, link).removeprefix("that URL is not allowed: "))
                continue
            kept.append(link)
        return kept

    def refuse(self, link: str, reason: str) -> None:
        self.refused.append(link)
        self.fail(link, f"refused, not fetched ({reason})")

    async def _expand(self, links: list[str]) -> list[str]:
        """Shortlinks replaced by where they lead (fetched once; the body is kept for later)."""
        where: dict[str, str] = {}
        for short in [u for u in dict.fromkeys(links) if is_shortlink(u) and u not in self.seen]:
            self.seen.add(short)
            if self.budget.left == 0:
                self.unvisited.append(short)
                continue
            self.current = short
            for item in await expand_shortlinks([short], self.budget, is_short=lambda _: True):
                if item.final is not None:
                    where[short] = item.final
                else:
                    self.fail(short, f"shortlink not expanded: {item.failure}")
            self.current = None
        return list(dict.fromkeys(where.get(u, u) for u in links))

    def _followable(self, links: list[str]) -> list[str]:
        ranked = rank_links([u for u in dict.fromkeys(links) if not is_image_link(u)])
        return [r.url for r in ranked if r.score > NOT_FOLLOWED_SCORE]

    def _resolve_post_link(self, link: str, final: str | None) -> None:
        """A post link that redirected (a shortener, a tracking link) points where it led: Q1
        judges the post's links by their destination."""
        if self.post is None or self.post.text is None or not final or final == link:
            return
        links = [final if u == link else u for u in self.post.text.links]
        self.post.text = self.post.text.model_copy(update={"links": list(dict.fromkeys(links))})

    async def read_images(self) -> None:
        """The post's first pictures read by OCR (`extractors.web.images`), when the fetcher's
        policy lets pictures through; each one is a fetch of the budget, like a link."""
        policy = getattr(self.budget.inner, "policy", None)
        if self.post is None or self.post.text is None or not getattr(policy, "image_cap", 0):
            return
        for url in post_images(self.post.text.links, self.max_images):
            if self.done or self.budget.left == 0:
                return
            await self.visit(url)

    async def follow_links(self) -> None:
        if self.post is None or self.post.text is None or self.max_depth < 1:
            return
        post_links = self._screen(list(self.post.text.links))
        post_links = await self._expand(post_links)
        self.post.text = self.post.text.model_copy(update={"links": post_links})
        level = self._followable(post_links)
        for depth in range(1, self.max_depth + 1):
            found: list[str] = []
            for i, link in enumerate(level):
                if self.done:
                    return
                if self.budget.left == 0:
                    self.unvisited += [u for u in level[i:] if u not in self.seen]
                    break
                self.queue = level[i + 1:]
                page = await self.visit(link)
                if page is not None and depth == 1:
                    self._resolve_post_link(link, page.reading.source.final_url)
                if page is not None and not page.is_record and depth < self.max_depth:
                    found += page.links
            if self.done or depth == self.max_depth or not found:
                return
            level = self._followable(await self._expand(found))

    # ---- the summary ---------------------------------------------------------------------

    def timed_out(self, deadline_s: float) -> None:
        if self.current is not None:
            self.fail(self.current, f"timed out (the {deadline_s:g} s deadline for following "
                                    "links passed)")
        self.unvisited += [u for u in self.queue if u not in self.seen]
        self.done = True

    def _drop_refused(self) -> None:
        """Refused links are not evidence: out of the post's links (Q1), listed in one note."""
        if not self.refused or self.post is None or self.post.text is None:
            return
        refused = set(self.refused)
        kept = [u for u in self.post.text.links if u not in refused]
        self.post.text = self.post.text.model_copy(update={"links": kept})
        shown = ", ".join(self.refused[:SHOWN_LINKS]) + (" …" if len(self.refused) > SHOWN_LINKS else "")
        self.note(f"{len(self.refused)} link(s) refused by the URL policy (not fetched, not counted "
                  f"as evidence): {shown}")

    def summarise(self, deadline_hit: bool) -> None:
        if self.post is None or self.post.text is None:
            return
        self._drop_refused()
        post_links = [u for u in self.post.text.links if not is_image_link(u)]
        if not any(is_evidence_link(u) for u in post_links):
            self.note(NO_EVIDENCE_LINK)
        if self.unvisited:
            why = "the deadline passed" if deadline_hit else (
                f"fetch budget of {self.budget.limit} used")
            shown = ", ".join(self.unvisited[:SHOWN_LINKS])
            more = " …" if len(self.unvisited) > SHOWN_LINKS else ""
            self.note(f"{len(self.unvisited)} link(s) not followed ({why}): {shown}{more}")
        if post_links and not self.found_evidence:
            self.note(f"no record, config or log found behind the post's {len(post_links)} "
                      f"link(s)")
        self.result.fetched = list(self.budget.requested)


async def follow(
    url: str,
    fetcher: Any,
    ref: Reference,
    *,
    max_depth: int = 2,
    max_fetches: int = 12,
    deadline_s: float = 30.0,
    boards: Sequence[str | Path] = (),
    pool: ReadingPool | None = None,
    max_images: int = MAX_POST_IMAGES,
) -> FollowResult:
    """Fetch `url`, read it, and follow a post's links to the record behind it.

    `fetcher` is a SafeFetcher (or anything with its `fetch`). Raises FetchError when the URL
    itself cannot be fetched (FetchTimeout when the deadline passes first) and UnusableInput when
    its body cannot be read; later failures become `not_found` lines. Pages are read in `pool`'s
    workers (the app's), or in a one-worker pool opened for each page. A post's first
    `max_images` pictures are read by OCR when the fetcher's policy lets pictures through."""
    run = _Follower(fetcher, ref, max_depth=max_depth, max_fetches=max(1, max_fetches),
                    boards=boards, pool=pool, max_images=max_images)
    deadline_hit = False
    try:
        async with asyncio.timeout(deadline_s):
            await run.start(url)
            await run.read_images()
            await run.follow_links()
    except TimeoutError:
        if not run.started:
            raise FetchTimeout(
                f"{url} did not answer within the {deadline_s:g} s deadline"
            ) from None
        deadline_hit = True
        run.timed_out(deadline_s)
    run.summarise(deadline_hit)
    return run.result
