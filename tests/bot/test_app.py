"""The application core every front door goes through (`bot.core.App`): one reading, the same
report from every door, facts the user adds, and the reading workers' guarantees."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.core import App, Request
from bot.facts import parse_facts
from bot.pipeline import audit_inputs
from bot.settings import Settings
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.errors import InvalidInput, UnusableInput, UsageError
from extractors.offloop import ReadingPool, read_document_async, start_method

CLAIM = ("Qwen3.6-27B NVFP4 on one RTX 5090, batch 1, plain decode: 2048 tokens in 0.969 s "
         "— 2103.6 tok/s")


def _settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "app.sqlite3")


async def test_an_attachment_gives_the_report_the_cli_gives_for_the_same_text(
        ref: Reference, tmp_path: Path) -> None:
    async with App.open(_settings(tmp_path), ref=ref) as app:
        result = await app.audit(Request(docs=(RawDocument.from_text(CLAIM, source="text"),)))
    cli = await asyncio.to_thread(audit_inputs, [CLAIM], ref)
    assert (result.report.verdict, result.report.headline) == (cli.verdict, cli.headline)
    assert result.report.verdict == "implausible"
    assert result.report.question("roofline").figures["ratio"] == pytest.approx(16.32, abs=0.01)
    assert result.evidence.claim == result.report.claim


async def test_a_binary_attachment_is_refused_before_it_is_parsed(ref: Reference,
                                                                 tmp_path: Path) -> None:
    async with App.open(_settings(tmp_path), ref=ref) as app:
        with pytest.raises(UnusableInput, match="binary"):
            await app.audit(Request(docs=(RawDocument(b"\x00" * 65536, source="upload.bin"),)))


async def test_the_claim_is_the_audited_claim_and_the_example_keeps_its_figures(
        ref: Reference, tmp_path: Path) -> None:
    from bot.cli import _example_paths

    request = Request.from_args([str(p) for p in _example_paths()])
    async with App.open(_settings(tmp_path), ref=ref) as app:
        claim = await app.claim(request)
        result = await app.audit(request)
    assert claim == result.report.claim
    roof = result.report.question("roofline").figures
    assert (round(roof["ceiling_tok_s"]), round(roof["ratio"], 1)) == (129, 16.3)
    assert result.report.question("acceptance").figures["ratio"] == pytest.approx(1.0)
    assert result.points == [(24, 1074.0), (56, 2103.6), (256, 4547.0), (512, 4691.0)]


@pytest.mark.parametrize(("inputs", "workers"), [([], 0), (["plain decode, batch 1"], 1)])
async def test_the_bundled_example_is_read_here_and_what_the_user_adds_in_a_worker(
        ref: Reference, tmp_path: Path, inputs: list[str], workers: int) -> None:
    # The package's own files start no process; what the user gives beside them is read in the
    # pool, under its deadline, as the bot reads an attachment. The report is the one the same
    # inputs give all read in the workers.
    from bot.cli import _example_paths

    request = Request.from_args(inputs, bundled=_example_paths())
    here, apart = ReadingPool(ref, 1), ReadingPool(ref, 1)
    try:
        async with App.open(_settings(tmp_path), ref=ref, pool=here) as app:
            result = await app.audit(request)
        async with App.open(_settings(tmp_path), ref=ref, pool=apart) as app:
            expected = await app.audit(Request.from_args([*map(str, _example_paths()), *inputs]))
    finally:
        here.close()
        apart.close()
    assert ([d.source for d in request.bundled], len(request.docs)) == (
        [str(p) for p in _example_paths()], len(inputs))
    assert (here.started, apart.started) == (workers, 1)
    assert result.report.model_dump() == expected.report.model_dump()
    assert round(result.report.question("roofline").figures["ceiling_tok_s"]) == 129


@pytest.mark.parametrize(("text", "urls", "body"), [
    ("see https://x.example/a. 150 tok/s", ("https://x.example/a",), "see   150 tok/s"),
    ("150 tok/s on a 4090", (), "150 tok/s on a 4090"),
    ("https://x.example/a https://x.example/a", ("https://x.example/a",), None),
])
def test_one_splitter_for_chat_and_slash_commands(text: str, urls: tuple[str, ...],
                                                  body: str | None) -> None:
    request = Request.from_message(text)
    assert request.urls == urls
    assert [d.text for d in request.docs] == ([body] if body else [])


def test_beside_a_file_a_note_without_a_speed_is_not_a_second_claim() -> None:
    file = RawDocument.from_text("{}", source="bench.json")
    assert Request.from_message("my run, thoughts?", files=[file]).docs == (file,)
    assert len(Request.from_message("my run: 150 tok/s", files=[file]).docs) == 2


# ---- facts the user adds -------------------------------------------------------------------

async def test_a_stated_fact_fills_what_the_text_leaves_out_with_its_provenance(
        ref: Reference, tmp_path: Path) -> None:
    text = "Llama 3.1 8B BF16 at 158 tok/s"
    facts = parse_facts(["hardware=1x H100 SXM", "batch=1"])
    async with App.open(_settings(tmp_path), ref=ref) as app:
        bare = (await app.audit(Request.from_message(text))).report
        told = (await app.audit(Request.from_message(text, facts=facts))).report
    assert bare.claim.hardware is None and bare.question("roofline").status == "unanswerable"
    assert (told.claim.hardware, told.claim.hardware_count, told.claim.batch) == ("H100 SXM", 1, 1)
    prov = told.claim.provenance["hardware"]
    assert (prov.source, prov.field, prov.kind) == ("stated by the user", "--set hardware", "user")
    assert told.question("roofline").status == "ok"
    assert told.question("roofline").figures["ratio"] == pytest.approx(158 / 208.6, abs=0.005)
    assert told.sources[-1].url == "stated by the user"
    assert told.sources[-1].note == "hardware=1x H100 SXM; batch=1"
    assert told.warnings[-3:] == [
        "hardware_count = 1: stated by the user (--set hardware), not in the record",
        "hardware = H100 SXM: stated by the user (--set hardware), not in the record",
        "batch = 1: stated by the user (--set batch), not in the record"]


async def test_a_stated_fact_never_overrides_the_record_and_the_conflict_shows_both(
        ref: Reference, tmp_path: Path) -> None:
    facts = parse_facts(["batch=8"])
    async with App.open(_settings(tmp_path), ref=ref) as app:
        report = (await app.audit(Request.from_message(CLAIM, facts=facts))).report
    assert report.claim.batch == 1
    conflict = report.finding("field_conflict")
    assert conflict.status == "flag"
    assert conflict.lines() == ['batch: 1 (claim.batch (text: "batch 1")) vs 8 (stated by the user '
                              '(--set batch))']


@pytest.mark.parametrize(("items", "message"), [
    (["gpu=H100"], "unknown fact 'gpu'"),
    (["batch=one"], "batch='one' is not a whole number"),
    (["batch=0"], "batch='0' is not a whole number"),
    (["hardware"], "a fact is key=value, got 'hardware'"),
])
def test_a_bad_fact_is_one_line_that_lists_the_valid_keys(items: list[str], message: str) -> None:
    with pytest.raises(UsageError) as err:
        parse_facts(items)
    assert str(err.value).startswith(message + "; valid keys: hardware, hardware_count, model")


# ---- the reading workers -------------------------------------------------------------------

def _spin(seconds: float) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "done"


def _parent() -> int:
    return os.getppid()


async def test_workers_are_never_forked_from_this_threaded_process(ref: Reference) -> None:
    started = threading.Event()
    threading.Thread(target=started.wait, daemon=True).start()  # this process has threads
    try:
        async with ReadingPool.open(ref, 2) as pool:
            parents = {await pool.run(_parent) for _ in range(4)}
            assert pool.method == start_method() in ("forkserver", "spawn")
            # forkserver: every worker is a child of the fork server, a fresh single-threaded
            # interpreter; spawn: a fresh interpreter each. Never a fork of this process.
            if pool.method == "forkserver":
                assert os.getpid() not in parents
    finally:
        started.set()


# A one-shot command (the CLI) may fork its worker while it has one thread, and must not once a
# thread exists. Run in a fresh interpreter, so no thread of the test session is there.
_FORK_PROBE = """
import asyncio, os, sys, threading
from extractors.offloop import ReadingPool

def parent():
    return os.getppid()

async def main():
    pool = ReadingPool(None, 1, fork_while_single_threaded=True)
    try:
        single = await pool.run(parent)
        gate = threading.Event()
        threading.Thread(target=gate.wait, daemon=True).start()
        pool._spawn()  # a second worker, now that a thread exists
        gate.set()
        print(single == os.getpid(), pool.forked, pool.started)
    finally:
        pool.close()

asyncio.run(main())
"""


def test_a_single_threaded_command_forks_its_worker_and_a_threaded_one_does_not() -> None:
    done = subprocess.run([sys.executable, "-c", _FORK_PROBE], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    # the first worker is this process's own child (forked); the second came from the fork server
    assert done.stdout.split() == ["True", "1", "2"]


async def test_a_hostile_read_is_killed_at_its_deadline_and_the_pool_keeps_serving(
        ref: Reference) -> None:
    async with ReadingPool.open(ref, 2) as pool:
        first = set(pool.pids())
        start = time.monotonic()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.5):
                await pool.run(_spin, 30.0)
        assert time.monotonic() - start < 5
        assert pool.replaced == 1 and len(pool.pids()) == 2 and set(pool.pids()) != first
        replies = await asyncio.gather(*(pool.run(_spin, 0.0) for _ in range(6)))
        assert replies == ["done"] * 6
        reading = await read_document_async(RawDocument.from_text("150 tok/s on one 4090"), ref,
                                            deadline_s=10.0, pool=pool)
        assert reading.text is not None and reading.text.claim.tok_s == 150.0
        assert pool.started == 3  # two at start, one replacement, reused for everything else


async def test_an_app_reads_past_the_deadline_as_one_error(ref: Reference, tmp_path: Path) -> None:
    async with ReadingPool.open(ref, 1) as pool, \
            App.open(_settings(tmp_path), ref=ref, pool=pool) as app:
        await pool.run(_slow_reader)
        with pytest.raises(InvalidInput, match="took longer than the 0.5 s deadline"):
            await read_document_async(RawDocument.from_text(CLAIM, source="post.txt"), ref,
                                      deadline_s=0.5, pool=app.pool)
        # the replacement worker reads normally
        result = await app.audit(Request.from_message(CLAIM))
        assert result.report.verdict == "implausible"


def _slow_reader() -> None:
    import extractors.evidence

    extractors.evidence.read_document = lambda *a, **k: _spin(30.0)  # type: ignore[assignment]


async def test_the_pool_starts_before_the_stores_thread(ref: Reference, tmp_path: Path) -> None:
    before = threading.active_count()
    async with App.open(_settings(tmp_path), ref=ref, open_store=True) as app:
        assert app.pool.threads_at_start == before  # no thread existed when the workers started
        assert threading.active_count() > before  # aiosqlite's thread came after


# A JSON of no format claimcheck reads (an OpenAI-style chat completion, no timings in it).
UNKNOWN_JSON = (b'{"id":"chatcmpl-1","object":"chat.completion","model":"llama3.1:8b","choices":'
                b'[{"index":0,"message":{"role":"assistant","content":"Hi"}}],"usage":{"completion_tokens":290}}')


@pytest.mark.parametrize("order", ["refused first", "refused last"])
async def test_one_refused_input_of_several_is_the_error_and_every_read_ends_first(
        ref: Reference, tmp_path: Path, order: str) -> None:
    # An unknown JSON beside a claim: the refusal is raised after the other read ended, so the
    # pool is closed with nothing in a worker (before, the read still running at the close
    # raised ValueError in the pool and asyncio printed a traceback at shutdown).
    long_post = RawDocument.from_text("\n".join([CLAIM] * 4000))  # ~0.6 MB: read for a while
    docs = [RawDocument(UNKNOWN_JSON, source="generate.json"), long_post]
    if order == "refused last":
        docs.reverse()
    async with ReadingPool.open(ref, 2) as pool, \
            App.open(_settings(tmp_path), ref=ref, pool=pool) as app:
        with pytest.raises(UnusableInput, match="generate.json: this JSON is not a format claimcheck reads"):
            await app.audit(Request(docs=tuple(docs)))
        assert pool.idle() == 2  # the long read ended before the refusal was raised
        assert pool.replaced == 0 and len(pool.pids()) == 2
        assert (await app.audit(Request.from_message(CLAIM))).report.verdict == "implausible"


async def test_a_task_cancelled_after_its_pool_closed_kills_its_worker_and_raises_nothing_else(
        ref: Reference) -> None:
    pool = ReadingPool(ref, 1).start()
    task = asyncio.ensure_future(pool.run(_spin, 30.0))
    await asyncio.sleep(0.2)  # the task is in its worker
    pool.close()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert pool.pids() == [] and pool.replaced == 0
