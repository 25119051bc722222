"""Reddit permalinks through their `.json` listing (extractors/web/reddit.py), and the headline
scenario: a Reddit post whose selftext links a gist holding a vLLM `bench serve` result.

The listing is served by a real aiohttp server on 127.0.0.1 under Reddit's own path shape; the
gist's raw file is tests/fixtures/vllm_bench/llama31_8b_eagle3_conc4.json served as text/plain,
as gist.githubusercontent.com serves it. Only that server can be reached.
"""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import datetime
from typing import Any

import pytest

from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence
from extractors.follow import follow
from extractors.web import rewrite_url
from extractors.web.reddit import is_listing, json_url, parse_listing
from tests.fixtures.web.loopback import WEB, Loopback, loopback_fetcher

BASE = "http://127.0.0.1:8"
POST_PATH = "/r/LocalLLaMA/comments/1u07q3x/benchmark_eagle3_on_a_single_h100/.json"
GIST_PATH = "/gist/speedrunner/4f2a9c1e7b/raw/bench_result.json"




def _listing() -> list[Any]:
    return json.loads((WEB / "reddit_gist_post.json").read_text("utf-8").replace("{{BASE}}", BASE))


def _post(listing: list[Any]) -> dict[str, Any]:
    return listing[0]["data"]["children"][0]["data"]


@pytest.mark.parametrize(
    "url",
    [
        "https://www.reddit.com/r/LocalLLaMA/comments/1u07q3x/benchmark_eagle3/",
        "https://old.reddit.com/r/LocalLLaMA/comments/1u07q3x/benchmark_eagle3",
        "https://reddit.com/r/LocalLLaMA/comments/1u07q3x/benchmark_eagle3/?utm_source=share",
    ],
)
def test_a_permalink_becomes_its_json_listing(url: str) -> None:
    assert json_url(url) == (
        "https://www.reddit.com/r/LocalLLaMA/comments/1u07q3x/benchmark_eagle3/.json?raw_json=1"
    )
    assert rewrite_url(url) == json_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://www.reddit.com/r/LocalLLaMA/",
        "https://www.reddit.com/user/speedrunner/",
        "https://example.com/r/LocalLLaMA/comments/1u07q3x/x/",
        "https://i.redd.it/abc.png",
    ],
)
def test_other_urls_are_not_rewritten(url: str) -> None:
    assert json_url(url) is None


def test_the_listing_shape_is_recognised_by_content() -> None:
    assert is_listing(_listing())
    assert not is_listing({"kind": "Listing"})
    assert not is_listing([{"kind": "Listing", "data": {"children": [{"kind": "t1", "data": {}}]}}])
    assert not is_listing([])


def test_the_post_is_title_selftext_and_its_own_links() -> None:
    page = parse_listing(_listing(), f"{BASE}{POST_PATH}")
    assert page.title is not None
    assert page.title.startswith("[Benchmark] EAGLE-3 on a single H100: 485.6 tok/s")
    assert "485.6 tok/s output throughput, AL 2.87" in page.text
    assert "&amp;" not in page.text and "`--max-num-seqs 4` & no prefix caching" in page.text
    assert page.links == [f"{BASE}{GIST_PATH}", f"{BASE}/img/run.png"]
    assert page.author == "u/speedrunner"
    assert isinstance(page.created, datetime) and page.created.year == 2025
    assert page.site == "reddit"


def test_top_comments_add_context_but_not_links() -> None:
    page = parse_listing(_listing(), f"{BASE}{POST_PATH}")
    text = page.text.split("Top comments:", 1)[1]
    assert text.index("u/kv_cache_kate (57 points)") < text.index("u/tensorbro (12 points)")
    assert "AutoModerator" not in text  # stickied
    assert "[deleted]" not in text
    assert "https://example.invalid/my-run" not in page.links


def test_a_link_post_links_its_target_and_an_image_post_counts_its_picture() -> None:
    listing = _listing()
    post = _post(listing)
    post.update(
        is_self=False,
        selftext="",
        url_overridden_by_dest=f"{BASE}/api/records/r-56",
        url=f"{BASE}/api/records/r-56",
    )
    assert parse_listing(listing, "u").links == [f"{BASE}/api/records/r-56"]

    image = copy.deepcopy(_listing())
    post = _post(image)
    post.update(
        is_self=False,
        selftext="",
        post_hint="image",
        url="https://i.redd.it/gpu.jpeg",
        preview={"images": [{"source": {"url": "https://preview.redd.it/gpu.jpeg?a=1&amp;b=2"}}]},
    )
    page = parse_listing(image, "u")
    assert page.links == []
    assert page.images == ["https://preview.redd.it/gpu.jpeg?a=1&b=2", "https://i.redd.it/gpu.jpeg"]
    assert page.image_count == 2


def test_galleries_and_videos_count_as_pictures() -> None:
    listing = _listing()
    post = _post(listing)
    post.update(
        is_gallery=True,
        media_metadata={
            "a1": {"e": "Image", "s": {"u": "https://preview.redd.it/a1.png?x=1&amp;y=2"}},
            "b2": {"e": "Image", "s": {"u": "https://preview.redd.it/b2.png"}},
        },
    )
    post["secure_media"] = {"reddit_video": {"fallback_url": "https://v.redd.it/v1/DASH_720.mp4"}}
    page = parse_listing(listing, "u")
    assert page.image_count == 3
    assert "https://preview.redd.it/a1.png?x=1&y=2" in page.images


async def test_reddit_post_linking_a_gist_reaches_the_vllm_record(
    server: Loopback, ref: Reference
) -> None:
    post_url = server.file(POST_PATH, "web/reddit_gist_post.json")
    server.file(GIST_PATH, "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain; charset=utf-8")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(post_url, fetcher, ref)
        stored = [await fetcher.store.get_raw(s.source.sha256 or "") for s in result.readings]

    assert server.paths() == [POST_PATH, GIST_PATH]  # the picture is not fetched
    post, record = result.readings
    assert post.source.kind == "post" and post.source.format == "reddit"
    assert record.source.format == "vllm_bench" and record.source.kind == "tool-output"
    for reading, body in zip(result.readings, stored, strict=True):  # every source names its stored bytes
        assert body is not None and hashlib.sha256(body).hexdigest() == reading.source.sha256
    assert result.not_found == [] and result.failures == []

    ev = build_evidence(result.readings, ref).model_copy(update={"not_found": result.not_found})
    report = audit(ev, ref)
    q1, q2 = report.question("evidence"), report.question("config")
    assert q1.status == "ok" and f"{server.base}{GIST_PATH}" in q1.summary
    assert q1.figures == {"images": 1.0, "evidence_links": 1.0}
    assert q2.status == "ok" and "vllm_bench" in q2.summary
    # The figures are the record's, not the post's rounded 485.6.
    assert report.claim.tok_s == pytest.approx(485.614154893843)
    assert report.claim.tok_s_kind == "aggregate" and report.claim.concurrency == 4
    assert report.claim.acceptance_length == pytest.approx(2.873239436619718)
    roof = report.question("roofline")
    assert roof.status == "ok"
    assert roof.figures["claimed_tok_s"] == pytest.approx(485.614154893843)
    assert roof.figures["ratio"] == pytest.approx(0.156, abs=0.001)  # KV at input + output ÷ 2
    assert report.question("cell").figures["per_stream_tok_s"] == pytest.approx(121.4)
    assert report.verdict == "consistent"
    assert [s.kind for s in report.sources] == ["post", "tool-output"]


async def test_a_listing_on_any_host_and_path_is_read_as_reddit(
    server: Loopback, ref: Reference
) -> None:
    url = server.file("/mirror/post-1u07q3x", "web/reddit_gist_post.json")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref, max_depth=0)
    assert result.readings[0].source.format == "reddit"
    assert result.readings[0].text is not None and result.readings[0].text.claim.tok_s == 485.6
