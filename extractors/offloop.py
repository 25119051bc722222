"""Reading fetched or attached bytes off the event loop, under a deadline.

Parsing is CPU-bound: a hostile page that made one reader slow would stop every other audit on
the same loop (the bot's), and neither the fetch timeout nor the follow deadline could interrupt
it, since a running regular expression never yields. So the parse runs in a worker process forked
for it: the loop only waits on a pipe, and when the deadline passes (or the caller is cancelled)
the worker is killed, so a hostile page costs at most the deadline, never more CPU after it.

Fork is what makes this cheap (the worker inherits the loaded reference tables and compiled
patterns, nothing is pickled on the way in); where fork does not exist the parse runs in a
thread, which keeps the loop free but cannot be stopped early.

`read_document_async` and `read_page_async` are what the front doors call (the bot for an
attachment, `follow` for every fetched page).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from checks.models import Source
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.errors import InvalidInput

if TYPE_CHECKING:
    from extractors.evidence import Reading
    from extractors.web import PageReading

__all__ = ["read_document_async", "read_page_async", "run_off_loop"]

T = TypeVar("T")


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _child(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> None:
    try:
        result: tuple[bool, Any] = (True, fn(*args, **kwargs))
    except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
        result = (False, exc)
    try:
        conn.send(result)
    except Exception as exc:  # noqa: BLE001 - an unpicklable result or error
        conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
    finally:
        conn.close()
        os._exit(0)  # no atexit handlers, no flushing of the parent's buffers


def _receive(conn: Connection) -> tuple[bool, Any]:
    try:
        return conn.recv()
    except (EOFError, OSError):
        return False, RuntimeError("the reading worker stopped without an answer")


async def run_off_loop(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` in a forked worker process; its exception is raised here. When the
    awaiting task is cancelled (a deadline), the worker is killed at once."""
    if not _can_fork():  # pragma: no cover - Windows: a thread keeps the loop free
        return await asyncio.to_thread(fn, *args, **kwargs)
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs), daemon=True)
    proc.start()
    child.close()
    try:
        ok, payload = await asyncio.to_thread(_receive, parent)
    finally:
        if proc.is_alive():
            proc.kill()  # cancelled, or finished: either way it has nothing more to do
        proc.join()
        parent.close()
    if not ok:
        raise payload
    return payload


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


async def read_document_async(doc: RawDocument, ref: Reference, source: Source | None = None,
                              boards: Sequence[str | Path] = (), *,
                              deadline_s: float | None = None) -> Reading:
    """`extractors.evidence.read_document` off the loop (an attachment, a pasted file); binary
    bytes are refused first. Raises UnusableInput subclasses, InvalidInput past the deadline."""
    from extractors.evidence import read_document

    doc.refuse_binary()
    return await _within(deadline_s, doc.source,
                         run_off_loop(read_document, doc, ref, source, boards))


async def read_page_async(doc: RawDocument, ref: Reference, source: Source, *,
                          as_post: bool = True, boards: Sequence[str | Path] = (),
                          deadline_s: float | None = None) -> PageReading:
    """`extractors.web.read_page` off the loop (a fetched body)."""
    from extractors.web import read_page

    doc.refuse_binary()
    return await _within(deadline_s, doc.source,
                         run_off_loop(read_page, doc, ref, source, as_post=as_post,
                                      boards=boards))
