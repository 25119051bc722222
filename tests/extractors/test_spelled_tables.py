"""A table whose header carries a unit is read at every door, not only in chat.

Members type Markdown tables their own way (`| Model | Quant | avg tok/s |`, llmfit PRs #774-#1030,
lmdeploy's docs/en/benchmark/a100_fp16.md); no row reader knows their shape, and outside chat they
had been refused ("no speed claim found"). A text that gives no figure is read again with each
such table spelled out a sentence a row (`extractors.pasted.spell_tables`, what a chat paste and
an OCR'd screenshot get); a text that gives one is read as it is.
"""

from __future__ import annotations

import pytest

from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document
from extractors.pasted import pasted_documents
from extractors.web.post import table_sentences

TABLE = ("Tested on my RTX 4090 with llama.cpp:\n\n| Model | Quant | avg tok/s |\n|---|---|---|\n"
         "| Llama 3.1 8B | Q4_K_M | 128.5 |\n| Qwen2.5 14B | Q4_K_M | 72.1 |\n")
# lmdeploy's TurboMind table (InternLM/lmdeploy@1263d5cd docs/en/benchmark/a100_fp16.md), one row
LMDEPLOY = ("# TurboMind Benchmark on A100\n\nAll the following results are tested on A100-80G(x8) CUDA 11.8.\n\n"
            "### FP16 llama2-7b static inference benchmark (throughput: the number of generated tokens per second)\n\n"
            "| batch | tp  | prompt_tokens | output_tokens | throughput(out tok/s) | mem(GB) | FTL(ave)(s) |\n"
            "| --- | --- | --- | --- | --- | --- | --- |\n| 1 | 1 | 128 | 128 | 102.21 | 76.59 | 0.022 |\n")


@pytest.mark.parametrize("door", [
    RawDocument.from_text(TABLE),  # the CLI's text argument, `/audit`
    RawDocument(TABLE.encode(), source="table.md"),  # a file, an attachment
    RawDocument(f"```\n{TABLE}```\n".encode(), source="stdin"),  # piped, in a code fence
    *pasted_documents(TABLE),  # chat
], ids=["text", "file", "fenced stdin", "chat"])
def test_every_door_reads_a_unit_headed_table(ref: Reference, door: RawDocument) -> None:
    reading = read_document(door, ref)
    assert reading.text is not None
    c = reading.text.claim
    assert (c.tok_s, c.hardware, c.weight_format) == (128.5, "RTX 4090", "Q4_K_M")


def test_a_row_named_by_a_number_is_named_with_its_column(ref: Reference) -> None:
    # the batch column had been the row's name ("1: tp 1, …"), so the batch was lost and the
    # figure judged as an aggregate at any batch; 102.21 tok/s at batch 1 is 0.68 of one A100's
    # 151.1 (2039 GB/s ÷ 13.5 GB of FP16 weights)
    assert table_sentences([["batch", "tok/s"], ["1", "102.21"]]) == ["batch 1: tok/s 102.21 tok/s."]
    report = audit(build_evidence([read_document(RawDocument.from_text(LMDEPLOY), ref)], ref), ref)
    roof = report.question("roofline")
    assert (report.claim.batch, report.claim.tok_s) == (1, 102.21)
    assert roof.figures["ceiling_batch"] == 1 and roof.figures["ratio"] == pytest.approx(0.68, abs=0.01)


def test_a_text_that_gives_a_figure_is_read_as_it_is(ref: Reference) -> None:
    text = "RTX 4090, Llama 3.1 8B Q4_K_M: 130 tok/s\n\n| Model | avg tok/s |\n|---|---|\n| Qwen2.5 14B | 72.1 |\n"
    reading = read_document(RawDocument.from_text(text), ref)
    assert reading.text is not None and reading.text.claim.tok_s == 130.0
