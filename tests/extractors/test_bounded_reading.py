"""Budget and evidence count only real fetches; binary is refused; reading is bounded in memory
and runs off the event loop under the follow deadline ("any input, bounded")."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import extractors.web
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument, is_binary
from extractors.errors import InvalidInput
from extractors.evidence import build_evidence
from extractors.follow import follow
from extractors.inputs import InputSpec, read_local
from extractors.offloop import ReadingPool, read_document_async, run_off_loop
from extractors.web import PageReading
from tests.fixtures.web.loopback import Loopback, loopback_fetcher

REFUSED = [
    "http://127.0.0.2/api/records.json", "http://10.0.0.1/bench.json", "http://169.254.169.254/latest",
    "http://[::1]/x.json", "http://0x7f000001/x.json", "http://2130706433/x.json",
    "http://192.168.1.1/board.json", "https://localhost:22/run.json", "http://0.0.0.0/run.json",
    f"https://{'c' * 64}.example/run.json", "http://100.64.0.1/gist.json",
]


def _post(server: Loopback, path: str, body: str) -> str:
    return server.text(path, f"<html><body><main>{body}</main></body></html>")


async def test_refused_links_spend_no_budget_and_are_not_evidence(server: Loopback, ref: Reference) -> None:
    server.file("/gist/raw/bench.json", "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain")
    links = " ".join(f"<a href='{u}'>r{i}</a>" for i, u in enumerate(REFUSED))
    url = _post(server, "/post", "EAGLE-3 on one H100: 485.6 tok/s output throughput, Llama 3.1 8B. "
                f"{links} <a href='{{{{BASE}}}}/gist/raw/bench.json'>raw</a>")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref, max_fetches=2)
    assert server.paths() == ["/post", "/gist/raw/bench.json"]  # the real link was followed
    assert result.fetched == [url, server.url("/gist/raw/bench.json")]
    assert sum(line.endswith(")") and ": refused, not fetched (" in line for line in result.failures) == 11
    assert result.readings[0].text is not None
    assert result.readings[0].text.links == [server.url("/gist/raw/bench.json")]
    ev = build_evidence(result.readings, ref).model_copy(update={"not_found": result.not_found})
    q1 = audit(ev, ref).question("evidence")
    assert q1.figures["evidence_links"] == 1
    assert q1.summary == f"the post links the tool output: {server.url('/gist/raw/bench.json')}."


@pytest.mark.parametrize(("name", "data"), [
    ("random", bytes((i * 2654435761 >> 7) % 256 for i in range(1 << 20))),
    ("nul", b"\x00" * (1 << 16)),
    ("png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 16),
    ("elf", b"\x7fELF\x02\x01\x01" + bytes(4096)),
])
def test_binary_input_is_refused_as_binary(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / f"{name}.txt"
    path.write_bytes(data)
    with pytest.raises(InvalidInput) as err:
        read_local(InputSpec("file", str(path)))
    assert str(err.value) == (f"{path}: this is binary data, not text or JSON; give the post, the "
                              "record or the tool's output")


@pytest.mark.parametrize("text", [
    "Llama 3.1 8B on one H100, batch 1: 150 tok/s",
    "café — 2103,6 tok/s · 東京 · Ñandú",  # UTF-8 beyond ASCII
    "\t\r\n\x0c" * 100,
    '{"notes": "raw \x01 control in a record"}',
])
def test_text_is_never_taken_for_binary(text: str) -> None:
    assert not is_binary(text.encode("utf-8"))


def test_latin1_and_utf16_text_are_not_binary() -> None:
    assert not is_binary("Ñandú, 150 tok/s à 2 GPU".encode("latin-1"))
    assert not is_binary("150 tok/s".encode("utf-16"))  # BOM first: NULs are its high bytes


def test_64_mib_of_nul_bytes_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    """The CLI in a fresh process that reports its own peak RSS (Linux: KiB, VmHWM)."""
    path = tmp_path / "zeros.bin"
    with path.open("wb") as f:
        f.truncate(64 * 1024 * 1024)
    # VmHWM, not getrusage's ru_maxrss: Linux keeps ru_maxrss across fork and exec, so the child
    # would report the (large) pytest process's peak; VmHWM belongs to the new address space.
    code = ("import re, sys; from bot.cli import main; "
            f"rc = main(['audit', '--no-cache', {str(path)!r}]); "
            "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1]); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    peak_mb = int(done.stdout.strip()) / 1024
    assert done.returncode == 2 and "this is binary data" in done.stderr
    assert peak_mb < 200  # 680 MB before the fix; about 45 MB now


def _spin(seconds: float) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "done"


async def test_a_slow_read_runs_off_the_loop_and_is_killed_at_the_deadline() -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.5):
            await run_off_loop(_spin, 30.0)
    took = time.monotonic() - start
    task.cancel()
    assert took < 5 and ticks >= 10  # the loop kept running while the worker spun


async def test_a_read_that_finishes_returns_its_result_and_errors_come_back() -> None:
    assert await run_off_loop(_spin, 0.0) == "done"
    with pytest.raises(InvalidInput, match="this is binary data"):
        await read_document_async(RawDocument(b"\x00" * 100, source="attachment"), None)  # type: ignore[arg-type]


def _slow_document_reader() -> None:
    """Run inside a reading worker: from now on its document reader spins."""
    import extractors.evidence

    extractors.evidence.read_document = lambda *a, **k: _spin(30.0)  # type: ignore[assignment]


async def test_reading_an_attachment_past_its_deadline_is_stopped(ref: Reference) -> None:
    async with ReadingPool.open(ref, 1) as pool:
        await pool.run(_slow_document_reader)  # the pool's one worker now reads slowly
        with pytest.raises(InvalidInput) as err:
            await read_document_async(RawDocument.from_text("150 tok/s", source="post.txt"), ref,
                                      deadline_s=0.5, pool=pool)
        assert str(err.value) == "post.txt: reading it took longer than the 0.5 s deadline; stopped"
        assert pool.replaced == 1  # the spinning worker was killed and a fresh one took its place
        reading = await read_document_async(RawDocument.from_text("150 tok/s", source="post.txt"),
                                            ref, deadline_s=5.0, pool=pool)
        assert reading.text is not None and reading.text.claim.tok_s == 150.0


async def test_a_worker_killed_while_idle_is_replaced_and_the_next_read_still_answers(
        ref: Reference) -> None:
    async with ReadingPool.open(ref, 1) as pool:
        [pid] = pool.start().pids()
        os.kill(pid, 9)  # the way the kernel's OOM killer would end it, between two reads
        for _ in range(200):  # until the kernel has reaped it (the sentinel turns readable)
            if not pool.pids():
                break
            await asyncio.sleep(0.01)
        reading = await read_document_async(RawDocument.from_text("150 tok/s", source="post.txt"),
                                            ref, deadline_s=5.0, pool=pool)
        assert reading.text is not None and reading.text.claim.tok_s == 150.0
        assert pool.replaced == 1
        assert pool.pids() != [pid]


def _slow_for_the_record() -> None:
    """Run inside a reading worker: from now on it spins on any page named /slow.json."""

    real = extractors.web.read_page

    def slow(doc: RawDocument, *args: Any, **kwargs: Any) -> PageReading:
        if doc.source.endswith("/slow.json"):
            _spin(30.0)
        return real(doc, *args, **kwargs)

    extractors.web.read_page = slow


async def test_a_page_that_is_slow_to_read_costs_at_most_the_follow_deadline(
    server: Loopback, ref: Reference
) -> None:
    server.file("/slow.json", "vllm_bench/llama31_8b_eagle3_conc4.json")
    url = _post(server, "/post", "485.6 tok/s on one H100. <a href='{{BASE}}/slow.json'>raw</a>")
    async with ReadingPool.open(ref, 1) as pool:
        await pool.run(_slow_for_the_record)
        start = time.monotonic()
        async with loopback_fetcher(server) as fetcher:
            result = await follow(url, fetcher, ref, deadline_s=2.0, pool=pool)
        assert time.monotonic() - start < 6
    assert f"{server.url('/slow.json')}: timed out (the 2 s deadline for following links passed)" \
        in result.not_found


def test_a_terminals_escape_sequences_are_text_not_binary(ref: Reference) -> None:
    # `ollama run --verbose` saved through a terminal (nelstevens/llm-benchmark@0a7167bb
    # macmini/log_2025-04-14-181536.log: its spinner redrawn with "\x1b[?25l\x1b[1G⠋ \x1b[K"): had
    # been refused as binary data; the escapes are dropped and the log is read
    from extractors.document import RawDocument
    from extractors.evidence import read_document
    data = (Path(__file__).parents[1] / "fixtures" / "text" / "ollama_verbose_ansi.log").read_bytes()
    assert b"\x1b[" in data and not is_binary(data)
    doc = RawDocument(data, source="ollama.log")
    assert "\x1b" not in doc.text and "eval rate:            64.60 tokens/s" in doc.text
    reading = read_document(doc, ref)
    assert reading.text is not None and reading.text.claim.tok_s == 64.6
    assert is_binary(b"\x1b[1m" + bytes(range(1, 9)) * 200)  # escapes do not excuse control bytes
