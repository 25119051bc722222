"""The corpus converter carries each discussion table's own post's rig (and model, where the
table has no model column) into every row's line: benchmarks/corpus/build.py `rig_from_post`."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.corpus.build import Source, _markdown_tables
from checks.reference import load_reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local
from tests.corpus_repo import MemoryRepo
from tests.extractors.test_post_rig import DISCUSSION

REF = load_reference()

_SWEEP = """#### Description

I experimented with Qwen3-30B-A3B, the 30B total, 3B active parameter MoE model.
Benchmarks are run on a Ryzen-7950X system with an RTX-4080 GPU.

## CPU+GPU

Here is what sweep-bench gives.

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    1.010 |   506.93 |    1.527 |    83.82 |
"""


def _lines(files: dict[str, str]) -> list[str]:
    src = Source(name="ik", repo="o/r", commit="0" * 40, converter="markdown_tables", paths=list(files),
                 licence="MIT", redistribute=True, options={"context": {"*": "ik_llama.cpp"}, "rig_from_post": True})
    repo: Any = MemoryRepo(files)
    return [r.text or "" for r in _markdown_tables(repo, src)]


def test_each_row_carries_its_own_posts_rig_and_no_one_elses() -> None:
    rows = _lines({"d.md": DISCUSSION})
    assert len(rows) == 3  # bob's quoted table ("> |") is not one the converter reads
    # The description's sentence is already the table's caption: said once.
    assert "(Benchmarks are run on a Ryzen-7950X system.  Compared are" in rows[0]
    assert "rig named in the post" not in rows[0]
    assert ("(Results, same command:) (rig named in the post: My rig: EPYC 9355, 12x DDR5-6400, "
            "RTX 5090.)") in rows[1]
    assert "rig named in the post" not in rows[2]  # no hardware in carol's post
    # A llama-bench table has its own model column: no model is carried.
    assert all("model named in the post" not in r for r in rows)


def test_a_sweep_bench_table_inherits_the_posts_rig_and_its_one_model() -> None:
    (row,) = _lines({"d.md": _SWEEP})
    assert row == ("ik_llama.cpp, CPU+GPU (Here is what sweep-bench gives.) (rig named in the post: Benchmarks are run on a Ryzen-7950X system with an "
                   "RTX-4080 GPU.) (model named in the post: I experimented with Qwen3-30B-A3B, the 30B total, "
                   "3B active parameter MoE model.): PP: 512; TG: 128; N_KV: 0; T_PP s: 1.010; S_PP t/s: 506.93; "
                   "T_TG s: 1.527; S_TG t/s: 83.82")


# XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0e README.md, Overview: the table copies llama-bench's
# tg 1024 / pp 1024 columns, and only the caption says which.
_OVERVIEW = """## Overview

Average speed (tokens/s) of generating 1024 tokens by GPUs on LLaMA 3. Higher speed is better.

| GPU                        | 8B Q4_K_M | 8B F16 | 70B Q4_K_M | 70B F16 |
|----------------------------|-----------|--------|------------|---------|
| 3080 10GB                  | 106.40    | OOM    | OOM        | OOM     |

Average 1024 tokens prompt eval speed (tokens/s) by GPUs on LLaMA 3.

| GPU                        | 8B Q4_K_M | 8B F16  | 70B Q4_K_M | 70B F16 |
|----------------------------|-----------|---------|------------|---------|
| 3080 10GB                  | 3557.02   | OOM     | OOM        | OOM     |
"""
_CAPTIONS = {"Average speed (tokens/s) of generating 1024 tokens*": "llama-bench test tg 1024",
             "Average 1024 tokens prompt eval speed*": "llama-bench test pp 1024"}


def _overview_lines() -> list[str]:
    src = Source(name="gpu", repo="o/r", commit="0" * 40, converter="markdown_tables", paths=["README.md"],
                 licence="none", redistribute=False,
                 options={"split": "cells", "all_tables": True, "unit": "tokens/s",
                          "context": {"*": "llama.cpp's llama-bench on LLaMA 3"}, "caption_context": _CAPTIONS})
    repo: Any = MemoryRepo({"README.md": _OVERVIEW})
    return [r.text or "" for r in _markdown_tables(repo, src)]


def test_a_caption_names_the_tool_and_test_its_rows_dropped() -> None:
    tg, pp = _overview_lines()
    assert tg == ("llama.cpp's llama-bench on LLaMA 3, Overview (Average speed (tokens/s) of generating 1024 tokens "
                  "by GPUs on LLaMA 3. Higher speed is better.) (llama-bench test tg 1024), 8B Q4_K_M, 3080 10GB: "
                  "106.40 tokens/s")
    assert pp.endswith("(llama-bench test pp 1024), 8B Q4_K_M, 3080 10GB: 3557.02 tokens/s")


@pytest.mark.parametrize(("factor", "verdict", "kind"), [
    (1, "consistent", "decode"),
    (10, "implausible", "decode"),  # llama-bench cannot speculate: above the ceiling is a stop
])
def test_the_overview_row_is_judged_as_llama_bench_plain_decode(factor: int, verdict: str, kind: str) -> None:
    tg = _overview_lines()[0].replace("106.40", f"{106.40 * factor:.2f}")
    reading = read_document(read_local(InputSpec("text", tg)), REF)
    r = audit(build_evidence([reading], REF), REF)
    assert (r.verdict, r.claim.tok_s_kind, r.claim.hardware) == (verdict, kind, "RTX 3080")
    assert r.question("roofline").figures["ratio"] == pytest.approx(106.40 * factor / 189.4, abs=0.01)


# ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/354: the post names its one model by the
# shorthand its author uses ("DeepSeek-Lite"); the sweep-bench tables under it have no model column.
_LITE = """#### Description

Fortunately for me, on my hardware I can only run DeepSeek-Lite, i.e., a 32 GB download, so not too bad.
I'll be using a `Q4_0` quantized DeepSeek-Lite model for all comparison. GPU performance measurements are done on an RTX-4080 GPU.

## CUDA performance

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|  1024 |    256 |      0 |    0.316 |  3243.40 |    1.216 |   210.47 |
"""


def test_a_sweep_bench_row_inherits_deepseek_lite_and_is_answered() -> None:
    (row,) = _lines({"d.md": _LITE})
    assert ("(model named in the post: Fortunately for me, on my hardware I can only run DeepSeek-Lite, i.e., a 32 GB "
            "download, so not too bad. I'll be using a Q4_0 quantized DeepSeek-Lite model") in row
    reading = read_document(read_local(InputSpec("text", row)), REF)
    r = audit(build_evidence([reading], REF), REF)
    assert (r.claim.model, r.claim.hardware, r.claim.weight_format) == ("DeepSeek V2 Lite", "RTX 4080", "Q4_0")
    # The 32 GB download is the BF16 original, not the Q4_0 that ran: the ceiling reads the Q4_0
    # bytes of the 2.4B active params (an honest 210 tok/s once read as 1.2x a 32 GB offload).
    assert r.claim.model_size_bytes is None
    assert r.question("roofline").status == "ok" and r.verdict == "consistent"
    assert r.question("roofline").figures["ratio"] == pytest.approx(210.47 / 597.3, abs=0.01)


# A reply whose prose names no model, the table printed by the pasted command that loads one file
# (ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/357, the sweep-bench logs).
_LOGGED = """#### Description

Some more data, this time on an RTX 4090.

```
model=/mnt/raid/models/ubergarm/Qwen3-30B-A3B-GGUF/{first}
./build/bin/llama-sweep-bench --model "$model" -fa -c 32768
|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    0.310 |  1651.61 |    0.842 |   152.02 |
./build/bin/llama-sweep-bench -m /mnt/raid/models/{second} -fa -c 32768
```
"""


@pytest.mark.parametrize(("first", "second", "model"), [
    ("Qwen3-30B-A3B-Q4_K_M.gguf", "Qwen3-30B-A3B-Q4_K_M.gguf",
     "(model named in the post: model file loaded by the post's command: Qwen3-30B-A3B-Q4_K_M.gguf.)"),
    # two files (two quants, or two models): which one printed the table is not said
    ("Qwen3-30B-A3B-Q4_K_M.gguf", "Qwen3-30B-A3B-Q8_0.gguf", None),
])
def test_a_logged_table_inherits_the_one_model_file_its_post_loads(first: str, second: str, model: str | None) -> None:
    (row,) = _lines({"d.md": _LOGGED.format(first=first, second=second)})
    if model is None:
        assert "model named in the post" not in row
        return
    assert model in row
    reading = read_document(read_local(InputSpec("text", row)), REF)
    r = audit(build_evidence([reading], REF), REF)
    assert (r.claim.model, r.claim.weight_format, r.claim.hardware) == ("Qwen3 30B-A3B", "Q4_K_M", "RTX 4090")
    assert r.question("roofline").status == "ok" and r.verdict == "consistent"


# ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/357: a "# Offload 48GB onto single RTX A6000"
# shell comment inside one comment's command block, and another person's reply below with its own
# table: neither the comment nor the first post's headings are the reply's.
_LEAK = """### 🗣️ #357 - Qwen3 - early performance comparisons

#### Description

## Hybrid inference

```
# Offload 48GB onto single RTX A6000 VRAM
./build/bin/llama-sweep-bench --model "$model" -ngl 99
```

| model | test | t/s |
|---|---|---|
| qwen3moe 235B.A22B Q8_0 | tg128 | 5.10 |

👤 **AesSedai** replied the **2025-05-03** at **06:18:41**:<br>

| model | test | t/s |
|---|---|---|
| qwen3moe 235B.A22B Q8_0 | tg128 | 4.02 |
"""


def test_a_shell_comment_is_no_heading_and_a_reply_keeps_only_the_title() -> None:
    first, reply = _lines({"d.md": _LEAK})
    # In its own post the command above the table is its caption, comment and all.
    assert first.startswith("ik_llama.cpp, Hybrid inference (# Offload 48GB onto single RTX A6000 VRAM ")
    assert reply == ("ik_llama.cpp, 🗣️ #357 - Qwen3 - early performance comparisons: model: qwen3moe 235B.A22B Q8_0; "
                     "test: tg128; t/s: 4.02")


# XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0e README.md: a perplexity table (file sizes and
# perplexities) under the same context as the speed tables.
_README = """## Overview

Average speed (tokens/s) of generating 1024 tokens by GPUs on LLaMA 3. Higher speed is better.

| GPU | 8B Q4_K_M |
|---|---|
| 3070 8GB | 70.94 |

## Perplexity table on LLaMA 3 70B

Less perplexity is better.

| Quantization | Size (GiB) | Perplexity |
|---|---|---|
| IQ1_S | 14.29 | 9.8655 |
"""


def test_a_table_the_manifest_skips_gives_no_rows() -> None:
    src = Source(name="gpu", repo="o/r", commit="0" * 40, converter="markdown_tables", paths=["README.md"],
                 licence="none", redistribute=False,
                 options={"split": "cells", "all_tables": True, "unit": "tokens/s",
                          "skip_tables": ["*Perplexity table*"], "context": {"*": "llama-bench"}})
    repo: Any = MemoryRepo({"README.md": _README})
    texts = [r.text or "" for r in _markdown_tables(repo, src)]
    assert texts == ["llama-bench, Overview (Average speed (tokens/s) of generating 1024 tokens by GPUs on LLaMA 3. "
                     "Higher speed is better.), 8B Q4_K_M, 3070 8GB: 70.94 tokens/s"]
