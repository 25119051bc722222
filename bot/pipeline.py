"""The audit pipeline behind every front door: inputs -> Evidence -> Report.

Local inputs (files, stdin, text) are read directly; URLs go through the safe fetcher, which
archives the raw bytes before anything parses them, and from a post the links are followed to
the record behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.options import PipelineOptions
from checks.compare import Comparison, compare
from checks.models import Evidence, Report
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import Reading, build_evidence, read_document
from extractors.inputs import classify_input, read_local

if TYPE_CHECKING:  # aiohttp stays off the CLI's start-up path
    from extractors.fetch import SafeFetcher

__all__ = [
    "audit_async",
    "audit_inputs",
    "compare_async",
    "compare_inputs",
    "evidence_async",
    "evidence_for_inputs",
]


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


def _evidence(readings: list[Reading], fetched: list[Reading], not_found: list[str],
              ref: Reference) -> Evidence:
    """One claim from what was read: fetched pages first, then the documents in hand."""
    ev = build_evidence(fetched + readings, ref)
    if not_found:
        ev = ev.model_copy(update={"not_found": [*ev.not_found, *not_found]})
    return ev


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
    parsed in a worker process under the fetch deadline, so a hostile attachment costs at most
    that deadline and never stalls the event loop."""
    from extractors.offloop import read_document_async

    readings = [await read_document_async(doc, ref, boards=list(opts.boards),
                                          deadline_s=opts.fetch_deadline_s) for doc in docs]
    fetched: list[Reading] = []
    not_found: list[str] = []
    if urls:
        from bot.fetching import follow_urls

        fetched, not_found = await follow_urls(urls, ref, opts, fetcher=fetcher)
    return _evidence(readings, fetched, not_found, ref)


def audit_inputs(inputs: Sequence[str], ref: Reference, opts: PipelineOptions | None = None) -> Report:
    """The CLI's door: each input a URL, a file, stdin or literal text."""
    return audit(evidence_for_inputs(inputs, ref, opts), ref)


def evidence_for_inputs(inputs: Sequence[str], ref: Reference,
                        opts: PipelineOptions | None = None) -> Evidence:
    """The Evidence behind `audit_inputs` (the chart needs its sibling runs)."""
    opts = opts or PipelineOptions()
    readings, urls = _local_readings(inputs, ref, opts)
    fetched: list[Reading] = []
    not_found: list[str] = []
    if urls:
        from bot.fetching import follow_urls

        fetched, not_found = asyncio.run(follow_urls(urls, ref, opts))
    return _evidence(readings, fetched, not_found, ref)


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

