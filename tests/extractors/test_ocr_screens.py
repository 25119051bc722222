"""Real OCR on screenshots the tests render themselves (benchmarks/ocr_accuracy.py renders them:
DejaVu Sans Mono, light-on-dark and dark-on-light, scaled, JPEG-compressed) of the tools' own
printouts; the exact fields read are asserted. One engine per test process (it is cached), few
images: each costs about a second of CPU.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from benchmarks.ocr_accuracy import SAMPLES, STYLES, read_fields, render
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document
from extractors.offloop import read_document_async
from extractors.web import read_page

SAMPLE = {s.name: s for s in SAMPLES}
STYLE = {s.name: s for s in STYLES}


def _shot(sample: str, style: str) -> bytes:
    return render(SAMPLE[sample].text, STYLE[style])


@pytest.mark.parametrize(("sample", "style", "want"), [
    ("llama-bench", "dark", {"tok_s": 127.45, "tok_s_kind": "decode", "hardware": "RTX 3090",
                             "model": "Llama 3.1 8B", "weight_format": "Q4_K_M"}),
    ("llama-bench", "light-1.5x-jpeg", {"tok_s": 127.45, "tok_s_kind": "decode",
                                        "hardware": "RTX 3090", "model": "Llama 3.1 8B"}),
    ("vllm-bench-serve", "dark-jpeg", {"tok_s": 417.82, "tok_s_kind": "aggregate",
                                       "per_user_tok_s": 46.47, "tokens_generated": 25600,
                                       "wall_seconds": 61.27, "input_tokens": 1024}),
    ("nvidia-smi", "light", {"hardware": "RTX 4090", "power_w": 315.0}),
])
def test_screenshot_fields_read_exactly(sample: str, style: str, want: dict[str, Any]) -> None:
    got = read_fields(_shot(sample, style), f"{sample}.png")
    assert {k: got.get(k) for k in want} == want


def test_llama_bench_screenshot_audited_in_the_reading_worker(ref: Reference) -> None:
    """The worker path (a forked process, as the bot reads an attachment), then the audit: its
    tg128 figure is judged against the RTX 3090's roofline, provenance the screenshot."""
    doc = RawDocument(_shot("llama-bench", "dark"), source="bench.png")
    reading = asyncio.run(read_document_async(doc, ref, deadline_s=60))
    assert reading.source.screenshot is not None
    assert (reading.source.screenshot.name, reading.source.screenshot.format) == (
        "bench.png", "text")
    report = audit(build_evidence([reading], ref), ref)
    assert report.verdict == "consistent"
    assert report.claim.tok_s == 127.45
    assert report.claim.provenance["tok_s"].source == "screenshot bench.png, OCR"
    roofline = report.question("roofline")
    assert (roofline.status, roofline.figures["claimed_tok_s"],
            round(roofline.figures["ceiling_tok_s"], 1)) == ("ok", 127.45, 190.3)
    q1 = report.question("evidence")
    assert q1.status == "ok"
    assert q1.summary.startswith("the image is a printout with figures: bench.png, ")


def test_a_photo_beside_a_claim_is_named_by_q1(ref: Reference) -> None:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (640, 360), (40, 90, 60)).save(out, format="JPEG")
    photo = read_document(RawDocument(out.getvalue(), source="gpu.jpg"), ref)
    assert photo.source.screenshot is not None and photo.source.screenshot.figures == 0
    post = read_document(RawDocument.from_text("Llama 3.1 8B on my RTX 4090: 120 tok/s"), ref)
    report = audit(build_evidence([post, photo], ref), ref)
    q1 = report.question("evidence")
    assert (q1.status, q1.summary) == (
        "flag", "no evidence in the post: a number; the image is a photo without figures (OCR "
                "read none in gpu.jpg).")


def test_a_fetched_image_body_is_read_by_ocr(ref: Reference) -> None:
    from checks.models import Source

    doc = RawDocument(_shot("vllm-bench-serve", "light"), source="https://i.example/b.png",
                      content_type="image/png")
    page = read_page(doc, ref, Source(url="https://i.example/b.png", kind="file"))
    assert page.reading.source.format == "vllm_bench"
    assert page.reading.records[0].tok_s == 417.82
    assert page.reading.records[0].provenance["tok_s"].source == (
        "screenshot https://i.example/b.png, OCR")


async def _follow_with_images(server: Any, url: str, ref: Reference, *, image_cap: int,
                              max_fetches: int = 12) -> Any:
    from extractors.fetch import FetchPolicy, SafeFetcher, open_session
    from extractors.follow import follow
    from extractors.storage import MemoryRawStore
    from tests.fixtures.web.loopback import NoDNS, loopback_only

    policy = FetchPolicy(allow_hosts=frozenset({server.host}), total_timeout=30.0,
                         image_cap=image_cap)
    async with open_session(policy, resolver=NoDNS(), socket_factory=loopback_only) as session:
        fetcher = SafeFetcher(session, MemoryRawStore(), policy)
        return await follow(url, fetcher, ref, max_fetches=max_fetches, deadline_s=60)


def _image_post(server: Any) -> str:
    server.raw("/i/bench.png", _shot("llama-bench", "dark"), "image/png")
    return server.text("/post", "<html><body><main><p>My 3090 with llama.cpp, see the "
                       "screenshot</p><img src='{{BASE}}/i/bench.png'></main></body></html>")


async def test_a_posts_screenshot_is_fetched_and_its_table_judged(server: Any,
                                                                   ref: Reference) -> None:
    from extractors.web.images import IMAGE_CAP

    url = _image_post(server)
    result = await _follow_with_images(server, url, ref, image_cap=IMAGE_CAP)
    assert server.paths() == ["/post", "/i/bench.png"]
    report = audit(build_evidence(result.readings, ref), ref)
    assert (report.verdict, report.claim.tok_s, report.claim.hardware) == (
        "consistent", 127.45, "RTX 3090")
    assert report.claim.provenance["tok_s"].source == f"screenshot {server.base}/i/bench.png, OCR"
    assert report.question("evidence").status == "ok"


async def test_a_fetcher_that_takes_no_pictures_leaves_them_counted_not_fetched(
        server: Any, ref: Reference) -> None:
    url = _image_post(server)
    result = await _follow_with_images(server, url, ref, image_cap=0)
    assert server.paths() == ["/post"]
    assert all(r.source.screenshot is None for r in result.readings)
