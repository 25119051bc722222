"""A sweep's output: the ranked summary for people, and the JSON document written as it goes.

The summary lists the most severe verdicts first, then the largest roofline ratio, and every
record that could not be read with its reason (a sweep never drops a record silently). The JSON
document has the keys it always had (`source`, `records`, `by_verdict`, `ranked`, `reports`) and
`unreadable`; `reports` comes first, so that each report is written as soon as it is made.
"""

from __future__ import annotations

import json
from typing import TextIO

from bot.sweep import SweepResult, SweepSummary
from checks.text import sanitise

__all__ = ["JsonSweepWriter", "render_sweep"]


def _line(text: str, limit: int) -> str:
    """Untrusted record fields on one line, control and bidi characters removed."""
    return " ".join(sanitise(text, limit=limit).split())


def render_sweep(result: SweepResult, top: int = 20) -> str:
    """`result.ranked` may hold only the first rows; `result.records` counts them all."""
    counts = ", ".join(f"{n} {v}" for v, n in result.by_verdict.items() if n)
    out = [f"{result.records} records from {_line(result.source, 200)}: {counts or 'none audited'}"]
    if result.unreadable:
        out.append(f"{len(result.unreadable)} record(s) could not be read:")
        for bad in result.unreadable[:top]:
            out.append(f"  record {bad.record}: {_line(bad.reason, 300)}")
        if len(result.unreadable) > top:
            out.append(f"  … and {len(result.unreadable) - top} more (use --top N or --json)")
    out.append("")
    for row in result.ranked[:top]:
        who = " · ".join(_line(x, 80) for x in (row.record_id, row.submitter, row.hardware, row.model) if x)
        out.append(f"{row.verdict:<12} {who}")
        out.append(f"             {_line(row.headline, 400)}")
    if result.records > top:
        out.append(f"… and {result.records - top} more (use --top N or --json)")
    return "\n".join(out) + "\n"


class JsonSweepWriter:
    """The `--json` document, its reports written one by one as the sweep makes them."""

    def __init__(self, out: TextIO, source: str) -> None:
        self._out = out
        self._first = True
        out.write('{\n  "source": ' + json.dumps(source) + ',\n  "reports": [')

    def report(self, text: str) -> None:
        self._out.write(("\n    " if self._first else ",\n    ") + text)
        self._first = False

    def finish(self, summary: SweepSummary) -> None:
        unreadable = [u.model_dump() for u in summary.unreadable]
        ranked = summary.ranked_json()
        self._out.write(
            ("]" if self._first else "\n  ]")
            + ',\n  "records": ' + str(summary.records)
            + ',\n  "by_verdict": ' + json.dumps(summary.by_verdict)
            + ',\n  "unreadable": ' + json.dumps(unreadable)
            + ',\n  "ranked": [' + ",".join("\n    " + row for row in ranked)
            + ("\n  ]" if ranked else "]") + "\n}\n"
        )
