"""A report as terminal text: coloured when writing to a terminal, plain with NO_COLOR or a pipe.

Every piece of text is folded onto one line by `checks.text.one_line` before it is painted:
control characters (an escape sequence that retitles the terminal or moves the cursor), bidi
overrides and line breaks from a record, a page or a server never reach the terminal; the only
escape sequences written are this module's own colours.
"""

from __future__ import annotations

from bot.render.labels import (
    FINDING_TITLES,
    QUESTION_TITLES,
    claim_line,
    figure_with_unit,
    format_figure,
    source_format,
)
from checks.models import Answer, Cited, Report
from checks.render import answer_lines
from checks.text import one_line

__all__ = ["render_terminal"]

_STATUS_COLOUR = {"ok": "32", "flag": "33", "stop": "31;1", "unanswerable": "2", "n/a": "2",
                  "plan": "36", "error": "35"}
_VERDICT_COLOUR = {"implausible": "31;1", "suspicious": "33;1", "insufficient": "2", "consistent": "32;1"}


def _t(text: object) -> str:
    return one_line(text, 2000)


def _paint(text: str, code: str, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour else text


def _details(a: Answer, colour: bool, indent: str, refs: dict[str, Cited]) -> list[str]:
    lines = []
    if a.figures:
        figs = ", ".join(f"{_t(k)} = {figure_with_unit(k, v)}" for k, v in a.figures.items())
        lines.append(_paint(f"{indent}figures: {figs}", "2", colour))
    for line in answer_lines(a, refs):
        lines.append(_paint(f"{indent}basis: {_t(line)}", "2", colour))
    if a.missing:
        lines.append(_paint(f"{indent}missing: {_t(', '.join(a.missing))}", "2", colour))
    return lines


def render_terminal(report: Report, *, colour: bool = False, details: bool = True) -> str:
    out = [_paint(_t(report.headline), _VERDICT_COLOUR[report.verdict], colour),
           _t(claim_line(report.claim, report)), ""]
    refs = report.cited()
    for q in report.questions:
        status = _paint(f"{q.status:<12}", _STATUS_COLOUR[q.status], colour)
        out.append(f"{q.n} {_t(QUESTION_TITLES.get(q.key, q.key)):<22} {status} {_t(q.summary)}")
        if details:
            out.extend(_details(q, colour, "    ", refs))
    notable = [f for f in report.findings if f.status in ("stop", "flag", "error")]
    quiet = [f for f in report.findings if f not in notable]
    shown = notable + (quiet if details else [])
    if shown:
        out.append("")
        out.append("Also:")
        for f in shown:
            status = _paint(f"{f.status:<12}", _STATUS_COLOUR[f.status], colour)
            out.append(f"  {_t(FINDING_TITLES.get(f.key, f.key)):<22} {status} {_t(f.summary)}")
            if details and f in notable:
                out.extend(_details(f, colour, "      ", refs))
    if report.assumptions:
        out += ["", "Constants used:"]
        for a in report.assumptions:
            unit = f" {a.unit}" if a.unit else ""
            value = format_figure(a.value) if isinstance(a.value, float) else a.value
            out.append("  " + _t(f"{a.name} = {value}{unit}  ({a.source})"))
    if report.sources:
        out += ["", "Sources:"]
        for s in report.sources:
            extra = ", ".join(x for x in (source_format(s), f"sha256 {s.sha256[:12]}" if s.sha256 else None, s.note) if x)
            out.append(f"  {_t(s.url)}" + (f"  [{_t(extra)}]" if extra else ""))
    if report.not_found:
        out.append("Searched for and not found: " + "; ".join(_t(x) for x in report.not_found))
    if report.siblings:
        out.append(f"Sibling runs by the same submitter considered: {report.siblings}")
    out += ["", _paint(_t(report.caveat), "2", colour)]
    return "\n".join(out) + "\n"
