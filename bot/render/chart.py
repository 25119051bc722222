"""The report's chart as a PNG: the claim against the ceilings, and tok/s against window width.

Left panel: the claimed tok/s as a bar beside the generous and the realistic batch-1 ceilings
(weights ÷ bandwidth, the roofline question's figures) and the honest range of what speculative
decoding could plausibly give on top (a shaded band). Right panel, only when sibling runs with a
window exist: tok/s against the speculative window, one point per run. Every bar is labelled
with its figure; the axis titles say which question the figure comes from.

matplotlib is imported inside `render_chart` with the Agg backend, so the CLI and the bot pay
for it only when a chart is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from checks.models import Claim, Report

__all__ = ["chart_points", "render_chart"]

_VERDICT_COLOUR = {"implausible": "#d7263d", "suspicious": "#f29e4c", "insufficient": "#8a8f98",
                   "consistent": "#2ead68"}


def chart_points(claim: Claim, siblings: Sequence[Claim]) -> list[tuple[int, float]]:
    """(window, tok/s) of the claim and its sibling runs, by window; empty with fewer than two."""
    points = {c.spec_window: c.tok_s for c in (claim, *siblings)
              if c.spec_window is not None and c.tok_s is not None}
    return sorted(points.items()) if len(points) >= 2 else []


def _ceiling_figures(report: Report) -> dict[str, float] | None:
    figures = report.question("roofline").figures
    if "claimed_tok_s" not in figures or "ceiling_tok_s" not in figures:
        return None
    return figures


def render_chart(report: Report, points: Sequence[tuple[int, float]] = ()) -> bytes | None:
    """The PNG, or None when the report has no ceiling to draw against (nothing to show)."""
    figures = _ceiling_figures(report)
    if figures is None:
        return None
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    wide = len(points) >= 2
    fig = Figure(figsize=(10 if wide else 6, 4), dpi=100)
    ax = fig.add_subplot(1, 2 if wide else 1, 1)
    # A prompt-processing figure is judged against the compute roof, which has no realistic twin.
    roof = "compute\nroof" if figures.get("compute_roof") else "generous\nceiling"
    labels = ["claim", roof, "realistic\nceiling"]
    values = [figures["claimed_tok_s"], figures["ceiling_tok_s"],
              figures.get("realistic_ceiling_tok_s", figures["ceiling_tok_s"])]
    colours = [_VERDICT_COLOUR.get(report.verdict, "#555555"), "#4a6fa5", "#7d9cc9"]
    if figures.get("compute_roof"):
        labels, values, colours = labels[:2], values[:2], colours[:2]
    bars = ax.bar(labels, values, color=colours)
    for bar, value in zip(bars, values, strict=True):
        ax.annotate(f"{value:,.1f}", (bar.get_x() + bar.get_width() / 2, value),
                    ha="center", va="bottom", fontsize=9)
    low, high = figures.get("honest_low_tok_s"), figures.get("honest_high_tok_s")
    if low is not None and high is not None:
        ax.axhspan(low, high, color="#2ead68", alpha=0.15,
                   label=f"honest range {low:,.0f}–{high:,.0f} tok/s")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_ylabel("tok/s")
    which = "compute roof" if figures.get("compute_roof") else "generous ceiling"
    ax.set_title(f"Q7 roofline: claim {figures.get('ratio', 0):.1f}× the {which}",
                 fontsize=10)
    if wide:
        ax2 = fig.add_subplot(1, 2, 2)
        xs = [w for w, _ in points]
        ys = [t for _, t in points]
        ax2.plot(xs, ys, marker="o", color="#4a6fa5")
        for x, y in points:
            ax2.annotate(f"{y:,.0f}", (x, y), textcoords="offset points", xytext=(0, 6),
                         ha="center", fontsize=8)
        ax2.axhline(figures["ceiling_tok_s"], color="#d7263d", linestyle="--", linewidth=1,
                    label="generous ceiling")
        ax2.set_xscale("log", base=2)
        ax2.set_xticks(xs, [str(x) for x in xs])
        ax2.minorticks_off()
        ax2.set_xlabel("speculative window (tokens per verify pass)")
        ax2.set_ylabel("tok/s")
        ax2.set_title("sibling runs: tok/s against window", fontsize=10)
        ax2.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
