"""OCR accuracy on rendered screenshots: fields exact per screenshot, and time per image.

`python -m benchmarks.ocr_accuracy` renders the real tools' printouts the way a terminal shows
them (DejaVu Sans Mono, which matplotlib ships; light-on-dark and dark-on-light; scaled 0.75× and
1.5×; JPEG-compressed), reads each through `extractors.image.read_image` (the screenshot reader
the bot and the CLI use) and compares the claim fields read from the OCR text with the fields the
same readers take from the original text. Printed: one row per screenshot (fields exact, seconds),
then the totals. The printouts' shapes are those of the tools' own printing code:
- llama-bench's Markdown table: ggml-org/llama.cpp `tools/llama-bench/llama-bench.cpp`
  (`markdown_printer`: `| model | size | params | backend | ngl | test | t/s |`, the t/s cell
  "mean ± stddev"), with the `ggml_cuda_init` device lines printed before it;
- `vllm bench serve`: vllm-project/vllm `vllm/benchmarks/serve.py` (the "Serving Benchmark
  Result" block, `{:<40} {:<10}` rows);
- nvidia-smi's summary table (the layout of driver 550).

The samples and the renderer live here so the tests (tests/extractors/test_ocr_screens.py) read
the very same images.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["SAMPLES", "STYLES", "Sample", "Style", "expected_fields", "main", "perfect_segments", "read_fields",
           "render"]

LLAMA_BENCH = """\
ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes
| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |           pp512 |      5402.61 ± 23.11 |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |           tg128 |        127.45 ± 0.32 |

build: 7a0e5d5c (5123)
"""

VLLM_SERVE = """\
============ Serving Benchmark Result ============
Successful requests:                     200
Benchmark duration (s):                  61.27
Total input tokens:                      204800
Total generated tokens:                  25600
Request throughput (req/s):              3.26
Output token throughput (tok/s):         417.82
Total Token throughput (tok/s):          3760.39
---------------Time to First Token----------------
Mean TTFT (ms):                          152.31
Median TTFT (ms):                        140.07
P99 TTFT (ms):                           410.66
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          21.84
Median TPOT (ms):                        21.52
P99 TPOT (ms):                           30.17
==================================================
"""

NVIDIA_SMI = """\
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 4090        Off |   00000000:01:00.0 Off |                  Off |
| 30%   62C    P2            315W /  450W |   21034MiB /  24564MiB |     98%      Default |
+-----------------------------------------+------------------------+----------------------+
"""


@dataclass(frozen=True)
class Sample:
    name: str
    text: str


@dataclass(frozen=True)
class Style:
    name: str
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]
    scale: float = 1.0
    jpeg: int | None = None  # JPEG quality, None for PNG


SAMPLES = (Sample("llama-bench", LLAMA_BENCH), Sample("vllm-bench-serve", VLLM_SERVE),
           Sample("nvidia-smi", NVIDIA_SMI))
DARK = ((204, 204, 204), (30, 30, 30))  # a dark terminal theme's default colours
LIGHT = ((20, 20, 20), (255, 255, 255))
STYLES = (
    Style("dark", *DARK),
    Style("light", *LIGHT),
    Style("dark-0.75x", *DARK, scale=0.75),
    Style("light-1.5x-jpeg", *LIGHT, scale=1.5, jpeg=70),
    Style("dark-jpeg", *DARK, jpeg=60),
)
FONT_SIZE = 14  # a terminal's usual size in pixels


def _font(size: int) -> Any:
    import matplotlib
    from PIL import ImageFont

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSansMono.ttf"
    return ImageFont.truetype(str(path), size)


def render(text: str, style: Style) -> bytes:
    """The text as a terminal screenshot: PNG bytes, or JPEG when the style says so."""
    from PIL import Image, ImageDraw

    font = _font(FONT_SIZE)
    lines = text.rstrip("\n").split("\n")
    left, top, right, bottom = font.getbbox("M" * max(len(line) for line in lines))
    line_h = int(FONT_SIZE * 1.35)
    pad = 12
    img = Image.new("RGB", (right + 2 * pad, line_h * len(lines) + 2 * pad), style.bg)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((pad, pad + i * line_h), line, font=font, fill=style.fg)
    if style.scale != 1.0:
        img = img.resize((round(img.width * style.scale), round(img.height * style.scale)),
                         Image.Resampling.LANCZOS)
    out = io.BytesIO()
    if style.jpeg is not None:
        img.save(out, format="JPEG", quality=style.jpeg)
    else:
        img.save(out, format="PNG")
    return out.getvalue()


# The claim fields compared: what a reader of each printout fills.
FIELDS = ("tok_s", "tok_s_kind", "hardware", "hardware_count", "model", "params_total_b",
          "weight_format", "batch", "concurrency", "engine", "power_w", "per_user_tok_s",
          "tokens_generated", "wall_seconds", "input_tokens")


def _fields_of(doc: Any) -> dict[str, Any]:
    from checks.reference import load_reference
    from extractors.errors import UnusableInput
    from extractors.evidence import build_evidence, read_document

    ref = load_reference()
    try:
        reading = read_document(doc, ref)
        claim = build_evidence([reading], ref).claim
    except UnusableInput:
        claim = None
        if reading.text is not None:  # a printout with no speed figure (nvidia-smi)
            claim = reading.text.claim
    if claim is None:
        return {}
    values = claim.model_dump()
    return {f: values.get(f) for f in FIELDS if values.get(f) is not None}


def perfect_segments(text: str) -> list[Any]:
    """What a perfect OCR would answer for the printout: each run of text (split at two or more
    spaces, as the detector splits a terminal's columns) with every character on its cell."""
    from extractors.image.ocr import Glyph, Segment

    cell, line_h = 10.0, 20.0
    segments = []
    for row, line in enumerate(text.split("\n")):
        col = 0
        for run in line.split("  "):
            stripped = run.strip()
            if stripped:
                start = col + run.index(stripped[0])
                glyphs = tuple(Glyph(ch, (start + k) * cell, row * line_h,
                                     (start + k + 1) * cell - 1, row * line_h + 14)
                               for k, ch in enumerate(stripped))
                segments.append(Segment(stripped, glyphs, 1.0))
            col += len(run) + 2
    return segments


def expected_fields(sample: Sample) -> dict[str, Any]:
    """The fields read from the printout as a perfect OCR would see it: its true text through
    the same line and table rebuilding (the target OCR should reach)."""
    from extractors.document import RawDocument
    from extractors.image import screenshot_source
    from extractors.image.layout import rebuild_text
    from extractors.image.printouts import vllm_serve_record

    text = rebuild_text(perfect_segments(sample.text))
    record = vllm_serve_record(text)
    doc = RawDocument((record or text).encode(), source=screenshot_source(sample.name))
    return _fields_of(doc)


def read_fields(data: bytes, name: str) -> dict[str, Any]:
    """The fields read from a screenshot's bytes through the screenshot reader."""
    from extractors.image import read_image

    return _fields_of(read_image(data, name))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ocr_accuracy",
                                     description=__doc__.split("\n", 1)[0])
    parser.add_argument("--show", action="store_true", help="print the OCR text of each image")
    args = parser.parse_args(argv)
    from extractors.image import ocr_available, read_image
    from extractors.image.ocr import engine_name, warm_up

    if not ocr_available():
        print("OCR is not installed: pip install 'claimcheck[ocr]'", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    warm_up()
    print(f"OCR engine: {engine_name()} (loaded in {time.perf_counter() - t0:.2f} s)")
    print("| screenshot | size (px) | fields exact | wall s | CPU s |")
    print("|---|---:|---:|---:|---:|")
    exact = total = 0
    times: list[float] = []
    cpu: list[float] = []  # CPU seconds, all threads: what the image costs on a machine not shared
    for sample in SAMPLES:
        want = expected_fields(sample)
        for style in STYLES:
            data = render(sample.text, style)
            from PIL import Image

            w, h = Image.open(io.BytesIO(data)).size
            t, c = time.perf_counter(), time.process_time()
            doc = read_image(data, f"{sample.name}-{style.name}")
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            got = _fields_of(doc)
            ok = sum(1 for k, v in want.items() if got.get(k) == v)
            exact += ok
            total += len(want)
            wrong = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
            extra = f" wrong: {wrong}" if wrong else ""
            print(f"| {sample.name} {style.name} | {w}×{h} | {ok}/{len(want)} | "
                  f"{times[-1]:.2f} | {cpu[-1]:.2f} |{extra}")
            if args.show:
                print(doc.text)
    times.sort()
    cpu.sort()
    print(f"\nFields exact: {exact}/{total} = {100 * exact / max(1, total):.1f}%")
    print(f"Time per image: wall median {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s; "
          f"CPU median {cpu[len(cpu) // 2]:.2f} s, max {cpu[-1]:.2f} s ({len(times)} images, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
