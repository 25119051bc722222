"""Following a post to the record behind it (extractors/follow.py).

Everything runs against a real aiohttp server on 127.0.0.1 that serves the fixtures; the
fetcher's allow-list is exactly that server, DNS answers nothing and the socket factory refuses
any other address, so no test can reach another host.
"""

from __future__ import annotations

import pytest

from checks.models import Report
from checks.reference import Reference
from checks.runner import audit
from extractors.errors import FetchBadResponse, FetchTimeout, NoClaimFound
from extractors.evidence import build_evidence
from extractors.follow import NO_EVIDENCE_LINK, FollowResult, follow
from tests.fixtures.web.loopback import Loopback, loopback_fetcher

VLLM = "vllm_bench/llama31_8b_eagle3_conc4.json"




def _post(server: Loopback, path: str, body: str) -> str:
    return server.text(path, f"<html><body><main>{body}</main></body></html>")


def _report(result: FollowResult, ref: Reference) -> Report:
    ev = build_evidence(result.readings, ref).model_copy(update={"not_found": result.not_found})
    return audit(ev, ref)


async def test_headline_post_picks_the_matching_record_and_its_siblings(
    server: Loopback, ref: Reference
) -> None:
    url = server.file("/posts/new-record", "web/headline_post.html", "text/html")
    server.file("/api/records", "generic_board/community_board.json")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert server.requests == ["/posts/new-record", "/api/records?submitter=speedrunner"]
    report = _report(result, ref)
    assert report.claim.record_id == "r-56" and report.claim.tok_s == 2103.6
    assert report.siblings == 3  # windows 512, 256 and 24 by the same submitter
    assert report.finding("window_curve").status == "flag"
    assert "4691/4547/2103.6/1074" in report.finding("window_curve").summary
    assert report.question("acceptance").status == "stop"
    assert report.question("roofline").figures["ratio"] == pytest.approx(16.3, abs=0.1)
    assert report.verdict == "implausible"
    assert report.question("evidence").status == "ok"
    assert report.question("config").status == "ok"
    assert any("parsed leniently" in w for w in report.warnings)  # the BEL in r-56's notes
    assert result.not_found == []


async def test_a_record_two_links_away_is_found_at_depth_two(
    server: Loopback, ref: Reference
) -> None:
    url = _post(
        server,
        "/post",
        "2103.6 tok/s on one RTX 5090. Details: <a href='{{BASE}}/blog/run'>my write-up</a>",
    )
    _post(
        server,
        "/blog/run",
        "The record is on <a href='{{BASE}}/api/records/all.json'>the board</a>.",
    )
    server.file("/api/records/all.json", "generic_board/community_board.json")
    async with loopback_fetcher(server) as fetcher:
        deep = await follow(url, fetcher, ref)
    assert server.paths() == ["/post", "/blog/run", "/api/records/all.json"]
    assert [r.source.kind for r in deep.readings] == ["post", "page", "record"]
    assert _report(deep, ref).claim.record_id == "r-56"

    async with loopback_fetcher(server) as fetcher:
        shallow = await follow(url, fetcher, ref, max_depth=1)
    assert [r.source.kind for r in shallow.readings] == ["post", "page"]
    assert "no record, config or log found behind the post's 1 link(s)" in shallow.not_found
    assert NO_EVIDENCE_LINK in shallow.not_found  # a blog link is not evidence


async def test_a_write_up_with_the_launch_command_in_a_code_block_answers_q2(
    server: Loopback, ref: Reference
) -> None:
    url = _post(
        server,
        "/post",
        "2103.6 tok/s on one RTX 5090. How: <a href='{{BASE}}/blog/how'>write-up</a>",
    )
    _post(
        server,
        "/blog/how",
        "<p>We ran it like this, and 4000 tok/s is next:</p><pre>"
        "SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path nvidia/Qwen3.6-27B-NVFP4 "
        "--speculative-algorithm DFLASH --speculative-num-draft-tokens 56</pre>",
    )
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert [r.source.kind for r in result.readings] == ["post", "config"]
    report = _report(result, ref)
    assert report.question("config").status == "ok"
    assert report.claim.tok_s == 2103.6 and report.claim.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert NO_EVIDENCE_LINK in result.not_found  # a blog link is still not evidence in the post


async def test_it_stops_at_the_first_matching_record(server: Loopback, ref: Reference) -> None:
    url = _post(
        server,
        "/post",
        "485.6 tok/s. <a href='{{BASE}}/r/a.json'>run</a> "
        "<a href='{{BASE}}/r/b.json'>other run</a> <a href='{{BASE}}/notes'>notes</a>",
    )
    server.file("/r/a.json", VLLM)
    server.file("/r/b.json", VLLM)
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert server.paths() == ["/post", "/r/a.json"]
    assert [r.source.format for r in result.readings] == ["html", "vllm_bench"]


async def test_no_url_is_fetched_twice(server: Loopback, ref: Reference) -> None:
    url = _post(
        server,
        "/post",
        "999.9 tok/s. <a href='{{BASE}}/r/a.json'>run</a> "
        "<a href='{{BASE}}/r/a.json#again'>same run</a> <a href='{{BASE}}/page'>page</a>",
    )
    _post(
        server,
        "/page",
        "<a href='{{BASE}}/r/a.json'>the run again</a> <a href='{{BASE}}/post'>back</a>",
    )
    server.file("/r/a.json", VLLM)
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert sorted(server.paths()) == ["/page", "/post", "/r/a.json"]
    assert len(result.fetched) == 3
    assert f"no record on {server.base}/r/a.json matches 999.9 tok/s" in result.not_found


async def test_the_fetch_budget_bounds_the_requests(server: Loopback, ref: Reference) -> None:
    links = " ".join(f"<a href='{{{{BASE}}}}/p{i}'>p{i}</a>" for i in range(6))
    url = _post(server, "/post", f"2103.6 tok/s. {links}")
    for i in range(6):
        _post(server, f"/p{i}", "nothing here")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref, max_fetches=3)
    assert server.paths() == ["/post", "/p0", "/p1"]
    line = next(x for x in result.not_found if "not followed" in x)
    assert line.startswith("4 link(s) not followed (fetch budget of 3 used): ")


async def test_every_failed_link_is_a_not_found_line_and_q2_lists_them(
    server: Loopback, ref: Reference
) -> None:
    url = _post(
        server,
        "/post",
        "2103.6 tok/s on one RTX 5090. "
        "<a href='{{BASE}}/gist/u/0a1b/raw/gone.json'>gist</a> "
        "<a href='{{BASE}}/api/boom'>board</a> "
        "<a href='{{BASE}}/data/run.json'>data</a> "
        "<a href='{{BASE}}/data/broken.json'>broken</a> "
        "<a href='{{BASE}}/data/other.json'>other</a> "
        f"<a href='http://127.0.0.2:{server.port}/api/records.json'>elsewhere</a>",
    )
    server.raw("/api/boom", b"oops", "text/plain", status=500)
    server.raw("/data/run.json", b"\x89PNG\r\n", "image/png")
    server.raw("/data/broken.json", b'{"records": [1, 2,', "application/json")
    server.json("/data/other.json", {"hello": "world"})
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    base = server.base
    elsewhere = f"http://127.0.0.2:{server.port}/api/records.json"
    # The refused link is screened out before anything is fetched, and is not evidence.
    assert result.failures[0] == (
        f"{elsewhere}: refused, not fetched (that address is not allowed: 127.0.0.2 is a "
        "loopback address)"
    )
    assert result.failures[1:5] == [
        f"{base}/gist/u/0a1b/raw/gone.json: 404 Not Found",
        f"{base}/api/boom: 500 Internal Server Error",
        f"{base}/data/run.json: image/png, not a page or JSON",
        f"{base}/data/broken.json: the body is not valid JSON (Expecting value at line 1 column 19)",
    ]
    assert result.failures[5].startswith(
        f"{base}/data/other.json: this JSON is not a format claimcheck reads"
    )
    assert all(not p.startswith("/api/records") for p in server.paths())  # no request was made
    assert result.not_found[-2:] == [
        "1 link(s) refused by the URL policy (not fetched, not counted as evidence): " + elsewhere,
        "no record, config or log found behind the post's 5 link(s)",
    ]
    text = result.readings[0].text
    assert text is not None and elsewhere not in text.links
    q2 = _report(result, ref).question("config")
    assert q2.status == "unanswerable"
    assert "404 Not Found" in q2.summary and "500 Internal Server Error" in q2.summary


async def test_a_stalling_source_times_out_and_q2_says_so(server: Loopback, ref: Reference) -> None:
    url = _post(
        server,
        "/post",
        "2103.6 tok/s on one RTX 5090. Record: <a href='{{BASE}}/api/slow.json'>here</a>",
    )
    server.stall("/api/slow.json")
    # The message says the fetch's own 1 s timeout ended it, not the 2.5 s deadline: no
    # wall-clock assertion, which a loaded machine breaks.
    async with loopback_fetcher(server, total_timeout=1.0) as fetcher:
        result = await follow(url, fetcher, ref, deadline_s=2.5)
    assert result.not_found[0] == f"{server.base}/api/slow.json: timed out (no answer within 1 s)"
    q2 = _report(result, ref).question("config")
    assert q2.status == "unanswerable" and "timed out" in q2.summary


async def test_the_deadline_ends_following_and_names_what_was_left(
    server: Loopback, ref: Reference
) -> None:
    url = _post(
        server,
        "/post",
        "2103.6 tok/s. <a href='{{BASE}}/api/slow.json'>a</a> "
        "<a href='{{BASE}}/api/later.json'>b</a>",
    )
    server.stall("/api/slow.json")
    server.file("/api/later.json", VLLM)
    # The stalled link would hold the fetch for its 10 s timeout: the message names the deadline,
    # so it was the deadline that ended it (2 s: the post's own fetch on a loaded machine stays
    # well inside it; no wall-clock assertion, which a loaded machine breaks).
    async with loopback_fetcher(server, total_timeout=10.0) as fetcher:
        result = await follow(url, fetcher, ref, deadline_s=2.0)
    assert result.not_found[0] == (
        f"{server.base}/api/slow.json: timed out (the 2 s deadline for following links passed)"
    )
    assert (
        f"1 link(s) not followed (the deadline passed): {server.base}/api/later.json"
        in result.not_found
    )
    assert "/api/later.json" not in server.paths()
    q2 = _report(result, ref).question("config")
    assert q2.status == "unanswerable" and "timed out" in q2.summary


async def test_a_big_board_without_the_posts_number_stays_out_of_the_evidence(
    server: Loopback, ref: Reference
) -> None:
    url = _post(
        server, "/post", "1234.5 tok/s on one RTX 5090. <a href='{{BASE}}/api/records'>board</a>"
    )
    server.file("/api/records", "generic_board/community_board.json")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    _, board = result.readings
    assert (
        board.records == [] and board.source.note == "221 records, none matching the post's number"
    )
    assert f"no record on {server.base}/api/records matches 1234.5 tok/s" in result.not_found
    report = _report(result, ref)
    assert report.claim.tok_s == 1234.5 and report.claim.record_id is None


async def test_the_first_urls_failure_raises(server: Loopback, ref: Reference) -> None:
    async with loopback_fetcher(server) as fetcher:
        with pytest.raises(FetchBadResponse, match="404 Not Found"):
            await follow(server.url("/missing"), fetcher, ref)
    server.stall("/slow")
    async with loopback_fetcher(server, total_timeout=10.0) as fetcher:
        with pytest.raises(FetchTimeout, match="did not answer within the 0.5 s deadline"):
            await follow(server.url("/slow"), fetcher, ref, deadline_s=0.5)


async def test_a_200_page_without_a_claim_is_read_but_holds_no_claim(
    server: Loopback, ref: Reference
) -> None:
    url = server.file("/about", "web/no_claim_page.html", "text/html")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    with pytest.raises(NoClaimFound, match="no speed claim found"):
        build_evidence(result.readings, ref)
