"""SGLang `python -m sglang.bench_serving --output-file X.jsonl` results.

Shape: one JSON object per run, appended as a line to the output file (JSON Lines; a file with
one run is a single object). Documented by the code that writes it, sgl-project/sglang
`python/sglang/bench_serving.py` (`benchmark()` builds `result` and appends
`json.dumps(result)`). Keys: `backend`, `dataset_name`,
`request_rate`, `max_concurrency`, `sharegpt_output_len` (older `fixed_output_len`),
`random_input_len`, `random_output_len`, `random_range_ratio`, `duration` (s), `completed`,
`total_input_tokens`, `total_output_tokens`, `total_output_tokens_retokenized`,
`request_throughput`, `input_throughput`, `output_throughput`,
`mean/median/std/p99_e2e_latency_ms`, `mean/median/std/p99_ttft_ms`,
`mean/median/std/p99_tpot_ms`, `mean/median/std/p95/p99_itl_ms`, `concurrency` (the measured
mean number of requests in flight) and `accept_length` (the server's average acceptance
length, null without speculative decoding).

Quirks, each with its reason:
- `request_rate` is Python's float inf written by json.dumps, i.e. the bare token `Infinity`,
  which Python's json reads back; it is reported, never used as a number.
- `output_throughput` is total output tokens / duration with TTFT inside: kind "output" when
  `max_concurrency` is 1, otherwise "aggregate" (all streams together).
- `accept_length` null does not prove speculative decoding was off (older servers do not
  report it), so `speculative` stays unknown and the notes say so; a number sets it True.
- `backend` names the server the client talked to ("sglang", "vllm", "lmdeploy", ...); generic
  OpenAI-compatible backends leave the engine unknown.
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
    engine_from_backend,
    fmt,
    has_any,
    is_empty,
    join_path,
    number,
    positive,
    set_request_totals,
    text,
)

__all__ = ["SglangBenchServing"]

# Keys only SGLang's bench_serving writes (vLLM's result has `e2el`, not `e2e_latency`).
_MARKERS = ("accept_length", "total_output_tokens_retokenized", "random_input_len",
            "random_output_len", "random_range_ratio", "mean_e2e_latency_ms",
            "median_e2e_latency_ms")


class SglangBenchServing(ToolOutputFormat):
    name: ClassVar[str] = "sglang_bench_serving"
    label: ClassVar[str] = "SGLang bench_serving"
    not_ours: ClassVar[str] = "not an SGLang bench_serving result"

    def _is_record(self, rec: Any) -> bool:
        return isinstance(rec, dict) and "output_throughput" in rec and has_any(rec, _MARKERS) \
            and has_any(rec, ("duration", "completed", "total_output_tokens"))

    def _claim(self, doc: RawDocument, rec: dict[str, Any], prefix: str, i: int,
               total: int) -> Claim:
        where = f"SGLang bench_serving run {i + 1}" if prefix else "SGLang bench_serving result"
        b = ClaimBuilder(doc.source)
        notes = Notes()

        def p(key: str) -> str:
            return join_path(prefix, key)

        backend = text(rec.get("backend"))
        engine = engine_from_backend(backend)
        b.set("engine", engine, field=p("backend"))
        if backend and engine is None:
            notes.add(f"client backend {backend!r}: engine not recorded", p("backend"))
        for key in ("model_id", "model"):
            b.set("model", text(rec.get(key)), field=p(key))

        cap = count(rec.get("max_concurrency"), allow_zero=False)
        b.set("concurrency", cap, field=p("max_concurrency"))
        measured = number(rec.get("concurrency"))
        if measured is not None:
            notes.add(f"measured mean concurrency {fmt(measured)}", p("concurrency"))
        if cap is None:
            notes.add(f"no concurrency cap (request_rate {rec.get('request_rate')!r})",
                      p("max_concurrency"), p("request_rate"))

        raw = rec.get("output_throughput")
        tok_s = positive(raw)
        if tok_s is None:
            raise InvalidInput(f"{doc.source}: {where} has no usable output_throughput "
                               f"(got {raw!r})")
        b.set("tok_s", tok_s, field=p("output_throughput"))
        b.set("tok_s_kind", "output" if cap == 1 else "aggregate", field=p("output_throughput"))
        tpot = positive(rec.get("median_tpot_ms"))
        if tpot is not None:
            notes.add(f"per-user decode speed {fmt(1000 / tpot)} tok/s (1000 / median_tpot_ms)",
                      p("median_tpot_ms"))
            b.set("per_user_tok_s", round(1000 / tpot, 2), field=p("median_tpot_ms"),
                  span=f"1000 / median_tpot_ms {fmt(tpot)}")

        tokens_out = set_request_totals(b, rec, prefix)
        retok = count(rec.get("total_output_tokens_retokenized"))
        if retok is not None and tokens_out is not None and retok != tokens_out:
            notes.add(f"retokenized output {retok} tokens vs {tokens_out} reported",
                      p("total_output_tokens_retokenized"))
        for key in ("random_input_len", "random_output_len"):
            target = count(rec.get(key))
            if target is not None:
                notes.add(f"{key} {target}", p(key))
        dataset = text(rec.get("dataset_name"))
        if dataset:
            notes.add(f"dataset {dataset!r}", p("dataset_name"))

        self._ttft(b, rec, prefix, notes)

        if "accept_length" in rec:
            al = number(rec.get("accept_length"))
            if al is not None and al > 0:
                b.set("speculative", True, field=p("accept_length"))
                b.set("acceptance_length", al, field=p("accept_length"))
            else:
                notes.add("accept_length is null: no acceptance length reported (speculative "
                          "decoding off, or not reported by this server)", p("accept_length"))
        notes.apply(b)
        return b.build()

    @staticmethod
    def _ttft(b: ClaimBuilder, rec: dict[str, Any], prefix: str, notes: Notes) -> None:
        for key in ("mean_ttft_ms", "median_ttft_ms"):
            value = number(rec.get(key))
            if value is not None:
                b.set("ttft_ms", value, field=join_path(prefix, key))
                b.set("ttft_empty", False, field=join_path(prefix, key))
                median = number(rec.get("median_ttft_ms"))
                if key == "mean_ttft_ms" and median is not None:
                    notes.add(f"median TTFT {fmt(median)} ms", join_path(prefix, "median_ttft_ms"))
                return
        for key in ("mean_ttft_ms", "median_ttft_ms"):
            if key in rec and is_empty(rec[key]):
                b.set("ttft_empty", True, field=join_path(prefix, key))
                notes.add(f"{key} is present but empty", join_path(prefix, key))
                return
