"""X/Twitter statuses through the fxtwitter JSON mirror (extractors/web/twitter.py).

The fxtwitter answer is served by a real aiohttp server on 127.0.0.1 under the status path; its
shortlink points at a redirect on the same server (standing in for t.co), which leads to the
gist's raw vLLM result. Only that server can be reached.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest

from checks.reference import Reference
from checks.runner import audit
from extractors.errors import NoClaimFound
from extractors.evidence import build_evidence
from extractors.follow import follow
from extractors.web import rewrite_url
from extractors.web.twitter import api_url, expand_shortlinks, is_shortlink, is_status, parse_status
from tests.fixtures.web.loopback import WEB, Loopback, loopback_fetcher

BASE = "http://127.0.0.1:8"
STATUS_PATH = "/speedrunner/status/1991234567890123456"
GIST_PATH = "/gist/speedrunner/4f2a9c1e7b/raw/bench_result.json"




def _status() -> dict[str, Any]:
    return json.loads((WEB / "fxtwitter_status.json").read_text("utf-8").replace("{{BASE}}", BASE))


@pytest.mark.parametrize(
    ("url", "api"),
    [
        (
            "https://x.com/speedrunner/status/1991234567890123456",
            "https://api.fxtwitter.com/speedrunner/status/1991234567890123456",
        ),
        (
            "https://twitter.com/speedrunner/status/1991234567890123456?s=20",
            "https://api.fxtwitter.com/speedrunner/status/1991234567890123456",
        ),
        (
            "https://mobile.twitter.com/speedrunner/statuses/42/photo/1",
            "https://api.fxtwitter.com/speedrunner/status/42",
        ),
        ("https://x.com/i/web/status/42", "https://api.fxtwitter.com/i/status/42"),
    ],
)
def test_a_status_link_becomes_the_fxtwitter_json_url(url: str, api: str) -> None:
    assert api_url(url) == api
    assert rewrite_url(url) == api


@pytest.mark.parametrize(
    "url",
    [
        "https://x.com/speedrunner",
        "https://x.com/home",
        "https://example.com/speedrunner/status/42",
    ],
)
def test_other_urls_are_not_rewritten(url: str) -> None:
    assert api_url(url) is None


def test_shortlinks_are_known_by_host() -> None:
    assert is_shortlink("https://t.co/Xy7bQ2") and is_shortlink("https://bit.ly/abc")
    assert not is_shortlink("https://x.com/t.co/abc")


def test_the_fxtwitter_shape_is_recognised_by_content() -> None:
    assert is_status(_status())
    assert is_status({"code": 404, "message": "NOT_FOUND", "tweet": None})
    assert not is_status({"tweet": "text"}) and not is_status([_status()])


def test_the_tweet_text_author_time_links_and_photos() -> None:
    page = parse_status(_status(), f"{BASE}{STATUS_PATH}")
    assert page.text.startswith("EAGLE-3 + vLLM on a single H100: 485.6 tok/s output throughput")
    assert page.author == "@speedrunner"
    assert isinstance(page.created, datetime) and page.created.year == 2026
    assert page.links == [f"{BASE}/t.co/Xy7bQ2"]
    assert page.images == ["https://pbs.twimg.com/media/GdXyZ1aW0AA.jpg"]
    assert page.image_count == 1 and page.site == "fxtwitter"


def test_expanded_links_in_facets_are_kept_and_a_quote_is_context() -> None:
    data = _status()
    data["tweet"]["raw_text"]["facets"].append(
        {"type": "url", "original": "https://t.co/AbC", "replacement": f"{BASE}/records/r-56"}
    )
    data["tweet"]["quote"] = {
        "text": "see https://example.invalid/q",
        "author": {"screen_name": "rival"},
    }
    page = parse_status(data, "u")
    assert page.links[0] == f"{BASE}/records/r-56"
    assert "Quoting @rival: see https://example.invalid/q" in page.text
    assert "https://example.invalid/q" not in page.links


def test_an_unavailable_status_is_a_clear_sentence() -> None:
    with pytest.raises(NoClaimFound, match="the status is not available"):
        parse_status(
            {"code": 404, "message": "NOT_FOUND", "tweet": None},
            "https://api.fxtwitter.com/a/status/1",
        )


async def test_shortlinks_are_expanded_by_fetching_them(server: Loopback) -> None:
    server.redirect("/t.co/Xy7bQ2", server.url(GIST_PATH))
    server.file(GIST_PATH, "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain")
    dead = server.url("/t.co/dead")
    async with loopback_fetcher(server) as fetcher:
        out = await expand_shortlinks(
            [server.url("/t.co/Xy7bQ2"), dead, server.url("/other")],
            fetcher,
            is_short=lambda u: "/t.co/" in u,
        )
    ok, gone = out
    assert ok.final == server.url(GIST_PATH) and ok.failure is None
    assert ok.fetched.redirects == (server.url("/t.co/Xy7bQ2"),)
    assert gone.final is None and "404 Not Found" in (gone.failure or "")
    assert server.paths() == ["/t.co/Xy7bQ2", GIST_PATH, "/t.co/dead"]  # /other is not short


async def test_a_tweet_reaches_the_record_behind_its_shortlink(
    server: Loopback, ref: Reference
) -> None:
    url = server.file(STATUS_PATH, "web/fxtwitter_status.json")
    server.redirect("/t.co/Xy7bQ2", server.url(GIST_PATH))
    server.file(GIST_PATH, "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert server.paths() == [STATUS_PATH, "/t.co/Xy7bQ2", GIST_PATH]  # the photo is not fetched
    post, record = result.readings
    assert post.source.format == "fxtwitter"
    assert record.source.url == server.url("/t.co/Xy7bQ2")
    assert record.source.final_url == server.url(GIST_PATH)
    assert record.source.redirects == [server.url("/t.co/Xy7bQ2")]
    report = audit(build_evidence(result.readings, ref), ref)
    q1 = report.question("evidence")
    assert q1.status == "ok" and server.url(GIST_PATH) in q1.summary  # judged by where it led
    assert report.question("config").status == "ok"
    assert report.claim.tok_s == pytest.approx(485.614154893843)


async def test_shortlinks_in_a_post_are_expanded_once_before_ranking(
    server: Loopback, ref: Reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    import extractors.follow

    monkeypatch.setattr(extractors.follow, "is_shortlink", lambda u: "/t.co/" in u)
    url = server.file(STATUS_PATH, "web/fxtwitter_status.json")
    server.redirect("/t.co/Xy7bQ2", server.url(GIST_PATH))
    server.file(GIST_PATH, "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert server.paths() == [STATUS_PATH, "/t.co/Xy7bQ2", GIST_PATH]  # the target is not refetched
    post, record = result.readings
    assert post.text is not None and post.text.links[0] == server.url(GIST_PATH)
    assert record.source.final_url == server.url(GIST_PATH) and record.source.format == "vllm_bench"
    assert audit(build_evidence(result.readings, ref), ref).question("evidence").status == "ok"
