"""The audit pipeline behind every front door: inputs -> Evidence -> Report.

Local inputs (files, stdin, text) are read directly; URLs go through the safe fetcher, which
archives the raw bytes before anything parses them, and from a post the links are followed to
the record behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from bot.options import PipelineOptions
from checks.compare import Comparison, compare
from checks.models import Report, Verdict
from checks.reference import Reference
from checks.runner import audit
from extractors.errors import UsageError
from extractors.evidence import Reading, build_evidence, evidence_per_record, read_document
from extractors.inputs import classify_input, read_local

__all__ = ["SweepResult", "SweepRow", "audit_inputs", "compare_inputs", "sweep_source"]

_SEVERITY: dict[str, int] = {"implausible": 0, "suspicious": 1, "insufficient": 2, "consistent": 3}


def _local_readings(inputs: Sequence[str], ref: Reference,
                    opts: PipelineOptions) -> tuple[list[Reading], list[str]]:
    readings, urls = [], []
    for raw in inputs:
        spec = classify_input(raw)
        if spec.kind == "url":
            urls.append(spec.value)
        else:
            readings.append(read_document(read_local(spec), ref, boards=list(opts.boards)))
    return readings, urls


def audit_inputs(inputs: Sequence[str], ref: Reference, opts: PipelineOptions | None = None) -> Report:
    opts = opts or PipelineOptions()
    readings, urls = _local_readings(inputs, ref, opts)
    not_found: list[str] = []
    if urls:
        from bot.fetching import follow_urls

        fetched, not_found = asyncio.run(follow_urls(urls, ref, opts))
        readings = fetched + readings
    ev = build_evidence(readings, ref)
    if not_found:
        ev = ev.model_copy(update={"not_found": [*ev.not_found, *not_found]})
    return audit(ev, ref)


def compare_inputs(a: str, b: str, ref: Reference, opts: PipelineOptions | None = None) -> Comparison:
    left = audit_inputs([a], ref, opts).claim
    right = audit_inputs([b], ref, opts).claim
    return compare(left, right, ref)


class SweepRow(BaseModel):
    record_id: str | None
    submitter: str | None
    hardware: str | None
    model: str | None
    tok_s: float | None
    verdict: Verdict
    headline: str
    roofline_ratio: float | None = None


class SweepResult(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    source: str
    records: int
    by_verdict: dict[str, int]
    ranked: list[SweepRow]
    reports: list[Report] = Field(default_factory=list)


def _row(report: Report) -> SweepRow:
    roof = report.question("roofline").figures.get("ratio")
    c = report.claim
    return SweepRow(record_id=c.record_id, submitter=c.submitter, hardware=c.hardware, model=c.model,
                    tok_s=c.tok_s, verdict=report.verdict, headline=report.headline, roofline_ratio=roof)


def sweep_source(source: str, ref: Reference, opts: PipelineOptions | None = None) -> SweepResult:
    opts = opts or PipelineOptions()
    spec = classify_input(source)
    if spec.kind == "url":
        from bot.fetching import fetch_board

        reading = asyncio.run(fetch_board(spec.value, ref, opts))
    elif spec.kind == "text":
        raise UsageError(f"sweep needs a file or a URL of records, not text: {source[:80]!r}")
    else:
        reading = read_document(read_local(spec), ref, boards=list(opts.boards))
    reports = [audit(ev, ref) for ev in evidence_per_record(reading, ref)]
    rows = sorted(
        (_row(r) for r in reports),
        key=lambda r: (_SEVERITY[r.verdict], -(r.roofline_ratio or 0.0)),
    )
    by_verdict = {v: sum(1 for r in reports if r.verdict == v) for v in _SEVERITY}
    return SweepResult(source=source, records=len(reports), by_verdict=by_verdict, ranked=rows, reports=reports)
