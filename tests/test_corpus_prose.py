"""The corpus's prose converter (benchmarks/corpus/build.py `markdown_prose`): one record per
paragraph or list item that states a speed, under the document's title and the last two
headings, leaving out code blocks, tables and HTML. The snippet keeps the shape of
kvcache-ai/ktransformers@95009ea6856c doc/en/AMX.md (a prose paragraph with its figure, a fenced
command, a table, an image tag), and the audit of its record is the one that was `implausible`
before end-to-end throughput was read as an aggregate."""

from __future__ import annotations

from typing import Any

from benchmarks.corpus.build import Record, Source, _markdown_prose
from checks.reference import load_reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document
from tests.corpus_repo import MemoryRepo

REF = load_reference()

_DOC = """# Intel AMX Optimization in KTransformers

## Overview

### Key Features

Thanks to these optimizations, our kernel can achieve 21 TFLOPS of BF16 throughput.
For DeepSeek-V3, pairing a Xeon4 CPU with a single RTX 4090 GPU achieves 418 tokens/s
end-to-end throughput, close to the performance of multi-machine, multi-GPU setups.

```bash
# 200 tokens/s is no heading and no claim
python -m ktransformers.local_chat --cpu_infer 65
```

| Model | Prefill (tokens/s) |
|---|---|
| Qwen3-235B-A22 | 347 |

<p align="center"><img src="perf.png"> 99 tokens/s</p>

- Consumer-grade CPU + RTX 4090: up to 347 tokens/s prefill
- no figure in this item
"""


def _records() -> list[Record]:
    src = Source(name="kt", repo="o/r", commit="0" * 40, converter="markdown_prose",
                 paths=["AMX.md"], licence="Apache-2.0", redistribute=True, options={})
    repo: Any = MemoryRepo({"AMX.md": _DOC})
    return list(_markdown_prose(repo, src))


def test_each_speed_paragraph_and_item_is_one_record_under_its_headings() -> None:
    lead = "Intel AMX Optimization in KTransformers / Overview / Key Features: "
    assert [(r.id, r.text) for r in _records()] == [
        ("kt:AMX.md:L7", lead + "Thanks to these optimizations, our kernel can achieve 21 TFLOPS of "
         "BF16 throughput. For DeepSeek-V3, pairing a Xeon4 CPU with a single RTX 4090 GPU achieves "
         "418 tokens/s end-to-end throughput, close to the performance of multi-machine, multi-GPU "
         "setups."),
        ("kt:AMX.md:L22", lead + "Consumer-grade CPU + RTX 4090: up to 347 tokens/s prefill"),
    ]
    assert _records()[0].url == "https://example.com/AMX.md#L7"


def test_the_end_to_end_throughput_record_is_judged_as_an_aggregate() -> None:
    text = (_records()[0].text or "").encode()
    report = audit(build_evidence([read_document(RawDocument(text, source="AMX.md.txt"), REF)], REF), REF)
    q7 = next(q for q in report.questions if q.key == "roofline")
    assert (report.verdict, report.claim.tok_s_kind, report.hardware_name) == (
        "consistent", "aggregate", "RTX 4090")
    assert q7.status == "ok" and q7.figures["serving"] is True
