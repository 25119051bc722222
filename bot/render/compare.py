"""The difference table ("build the difference table first, then talk"). Every cell is folded
onto one line by `checks.text.one_line`: record values never carry control characters or line
breaks into the table."""

from __future__ import annotations

from checks.compare import Comparison
from checks.text import one_line

__all__ = ["render_comparison"]


def render_comparison(c: Comparison) -> str:
    rows = [("knob", "A", "B", "status")] + [
        (one_line(r.knob), "—" if r.a is None else one_line(r.a), "—" if r.b is None else one_line(r.b),
         one_line(r.status)) for r in c.rows
    ]
    widths = [min(40, max(len(row[i]) for row in rows)) for i in range(4)]
    lines = ["  ".join(cell[:40].ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    out = [one_line(c.conclusion, 2000), "", *lines]
    if c.experiments:
        out += ["", "Single-variable measurements that would attribute the gap:"]
        out += [f"  - {one_line(e, 2000)}" for e in c.experiments]
    return "\n".join(out) + "\n"
