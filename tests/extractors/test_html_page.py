"""Generic HTML pages and the PostPage they become (extractors/web/html_page.py, web/post.py).

Pages are served by a real aiohttp server on 127.0.0.1 (tests/fixtures/web/loopback.py); the
fetcher may reach exactly that server and nothing else.
"""

from __future__ import annotations

from checks.models import Source
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence
from extractors.follow import NO_EVIDENCE_LINK, follow
from extractors.web import read_page
from extractors.web.html_page import is_html, next_data, parse_html
from extractors.web.post import PostPage, table_sentences
from tests.fixtures.web.loopback import WEB, Loopback, loopback_fetcher

BASE = "http://127.0.0.1:8"




def _page(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8").replace("{{BASE}}", BASE)


def test_visible_text_leaves_out_scripts_styles_and_navigation() -> None:
    page = parse_html(_page("image_only_post.html"), f"{BASE}/posts/record")
    assert "99999" not in page.text  # the analytics script's number
    assert "max-width" not in page.text
    assert "Home" not in page.text and "RSS" not in page.text
    assert page.links == []  # the nav and footer links are navigation, not the post's


def test_meta_description_comes_first_with_title_author_and_date() -> None:
    page = parse_html(_page("image_only_post.html"), f"{BASE}/posts/record")
    assert page.title == "27B dense at 2103.6 tok/s on one RTX 5090"
    assert page.text.startswith("Qwen3.6-27B, NVFP4, batch 1, 2048 tokens in 0.969 s.")
    assert page.author == "speedrunner"
    assert page.created == "2026-11-20T18:04:00Z"


def test_a_page_whose_only_content_is_an_image_is_a_post_with_one_picture(ref: Reference) -> None:
    page = parse_html(_page("image_only_post.html"), f"{BASE}/posts/record")
    assert page.image_count == 1
    assert page.images == [f"{BASE}/img/rtx5090-on-desk.jpg"]  # made absolute
    reading = page.to_reading(ref, Source(url=f"{BASE}/posts/record", kind="page"))
    assert reading.is_post and reading.source.kind == "post" and reading.source.format == "html"
    assert reading.text is not None and reading.text.claim.tok_s == 2103.6
    assert reading.text.links == [f"{BASE}/img/rtx5090-on-desk.jpg"]


def test_an_empty_page_with_only_an_image_still_counts_the_image() -> None:
    page = parse_html('<html><body><img src="gpu.png"></body></html>', f"{BASE}/p/1")
    assert page.text == "" and page.image_count == 1 and page.images == [f"{BASE}/p/gpu.png"]


def test_tables_with_a_unit_in_the_header_read_one_sentence_per_row() -> None:
    page = parse_html(_page("static_space_speed.html"), f"{BASE}/speed.html")
    assert "code review: tokens 1024, TTFT 0.15 s, total 19.8 s, gen 52.1 tok/s." in page.text
    assert "| Model | unsloth/Qwen3.6-27B-GGUF UD-Q5_K_XL |" in page.text  # no unit: kept as a row
    assert page.links == [f"{BASE}/runs/speed_runs.json"]
    assert "renderCharts" not in page.text and "Overview" not in page.text


def test_table_sentences_without_header_units_keep_the_rows() -> None:
    assert table_sentences([["a", "b"], ["1", "2"]]) == ["| a | b |", "| 1 | 2 |"]
    assert table_sentences(
        [["Quant", "Baseline tok/s", "Best tok/s"], ["Q5_K_XL", "176.5", "195.2"]]
    ) == ["Q5_K_XL: Baseline 176.5 tok/s, Best 195.2 tok/s."]


def test_links_are_absolute_http_links_without_fragments() -> None:
    html = (
        '<html><body><p>see <a href="/api/records#top">records</a>, <a href="#x">x</a>, '
        '<a href="mailto:a@b.c">mail</a>, <a href="javascript:alert(1)">js</a>, '
        '<a href="https://github.com/o/r">repo</a></p></body></html>'
    )
    page = parse_html(html, f"{BASE}/post")
    assert page.links == [f"{BASE}/api/records", "https://github.com/o/r"]


def test_is_html_by_content_type_or_by_shape() -> None:
    assert is_html("anything", "text/html; charset=utf-8")
    assert is_html("<!DOCTYPE html><html></html>", "text/plain")
    assert is_html("  <!-- c -->\n<html>", None)
    assert not is_html('{"a": 1}', "application/json")
    assert not is_html("2103.6 tok/s", "text/plain")


def test_next_data_returns_the_embedded_json() -> None:
    data = next_data((WEB / "localscore_result_page.html").read_text(encoding="utf-8"))
    assert data is not None
    assert data["page"] == "/result/[id]"
    assert data["props"]["pageProps"]["result"]["id"] == 1
    assert next_data("<html><body>no data</body></html>") is None


def test_a_next_js_page_embedding_a_record_reads_as_that_record(ref: Reference) -> None:
    url = f"{BASE}/result/1"
    doc = RawDocument(
        (WEB / "localscore_result_page.html").read_bytes(), source=url, content_type="text/html"
    )
    page = read_page(doc, ref, Source(url=url, kind="page"))
    assert page.is_record and page.reading.source.format == "localscore"
    assert "embedded Next.js data" in (page.reading.source.note or "")
    assert page.reading.records[0].hardware == "NVIDIA GeForce RTX 3090"


def test_post_page_title_is_not_repeated_when_the_body_starts_with_it() -> None:
    assert PostPage(text="Title\n\nbody", title="Title").full_text() == "Title\n\nbody"
    assert PostPage(text="body", title="Title").full_text() == "Title\n\nbody"


async def test_image_only_post_flags_q1_and_lists_what_was_not_found(
    server: Loopback, ref: Reference
) -> None:
    url = server.file("/posts/2103", "web/image_only_post.html", "text/html; charset=utf-8")
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    assert server.paths() == ["/posts/2103"]  # the image is counted, never fetched
    assert NO_EVIDENCE_LINK in result.not_found
    ev = build_evidence(result.readings, ref).model_copy(update={"not_found": result.not_found})
    report = audit(ev, ref)
    q1 = report.question("evidence")
    assert q1.status == "flag"
    assert q1.summary.startswith("no evidence in the post: a number and 1 picture")
    assert q1.figures == {"images": 1.0, "evidence_links": 0.0}
    assert report.question("config").status == "unanswerable"
    assert NO_EVIDENCE_LINK in report.question("config").missing
    assert report.claim.tok_s == 2103.6
    assert report.sources[0].sha256 and report.sources[0].kind == "post"
