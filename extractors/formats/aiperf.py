"""NVIDIA AIPerf `profile_export_aiperf.json` and GenAI-Perf `profile_export_genai_perf.json`.

Both are one JSON object mapping metric names to statistics objects
(`{"unit": "ms", "avg": ..., "p50": ..., "p99": ..., "min": ..., "max": ..., "std": ...}`).
Documented by ai-dynamo/aiperf `src/aiperf/exporters/metrics_json_exporter.py` and its export
docs (schema and a real example: metrics at the top level, `input_config.endpoint.model_names`,
`input_config.loadgen.concurrency`, `telemetry_data.endpoints.<host>.gpus.<gpu>.{gpu_name,
metrics.gpu_power_usage}`), and NVIDIA's GenAI-Perf README (docs.nvidia.com, Triton). Older AIPerf nests the metrics
under `records`; GenAI-Perf keeps `input_config.model` (a list) and `input_config.concurrency`
(newer: `model_names`, `perf_analyzer.stimulus.concurrency`) and per-GPU power under
`telemetry_stats.gpu_power_usage.gpu<N>`.

Mapping, each with its reason:
- `output_token_throughput.avg` is total output tokens / benchmark duration, all users
  together (AIPerf OutputTokenThroughputMetric): kind "output" at concurrency 1, otherwise
  "aggregate". With no aggregate figure, `output_token_throughput_per_user.avg` is used:
  1 / inter-token latency, decode-only (AIPerf OutputTokenThroughputPerUserMetric), kind
  "decode" at concurrency 1, otherwise "per_user". The per-user figure is always in the notes.
- `time_to_first_token.avg` is ttft_ms (converted when the unit is seconds or ns).
- `total_osl` / `total_output_tokens` and `benchmark_duration` are tokens_generated /
  wall_seconds, so the aggregate figure can be recomputed.
- Power: `total_gpu_power.avg` when present (a sum over the GPUs telemetry saw), otherwise the
  sum of per-GPU `gpu_power_usage.avg`; the unit is read from the stats ("W", "kW", "mW"; no
  unit is taken as W, AIPerf's telemetry unit, and said so). hardware_count is the number of
  GPUs the telemetry reported, which may include idle GPUs on the same host (stated).
- No engine: AIPerf is a client and the server is not recorded.
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
    is_empty,
    number,
    positive,
    text,
)

__all__ = ["AiPerf"]

_METRICS = ("output_token_throughput", "output_token_throughput_per_user", "time_to_first_token",
            "inter_token_latency", "request_throughput", "request_latency")
_STATS = ("avg", "p50", "mean", "max", "min")
_TIME_TO_MS = {"ms": 1.0, "s": 1000.0, "sec": 1000.0, "seconds": 1000.0, "us": 1e-3,
               "ns": 1e-6}
_POWER_TO_W = {"w": 1.0, "watts": 1.0, "watt": 1.0, "kw": 1000.0, "mw": 1e-3}


class AiPerf(ToolOutputFormat):
    name: ClassVar[str] = "aiperf"
    label: ClassVar[str] = "AIPerf/GenAI-Perf"
    not_ours: ClassVar[str] = "not an AIPerf or GenAI-Perf profile export"

    def _find(self, data: Any) -> tuple[dict[str, Any], str] | None:
        """The object holding metric -> stats, and its key path prefix."""
        if not isinstance(data, dict) or "benchmarks" in data:
            return None
        for root, prefix in ((data, ""), (data.get("records"), "records.")):
            if isinstance(root, dict) and any(
                isinstance(root.get(m), dict) and any(s in root[m] for s in _STATS)
                for m in _METRICS
            ):
                return root, prefix
        return None

    def _claims(self, doc: RawDocument, data: Any, found: Any) -> list[Claim]:
        m, pre = found
        b = ClaimBuilder(doc.source)
        notes = Notes()
        tool = "GenAI-Perf" if "telemetry_stats" in data or isinstance(
            dig(data, "input_config", "model"), list) else "AIPerf"

        self._config(b, data, notes)
        conc = b.values.get("concurrency")

        agg_raw = dig(m, "output_token_throughput", "avg")
        per_user = positive(dig(m, "output_token_throughput_per_user", "avg"))
        if per_user is not None:
            notes.add(f"per-user decode speed {fmt(per_user)} tok/s (1 / inter-token latency)",
                      pre + "output_token_throughput_per_user.avg")
            b.set("per_user_tok_s", per_user, field=pre + "output_token_throughput_per_user.avg")
        if agg_raw is not MISSING and agg_raw is not None:
            agg = positive(agg_raw)
            if agg is None:
                raise InvalidInput(f"{doc.source}: {tool} output_token_throughput.avg is not "
                                   f"usable (got {agg_raw!r})")
            b.set("tok_s", agg, field=pre + "output_token_throughput.avg")
            b.set("tok_s_kind", "output" if conc == 1 else "aggregate",
                  field=pre + "output_token_throughput.avg")
        elif per_user is not None:
            b.set("tok_s", per_user, field=pre + "output_token_throughput_per_user.avg")
            b.set("tok_s_kind", "decode" if conc == 1 else "per_user",
                  field=pre + "output_token_throughput_per_user.avg")
        else:
            raise InvalidInput(f"{doc.source}: {tool} export has no usable "
                               "output_token_throughput or output_token_throughput_per_user")

        ttft = self._ms(m, "time_to_first_token")
        if ttft is not None:
            b.set("ttft_ms", ttft, field=pre + "time_to_first_token.avg")
            b.set("ttft_empty", False, field=pre + "time_to_first_token.avg")
        elif "time_to_first_token" in m and is_empty(dig(m, "time_to_first_token", "avg")):
            b.set("ttft_empty", True, field=pre + "time_to_first_token.avg")
            notes.add("time_to_first_token is present but empty", pre + "time_to_first_token")
        for key, name in (("input_sequence_length", "input_tokens"),
                          ("output_sequence_length", "output_tokens")):
            avg = number(dig(m, key, "avg"))
            if avg is not None:
                b.set(name, round(avg), field=f"{pre}{key}.avg")
        for key in ("total_osl", "total_output_tokens"):
            b.set("tokens_generated", count(dig(m, key, "avg")), field=f"{pre}{key}.avg")
        duration = positive(dig(m, "benchmark_duration", "avg"))
        unit = text(dig(m, "benchmark_duration", "unit"))
        if duration is not None and (unit is None or unit.lower() in _TIME_TO_MS):
            scale = _TIME_TO_MS.get((unit or "sec").lower(), 1000.0) / 1000.0
            b.set("wall_seconds", duration * scale, field=pre + "benchmark_duration.avg")
        requests = count(dig(m, "request_count", "avg"))
        if requests is not None:
            notes.add(f"{requests} requests", pre + "request_count.avg")
        errors_raw = m.get("error_request_count")
        errors = count(errors_raw.get("avg") if isinstance(errors_raw, dict) else errors_raw)
        if errors:
            notes.add(f"{errors} requests errored", pre + "error_request_count")
        if data.get("was_cancelled") is True:
            notes.add("the run was cancelled", "was_cancelled")

        self._power(b, data, m, pre, notes)
        b.set("date", text(data.get("start_time")), field="start_time")
        notes.add(f"measured with {tool}")
        notes.apply(b)
        return [b.build()]

    @staticmethod
    def _ms(m: dict[str, Any], key: str) -> float | None:
        value = number(dig(m, key, "avg"))
        unit = text(dig(m, key, "unit"))
        if value is None:
            return None
        if unit is None:
            return value
        scale = _TIME_TO_MS.get(unit.lower())
        return value * scale if scale is not None else None

    @staticmethod
    def _config(b: ClaimBuilder, data: dict[str, Any], notes: Notes) -> None:
        model_paths: tuple[tuple[str | int, ...], ...] = (
            ("input_config", "endpoint", "model_names", 0), ("input_config", "model_names", 0),
            ("input_config", "model", 0), ("input_config", "model"),
            ("input_config", "models", "items", 0, "name"))
        for path in model_paths:
            name = text(dig(data, *path))
            if name:
                b.set("model", name, field=".".join(
                    f"[{s}]" if isinstance(s, int) else s for s in path).replace(".[", "["))
                break
        conc_paths: tuple[tuple[str, ...], ...] = (
            ("input_config", "loadgen", "concurrency"),
            ("input_config", "perf_analyzer", "stimulus", "concurrency"),
            ("input_config", "concurrency"))
        for conc_path in conc_paths:
            conc = count(dig(data, *conc_path), allow_zero=False)
            if conc is not None:
                b.set("concurrency", conc, field=".".join(conc_path))
                break
        rate = dig(data, "input_config", "loadgen", "request_rate")
        if rate is MISSING:
            rate = dig(data, "input_config", "request_rate")
        if number(rate) is not None:
            notes.add(f"request rate {fmt(number(rate) or 0)} req/s", "input_config")

    @staticmethod
    def _power(b: ClaimBuilder, data: dict[str, Any], m: dict[str, Any], pre: str,
               notes: Notes) -> None:
        total = number(dig(m, "total_gpu_power", "avg"))
        if total is not None:
            unit = text(dig(m, "total_gpu_power", "unit"))
            scale = _POWER_TO_W.get((unit or "W").lower())
            if scale is None:
                notes.add(f"total_gpu_power in unknown unit {unit!r} not used",
                          pre + "total_gpu_power.unit")
            else:
                b.set("power_w", total * scale, field=pre + "total_gpu_power.avg")
                b.set("power_method", "AIPerf total_gpu_power (GPU telemetry, summed over GPUs)",
                      field=pre + "total_gpu_power")
                if unit is None:
                    notes.add("total_gpu_power has no unit; taken as W (AIPerf's telemetry unit)",
                              pre + "total_gpu_power")
        gpus: list[tuple[str | None, float | None, str]] = []  # (name, watts, path)
        endpoints = dig(data, "telemetry_data", "endpoints")
        if isinstance(endpoints, dict):
            for host, ep in endpoints.items():
                per_gpu = dig(ep, "gpus")
                if not isinstance(per_gpu, dict):
                    continue
                for gpu_key, gpu in per_gpu.items():
                    watts = number(dig(gpu, "metrics", "gpu_power_usage", "avg"))
                    unit = text(dig(gpu, "metrics", "gpu_power_usage", "unit"))
                    scale = _POWER_TO_W.get((unit or "W").lower())
                    gpus.append((text(dig(gpu, "gpu_name")),
                                 watts * scale if watts is not None and scale else None,
                                 f"telemetry_data.endpoints.{host}.gpus.{gpu_key}"))
        stats = dig(data, "telemetry_stats", "gpu_power_usage")
        if not gpus and isinstance(stats, dict):
            scale = _POWER_TO_W.get((text(stats.get("unit")) or "W").lower())
            for gpu_key, gpu in stats.items():
                if isinstance(gpu, dict):
                    watts = number(gpu.get("avg"))
                    gpus.append((None, watts * scale if watts is not None and scale else None,
                                 f"telemetry_stats.gpu_power_usage.{gpu_key}"))
        if not gpus:
            return
        names = {g[0] for g in gpus if g[0]}
        if len(names) == 1:
            b.set("hardware", names.pop(), field=gpus[0][2] + ".gpu_name")
        b.set("hardware_count", len(gpus), field=gpus[0][2].rsplit(".", 1)[0])
        if len(gpus) > 1:
            notes.add(f"{len(gpus)} GPUs reported by telemetry (idle GPUs on the host count "
                      "too)", gpus[0][2].rsplit(".", 1)[0])
        gpu_watts = [g[1] for g in gpus]
        if not b.has("power_w") and all(w is not None for w in gpu_watts):
            b.set("power_w", sum(w for w in gpu_watts if w is not None),
                  field=gpus[0][2] + (".metrics.gpu_power_usage.avg" if "endpoints" in gpus[0][2]
                                      else ".avg"))
            b.set("power_method", "GPU telemetry (DCGM) average power"
                  + (f", summed over {len(gpus)} GPUs" if len(gpus) > 1 else ""),
                  field=gpus[0][2].rsplit(".", 1)[0])
