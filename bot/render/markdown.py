"""A report as Markdown (for issues, forums and the digest)."""

from __future__ import annotations

from bot.render.labels import FINDING_TITLES, QUESTION_TITLES, claim_line, format_figure
from checks.models import Report

__all__ = ["render_markdown"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    out = [f"**{_cell(report.headline)}**", "", f"_{_cell(claim_line(report.claim, report))}_", "",
           "| # | Question | Status | Answer |", "|---|---|---|---|"]
    for q in report.questions:
        out.append(f"| {q.n} | {QUESTION_TITLES.get(q.key, q.key)} | `{q.status}` | {_cell(q.summary)} |")
    if report.findings:
        out += ["", "| Finding | Status | Answer |", "|---|---|---|"]
        for f in report.findings:
            out.append(f"| {FINDING_TITLES.get(f.key, f.key)} | `{f.status}` | {_cell(f.summary)} |")
    out += ["", "<details><summary>Figures and where they come from</summary>", ""]
    for a in [*report.questions, *report.findings]:
        if not (a.figures or a.basis or a.missing):
            continue
        out.append(f"- **{a.key}**")
        for k, v in a.figures.items():
            out.append(f"  - `{k}` = {format_figure(v)}")
        for b in a.basis:
            out.append(f"  - basis: {_cell(b)}")
        if a.missing:
            out.append(f"  - missing: {_cell(', '.join(a.missing))}")
    if report.assumptions:
        out += ["", "Constants:"]
        for c in report.assumptions:
            out.append(f"- {c.name} = {c.value} {c.unit} ({_cell(c.source)})")
    if report.sources:
        out += ["", "Sources:"]
        for s in report.sources:
            out.append(f"- <{s.url}>" + (f" ({s.format})" if s.format else "") + (f" sha256 `{s.sha256}`" if s.sha256 else ""))
    out += ["", "</details>", "", f"_{report.caveat}_"]
    return "\n".join(out) + "\n"
