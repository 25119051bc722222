"""How fast the readers are, as ratios against a baseline run in the same process.

Run: `python benchmarks/parse_speed.py`. Prints figures; asserts nothing (tests never time).
Baseline: ordinary prose of the same length. A reader that backtracks on an adversarial shape
shows up as a ratio far above 1; linear readers stay within a small factor.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checks.reference import load_reference  # noqa: E402
from checks.runner import audit  # noqa: E402
from extractors.document import RawDocument  # noqa: E402
from extractors.evidence import build_evidence, read_document  # noqa: E402
from extractors.text import parse_text  # noqa: E402

SIZE = 60_000
SHAPES = ("9", "1/", "1,", "AL ", "vllm serve \\\n", "  \n", "2x ", "1-", "RTX ")
PROSE = "Qwen3.6-27B on one RTX 5090 ran at 79 tok/s in plain decode, batch 1, with a 4k context. "


def _time(fn: Callable[[], object], repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    ref = load_reference()
    prose = (PROSE * (SIZE // len(PROSE) + 1))[:SIZE]
    base = _time(lambda: parse_text(RawDocument.from_text(prose), ref))
    print(f"baseline: {SIZE} chars of prose parsed in {base * 1000:.1f} ms")
    for shape in SHAPES:
        text = shape * (SIZE // len(shape))

        def parse_shape(text: str = text) -> object:
            return parse_text(RawDocument.from_text(text), ref)

        t = _time(parse_shape)
        print(f"  {shape!r:<18} {t * 1000:8.1f} ms   ratio {t / base:5.2f}")
    examples = Path(__file__).resolve().parents[1] / "bot" / "examples"
    docs = [RawDocument((examples / n).read_bytes(), source=n) for n in ("headline_post.txt", "headline_board.json")]
    one = _time(lambda: audit(build_evidence([read_document(d, ref) for d in docs], ref), ref), repeat=5)
    print(f"audit --example pipeline (parse + 18 checks): {one * 1000:.1f} ms per audit")
    print(f"  ratio to the prose baseline: {one / base:.2f}")


if __name__ == "__main__":
    main()
