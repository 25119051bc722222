"""Hugging Face model cards (raw README) and static spaces (HTML) — extractors/web/huggingface.py.

Served by a real aiohttp server on 127.0.0.1: the README as text/plain under the model's
`raw/main/README.md` path, the static space as an HTML page. Only that server can be reached.
"""

from __future__ import annotations

import pytest

from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence
from extractors.follow import follow
from extractors.web import rewrite_url
from extractors.web.huggingface import is_markdown, parse_model_card, raw_url, tables_as_sentences
from tests.fixtures.web.loopback import WEB, Loopback, loopback_fetcher

BASE = "http://127.0.0.1:8"
README_PATH = "/z-lab/Qwen3-8B-DFlash-b16/raw/main/README.md"




def _card() -> str:
    return (WEB / "hf_model_card_README.md").read_text("utf-8").replace("{{BASE}}", BASE)


@pytest.mark.parametrize(
    ("url", "raw"),
    [
        (
            "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16",
            "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16/raw/main/README.md",
        ),
        (
            "https://hf.co/z-lab/Qwen3-8B-DFlash-b16/",
            "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16/raw/main/README.md",
        ),
        (
            "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16/blob/main/results/humaneval.json",
            "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16/raw/main/results/humaneval.json",
        ),
        (
            "https://huggingface.co/datasets/org/speed-runs",
            "https://huggingface.co/datasets/org/speed-runs/raw/main/README.md",
        ),
    ],
)
def test_model_cards_and_blobs_become_raw_files(url: str, raw: str) -> None:
    assert raw_url(url) == raw
    assert rewrite_url(url) == raw


@pytest.mark.parametrize(
    "url",
    [
        "https://huggingface.co/spaces/jackrong/qwen36-eval",  # an app: read as it is
        "https://jackrong-qwen36-eval.static.hf.space/speed.html",
        "https://huggingface.co/docs/transformers/index",
        "https://huggingface.co/blog/dflash",
        "https://huggingface.co/z-lab",
        "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16/tree/main",
    ],
)
def test_other_urls_are_not_rewritten(url: str) -> None:
    assert raw_url(url) is None


def test_front_matter_is_dropped_and_the_base_model_kept() -> None:
    page = parse_model_card(_card(), f"{BASE}{README_PATH}")
    assert "license: apache-2.0" not in page.text and "pipeline_tag" not in page.text
    assert page.text.startswith("# Qwen3-8B-DFlash-b16")
    assert page.text.endswith("Base model: Qwen/Qwen3-8B")
    assert page.title is None  # the heading names the card already
    assert page.site == "model_card"


def test_the_benchmark_table_reads_with_its_units() -> None:
    text = tables_as_sentences(_card())
    assert (
        "HumanEval: Baseline 150.8 tok/s, DFlash 742.9 tok/s, Speedup 4.93x, Acceptance length 6.91."
        in text
    )
    assert "|---|" not in text


def test_links_and_pictures_of_a_card() -> None:
    page = parse_model_card(_card(), f"{BASE}{README_PATH}")
    assert page.images == [f"{BASE}/assets/speedup.png"]
    assert page.links == [
        "https://huggingface.co/Qwen/Qwen3-8B",
        "https://arxiv.org/abs/2602.06036",
        f"{BASE}/z-lab/Qwen3-8B-DFlash-b16/raw/main/results/humaneval.json",
    ]


def test_is_markdown() -> None:
    assert is_markdown(_card())
    assert is_markdown("## Results\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert not is_markdown("2103.6 tok/s on one RTX 5090")


async def test_a_model_card_is_a_post_with_the_cards_figures(
    server: Loopback, ref: Reference
) -> None:
    url = server.file(README_PATH, "web/hf_model_card_README.md", "text/plain; charset=utf-8")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref, max_depth=0)
    post = result.readings[0]
    assert post.is_post and post.source.format == "model_card"
    claim = post.text.claim if post.text else None
    assert claim is not None
    assert claim.tok_s == 742.9 and claim.acceptance_length == 6.91 and claim.speedup == 4.93
    assert claim.spec_method == "DFlash" and claim.spec_window == 16
    assert claim.hardware == "H100 SXM" and claim.engine == "sglang"
    report = audit(build_evidence(result.readings, ref), ref)
    assert report.question("evidence").status == "ok"  # it quotes its launch command
    assert report.question("config").status == "ok"
    assert report.question("acceptance").figures["al"] == 6.91


async def test_a_static_space_is_read_as_an_html_page(server: Loopback, ref: Reference) -> None:
    url = server.file("/speed.html", "web/static_space_speed.html", "text/html")
    server.json("/runs/speed_runs.json", {"runs": []}, status=404)
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    post = result.readings[0]
    assert post.source.format == "html" and post.text is not None
    assert post.text.claim.tok_s == 52.1
    assert post.text.claim.hardware == "RTX 5090"
    assert result.not_found == [
        f"{server.base}/runs/speed_runs.json: 404 Not Found",
        "no record, config or log found behind the post's 1 link(s)",
    ]
