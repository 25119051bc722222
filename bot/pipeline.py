"""Synchronous doors over the app, for scripts and tests: `asyncio.run` of one `App` call.

Every front door — the CLI, the cogs, the sweep, the digest — goes through `bot.core.App`; this
module only wraps its calls for code that has no event loop of its own (the chat corpus scorer,
the tests that audit one file).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.core import App, Request
from bot.options import PipelineOptions
from bot.settings import Settings
from checks.compare import Comparison
from checks.models import Evidence, Report
from checks.reference import Reference

__all__ = ["audit_inputs", "compare_inputs", "evidence_for_inputs"]


async def _evidence(inputs: Sequence[str], ref: Reference,
                    opts: PipelineOptions | None) -> Evidence:
    async with App.open(Settings(), ref=ref, options=opts, readers=1) as app:
        return await app.read(Request.from_args(inputs))


def evidence_for_inputs(inputs: Sequence[str], ref: Reference,
                        opts: PipelineOptions | None = None) -> Evidence:
    """The evidence the CLI would read from these INPUTs."""
    return asyncio.run(_evidence(inputs, ref, opts))


def audit_inputs(inputs: Sequence[str], ref: Reference,
                 opts: PipelineOptions | None = None) -> Report:
    """The CLI's audit of these INPUTs (each a URL, a file, stdin or literal text)."""
    from checks.runner import audit

    return audit(evidence_for_inputs(inputs, ref, opts), ref)


def compare_inputs(a: str, b: str, ref: Reference,
                   opts: PipelineOptions | None = None) -> Comparison:
    async def run() -> Comparison:
        async with App.open(Settings(), ref=ref, options=opts, readers=1) as app:
            return await app.compare(Request.from_args([a]), Request.from_args([b]))

    return asyncio.run(run())
