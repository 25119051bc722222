"""Reading untrusted bytes off the event loop, in reused worker processes, under a deadline.

Parsing is CPU-bound: a hostile page that made one reader slow would stop every other audit on
the same loop (the bot's), and neither the fetch timeout nor the follow deadline could interrupt
it, since a running regular expression never yields. So the parse runs in a worker process: the
loop only watches the worker's pipe (`loop.add_reader`, no executor thread), and when the
deadline passes (or the caller is cancelled) that worker is killed and a fresh one takes its
place, so a hostile page costs at most the deadline and the pool keeps serving.

`ReadingPool` keeps a fixed number of workers, reused across audits. They come from a
`forkserver` context (`spawn` where there is none): never a `fork` of the calling process, which
by then may run aiosqlite's thread or executor threads, and forking a multi-threaded process can
leave the child holding a lock no thread will release (Python docs, multiprocessing, "Contexts
and start methods"). The fork server is a fresh interpreter that starts no threads, and every
worker, replacements included, is forked from it. Each worker is handed the reference tables
once, at start; a task sends only its document.

`read_document_async` and `read_page_async` are what the front doors call (the app for pasted
text and attachments, `follow` for every fetched page), with the app's pool; without one a
one-worker pool is opened for the call.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from extractors.errors import InvalidInput

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from checks.models import Source
    from checks.reference import Reference
    from extractors.document import RawDocument
    from extractors.evidence import Reading
    from extractors.web import PageReading

__all__ = ["PARALLEL_BYTES", "ReadingPool", "default_size", "read_document_async", "read_page_async",
           "run_off_loop", "start_method", "warm_up", "worker_context"]

T = TypeVar("T")
# A sweep's dump below this size is read in the calling process: its first pass is quicker than
# starting workers (`bot.sweep`); the CLI starts the fork server early for one above it.
PARALLEL_BYTES = 256 * 1024
# What a fork server loads once, so that each worker forked from it starts warm ("__main__":
# the caller's main module, which each worker would otherwise import again).
_PRELOAD = ["checks.runner", "extractors.evidence", "extractors.web"]


def _preload() -> list[str]:
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return ["__main__", *_PRELOAD] if path and os.path.isfile(path) else _PRELOAD


def start_method() -> str:
    """`forkserver` where the platform has it, else `spawn`: never `fork`."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _context() -> BaseContext:
    ctx = multiprocessing.get_context(start_method())
    if start_method() == "forkserver":
        ctx.set_forkserver_preload(_preload())
    return ctx


def worker_context() -> BaseContext:
    """The context every worker process of the app comes from, the reading pool's and the
    sweep's (`bot.sweep`): the fork server with the readers preloaded, else spawn."""
    return _context()


def warm_up() -> None:
    """Start the fork server now, without waiting for it: it loads the readers while the
    caller loads its own modules (the CLI calls this first thing), so a cold start pays for
    the two side by side instead of one after the other."""
    if start_method() == "forkserver":
        from multiprocessing import forkserver

        _context()
        forkserver.ensure_running()


def _serve(conn: Connection, ref: Reference | None,
           warm: Callable[[], object] | None = None) -> None:
    """A worker: tasks in, results out, until the pipe closes. `(fn, args, kwargs, with_ref)`:
    with `with_ref`, the worker's own reference tables are the first argument. `warm` runs
    first (the OCR models loading), in the worker, while the parent goes on: a task sent
    meanwhile waits in the pipe."""
    if warm is not None:
        with suppress(Exception):  # a failed warm-up only means the first task pays the load
            warm()
    while True:
        try:
            fn, args, kwargs, with_ref = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result: tuple[bool, Any] = (True, fn(ref, *args, **kwargs) if with_ref
                                        else fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
            result = (False, exc)
        try:
            conn.send(result)
        except Exception as exc:  # noqa: BLE001 - an unpicklable result or error
            conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


class _Worker:
    def __init__(self, ctx: BaseContext, ref: Reference | None,
                 warm: Callable[[], object] | None = None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc: BaseProcess = ctx.Process(target=_serve, args=(child, ref, warm), daemon=True)  # type: ignore[attr-defined]
        self.proc.start()
        child.close()

    @classmethod
    def started_apart(cls, ctx: BaseContext, ref: Reference | None,
                      warm: Callable[[], object] | None) -> _Worker:
        """A worker started from a short-lived thread, outside the calling loop's context.
        `Process.start` first reaps finished children: for each live one it waits on its
        sentinel with a zero timeout, and `multiprocessing.connection.wait` ends that wait only
        once `time.monotonic()` has moved past its deadline. A loop whose clock is virtual (a
        test's: simcord dispatches `time.monotonic` by context) never moves it within a call,
        so starting a replacement from the loop spun forever; a fresh thread starts with an
        empty context and reads the real clock. `Thread.start`/`join` wait on locks, no clock."""
        made: list[_Worker] = []
        failed: list[BaseException] = []

        def start() -> None:
            try:
                made.append(cls(ctx, ref, warm))
            except BaseException as exc:  # noqa: BLE001 - raised again in the caller
                failed.append(exc)

        thread = threading.Thread(target=start, name="claimcheck-worker-start", daemon=True)
        thread.start()
        thread.join()
        if failed:
            raise failed[0]
        return made[0]

    async def call(self, task: tuple[Any, ...]) -> tuple[bool, Any]:
        """Send one task and wait for its answer without blocking the loop."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = self.conn.fileno()
        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            try:
                self.conn.send(task)
            except OSError:  # the worker died between the aliveness check and the send
                return False, RuntimeError("the reading worker stopped without an answer")
            await ready
        finally:
            loop.remove_reader(fd)
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            return False, RuntimeError("the reading worker stopped without an answer")

    def alive(self) -> bool:
        """Whether the worker still runs: its sentinel is not readable yet. (A plain select,
        not `Process.is_alive`, whose wait loop reads `time.monotonic` and spins forever under
        a test's virtual clock.)"""
        try:
            ready, _, _ = select.select([self.proc.sentinel], [], [], 0)
        except (OSError, ValueError):
            return False
        return not ready

    def kill(self) -> None:
        with suppress(OSError):
            self.conn.close()
        if self.alive():
            self.proc.kill()
        self.proc.join(5)


class ReadingPool:
    """`size` worker processes, reused; a task past its deadline costs its worker, replaced."""

    def __init__(self, ref: Reference | None, size: int = 2, *,
                 fork_while_single_threaded: bool = False,
                 warm: Callable[[], object] | None = None) -> None:
        self.ref = ref
        self.size = max(1, size)
        self.warm = warm  # run once in each worker as it starts (the bot: the OCR models)
        self.method = start_method()
        self._ctx = _context()
        # A process with one thread forks safely (no lock can be held by a thread the child
        # lacks), and a forked worker starts with the parent's modules and tables already loaded:
        # the CLI's cold start. Each spawn checks again, so a worker started once any thread
        # exists (a DNS lookup's, the store's) comes from the fork server instead.
        self._fork = (multiprocessing.get_context("fork") if fork_while_single_threaded
                      and "fork" in multiprocessing.get_all_start_methods() else None)
        self.forked = 0  # workers forked from this process while it had one thread
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self.started = 0  # workers started, replacements included
        self.replaced = 0  # workers killed at a deadline (or lost) and replaced
        self.threads_at_start: int | None = None  # this process's threads when the pool started

    def start(self) -> ReadingPool:
        """Start the workers now. Call it before anything starts a thread (the store's, an
        executor's): the fork server is then started from a single-threaded process too."""
        if self._idle is None:
            self.threads_at_start = threading.active_count()
            self._idle = asyncio.Queue()
            for _ in range(self.size):
                self._idle.put_nowait(self._spawn())
        return self

    def _spawn(self) -> _Worker:
        single = self._fork is not None and threading.active_count() == 1
        # A fork happens on this thread (it is the only one); the fork server or spawn path
        # starts the worker from a thread of its own (`_Worker.started_apart`: no loop's clock).
        worker = (_Worker(self._fork, self.ref, self.warm) if single and self._fork
                  else _Worker.started_apart(self._ctx, self.ref, self.warm))
        self.forked += single
        self._all.append(worker)
        self.started += 1
        return worker

    def idle(self) -> int:
        """How many workers wait for a task now (the rest are running one)."""
        return self._idle.qsize() if self._idle is not None else 0

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self._all if w.proc.pid is not None and w.alive()]

    async def run(self, fn: Callable[..., T], /, *args: Any, ref: Reference | None = None,
                  **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` in a worker; with `ref`, `fn(ref, *args, **kwargs)` (the
        worker's own copy when it is the pool's tables: nothing pickled). Its exception is
        raised here; when the caller is cancelled the worker is killed and replaced."""
        idle = self.start()._idle
        assert idle is not None
        with_ref = ref is not None and ref is self.ref
        if ref is not None and not with_ref:
            args = (ref, *args)
        worker = await idle.get()
        if not worker.alive():
            # It died while idle (killed for memory, say): the task has not run, so a fresh
            # worker takes it instead of the caller getting a broken pipe.
            worker = self._replace(worker)
        healthy = False
        try:
            ok, payload = await worker.call((fn, args, kwargs, with_ref))
            healthy = worker.alive()
        finally:
            if worker not in self._all:  # the pool was closed under the task: nothing to return
                worker.kill()
            elif healthy:
                idle.put_nowait(worker)
            else:  # cancelled mid-task (a deadline), or the worker died: a fresh one
                idle.put_nowait(self._replace(worker))
        if not ok:
            raise payload
        return payload

    def _replace(self, worker: _Worker) -> _Worker:
        """Kill `worker` and start the one that takes its place."""
        worker.kill()
        self._all.remove(worker)
        self.replaced += 1
        return self._spawn()

    def close(self) -> None:
        for worker in self._all:
            worker.kill()
        self._all.clear()
        self._idle = None

    @classmethod
    @asynccontextmanager
    async def open(cls, ref: Reference | None, size: int = 2) -> AsyncIterator[ReadingPool]:
        pool = cls(ref, size).start()
        try:
            yield pool
        finally:
            pool.close()


def default_size() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@asynccontextmanager
async def _given_or_opened(pool: ReadingPool | None,
                           ref: Reference | None) -> AsyncIterator[ReadingPool]:
    if pool is not None:
        yield pool
        return
    async with ReadingPool.open(ref, 1) as opened:
        yield opened


async def run_off_loop(fn: Callable[..., T], /, *args: Any, pool: ReadingPool | None = None,
                       **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` in a worker process (of `pool`, or one opened for the call); its
    exception is raised here. When the awaiting task is cancelled the worker is killed."""
    async with _given_or_opened(pool, None) as used:
        return await used.run(fn, *args, **kwargs)


async def _within(deadline_s: float | None, source: str, coro: Any) -> Any:
    if deadline_s is None:
        return await coro
    try:
        async with asyncio.timeout(deadline_s):
            return await coro
    except TimeoutError:
        raise InvalidInput(
            f"{source}: reading it took longer than the {deadline_s:g} s deadline; stopped"
        ) from None


# A document crosses to a worker as its plain fields: its cached parse (and the sentinel that
# marks "not parsed yet", an `object()` that pickling would turn into a different one) stays.
_Sent = tuple[bytes, str, "str | None", list[str]]


def _send(doc: RawDocument) -> _Sent:
    return doc.data, doc.source, doc.content_type, list(doc.warnings)


def _received(sent: _Sent) -> RawDocument:
    from extractors.document import RawDocument

    data, source, content_type, warnings = sent
    return RawDocument(data, source=source, content_type=content_type, warnings=warnings)


def _read_document(ref: Reference, doc: _Sent, source: Source | None,
                   boards: Sequence[str | Path]) -> Reading:
    from extractors.evidence import read_document

    return read_document(_received(doc), ref, source, boards)


def _read_page(ref: Reference, doc: _Sent, source: Source, as_post: bool,
               boards: Sequence[str | Path]) -> PageReading:
    from extractors.web import read_page

    return read_page(_received(doc), ref, source, as_post=as_post, boards=boards)


async def read_document_async(doc: RawDocument, ref: Reference, source: Source | None = None,
                              boards: Sequence[str | Path] = (), *,
                              deadline_s: float | None = None,
                              pool: ReadingPool | None = None) -> Reading:
    """`extractors.evidence.read_document` in a reading worker (an attachment, a pasted file);
    binary bytes are refused first. Raises UnusableInput subclasses, InvalidInput past the
    deadline."""
    doc.refuse_binary()
    async with _given_or_opened(pool, ref) as used:
        return await _within(deadline_s, doc.source,
                             used.run(_read_document, _send(doc), source, tuple(boards), ref=ref))


async def read_page_async(doc: RawDocument, ref: Reference, source: Source, *,
                          as_post: bool = True, boards: Sequence[str | Path] = (),
                          deadline_s: float | None = None,
                          pool: ReadingPool | None = None) -> PageReading:
    """`extractors.web.read_page` in a reading worker (a fetched body)."""
    doc.refuse_binary()
    async with _given_or_opened(pool, ref) as used:
        return await _within(deadline_s, doc.source,
                             used.run(_read_page, _send(doc), source, as_post, tuple(boards), ref=ref))
