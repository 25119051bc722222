"""A sweep's ranked summary: the most severe verdicts first, then the largest roofline ratio."""

from __future__ import annotations

from bot.pipeline import SweepResult

__all__ = ["render_sweep"]


def render_sweep(result: SweepResult, top: int = 20) -> str:
    counts = ", ".join(f"{n} {v}" for v, n in result.by_verdict.items() if n)
    out = [f"{result.records} records from {result.source}: {counts}", ""]
    for row in result.ranked[:top]:
        who = " · ".join(x for x in (row.record_id, row.submitter, row.hardware, row.model) if x)
        out.append(f"{row.verdict:<12} {who}")
        out.append(f"             {row.headline}")
    if len(result.ranked) > top:
        out.append(f"… and {len(result.ranked) - top} more (use --top N or --json)")
    return "\n".join(out) + "\n"
