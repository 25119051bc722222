"""One audit in-process, from bytes to Report: a pasted text claim and one JSON board record.

Each is run `REPEAT` times after a warm-up; p50 and p99 of the wall time, and of `checks.runner.audit`
alone on the evidence built once (the checks' share; issue 14 targets 0.4 ms, the reading the rest). Baselines in the same
run: for the text, one compiled-regex scan of the same text for numbers (the least any reader
must do); for the record, `json.loads` of the same bytes. Target (issue 8): p50 < 1 ms.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable

from benchmarks.measure import ROOT
from benchmarks.table import Budget, Row
from checks.models import Evidence
from checks.reference import load_reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document

__all__ = ["REPEAT", "run"]

REPEAT = 300
_NUMBERS = re.compile(r"\d+(?:\.\d+)?")
TEXT = (ROOT / "bot" / "examples" / "headline_post.txt").read_bytes()
# One record of the bundled board (the seed's 2103.6 tok/s run), as a one-record dump.
_BOARD = json.loads((ROOT / "bot" / "examples" / "headline_board.json").read_text(encoding="utf-8"),
                    strict=False)
RECORD = json.dumps({"records": [r for r in _BOARD["records"] if r.get("id") == "r-56"]}).encode()


def _times(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def _p(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[int(q) - 1] * 1000


def run(budget: Budget) -> list[Row]:
    ref = load_reference()

    def one(data: bytes, source: str) -> object:
        return audit(build_evidence([read_document(RawDocument(data, source=source), ref)], ref), ref)

    rows = []
    cases = (
        ("audit text claim", TEXT, "text", "regex scan of the same text",
         lambda: _NUMBERS.findall(TEXT.decode())),
        ("audit JSON record", RECORD, "record.json", "json.loads of the same bytes",
         lambda: json.loads(RECORD)),
    )
    for name, data, source, base_name, base_fn in cases:

        def audit_case(d: bytes = data, s: str = source) -> object:
            return one(d, s)

        ev = build_evidence([read_document(RawDocument(data, source=source), ref)], ref)

        def checks_case(e: Evidence = ev) -> object:
            return audit(e, ref)

        checks_only = _times(checks_case, REPEAT)
        took = _times(audit_case, REPEAT)
        base = _times(base_fn, REPEAT)
        p50 = _p(took, 50)
        rows.append(Row(name, "p50", p50, "ms", base_name, _p(base, 50), target="< 1 ms", met=p50 < 1.0))
        rows.append(Row(name, "p99", _p(took, 99), "ms", base_name, _p(base, 99)))
        checks_p50 = _p(checks_only, 50)
        rows.append(Row(f"{name}: checks only", "p50", checks_p50, "ms", base_name, _p(base, 50),
                        target="<= 0.4 ms", met=checks_p50 <= 0.4))
    return rows
