"""SGLang `python -m sglang.bench_one_batch` results (`--result-filename`, default result.jsonl).

Shape: one JSON object per (batch size, input length, output length) cell, appended as a line
(JSON Lines; one cell is a single object). Documented by the code that writes it,
sgl-project/sglang `python/sglang/bench_one_batch.py` (`latency_test_run_once` builds
`measurement_results`). Keys: `run_name`, `batch_size`,
`input_len`, `output_len`, `prefill_latency` (s), `prefill_throughput` (batch x input_len /
prefill_latency), `median_decode_latency` (s per decode step, over output_len - 1 steps),
`median_decode_throughput` (batch_size / median_decode_latency), `total_latency` (s),
`overall_throughput` ((input_len + output_len) x batch / total_latency). The decode keys are
absent when output_len is 1.

Quirks, each with its reason:
- A static batch driven through ModelRunner directly, no server and no scheduler: each decode
  step emits exactly one token per sequence and the tool counts it so, hence
  `speculative` False (a speculative claim "measured with bench_one_batch" cannot be one).
- `median_decode_throughput` is decode-only: kind "decode" at batch 1, "aggregate" above (it is
  summed over the batch; the notes give the per-sequence figure).
- One decode step is recorded as tokens_generated = batch_size over wall_seconds =
  median_decode_latency, so the arithmetic check can recompute the figure from its own fields.
- With no decode keys (output_len 1) the prefill figure is used, kind "prefill".
- `prefill_latency` is the static batch's time to first token.
"""

from __future__ import annotations

from typing import Any, ClassVar

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.base import ToolOutputFormat
from extractors.formats.common import (
    Notes,
    count,
    fmt,
    has_any,
    join_path,
    positive,
    text,
)

__all__ = ["SglangBenchOneBatch"]

_RESULTS = ("median_decode_throughput", "prefill_throughput", "overall_throughput")


class SglangBenchOneBatch(ToolOutputFormat):
    name: ClassVar[str] = "sglang_bench_one_batch"
    label: ClassVar[str] = "SGLang bench_one_batch"
    not_ours: ClassVar[str] = "not an SGLang bench_one_batch result"

    def _is_record(self, rec: Any) -> bool:
        return isinstance(rec, dict) and "batch_size" in rec and "input_len" in rec \
            and has_any(rec, _RESULTS)

    def _claim(self, doc: RawDocument, rec: dict[str, Any], prefix: str, i: int,
               total: int) -> Claim:
        where = f"bench_one_batch row {i + 1}" if prefix else "bench_one_batch result"
        b = ClaimBuilder(doc.source)
        notes = Notes()

        def p(key: str) -> str:
            return join_path(prefix, key)

        raw_batch = rec.get("batch_size")
        batch = count(raw_batch, allow_zero=False)
        if batch is None:
            raise InvalidInput(f"{doc.source}: {where} has no usable batch_size "
                               f"(got {raw_batch!r})")
        b.set("engine", "sglang", field=f"({self.name})")
        b.set("batch", batch, field=p("batch_size"))
        b.set("concurrency", batch, field=p("batch_size"))
        b.set("input_tokens", count(rec.get("input_len")), field=p("input_len"))
        b.set("output_tokens", count(rec.get("output_len")), field=p("output_len"))
        b.set("speculative", False, field=f"({self.name})")
        run_name = text(rec.get("run_name"))
        if run_name:
            notes.add(f"run_name {run_name!r}", p("run_name"))

        decode = rec.get("median_decode_throughput")
        if decode is not None:
            tok_s = positive(decode)
            if tok_s is None:
                raise InvalidInput(f"{doc.source}: {where} has no usable "
                                   f"median_decode_throughput (got {decode!r})")
            b.set("tok_s", tok_s, field=p("median_decode_throughput"))
            b.set("tok_s_kind", "decode" if batch == 1 else "aggregate",
                  field=p("median_decode_throughput"))
            step = positive(rec.get("median_decode_latency"))
            if step is not None:
                b.set("tokens_generated", batch, field=p("batch_size"))
                b.set("wall_seconds", step, field=p("median_decode_latency"))
            if batch > 1:
                notes.add(f"decode throughput summed over a static batch of {batch}: "
                          f"{fmt(tok_s / batch)} tok/s per sequence", p("batch_size"))
            notes.add("no server or scheduler: one decode step emits one token per sequence",
                      p("median_decode_throughput"))
        else:
            raw = rec.get("prefill_throughput")
            prefill = positive(raw)
            if prefill is None:
                raise InvalidInput(f"{doc.source}: {where} has no usable "
                                   f"median_decode_throughput or prefill_throughput")
            b.set("tok_s", prefill, field=p("prefill_throughput"))
            b.set("tok_s_kind", "prefill", field=p("prefill_throughput"))
            notes.add("no decode steps (output_len 1): prefill throughput only",
                      p("prefill_throughput"))

        latency = positive(rec.get("prefill_latency"))
        if latency is not None:
            b.set("ttft_ms", latency * 1000.0, field=p("prefill_latency"))
            b.set("ttft_empty", False, field=p("prefill_latency"))
        overall = positive(rec.get("overall_throughput"))
        if overall is not None:
            notes.add(f"overall (input+output) throughput {fmt(overall)} tok/s",
                      p("overall_throughput"))
        notes.apply(b)
        return b.build()
