"""A tool's printout inside a text is read as the record the tool saves, at every door.

`vllm bench serve` prints its result block (vllm-project/vllm `vllm/benchmarks/serve.py`,
`"{:<40} {:<10}"` rows); members paste it into chat, pipe it to the CLI, attach it as a .txt or
screenshot it. Each door reads the same record, the lines around the block (its command, the
card) as the record's notes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.reference import Reference
from extractors.document import RawDocument
from extractors.evidence import read_document
from extractors.image.printouts import vllm_serve_record
from extractors.pasted import pasted_documents
from extractors.printed import printout_record

PRINTOUT = (Path(__file__).resolve().parents[1] / "fixtures" / "text" / "vllm_bench_serve_printout.txt").read_text()
CONTEXT = ("$ vllm bench serve --backend vllm --model meta-llama/Llama-3.1-8B-Instruct --dataset-name sharegpt "
           "--dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000 --request-rate inf\n"
           "on 1x H100 80GB SXM, vLLM 0.10.1")


def test_the_lines_around_the_block_are_the_record_notes() -> None:
    record = json.loads(vllm_serve_record(PRINTOUT) or "{}")
    assert record["notes"] == CONTEXT  # no section rule, banner or metric row among them
    assert (record["output_throughput"], record["median_tpot_ms"], record["p99_itl_ms"]) == (2085.19, 98.41, 540.05)


def test_a_block_with_nothing_around_it_has_no_notes() -> None:
    block = PRINTOUT[PRINTOUT.index("=" * 12):]
    record = json.loads(vllm_serve_record(block) or "{}")
    assert (record["output_throughput"], "notes" in record) == (2085.19, False)


@pytest.mark.parametrize("door", [
    RawDocument.from_text(PRINTOUT),  # `/audit` text, a CLI argument
    RawDocument.from_text(PRINTOUT, source="stdin"),  # piped to `claimcheck audit -`
    RawDocument(PRINTOUT.encode(), source="bench.txt"),  # an attached or local .txt file
    *pasted_documents(f"here is my run:\n```\n{PRINTOUT}\n```"),  # pasted in chat, in a code block
])
def test_every_door_reads_the_printout_as_the_vllm_record(ref: Reference, door: RawDocument) -> None:
    reading = read_document(door, ref)
    assert reading.source.format == "vllm_bench"
    (c,) = reading.records
    assert (c.tok_s, c.tok_s_kind, c.hardware, c.hardware_count, c.engine, c.model) == (
        2085.19, "aggregate", "H100 SXM", 1, "vllm", "meta-llama/Llama-3.1-8B-Instruct")
    assert c.provenance["hardware"].field == "notes"


def test_a_text_read_as_its_printout_says_so(ref: Reference) -> None:
    reading = read_document(RawDocument(PRINTOUT.encode(), source="bench.txt"), ref)
    assert reading.warnings == ["bench.txt: read as the vllm bench serve output it holds"]


@pytest.mark.parametrize("text", [
    "RTX 4090, Llama 3 8B Q4_K_M: 140 tok/s",
    "benchmark results: 140 tok/s on a 4090",  # the banner's words without its block
    "avg_ts is llama-bench's column, 140 tok/s on a 4090",  # the CSV's key without its header
])
def test_a_text_without_a_printout_holds_none(text: str) -> None:
    assert printout_record(text) == []
