"""Image sniffing, the bomb guard, line and table rebuilding, printouts and Q1's image wording.

No OCR runs here (tests/extractors/test_ocr_screens.py reads real rendered screenshots): the
layout is fed what a perfect OCR answers (`benchmarks.ocr_accuracy.perfect_segments`) and the
slips the real one makes (a pipe read as `1`, a space dropped).
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.ocr_accuracy import LLAMA_BENCH, NVIDIA_SMI, VLLM_SERVE, perfect_segments
from checks.models import Claim, Evidence, PostInfo, Screenshot, Source
from checks.reference import Reference
from checks.rules.evidence import evidence
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.image import NO_OCR, image_type, read_image
from extractors.image.decode import MAX_PIXELS, header_size, open_for_ocr
from extractors.image.layout import _tables, grid_lines, rebuild_text, split_cells
from extractors.image.ocr import Glyph, Segment
from extractors.image.printouts import vllm_serve_record


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header declares width × height, with one tiny compressed row: a bomb."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def _encoded(fmt: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format=fmt)
    return out.getvalue()


@pytest.mark.parametrize(("data", "kind"), [
    (_encoded("PNG"), "png"),
    (_encoded("JPEG"), "jpeg"),
    (_encoded("GIF"), "gif"),
    (_encoded("WEBP"), "webp"),
    (b"RIFF\0\0\0\0WAVEfmt ", None),
    (b"%PDF-1.7", None),
    (b"{\"tok_s\": 1}", None),
    (b"", None),
])
def test_image_type_from_magic_bytes(data: bytes, kind: str | None) -> None:
    assert image_type(data) == kind


@pytest.mark.parametrize(("width", "height", "message"), [
    (100_000, 100_000, "bomb.png: the image header declares more than 40 million pixels; "
                       "refused before decoding"),  # 10 Gpx: Pillow's own guard fires on open
    (8000, 6000, "bomb.png: the image header declares 8000×6000 pixels (over 40 million); "
                 "refused before decoding"),  # 48 Mpx: under Pillow's guard, over ours
])
def test_image_bomb_refused_from_header_before_decoding(width: int, height: int,
                                                         message: str) -> None:
    bomb = _png_header_only(width, height)
    assert len(bomb) < 120  # gigapixels declared in a file of under 120 bytes
    with pytest.raises(InvalidInput) as err:
        read_image(bomb, "bomb.png")
    assert str(err.value) == message


def test_header_size_just_under_the_cap_is_read() -> None:
    assert header_size(_png_header_only(8000, MAX_PIXELS // 8000), "big.png") == (8000, 5000)


@pytest.mark.parametrize(("data", "message"), [
    (b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "the image cannot be read"),
    (_encoded("JPEG")[:40], "cannot be"),
])
def test_corrupt_image_is_one_clear_line(data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput, match=message) as err:
        open_for_ocr(data, "broken.png")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("size", "scaled"), [((1200, 300), (1200, 300)), ((4000, 1000),
                         (2000, 500)), ((200, 40), (400, 80))])
def test_image_sized_for_ocr(size: tuple[int, int], scaled: tuple[int, int]) -> None:
    pixels, _ = open_for_ocr(_png(*size), "shot.png")
    assert (pixels.shape[1], pixels.shape[0]) == scaled


def test_without_the_ocr_extra_an_image_gets_the_line_saying_how(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("extractors.image.ocr_available", lambda: False)
    with pytest.raises(InvalidInput) as err:
        read_image(_png(50, 20), "shot.png")
    assert str(err.value) == f"shot.png: an image; {NO_OCR}"
    assert "pip install 'claimcheck[ocr]'" in str(err.value)


def test_an_image_is_not_refused_as_binary() -> None:
    RawDocument(_png(10, 10), source="shot.png").refuse_binary()
    with pytest.raises(InvalidInput, match="binary data"):
        RawDocument(b"\0\1\2\3" * 10, source="blob").refuse_binary()


# ---- layout ---------------------------------------------------------------------------------


def test_perfect_ocr_gives_the_printout_back_line_for_line() -> None:
    for text in (VLLM_SERVE, NVIDIA_SMI):
        assert grid_lines(perfect_segments(text)) == text.rstrip("\n").split("\n")


def test_llama_bench_table_becomes_markdown_and_sentences() -> None:
    text = rebuild_text(perfect_segments(LLAMA_BENCH))
    assert "| model | size | params | backend | ngl | test | t/s |" in text
    assert ("| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 127.45 ± 0.32 |"
            in text)
    assert ("llama 8B Q4_K - Medium: size 4.58 GiB, params 8.03 B, backend CUDA, ngl 99, "
            "test tg128, t/s 127.45 t/s.") in text
    assert "Device 0: NVIDIA GeForce RTX 3090" in text


def _seg(text: str, col: int, row: int, cell: float = 8.4) -> Segment:
    glyphs = tuple(Glyph(ch, (col + i) * cell, row * 19.0, (col + i + 1) * cell - 1, row * 19 + 14)
                   for i, ch in enumerate(text))
    return Segment(text, glyphs, 0.99)


def test_pipes_read_as_1_or_i_are_column_rules_in_a_table_row() -> None:
    segments = [_seg("model", 2, 0), _seg("ngl", 20, 0), _seg("test", 28, 0), _seg("t/s", 40, 0),
                _seg("i llama 8B", 0, 1), _seg("99 1", 20, 1), _seg("tg128", 27, 1),
                _seg("127.45 ± 0.32 1", 36, 1)]
    text = rebuild_text(segments)
    assert "| llama 8B | 99 | tg128 | 127.45 ± 0.32 |" in text
    assert "llama 8B: ngl 99, test tg128, t/s 127.45 t/s." in text


def test_a_value_of_1_standing_in_its_own_cell_is_kept() -> None:
    assert [c[2] for c in split_cells("| 3090 |   1 |  tg128 |", in_table=True)] == [
        "3090", "1", "tg128"]


def test_a_space_the_recogniser_dropped_comes_back_from_the_boxes() -> None:
    cell = 8.4
    chars = "Totalinput"
    xs = [i * cell for i in range(5)] + [(i + 1) * cell for i in range(5, 10)]  # gap after "Total"
    seg = Segment(chars, tuple(Glyph(c, x, 0, x + 7, 14) for c, x in zip(chars, xs, strict=True)),
                  0.9)
    assert grid_lines([seg]) == ["Total input"]


def test_a_misplaced_point_box_adds_no_space_in_a_number() -> None:
    cell = 8.4
    xs = [0, cell, 2 * cell, 4.0 * cell, 4.6 * cell, 5.6 * cell]  # "." drawn late by CTC
    seg = Segment("140.07", tuple(Glyph(c, x, 0, x + 7, 14) for c, x in zip("140.07", xs,
                                                                             strict=True)), 0.9)
    assert grid_lines([seg]) == ["140.07"]


# ---- printouts ------------------------------------------------------------------------------


def test_vllm_result_block_read_back_into_its_record() -> None:
    ocr_like = (VLLM_SERVE.replace("P99 TPOT (ms):", "P99 TP0T (mS):")
                .replace("140.07", "140 .07").replace("Median TTFT (ms):", "Median TTFT (ms) :"))
    record = json.loads(vllm_serve_record(ocr_like) or "{}")
    assert record == {
        "completed": 200, "duration": 61.27, "total_input_tokens": 204800,
        "total_output_tokens": 25600, "request_throughput": 3.26, "output_throughput": 417.82,
        "total_token_throughput": 3760.39, "mean_ttft_ms": 152.31, "median_ttft_ms": 140.07,
        "p99_ttft_ms": 410.66, "mean_tpot_ms": 21.84, "median_tpot_ms": 21.52,
        "p99_tpot_ms": 30.17,
    }


@pytest.mark.parametrize("text", ["Successful requests: 200\nMean TTFT (ms): 12", NVIDIA_SMI,
                                  "============ Serving Benchmark Result ============\n"])
def test_no_vllm_record_without_the_block(text: str) -> None:
    assert vllm_serve_record(text) is None


# ---- Q1 -------------------------------------------------------------------------------------


def _ev(*shots: Screenshot, post: PostInfo | None = None) -> Evidence:
    sources = [Source(url=s.name, kind="file", screenshot=s) for s in shots]
    return Evidence(claim=Claim(tok_s=127.45), kind="post", post=post, sources=sources)


def test_q1_a_printout_with_figures_is_evidence(ref: Reference) -> None:
    shot = Screenshot(name="bench.png", lines=9, figures=2, format="text")
    ans = evidence(_ev(shot, post=PostInfo(text="tg128 127.45 t/s")), ref, {})
    assert ans.status == "ok"
    assert ans.summary == ("the image is a printout with figures: bench.png, 9 lines read by "
                           "OCR, 2 figures taken from it.")
    assert ans.figures["screenshots_with_figures"] == 1.0


def test_q1_a_photo_without_figures_is_named_in_the_flag(ref: Reference) -> None:
    photo = Screenshot(name="gpu.jpg", lines=0, figures=0)
    ans = evidence(_ev(photo, post=PostInfo(text="127.45 tok/s on my 3090")), ref, {})
    assert ans.status == "flag"
    assert ans.summary == ("no evidence in the post: a number; the image is a photo without "
                           "figures (OCR read none in gpu.jpg).")
    assert ans.figures["screenshots_without_figures"] == 1.0


def test_q1_without_post_details_a_printout_is_evidence(ref: Reference) -> None:
    ans = evidence(_ev(Screenshot(name="b.png", lines=3, figures=1)), ref, {})
    assert (ans.status, ans.summary) == (
        "ok", "the image is a printout with figures: b.png, 3 lines read by OCR, 1 figure taken "
              "from it.")


def test_q1_unchanged_without_images(ref: Reference) -> None:
    ans = evidence(_ev(post=PostInfo(text="127.45 tok/s")), ref, {})
    assert (ans.status, ans.summary) == ("flag", "no evidence in the post: a number.")
    assert "screenshots_with_figures" not in ans.figures


def test_a_bomb_given_as_a_file_is_refused_with_its_size(tmp_path: Path, ref: Reference) -> None:
    from extractors.evidence import read_document
    from extractors.inputs import InputSpec, read_local

    path = tmp_path / "shot.png"
    path.write_bytes(_png_header_only(100_000, 100_000))
    doc = read_local(InputSpec("file", str(path)))
    with pytest.raises(InvalidInput) as err:
        read_document(doc, ref)
    assert str(err.value) == (f"{path}: the image header declares more than 40 million pixels; "
                              "refused before decoding")


@pytest.mark.parametrize(("read", "fixed"), [
    ("NVIDIA GeForce RTX 309o,", "NVIDIA GeForce RTX 3090,"),
    ("1O24 tokens", "1024 tokens"),
    ("Octo 2x TOO", "Octo 2x TOO"),  # words, not numbers: untouched
])
def test_a_letter_o_in_a_number_is_a_zero(read: str, fixed: str) -> None:
    assert grid_lines([_seg(read, 0, 0)]) == [fixed]


def test_a_markdown_row_is_split_at_its_pipes_whatever_the_widths() -> None:
    lines = ["| GPU | Model | tok/s |", "|---|---|---|", "| RTX 3090 | Llama 3 8B Q4_K_M | 112 |",
             "RTX 4090 | Llama 3 8B Q4_K_M | 140"]  # outer pipes optional
    (block,) = _tables(lines)
    assert block.rows == [["GPU", "Model", "tok/s"], ["RTX 3090", "Llama 3 8B Q4_K_M", "112"],
                          ["RTX 4090", "Llama 3 8B Q4_K_M", "140"]]
