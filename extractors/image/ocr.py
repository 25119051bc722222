"""The OCR engine: RapidOCR (PP-OCRv4 detection and recognition, ONNX Runtime), offline.

Why this one (measured on the rendered screenshots of `benchmarks/ocr_accuracy.py`, 2 shared
cores, 2026-12-01):
- `rapidocr-onnxruntime` 1.4.4 (PyPI, Apache-2.0): its wheel ships the three ONNX models
  (det 4.7 MB, rec 10.9 MB, cls 0.6 MB), so nothing is downloaded at run time; installs with pip
  alone (onnxruntime, opencv-python, numpy, shapely, pyclipper: about 420 MB in a venv); it
  returns a box per character (`return_word_box`), which is what lets the column layout of a
  terminal be rebuilt exactly (see `extractors.image.layout`).
- Debian `tesseract-ocr` 5.3 + `pytesseract`: smaller (about 10 MB with the English data) and
  keeps spaces well, but it is not installable from PyPI (the project's rule for dependencies),
  dropped a whole cell of the llama-bench table and read nvidia-smi's rules as letters; and it was
  slower: 9–18 CPU-seconds per screenshot against RapidOCR's 1.7–3.5 (same images, same
  machine, load average 7–11 on 2 cores).
- `easyocr`: downloads its models from a hub at first use: excluded (no network at run time).
- `rapidocr` 3.x: fetches its models at run time unless given paths; 1.4.4 is self-contained.

The engine is built once per process (`engine()`, cached) and reused; `warm_up()` builds it and
runs it once: the bot's reading workers call it as they start (`worker_warm_up`), so the first
screenshot does not pay the model load.
The angle classifier is off: screenshots are upright. Detection runs at the image's own size
(`det_limit_type` "max"), not upscaled to 736 px on the short side (the default), which made a
1035×168 screenshot 4534×736 and took four times as long for worse spacing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

__all__ = ["Glyph", "Segment", "engine", "engine_name", "ocr_available", "recognise", "warm_up",
           "worker_warm_up"]

ENGINE_PACKAGE = "rapidocr-onnxruntime"
MIN_SCORE = 0.5  # the engine's own text_score default: below it a segment is noise


@dataclass(frozen=True)
class Glyph:
    """One recognised character and its box (pixels of the image as given to OCR)."""

    char: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Segment:
    """One detected run of text: its characters with their boxes, and the run's score."""

    text: str
    glyphs: tuple[Glyph, ...]
    score: float


def ocr_available() -> bool:
    """True when the OCR extra is installed (`pip install 'claimcheck[ocr]'`)."""
    import importlib.util

    return importlib.util.find_spec("rapidocr_onnxruntime") is not None


def engine_name() -> str:
    from importlib.metadata import version

    return f"{ENGINE_PACKAGE} {version(ENGINE_PACKAGE)}"


@cache
def engine() -> Any:
    """The one engine of this process (the models load in about 0.3 s)."""
    from rapidocr_onnxruntime import RapidOCR

    threads = max(1, min(4, os.cpu_count() or 1))
    return RapidOCR(use_cls=False, intra_op_num_threads=threads, inter_op_num_threads=1,
                    det_limit_type="max", det_limit_side_len=2048, print_verbose=False)


WARM_UP_LINE = "| llama 8B Q4_K_M | tg128 | 127.45 ± 0.31 |"


def warm_up() -> None:
    """Load the models now and run both once on one printed line: the first inference of each
    ONNX Runtime session (detection, then recognition, which a blank image never reaches)
    allocates its arenas, which the first screenshot would otherwise pay for."""
    import numpy as np
    from PIL import Image, ImageDraw

    strip = Image.new("RGB", (640, 48), (255, 255, 255))
    ImageDraw.Draw(strip).text((8, 10), WARM_UP_LINE, fill=(0, 0, 0), font_size=22)
    recognise(np.asarray(strip)[:, :, ::-1].copy())  # BGR, as the engine reads images


def worker_warm_up() -> Callable[[], None] | None:
    """What a reading worker runs as it starts (`extractors.offloop.ReadingPool(warm=...)`):
    `warm_up` when the OCR extra is installed, else nothing. Each worker loads its own engine:
    the workers come from a fork server that never loads ONNX Runtime, whose thread pools would
    not survive a fork."""
    return warm_up if ocr_available() else None


def _box(points: Any) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def recognise(image: Any) -> list[Segment]:
    """Every text run OCR finds in a BGR array, each with a box per character."""
    result, _ = engine()(image, use_cls=False, return_word_box=True, text_score=MIN_SCORE)
    segments = []
    for row in result or []:
        box, text, score = row[0], str(row[1]), float(row[2])
        chars = row[4] if len(row) > 4 and isinstance(row[4], list) else []
        boxes = row[3] if len(row) > 3 and isinstance(row[3], list) else []
        if len(chars) == len(boxes) and chars and "".join(chars) == text:
            glyphs = tuple(Glyph(c, *_box(b)) for c, b in zip(chars, boxes, strict=True))
        else:  # no per-character boxes: spread the run's box evenly over its characters
            x0, y0, x1, y1 = _box(box)
            step = (x1 - x0) / max(1, len(text))
            glyphs = tuple(Glyph(c, x0 + i * step, y0, x0 + (i + 1) * step, y1)
                           for i, c in enumerate(text))
        if glyphs:
            segments.append(Segment(text, glyphs, score))
    return segments
