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
from checks.models import Evidence, Report, Verdict
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.errors import UsageError
from extractors.evidence import Reading, build_evidence, evidence_per_record, read_document
from extractors.fetch import SafeFetcher
from extractors.inputs import classify_input, read_local

__all__ = [
    "SweepResult",
    "SweepRow",
    "audit_async",
    "audit_inputs",
    "compare_async",
    "compare_inputs",
    "evidence_async",
    "evidence_for_inputs",
    "sweep_source",
]

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


def _read_all(docs: Sequence[RawDocument], ref: Reference, opts: PipelineOptions) -> list[Reading]:
    return [read_document(doc, ref, boards=list(opts.boards)) for doc in docs]


async def audit_async(
    docs: Sequence[RawDocument],
    urls: Sequence[str],
    ref: Reference,
    opts: PipelineOptions,
    *,
    fetcher: SafeFetcher | None = None,
) -> Report:
    """`evidence_async` audited."""
    return audit(await evidence_async(docs, urls, ref, opts, fetcher=fetcher), ref)


async def evidence_async(
    docs: Sequence[RawDocument],
    urls: Sequence[str],
    ref: Reference,
    opts: PipelineOptions,
    *,
    fetcher: SafeFetcher | None = None,
) -> Evidence:
    """The async core every front door shares: documents already in hand (pasted text, an
    attachment) plus URLs to fetch and follow, read as one claim. The bot passes its own
    long-lived `fetcher`; without one a fetcher is opened for this call. Local documents are
    parsed in a worker thread so a large attachment never stalls the event loop."""
    readings = await asyncio.to_thread(_read_all, docs, ref, opts) if docs else []
    not_found: list[str] = []
    if urls:
        from bot.fetching import follow_urls

        fetched, not_found = await follow_urls(urls, ref, opts, fetcher=fetcher)
        readings = fetched + readings
    ev = build_evidence(readings, ref)
    if not_found:
        ev = ev.model_copy(update={"not_found": [*ev.not_found, *not_found]})
    return ev


def audit_inputs(inputs: Sequence[str], ref: Reference, opts: PipelineOptions | None = None) -> Report:
    """The CLI's door: each input a URL, a file, stdin or literal text."""
    return audit(evidence_for_inputs(inputs, ref, opts), ref)


def evidence_for_inputs(inputs: Sequence[str], ref: Reference,
                        opts: PipelineOptions | None = None) -> Evidence:
    """The Evidence behind `audit_inputs` (the chart needs its sibling runs)."""
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
    return ev


def compare_inputs(a: str, b: str, ref: Reference, opts: PipelineOptions | None = None) -> Comparison:
    left = audit_inputs([a], ref, opts).claim
    right = audit_inputs([b], ref, opts).claim
    return compare(left, right, ref)


async def compare_async(
    a: tuple[Sequence[RawDocument], Sequence[str]],
    b: tuple[Sequence[RawDocument], Sequence[str]],
    ref: Reference,
    opts: PipelineOptions,
    *,
    fetcher: SafeFetcher | None = None,
) -> Comparison:
    """Two claims (each documents + URLs) compared: the difference table."""
    left = (await audit_async(*a, ref, opts, fetcher=fetcher)).claim
    right = (await audit_async(*b, ref, opts, fetcher=fetcher)).claim
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
