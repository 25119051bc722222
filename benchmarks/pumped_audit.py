"""A whole audit of a pumped input at 1 KB and at 4 KB: the time ratio should be about 4, not 12.

Run: `python -m benchmarks.pumped_audit`. Prints ratios (best of 5, thread CPU time, the two
sizes interleaved); asserts nothing. The shapes are the ones that were super-linear: a number
before a run of spaces, an `export X=1` line before a long launch command, runs of flags, digits
and near-matches. A reader made linear shows ~4; a quadratic one ~16.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from checks.reference import load_reference  # noqa: E402
from checks.runner import audit  # noqa: E402
from extractors.document import RawDocument  # noqa: E402
from extractors.errors import ExtractError  # noqa: E402
from extractors.evidence import build_evidence, read_document  # noqa: E402
from tests.pumping import SHAPES, Shape, growth  # noqa: E402

REF = load_reference()
AUDIT_SHAPES = (
    Shape("export before a launch command", "export X=1\nvllm serve m ", "--max-num-seqs 4 ", "\n"),
    Shape("number+spaces before the unit", "2103.6", " ", "tok/s"),
    *SHAPES,
)


def audit_text(text: str) -> object:
    try:
        return audit(build_evidence([read_document(RawDocument.from_text(text), REF)], REF), REF)
    except ExtractError:
        return None


def main() -> None:
    print(f"{'shape':<34} 4 KB / 1 KB")
    worst = 0.0
    for shape in AUDIT_SHAPES:
        ratio = growth(audit_text, shape, 1024, 4, runs=5)
        worst = max(worst, ratio)
        print(f"{shape.name:<34} {ratio:5.1f}")
    print(f"worst ratio {worst:.1f} (linear: about 4; quadratic: about 16)")


if __name__ == "__main__":
    main()
