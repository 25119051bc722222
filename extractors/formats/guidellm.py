"""GuideLLM `benchmarks.json` (also `benchmark-results.json`, any `--output-path` .json).

Shape: `{"args": {...}, "benchmarks": [{"type_": "generative_benchmark", "config":
{"strategy": {"type_": ..., "streams"|"rate": ...}, ...}, "scheduler_metrics": {...},
"metrics": {...}, "requests": {...}, "start_time", "end_time", "duration"}]}`. Documented by
vllm-project/guidellm `src/guidellm/benchmark/schemas/generative/{report,benchmark,metrics}.py`
(GenerativeBenchmarksReport, GenerativeBenchmark, GenerativeMetrics). Each metric is a StatusDistributionSummary: `{"successful": {"mean",
"median", "mode", "variance", "std_dev", "min", "max", "count", "total_sum", "percentiles":
{"p50", ...}}, "incomplete": ..., "errored": ..., "total": ...}`. Older releases keep the
strategy under `args.strategy` of each benchmark and the model under `worker.backend_model`.

Mapping, each with its reason:
- One Claim per benchmark; only successful requests are read.
- `output_tokens_per_second.successful.mean` is output tokens over time, all requests
  together: kind "output" when one request at a time (strategy "synchronous", or "concurrent"
  with 1 stream), otherwise "aggregate".
- Concurrency: 1 for "synchronous", `streams` for "concurrent" (both exact); for rate-driven
  strategies ("constant", "poisson", "throughput") the measured mean `request_concurrency`,
  rounded, with the exact mean in the notes.
- `time_per_output_token_ms` in GuideLLM includes the time to the first token
  (`(last_token - request_start) / output_tokens`), `inter_token_latency_ms` does not: the
  per-user decode speed in the notes is 1000 / ITL, the per-user end-to-end speed 1000 / TPOT.
- tokens_generated / wall_seconds are not set: the rate is a time-bucketed distribution whose
  mean need not equal total tokens / duration, and a mismatch would be an artefact, not a flag.
- No engine: GuideLLM is a client (its backend is an OpenAI-compatible HTTP endpoint).
"""

from __future__ import annotations

from typing import Any, ClassVar

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.base import ToolOutputFormat
from extractors.formats.common import (
    MISSING,
    Notes,
    count,
    dig,
    fmt,
    iso_from_epoch,
    join_path,
    number,
    positive,
    text,
)

__all__ = ["GuideLLM"]

_METRIC_KEYS = ("output_tokens_per_second", "requests_per_second", "request_concurrency",
                "time_to_first_token_ms", "request_latency", "tokens_per_second")


def _is_benchmark(item: Any) -> bool:
    metrics = item.get("metrics") if isinstance(item, dict) else None
    return isinstance(metrics, dict) and any(isinstance(metrics.get(k), dict)
                                             for k in _METRIC_KEYS)


class GuideLLM(ToolOutputFormat):
    name: ClassVar[str] = "guidellm"
    label: ClassVar[str] = "GuideLLM"
    not_ours: ClassVar[str] = "not a GuideLLM benchmarks report"

    def _find(self, data: Any) -> list[Any] | None:
        if not isinstance(data, dict):
            return None
        items = data.get("benchmarks")
        if isinstance(items, list) and items and _is_benchmark(items[0]):
            return items
        return None

    def _claims(self, doc: RawDocument, data: Any, items: Any) -> list[Claim]:
        claims = []
        for i, item in enumerate(items):
            if not _is_benchmark(item):
                raise InvalidInput(f"{doc.source}: GuideLLM benchmark {i + 1} has no metrics")
            claims.append(self._benchmark_claim(doc, data, item, f"benchmarks[{i}]", i + 1))
        return claims

    def _benchmark_claim(self, doc: RawDocument, report: dict[str, Any], bench: dict[str, Any],
               prefix: str, n: int) -> Claim:
        b = ClaimBuilder(doc.source)
        notes = Notes()
        m = bench["metrics"]

        def p(*parts: str) -> str:
            return join_path(prefix, *parts)

        def stat(metric: str, name: str = "mean") -> float | None:
            return number(dig(m, metric, "successful", name))

        # model: newest report args, the benchmark's backend config, older worker info
        for value, field in ((dig(report, "args", "model"), "args.model"),
                             (dig(bench, "config", "backend", "model"),
                              p("config", "backend", "model")),
                             (dig(bench, "worker", "backend_model"),
                              p("worker", "backend_model"))):
            b.set("model", text(value), field=field)

        strategy, skey = dig(bench, "config", "strategy"), p("config", "strategy")
        if not isinstance(strategy, dict):
            strategy, skey = dig(bench, "args", "strategy"), p("args", "strategy")
        kind = text(dig(strategy, "type_")) if isinstance(strategy, dict) else None
        if kind:
            rate = number(dig(strategy, "rate"))
            notes.add(f"strategy {kind}" + (f" at {fmt(rate)} req/s" if rate else ""),
                      skey)
        if kind == "synchronous":
            b.set("concurrency", 1, field=join_path(skey, "type_"))
        elif kind == "concurrent":
            b.set("concurrency", count(dig(strategy, "streams"), allow_zero=False),
                  field=join_path(skey, "streams"))
        mean_conc = stat("request_concurrency")
        if mean_conc is not None:
            notes.add(f"measured mean concurrency {fmt(mean_conc)}",
                      p("metrics", "request_concurrency", "successful", "mean"))
            if not b.has("concurrency") and mean_conc >= 0.5:
                b.set("concurrency", round(mean_conc),
                      field=p("metrics", "request_concurrency", "successful", "mean"))
        conc = b.values.get("concurrency")

        raw = dig(m, "output_tokens_per_second", "successful", "mean")
        tok_s = positive(raw)
        if tok_s is None:
            raise InvalidInput(f"{doc.source}: GuideLLM benchmark {n} has no usable "
                               f"output_tokens_per_second.successful.mean (got "
                               f"{None if raw is MISSING else raw!r})")
        field = p("metrics", "output_tokens_per_second", "successful", "mean")
        b.set("tok_s", tok_s, field=field)
        b.set("tok_s_kind", "output" if conc == 1 else "aggregate", field=field)

        ttft = stat("time_to_first_token_ms")
        if ttft is not None:
            b.set("ttft_ms", ttft, field=p("metrics", "time_to_first_token_ms", "successful",
                                           "mean"))
            b.set("ttft_empty", False, field=p("metrics", "time_to_first_token_ms"))
        itl = positive(stat("inter_token_latency_ms"))
        if itl is not None:
            notes.add(f"per-user decode speed {fmt(1000 / itl)} tok/s (1000 / mean ITL)",
                      p("metrics", "inter_token_latency_ms", "successful", "mean"))
            b.set("per_user_tok_s", round(1000 / itl, 2),
                  field=p("metrics", "inter_token_latency_ms", "successful", "mean"),
                  span=f"1000 / mean ITL {fmt(itl)} ms")
        tpot = positive(stat("time_per_output_token_ms"))
        if tpot is not None:
            notes.add(f"per-user end-to-end speed {fmt(1000 / tpot)} tok/s (1000 / mean TPOT, "
                      "first token included)",
                      p("metrics", "time_per_output_token_ms", "successful", "mean"))
        for metric, name in (("prompt_token_count", "input_tokens"),
                             ("output_token_count", "output_tokens")):
            value = stat(metric)
            if value is not None:
                b.set(name, round(value), field=p("metrics", metric, "successful", "mean"))
        totals = dig(m, "request_totals")
        if isinstance(totals, dict):
            ok, errored = count(totals.get("successful")), count(totals.get("errored"))
            if ok is not None:
                notes.add(f"{ok} successful requests" + (f", {errored} errored" if errored
                                                          else ""),
                          p("metrics", "request_totals"))
        b.set("date", iso_from_epoch(bench.get("start_time")), field=p("start_time"))
        notes.add("measured with GuideLLM")
        notes.apply(b)
        return b.build()
