"""The application core every front door goes through: `async with App.open(settings) as app`.

One object, opened once, owns what an audit needs — the reference tables, the reading workers
(`extractors.offloop.ReadingPool`), the fetcher and the store — and hands the front doors three
calls over one `Request` (documents in hand, URLs to follow, facts the user stated):

- `await app.audit(request)`: the report, the evidence it was computed from, and its chart points;
- `await app.claim(request)`: the claim as read, no checks run (`/compare` needs only that);
- `await app.compare(a, b)`: the difference table of two claims.

The CLI is `asyncio.run` over these calls; the Discord cogs, `sweep` and the digest are thin
adapters over the same object (the digest sweeps a watched board with the app's own fetcher
and store: no second event loop, SQLite connection or HTTP session). Dependencies are passed in,
never patched in: `network` says how the fetcher reaches hosts (tests give a loopback-only
one), `fetcher` replaces the fetcher whole, `store` the audit store (`AuditStore`, a narrow
protocol the SQLite store implements; a server database would be one module behind it).

Start order matters: the reading workers are started first, before the store's thread or any
executor thread exists (see `extractors.offloop`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from bot.facts import UserFacts, apply_facts
from bot.options import PipelineOptions
from bot.settings import Settings
from checks.compare import Comparison, compare
from checks.models import Claim, Evidence, Report
from checks.reference import Reference, load_reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.errors import FetchTimeout, UsageError
from extractors.evidence import Reading, build_evidence, read_document
from extractors.inputs import classify_input, read_local, split_links
from extractors.offloop import ReadingPool, default_size, read_document_async

if TYPE_CHECKING:  # aiohttp stays off the CLI's start-up path until a URL needs it
    import aiohttp

    from bot.service import Auditor
    from bot.store.audits import AuditPlace, AuditRecord
    from bot.store.db import Store
    from bot.sweep import SweepResult, SweepSummary
    from checks.models import Verdict
    from extractors.fetch import FetchPolicy
    from extractors.fetch.safe_fetch import Fetched
    from extractors.storage import RawStore

__all__ = ["App", "AuditResult", "AuditStore", "Fetcher", "Network", "Request", "real_network"]

MAX_BOARD_PAGES = 20  # pages of a paged board read by `sweep` (LocalScore: 100 runs a page)


class Network(Protocol):
    """How the fetcher reaches hosts: a guarded aiohttp session for a policy
    (`extractors.fetch.open_session` with the real DNS and sockets, or a loopback-only one)."""

    def __call__(self, policy: FetchPolicy) -> AbstractAsyncContextManager[aiohttp.ClientSession]:
        ...


class Fetcher(Protocol):
    """What following a link needs of a fetcher (`extractors.fetch.SafeFetcher` is one)."""

    async def fetch(self, url: str, *, kind_hint: Any = None,
                    max_age_s: float | None = None) -> Fetched:
        ...


class AuditStore(Protocol):
    """What the app needs of a store: finished audits by key and by subject, and the archive of
    fetched bodies. `bot.store.app_store.SqliteAudits` is the SQLite one (one host: WAL); a
    server database for several hosts would be another class with these methods."""

    async def get_audit(self, key: str) -> AuditRecord | None:
        ...

    async def latest_for_subject(self, subject: str, *, guild_id: int | None) -> AuditRecord | None:
        ...

    async def save_audit(self, key: str, report_json: str, verdict: Verdict, headline: str, *,
                         source_url: str | None, created_at: datetime, place: AuditPlace,
                         points: list[tuple[int, float]]) -> int:
        ...

    def raw_bodies(self) -> RawStore:
        ...


def real_network(policy: FetchPolicy) -> AbstractAsyncContextManager[aiohttp.ClientSession]:
    from extractors.fetch import open_session

    return open_session(policy)


@dataclass(frozen=True)
class Request:
    """What one audit reads: documents in hand, URLs to fetch and follow, the user's facts.
    `bundled`: the project's own files (the CLI's `--example`), read before `docs` and in this
    process: no stranger wrote them, so they need neither a worker nor its deadline (a cold
    `audit --example` then starts no process)."""

    docs: tuple[RawDocument, ...] = ()
    urls: tuple[str, ...] = ()
    facts: UserFacts = field(default_factory=UserFacts)
    bundled: tuple[RawDocument, ...] = ()

    @classmethod
    def from_message(cls, text: str, *, files: Sequence[RawDocument] = (),
                     facts: UserFacts | None = None) -> Request:
        """Chat and slash commands: the links in the text are followed, the rest is read as
        the claim; beside a file, text that states no speed and has no link is the user's
        note, not a second claim."""
        from extractors.inputs import states_speed

        rest, urls = split_links(text)
        note_only = bool(files) and not urls and not states_speed(text)
        body = rest if urls else text  # without links the text is read as given
        docs = [] if note_only or not rest else [RawDocument.from_text(body)]
        return cls(docs=(*docs, *files), urls=tuple(urls), facts=facts or UserFacts())

    @classmethod
    def from_args(cls, inputs: Sequence[str], *, facts: UserFacts | None = None,
                  stdin: BinaryIO | None = None, bundled: Sequence[Path] = ()) -> Request:
        """The command line: each INPUT a URL, a file, `-` for stdin or literal text (whose
        links are the post's own, kept for the evidence question, not fetched); `bundled`: the
        package's own files to read first (`--example`)."""
        docs, urls = [], []
        for raw in inputs:
            spec = classify_input(raw)
            if spec.kind == "url":
                urls.append(spec.value)
            else:
                docs.append(read_local(spec, stdin))
        own = tuple(read_local(classify_input(str(path))) for path in bundled)
        return cls(docs=tuple(docs), urls=tuple(urls), facts=facts or UserFacts(), bundled=own)

    def subject(self) -> str:
        """What is being audited: a lone link is its URL (so a link dropped again is
        recognised); anything with text or a file in it is the hash of all of it."""
        from bot.store.audits import audit_key

        if self.urls and not self.docs:
            return self.urls[0]
        return audit_key("inputs", *self.urls,
                         *(d.data.decode("utf-8", "replace") for d in (*self.bundled, *self.docs)))

    def with_facts(self, facts: UserFacts) -> Request:
        return replace(self, facts=facts)


@dataclass(frozen=True)
class AuditResult:
    """One audit: the report, what it was computed from, and the chart's (window, tok/s)."""

    report: Report
    evidence: Evidence
    points: list[tuple[int, float]]


class App:
    """The core; build it with `App.open` (see the module docstring)."""

    def __init__(self, settings: Settings, ref: Reference, options: PipelineOptions,
                 pool: ReadingPool, *, network: Network, fetcher: Fetcher | None = None,
                 store: Store | None = None, clock: Callable[[], datetime] | None = None) -> None:
        self.settings = settings
        self.ref = ref
        self.options = options
        self.pool = pool
        self.network = network
        self._fetcher = fetcher
        self._store = store
        self._stack = AsyncExitStack()
        self._lock = asyncio.Lock()
        from extractors.storage import utc_now

        self.clock = clock or utc_now
        self._auditor: Auditor | None = None

    @property
    def auditor(self) -> Auditor:
        """Stored audits (once per subject, reuse within the cache lifetime, re-audit): the
        flow the bot's doors use. Built on first use, so the CLI never loads the store's
        modules."""
        if self._auditor is None:
            from bot.service import Auditor

            self._auditor = Auditor(self, lifetime_s=self.settings.store.cache_lifetime_s,
                                    clock=self.clock)
        return self._auditor

    # ---- opening -------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def open(cls, settings: Settings, *, ref: Reference | None = None,
                   options: PipelineOptions | None = None, network: Network | None = None,
                   fetcher: Fetcher | None = None, pool: ReadingPool | None = None,
                   open_store: bool = False, readers: int | None = None,
                   fork_while_single_threaded: bool = False,
                   clock: Callable[[], datetime] | None = None) -> AsyncIterator[App]:
        """The app, its reading workers started first. The store (and with it the fetcher's
        archive) is opened now with `open_store` (the bot), else on the first URL (the CLI
        reading local files never touches it). `readers`: worker processes (default: the
        settings' `limits.readers`, else the cores up to 4). `fork_while_single_threaded`: a
        one-shot command may fork its workers while it has no other thread (see ReadingPool)."""
        ref = ref if ref is not None else load_reference(*settings.reference_files)
        options = options or PipelineOptions.from_settings(settings)
        async with AsyncExitStack() as stack:
            if pool is None:
                size = readers or settings.limits.readers or default_size()
                pool = stack.enter_context(_closing(ReadingPool(
                    ref, size, fork_while_single_threaded=fork_while_single_threaded)))
            app = cls(settings, ref, options, pool, network=network or real_network,
                      fetcher=fetcher, clock=clock)
            stack.push_async_callback(app._stack.aclose)
            if open_store:
                pool.start()  # before the store's thread
                await app.store()
            yield app

    async def store(self) -> Store:
        """The SQLite store, opened (and checked) on first use."""
        async with self._lock:
            if self._store is None:
                from bot.store.db import Store, StoreError, default_db_path

                path = Path(self.options.cache_path or default_db_path())
                self.pool.start()  # the workers exist before the store's thread does
                try:
                    store = await Store.open(path)
                except (StoreError, OSError) as exc:
                    raise UsageError(f"cannot use the store {path}: {exc}") from None
                self._stack.push_async_callback(store.close)
                health = await store.integrity_check()
                if health != "ok":
                    raise StoreError(f"{path} failed PRAGMA integrity_check: {health[:200]}")
                self._store = store
            return self._store

    async def fetcher(self) -> Fetcher:
        """The one fetcher: one guarded session for the app's lifetime, every body archived in
        the store (in memory only when the cache is off)."""
        if self._fetcher is None:
            from bot.fetching import policy_for
            from extractors.fetch import SafeFetcher

            policy = policy_for(self.options)
            raw = await self._raw_store()
            self.pool.start()
            session = await self._stack.enter_async_context(self.network(policy))
            self._fetcher = SafeFetcher(session, raw, policy)
        return self._fetcher

    async def audits(self) -> AuditStore:
        """The store as the app uses it (`AuditStore`)."""
        from bot.store.app_store import SqliteAudits

        return SqliteAudits(await self.store())

    async def _raw_store(self) -> RawStore:
        from extractors.storage import MemoryRawStore

        if not self.options.use_cache:
            return MemoryRawStore()
        return (await self.audits()).raw_bodies()

    # ---- reading and auditing ------------------------------------------------------------

    async def read(self, request: Request) -> Evidence:
        """The evidence behind one request: documents read in the workers under the fetch
        deadline, URLs fetched and followed, then the user's facts filled in."""
        opts = self.options
        own = [read_document(doc, self.ref, boards=list(opts.boards)) for doc in request.bundled]
        # Side by side: a pool of more than one worker reads a request's files at once; the
        # results keep the request's order. Every read ends (each is bounded by the deadline)
        # before a failure is raised, so none is still in a worker when the caller closes the
        # pool; the failure raised is the first input's, in the request's order.
        results = await asyncio.gather(*(
            read_document_async(doc, self.ref, boards=list(opts.boards),
                                deadline_s=opts.fetch_deadline_s, pool=self.pool)
            for doc in request.docs), return_exceptions=True)
        readings = own
        for result in results:
            if isinstance(result, BaseException):
                raise result
            readings.append(result)
        fetched: list[Reading] = []
        not_found: list[str] = []
        if request.urls:
            fetched, not_found = await self._follow(request.urls)
        ev = build_evidence(fetched + readings, self.ref)
        if not_found:
            ev = ev.model_copy(update={"not_found": [*ev.not_found, *not_found]})
        return apply_facts(ev, request.facts)

    async def _follow(self, urls: Sequence[str]) -> tuple[list[Reading], list[str]]:
        from extractors.follow import follow

        fetcher = await self.fetcher()
        readings: list[Reading] = []
        not_found: list[str] = []
        for url in urls:
            result = await follow(url, fetcher, self.ref, max_fetches=self.options.fetch_budget,
                                  deadline_s=self.options.fetch_deadline_s,
                                  boards=list(self.options.boards), pool=self.pool,
                                  max_images=self.options.fetch.post_images)
            readings += result.readings
            not_found += [line for line in result.not_found if line not in not_found]
        return readings, not_found

    async def claim(self, request: Request) -> Claim:
        """The claim as read, no checks run."""
        return (await self.read(request)).claim

    async def audit(self, request: Request) -> AuditResult:
        """The report, its evidence and its chart points, from one reading."""
        from bot.render.chart import chart_points

        ev = await self.read(request)
        return AuditResult(report=audit(ev, self.ref), evidence=ev,
                           points=chart_points(ev.claim, ev.siblings))

    async def compare(self, a: Request, b: Request) -> Comparison:
        """Two claims, read (not audited), side by side."""
        return compare(await self.claim(a), await self.claim(b), self.ref)

    # ---- boards ---------------------------------------------------------------------------

    async def board(self, url: str) -> Reading:
        """Every record of a leaderboard endpoint (paged boards read page by page)."""
        from extractors.boards import fetch_records

        fetcher = await self.fetcher()
        try:
            async with asyncio.timeout(self.options.fetch_deadline_s):
                return await fetch_records(url, fetcher, self.ref, max_pages=MAX_BOARD_PAGES,
                                           boards=list(self.options.boards))
        except TimeoutError:
            raise FetchTimeout(
                f"{url} was not read within the {self.options.fetch_deadline_s:g} s deadline"
            ) from None

    async def sweep(self, source: str, *, jobs: int = 1,
                    on_report: Callable[[str], None] | None = None,
                    report_out: BinaryIO | None = None) -> SweepSummary:
        """`bot.sweep.run_sweep` of a file, stdin or URL (fetched here, with the app's fetcher),
        in a thread so the loop stays free; `on_report` is called, `report_out` written, from
        that thread."""
        from bot.sweep import run_sweep

        records = await self.board(source) if classify_input(source).kind == "url" else None
        return await asyncio.to_thread(run_sweep, source, self.ref, self.options, jobs=jobs,
                                       on_report=on_report, records=records, report_out=report_out)

    async def sweep_board(self, url: str) -> SweepResult:
        """A watched board for the digest: fetched with the app's fetcher, its records audited
        in a reading worker under the fetch deadline (a board is untrusted input too)."""

        records = await self.board(url)
        async with asyncio.timeout(self.options.fetch_deadline_s):
            return await self.pool.run(_sweep_records, url, self.options, records, ref=self.ref)


def _sweep_records(ref: Reference, url: str, opts: PipelineOptions,
                   records: Reading) -> SweepResult:
    """In a reading worker: the sweep of records already fetched."""
    from bot.sweep import sweep_source

    return sweep_source(url, ref, opts, records=records)


class _closing:
    """A pool closed on exit (a context manager over `ReadingPool.close`)."""

    def __init__(self, pool: ReadingPool) -> None:
        self.pool = pool

    def __enter__(self) -> ReadingPool:
        return self.pool

    def __exit__(self, *exc: object) -> None:
        self.pool.close()
