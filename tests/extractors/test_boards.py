"""Leaderboard endpoints (extractors/boards.py): InferenceX, paged LocalScore, LocalScore result
pages, AccelMark raw result.json, mapped and unknown boards.

Each board is served by a real aiohttp server on 127.0.0.1 under its real path; LocalScore's
`/api/results` pages the 250 runs of tests/fixtures/web/localscore_runs.json the way the real
endpoint does (`page` from 1, `limit` clamped to 1..100, default 20). Only that server is reached.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp import web

from checks.reference import Reference
from extractors.boards import (
    fetch_records,
    is_inferencex_api,
    is_localscore_list,
    is_localscore_result,
)
from extractors.errors import FetchBadResponse, InvalidInput
from tests.fixtures.web.loopback import FIXTURES, WEB, Loopback, loopback_fetcher

RUNS = json.loads((WEB / "localscore_runs.json").read_text("utf-8"))




def serve_localscore(
    server: Loopback, path: str = "/api/results", *, ignore_page: bool = False
) -> str:
    async def results(request: web.Request) -> web.Response:
        limit = max(1, min(100, int(request.query.get("limit", "20"))))
        page = 1 if ignore_page else max(1, int(request.query.get("page", "1")))
        rows = RUNS[(page - 1) * limit : page * limit]
        if request.query.get("sortDirection") == "desc":
            rows = list(reversed(RUNS))[(page - 1) * limit : page * limit]
        return web.json_response(rows)

    return server.handler(path, results)


def test_url_patterns_only_choose_how_to_fetch() -> None:
    assert is_localscore_list("https://www.localscore.ai/api/results?page=2")
    assert is_localscore_list("http://127.0.0.1:8/mirror/api/results")
    assert is_localscore_result("https://www.localscore.ai/result/1234")
    assert is_inferencex_api("https://inferencex.semianalysis.com/api/v1/benchmarks?model=dsr1")
    assert not is_localscore_list("https://www.localscore.ai/api/results/12")


async def test_localscore_is_read_across_pages(server: Loopback, ref: Reference) -> None:
    url = serve_localscore(server) + "?sortDirection=asc"
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref)
    pages = [parse_qs(urlsplit(r).query) for r in server.requests]
    assert [(p["page"], p["limit"], p["sortDirection"]) for p in pages] == [
        (["1"], ["100"], ["asc"]),
        (["2"], ["100"], ["asc"]),
        (["3"], ["100"], ["asc"]),
    ]
    assert len(reading.records) == 250  # 100 + 100 + 50: the short page ends it
    assert [c.record_id for c in reading.records[:2]] == ["1", "2"]
    assert reading.records[-1].record_id == "250"
    assert reading.source.format == "localscore" and reading.source.kind == "record"
    assert reading.source.note is not None and reading.source.note.startswith(
        "3 page(s) of up to 100 runs, 250 runs"
    )
    assert reading.records[0].tok_s == RUNS[0]["avg_gen_tps"]
    assert reading.records[0].tok_s_kind == "decode" and reading.records[0].batch == 1
    assert reading.warnings == []


async def test_the_page_cap_stops_reading_and_says_so(server: Loopback, ref: Reference) -> None:
    url = serve_localscore(server)
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref, max_pages=2)
    assert len(server.requests) == 2 and len(reading.records) == 200
    assert any("read the first 2 pages" in w and "may hold more" in w for w in reading.warnings)


async def test_a_server_that_ignores_page_is_not_read_forever(
    server: Loopback, ref: Reference
) -> None:
    url = serve_localscore(server, ignore_page=True)
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref)
    assert len(server.requests) == 2 and len(reading.records) == 100
    assert any("repeats page 1" in w for w in reading.warnings)


async def test_a_failing_later_page_keeps_the_pages_read(server: Loopback, ref: Reference) -> None:
    async def results(request: web.Request) -> web.Response:
        if request.query.get("page") == "2":
            return web.Response(status=500, text="boom")
        return web.json_response(RUNS[:100])

    url = server.handler("/api/results", results)
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref)
    assert len(reading.records) == 100
    assert any(
        "stopped at page 2" in w and "500 Internal Server Error" in w for w in reading.warnings
    )


async def test_a_localscore_result_page_yields_the_run_with_power(
    server: Loopback, ref: Reference
) -> None:
    url = server.file("/result/1", "web/localscore_result_page.html", "text/html; charset=utf-8")
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref)
    (run,) = reading.records
    assert reading.source.format == "localscore" and reading.source.content_type is not None
    assert reading.source.content_type.startswith(
        "text/html"
    )
    assert run.hardware == "NVIDIA GeForce RTX 3090" and run.engine == "llamafile"
    assert run.power_w is not None and run.ttft_ms is not None  # only the detail has them
    assert run.record_id == "1"


async def test_inferencex_benchmarks_are_one_call(server: Loopback, ref: Reference) -> None:
    server.file("/api/v1/benchmarks", "inferencex/benchmarks_h200.json")
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(
            server.url("/api/v1/benchmarks?model=DeepSeek-R1-0528"), fetcher, ref
        )
    assert server.requests == ["/api/v1/benchmarks?model=DeepSeek-R1-0528"]
    assert reading.source.format == "inferencex" and len(reading.records) == 30
    assert (
        reading.records[0].tok_s == pytest.approx(24.8425)
        and reading.records[0].tok_s_kind == "per_gpu"
    )


async def test_an_accelmark_result_json_from_a_raw_path(server: Loopback, ref: Reference) -> None:
    url = server.file(
        "/FreedomIntelligence/AccelMark/main/results/community/a100_sglang/result.json",
        "accelmark/result_a100_sglang.json",
        "text/plain; charset=utf-8",
    )
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref)
    assert reading.source.format == "accelmark" and len(reading.records) == 9
    assert reading.records[0].hardware == "NVIDIA A100-SXM4-40GB"


async def test_an_unknown_host_serving_a_records_json_works_by_content(
    server: Loopback, ref: Reference
) -> None:
    url = server.file("/exports/2026-11/dump.json", "generic_board/community_board.json")
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(url, fetcher, ref)
    assert reading.source.format == "generic_board" and len(reading.records) == 221
    assert any("parsed leniently" in w for w in reading.warnings)  # a raw BEL in one notes field


async def test_a_board_mapping_file_reads_a_board_with_its_own_field_names(
    server: Loopback, ref: Reference, tmp_path: Path
) -> None:
    mapping = tmp_path / "boards.json"
    mapping.write_text(
        json.dumps(
            {
                "boards": [
                    {
                        "name": "oddboard",
                        "records_path": "payload.entries",
                        "fields": {
                            "tok_s": "perf.gen",
                            "hardware": "rig.card",
                            "model": "net.name",
                            "submitter": "who",
                            "record_id": "key",
                        },
                        "constants": {"tok_s_kind": "decode", "batch": 1},
                    }
                ]
            }
        )
    )
    server.json(
        "/v2/board",
        {
            "payload": {
                "entries": [
                    {
                        "key": "o-1",
                        "who": "rigmaster",
                        "rig": {"card": "RTX 4090"},
                        "net": {"name": "Qwen3-8B"},
                        "perf": {"gen": 120.5},
                    },
                    {
                        "key": "o-2",
                        "who": "rigmaster",
                        "rig": {"card": "RTX 4090"},
                        "net": {"name": "Qwen3-8B"},
                        "perf": {"gen": 98.0},
                    },
                ]
            }
        },
    )
    async with loopback_fetcher(server) as fetcher:
        reading = await fetch_records(server.url("/v2/board"), fetcher, ref, boards=[mapping])
    assert reading.source.format == "generic_board:oddboard"
    assert [(c.record_id, c.tok_s, c.tok_s_kind, c.batch) for c in reading.records] == [
        ("o-1", 120.5, "decode", 1),
        ("o-2", 98.0, "decode", 1),
    ]


async def test_a_page_without_records_is_a_clear_error(server: Loopback, ref: Reference) -> None:
    url = server.file("/about", "web/no_claim_page.html", "text/html")
    async with loopback_fetcher(server) as fetcher:
        with pytest.raises(InvalidInput, match="no leaderboard records there"):
            await fetch_records(url, fetcher, ref)


async def test_a_failing_first_page_raises(server: Loopback, ref: Reference) -> None:
    async with loopback_fetcher(server) as fetcher:
        with pytest.raises(FetchBadResponse, match="404 Not Found"):
            await fetch_records(server.url("/api/results"), fetcher, ref)


def test_fixture_runs_are_250() -> None:
    assert len(RUNS) == 250 and (FIXTURES / "web" / "make_localscore.py").is_file()
