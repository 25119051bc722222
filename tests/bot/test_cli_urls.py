"""`claimcheck audit URL` and `claimcheck sweep URL` end to end (bot/fetching.py, bot/cli.py).

A real aiohttp server on 127.0.0.1 serves the fixtures on the test's event loop; the CLI runs in a
thread (it calls asyncio.run itself). DNS is replaced by a resolver that answers nothing and the
socket factory refuses any address but 127.0.0.1, so only the test server can ever be reached.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.store.db import Store
from tests.fixtures.web.loopback import Loopback, loopback_network

POST_PATH = "/r/LocalLLaMA/comments/1u07q3x/benchmark_eagle3_on_a_single_h100/.json"
GIST_PATH = "/gist/speedrunner/4f2a9c1e7b/raw/bench_result.json"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "ALLOW_HOSTS",
        "TOTAL_TIMEOUT_S",
        "FETCH_DEADLINE_S",
        "FETCH_BUDGET",
        "BOARD_FILES",
        "CACHE_PATH",
        "USE_CACHE",
    ):
        monkeypatch.delenv(f"CLAIMCHECK_{name}", raising=False)




async def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = await asyncio.to_thread(main, list(argv), out=out, err=err,
                                    network=loopback_network)
    return code, out.getvalue(), err.getvalue()


def _serve_reddit(server: Loopback) -> str:
    server.file(GIST_PATH, "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain; charset=utf-8")
    return server.file(POST_PATH, "web/reddit_gist_post.json")


async def test_audit_reaches_a_post_and_its_record(server: Loopback, tmp_path: Path) -> None:
    url = _serve_reddit(server)
    cache = tmp_path / "c.sqlite3"
    code, out, err = await run(
        "audit", "--json", "--allow-host", server.host, "--cache", str(cache), url
    )
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["schema"] == "claimcheck.report/5"
    # The post's picture is fetched for OCR first (a 404 here), then its record.
    assert server.paths() == [POST_PATH, "/img/run.png", GIST_PATH]
    assert [s["kind"] for s in report["sources"]] == ["post", "tool-output"]
    q = {x["key"]: x for x in report["questions"]}
    assert q["evidence"]["status"] == "ok" and q["config"]["status"] == "ok"
    assert report["claim"]["tok_s"] == pytest.approx(485.614154893843)
    assert q["roofline"]["figures"]["claimed_tok_s"] == pytest.approx(485.614154893843)
    # The raw bytes are in the cache, under the sha256 the report names.
    store = await Store.open(cache)
    try:
        rows = await store.read("SELECT f.url, f.sha256 FROM fetches f ORDER BY f.id")
    finally:
        await store.close()
    assert [(r["url"], r["sha256"]) for r in rows] == [
        (s["final_url"], s["sha256"]) for s in report["sources"]
    ]


async def test_without_allow_host_the_url_is_refused_and_nothing_is_sent(server: Loopback) -> None:
    url = _serve_reddit(server)
    code, out, err = await run("audit", "--json", "--no-cache", url)
    assert code == 3 and out == ""
    assert err.startswith("claimcheck: that address is not allowed") and err.count("\n") == 1
    assert server.requests == []


async def test_sweep_of_an_endpoint_ranks_the_window_batch_first(server: Loopback) -> None:
    url = server.file("/api/records", "generic_board/community_board.json")
    code, out, err = await run("sweep", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["records"] == 221
    top = {row["record_id"]: row["verdict"] for row in result["ranked"][:3]}
    assert top == {"r-512": "implausible", "r-256": "implausible", "r-56": "implausible"}
    window_24 = next(r for r in result["ranked"] if r["record_id"] == "r-24")
    assert window_24["verdict"] in ("implausible", "suspicious")
    assert result["by_verdict"]["implausible"] >= 3
    assert server.requests == ["/api/records"]


async def test_audit_of_a_post_quoting_the_number_picks_the_record_and_siblings(
    server: Loopback,
) -> None:
    url = server.file("/posts/new-record", "web/headline_post.html", "text/html; charset=utf-8")
    server.file("/api/records", "generic_board/community_board.json")
    code, out, err = await run("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["claim"]["record_id"] == "r-56" and report["claim"]["tok_s"] == 2103.6
    assert report["siblings"] == 3
    findings = {f["key"]: f for f in report["findings"]}
    assert findings["window_curve"]["status"] == "flag"
    assert report["verdict"] == "implausible"
    assert any("parsed leniently" in w for w in report["warnings"])


async def test_sweep_reads_a_paged_localscore_api(server: Loopback) -> None:
    from aiohttp import web

    runs = json.loads(
        (Path(__file__).parents[1] / "fixtures" / "web" / "localscore_runs.json").read_text()
    )

    async def results(request: web.Request) -> web.Response:
        limit = max(1, min(100, int(request.query.get("limit", "20"))))
        page = max(1, int(request.query.get("page", "1")))
        return web.json_response(runs[(page - 1) * limit : page * limit])

    url = server.handler("/api/results", results)
    code, out, err = await run("sweep", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    assert json.loads(out)["records"] == 250
    assert server.requests == [f"/api/results?page={n}&limit=100" for n in (1, 2, 3)]


async def test_an_image_only_post_flags_q1(server: Loopback) -> None:
    url = server.file("/posts/2103", "web/image_only_post.html", "text/html")
    code, out, err = await run("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    report = json.loads(out)
    q1 = report["questions"][0]
    assert (q1["key"], q1["status"]) == ("evidence", "flag")
    assert q1["summary"].startswith("no evidence in the post")
    assert (
        "no link in the post points at a config, record, log or repository" in report["not_found"]
    )


@pytest.mark.parametrize(
    ("body", "content_type", "status", "message"),
    [
        (b"oops", "text/plain", 500, "answered 500 Internal Server Error"),
        # Pictures are fetched for OCR: a PNG whose bytes are no image is refused as such.
        (b"\x89PNG\r\n", "image/png", 200, "is image/png but its first bytes are no image"),
    ],
)
async def test_a_first_url_that_cannot_be_fetched_exits_3(
    server: Loopback, body: bytes, content_type: str, status: int, message: str
) -> None:
    url = server.raw("/thing", body, content_type, status)
    code, out, err = await run("audit", "--no-cache", "--allow-host", server.host, url)
    assert code == 3 and out == ""
    assert err.startswith("claimcheck: ") and message in err and err.count("\n") == 1


async def test_a_404_exits_3(server: Loopback) -> None:
    code, _, err = await run(
        "audit", "--no-cache", "--allow-host", server.host, server.url("/gone")
    )
    assert code == 3 and err == f"claimcheck: {server.url('/gone')} answered 404 Not Found\n"


@pytest.mark.parametrize(
    ("path", "body", "content_type", "message"),
    [
        ("/broken.json", b'{"records": [', "application/json", "the body is not valid JSON"),
        ("/about", None, "text/html", "no speed claim found"),
        (
            "/other.json",
            b'{"hello": "world"}',
            "application/json",
            "this JSON is not a format claimcheck reads",
        ),
    ],
)
async def test_a_first_url_without_a_claim_exits_2(
    server: Loopback, path: str, body: bytes | None, content_type: str, message: str
) -> None:
    if body is None:
        url = server.file(path, "web/no_claim_page.html", content_type)
    else:
        url = server.raw(path, body, content_type)
    code, out, err = await run("audit", "--no-cache", "--allow-host", server.host, url)
    assert code == 2 and out == ""
    assert err.startswith("claimcheck: ") and message in err and err.count("\n") == 1


async def test_json_with_raw_control_characters_is_read_with_a_warning(server: Loopback) -> None:
    record = (
        '{"records": [{"id": "r-9", "submitter": "x", "gpu": "RTX 4090", "model": "Qwen3-8B", '
        '"quant": "Q4_K_M", "tok_s": 120.5, "notes": "bell\x07 here"}]}'
    )
    url = server.raw("/api/records/r-9", record.encode(), "application/json")
    code, out, err = await run("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["claim"]["tok_s"] == 120.5
    assert any(
        "raw control characters" in w and "parsed leniently" in w for w in report["warnings"]
    )


async def test_a_stalling_record_ends_within_the_deadline_with_q2_timed_out(
    server: Loopback, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAIMCHECK_TOTAL_TIMEOUT_S", "1")
    monkeypatch.setenv("CLAIMCHECK_FETCH_DEADLINE_S", "2")
    url = server.text(
        "/post",
        "<html><body><p>2103.6 tok/s on one RTX 5090, NVFP4, batch 1. Record: "
        "<a href='{{BASE}}/api/slow.json'>here</a></p></body></html>",
    )
    server.stall("/api/slow.json")
    started = time.monotonic()
    code, out, err = await run("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    # The stalled record never answers: ending at all, well before the test's own timeout, is the
    # deadline's work (the margin is for a loaded machine; the message names the 1 s).
    assert time.monotonic() - started < 10
    assert (code, err) == (0, "")
    report = json.loads(out)
    q2 = report["questions"][1]
    assert (q2["key"], q2["status"]) == ("config", "unanswerable")
    assert "timed out" in q2["summary"]
    assert f"{server.base}/api/slow.json: timed out (no answer within 1 s)" in report["not_found"]


async def test_a_followed_link_that_fails_is_a_not_found_line(server: Loopback) -> None:
    url = server.text(
        "/post",
        "<html><body><p>2103.6 tok/s on one RTX 5090. "
        "<a href='{{BASE}}/gist/u/0a1b/raw/gone.json'>gist</a></p></body></html>",
    )
    code, out, err = await run("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    assert f"{server.base}/gist/u/0a1b/raw/gone.json: 404 Not Found" in json.loads(out)["not_found"]


async def test_a_bad_allow_host_entry_is_a_usage_error(server: Loopback) -> None:
    code, _, err = await run("audit", "--no-cache", "--allow-host", "http://x/y", server.url("/p"))
    assert code == 2 and "--allow-host" in err and err.count("\n") == 1
    assert server.requests == []
