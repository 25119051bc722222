"""The difference table (seed §6: "build the difference table first, then talk")."""

from __future__ import annotations

from checks.compare import Comparison

__all__ = ["render_comparison"]


def render_comparison(c: Comparison) -> str:
    rows = [("knob", "A", "B", "status")] + [
        (r.knob, "—" if r.a is None else str(r.a), "—" if r.b is None else str(r.b), r.status) for r in c.rows
    ]
    widths = [min(40, max(len(row[i]) for row in rows)) for i in range(4)]
    lines = ["  ".join(cell[:40].ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    out = [c.conclusion, "", *lines]
    if c.experiments:
        out += ["", "Single-variable measurements that would attribute the gap:"]
        out += [f"  - {e}" for e in c.experiments]
    return "\n".join(out) + "\n"
