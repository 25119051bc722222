"""The audit pipeline behind every front door: inputs -> Evidence -> Report.

Local inputs (files, stdin, text) are read directly; URLs go through the safe fetcher, which
archives the raw bytes before anything parses them, and from a post the links are followed to
the record behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.options import PipelineOptions
from checks.compare import Comparison, compare
from checks.models import Report
from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import Reading, build_evidence, read_document
from extractors.inputs import classify_input, read_local

__all__ = ["audit_inputs", "compare_inputs"]


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
