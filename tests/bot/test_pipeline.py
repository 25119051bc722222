"""The async core every front door shares: documents in hand are read off the loop, under the
fetch deadline, and read exactly as the CLI reads them."""

from __future__ import annotations

import pytest

from bot.options import PipelineOptions
from bot.pipeline import audit_async, audit_inputs
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.errors import UnusableInput

CLAIM = ("Qwen3.6-27B NVFP4 on one RTX 5090, batch 1, plain decode: 2048 tokens in 0.969 s "
         "— 2103.6 tok/s")


async def test_an_attachment_gives_the_report_the_cli_gives_for_the_same_text(ref: Reference) -> None:
    report = await audit_async([RawDocument.from_text(CLAIM, source="text")], [], ref,
                               PipelineOptions())
    cli = audit_inputs([CLAIM], ref)
    assert (report.verdict, report.headline) == (cli.verdict, cli.headline) == (
        "implausible", cli.headline)
    assert report.question("roofline").figures["ratio"] == pytest.approx(16.32, abs=0.01)


async def test_a_binary_attachment_is_refused_before_it_is_parsed(ref: Reference) -> None:
    with pytest.raises(UnusableInput, match="binary"):
        await audit_async([RawDocument(b"\x00" * 65536, source="upload.bin")], [], ref,
                          PipelineOptions())
