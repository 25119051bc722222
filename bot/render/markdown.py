"""A report as Markdown (for issues, forums and the digest).

Every piece of text goes through `bot.render.escape` (the escaper the Discord renderer shares):
cells and list items are folded onto one line, Markdown and HTML are escaped, `@everyone` and
`@here` are defused, and URLs are shown as code spans, so nothing a record or a page says can add
markup, close the `<details>` block or ping a channel.
"""

from __future__ import annotations

from bot.render.escape import code_span, escape_untrusted
from bot.render.labels import (
    FINDING_TITLES,
    QUESTION_TITLES,
    claim_line,
    figure_with_unit,
    source_format,
)
from checks.models import Report
from checks.render import answer_lines

__all__ = ["render_markdown"]

_CELL_LIMIT = 2000


def _cell(text: object) -> str:
    return escape_untrusted(str(text), limit=_CELL_LIMIT, single_line=True)


def render_markdown(report: Report) -> str:
    out = [f"**{_cell(report.headline)}**", "", f"_{_cell(claim_line(report.claim, report))}_", "",
           "| # | Question | Status | Answer |", "|---|---|---|---|"]
    for q in report.questions:
        title = QUESTION_TITLES.get(q.key, q.key)
        out.append(f"| {q.n} | {_cell(title)} | `{q.status}` | {_cell(q.summary)} |")
    if report.findings:
        out += ["", "| Finding | Status | Answer |", "|---|---|---|"]
        for f in report.findings:
            out.append(f"| {_cell(FINDING_TITLES.get(f.key, f.key))} | `{f.status}` | {_cell(f.summary)} |")
    out += ["", "<details><summary>Figures and where they come from</summary>", ""]
    refs = report.cited()
    for a in [*report.questions, *report.findings]:
        if not (a.figures or a.basis or a.missing):
            continue
        out.append(f"- **{_cell(a.key)}**")
        for k, v in a.figures.items():
            out.append(f"  - {_cell(k)} = {figure_with_unit(k, v)}")
        for line in answer_lines(a, refs):
            out.append(f"  - basis: {_cell(line)}")
        if a.missing:
            out.append(f"  - missing: {_cell(', '.join(a.missing))}")
    if report.assumptions:
        out += ["", "Constants:"]
        for c in report.assumptions:
            out.append(f"- {_cell(c.name)} = {_cell(c.value)} {_cell(c.unit or '')} ({_cell(c.source)})")
    if report.sources:
        out += ["", "Sources:"]
        for s in report.sources:
            fmt = source_format(s)
            extra = (f" ({_cell(fmt)})" if fmt else "") + (f" sha256 `{s.sha256}`" if s.sha256 else "")
            out.append(f"- {code_span(s.url)}{extra}")
    if report.not_found:
        out += ["", "Searched for and not found:"]
        out += [f"- {_cell(line)}" for line in report.not_found]
    out += ["", "</details>", "", f"_{_cell(report.caveat)}_"]
    return "\n".join(out) + "\n"
