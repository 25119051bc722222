"""InferenceX (ex-InferenceMAX, SemiAnalysis) benchmark rows.

Two shapes (SemiAnalysisAI/InferenceX `docs/results-and-ingestion.md`):
- the published API, `GET /api/v1/benchmarks?model=…`: a list of `BenchmarkRow`
  (SemiAnalysisAI/InferenceX-app `packages/app/src/lib/api.ts`): `hardware, framework, model,
  precision, spec_method, disagg, …, decode_tp, num_prefill_gpu, num_decode_gpu, isl, osl, conc,
  image, metrics{…}, date, run_url`;
- the producer-side `agg_*.json` rows (SemiAnalysisAI/InferenceX `utils/process_result.py`):
  `hw, conc, image, model, framework, precision, spec_decoding, disagg, isl, osl, tp, …,
  tput_per_gpu, output_tput_per_gpu, input_tput_per_gpu, median_ttft, …` with the metrics inline.

The primary number is `output_tput_per_gpu` — output tokens/s per GPU, the figure the dashboard
plots against interactivity — with `tok_s_kind = "per_gpu"`. When a row lacks it, `tput_per_gpu`
(input + output tokens per GPU) is used and the provenance span says so. The per-user decode rate
(`median_intvty`, else 1 / `median_tpot`) fills `per_user_tok_s` and is quoted in the tok_s
provenance span beside the primary number.

Quirks:
- Latency metrics are seconds: the producer drops `_ms` and divides by 1000, so TTFT is × 1000.
- `model` is a DB key (`dsr1`); it is shown under its display name from
  InferenceX-app `packages/constants/src/models.ts`, the raw key kept in the span.
- `hardware` is kept raw (`h200`, `b200`, `mi355x`): the reference tables own the aliases.
- `spec_method` "none" means no speculation (speculative False), anything else is the method.
- GPU count: disaggregated runs use prefill + decode GPUs (throughput is per GPU of the whole
  deployment); otherwise the decode GPUs (= the tensor-parallel group).
- Power is best effort on the producer side: `avg_power_w` is used only when `power_valid` is 1.
- Batch size is not recorded (the engine batches internally); `conc` is the client concurrency.
"""

from __future__ import annotations

from typing import Any, ClassVar

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.errors import InvalidInput
from extractors.formats.base import RecordsFormat
from extractors.formats.values import (
    BadValue,
    read_key,
    scaled,
    to_bool,
    to_float,
    to_int,
    to_rate,
    to_text,
)

__all__ = ["DB_MODEL_TO_DISPLAY", "InferenceX"]

# InferenceX-app packages/constants/src/models.ts (read 2026-04-03).
DB_MODEL_TO_DISPLAY = {
    "dsr1": "DeepSeek-R1-0528", "gptoss120b": "gpt-oss-120b",
    "llama70b": "Llama-3.3-70B-Instruct-FP8", "qwen3.5": "Qwen-3.5-397B-A17B",
    "kimik2.5": "Kimi-K2.5", "kimik2.6": "Kimi-K2.5", "minimaxm2.5": "MiniMax-M2.5",
    "minimaxm2.7": "MiniMax-M2.5", "glm5": "GLM-5", "glm5.1": "GLM-5", "dsv4": "DeepSeek-V4-Pro",
}
_API_KEYS = {"hardware", "framework", "precision", "conc", "metrics"}
_AGG_KEYS = {"hw", "conc", "tput_per_gpu"}
_NO_SPEC = {"none", "off", "no", "false", ""}
_POWER_METHOD = "mean GPU board power over the run (InferenceX aggregate_power.py, gpu_metrics.csv)"


def _is_api_row(row: Any) -> bool:
    return isinstance(row, dict) and row.keys() >= _API_KEYS and isinstance(row["metrics"], dict)


def _is_agg_row(row: Any) -> bool:
    return (isinstance(row, dict) and row.keys() >= _AGG_KEYS
            and ("spec_decoding" in row or "framework" in row))


class InferenceX(RecordsFormat):
    name: ClassVar[str] = "inferencex"
    label: ClassVar[str] = "InferenceX"
    row_word: ClassVar[str] = "row"
    not_found: ClassVar[str] = "no InferenceX benchmark rows found"
    none_read: ClassVar[str] = "InferenceX rows could not be read"

    def _is_row(self, row: Any) -> bool:
        return _is_api_row(row) or _is_agg_row(row)

    def _parse_row(self, source: str, row: Any, path: str) -> Claim:
        return _read_row(source, row, path)


def _read_row(source: str, row: Any, path: str) -> Claim:
    if _is_api_row(row):
        metrics, mpath, hw_key, spec_key = row["metrics"], _p(path, "metrics"), "hardware", "spec_method"
    elif _is_agg_row(row):
        metrics, mpath, hw_key, spec_key = row, path, "hw", "spec_decoding"
    elif isinstance(row, dict):
        raise InvalidInput("not an InferenceX row: needs hardware/framework/precision/conc and a "
                           "metrics object (API) or hw/conc/tput_per_gpu (agg_*.json)")
    else:
        raise InvalidInput(f"a {type(row).__name__} where a row object belongs")
    b = ClaimBuilder(source)

    def put(field: str, key: str, conv: Any, obj: dict[str, Any] = row, base: str = path,
            span: str | None = None) -> Any:
        out = read_key(obj, key, conv, key)
        b.set(field, out, field=_p(base, key), span=span)
        return out

    put("hardware", hw_key, to_text)
    put("engine", "framework", to_text)
    raw_model = row.get("model")
    if isinstance(raw_model, str) and raw_model in DB_MODEL_TO_DISPLAY:
        b.set("model", DB_MODEL_TO_DISPLAY[raw_model], field=_p(path, "model"),
              span=f"{raw_model} (InferenceX DB key)")
    else:
        put("model", "model", to_text)
    put("weight_format", "precision", to_text)
    spec = row.get(spec_key)
    if isinstance(spec, str):
        if spec.strip().lower() in _NO_SPEC:
            b.set("speculative", False, field=_p(path, spec_key), span=spec)
        else:
            b.set("speculative", True, field=_p(path, spec_key), span=spec)
            b.set("spec_method", spec, field=_p(path, spec_key))
    put("concurrency", "conc", to_int)
    put("input_tokens", "isl", to_int)
    put("output_tokens", "osl", to_int)
    put("container_image", "image", to_text)
    put("source_url", "run_url", to_text)
    put("date", "date", to_text)
    put("record_id", "id", to_text)
    _gpu_count(b, row, path)
    _throughput(b, metrics, mpath)
    put("ttft_ms", "median_ttft", lambda v: scaled(v, 1000.0), obj=metrics, base=mpath)
    if "median_ttft" in metrics:
        b.set("ttft_empty", metrics["median_ttft"] in (None, ""), field=_p(mpath, "median_ttft"))
    try:
        power_ok = to_bool(metrics.get("power_valid", 0))
    except BadValue:
        power_ok = False
    if power_ok and put("power_w", "avg_power_w", to_rate, obj=metrics, base=mpath) is not None:
        b.set("power_method", _POWER_METHOD, field=_p(mpath, "power_valid"))
    for key in ("spec_decode_acceptance_length", "acceptance_length", "mean_acceptance_length"):
        put("acceptance_length", key, to_float, obj=metrics, base=mpath)
    return b.build()


def _gpu_count(b: ClaimBuilder, row: dict[str, Any], path: str) -> None:
    try:
        disagg = to_bool(row.get("disagg", False))
        prefill = to_int(row["num_prefill_gpu"]) if row.get("num_prefill_gpu") else 0
        decode = to_int(row["num_decode_gpu"]) if row.get("num_decode_gpu") else 0
        tp = to_int(row.get("decode_tp") or row.get("tp") or 0)
        pp = to_int(row.get("pp") or 1)
    except BadValue as exc:
        raise BadValue(f"GPU count: {exc}") from None
    if disagg and prefill + decode:
        b.set("hardware_count", prefill + decode, field=_p(path, "num_prefill_gpu+num_decode_gpu"),
              span=f"{prefill} prefill + {decode} decode GPUs")
    elif decode:
        b.set("hardware_count", decode, field=_p(path, "num_decode_gpu"))
    elif tp:
        key = "decode_tp" if row.get("decode_tp") else "tp"
        b.set("hardware_count", tp * pp, field=_p(path, key))


def _throughput(b: ClaimBuilder, m: dict[str, Any], mpath: str) -> None:
    per_user = None
    try:
        if m.get("median_intvty") is not None and to_float(m["median_intvty"]) > 0:
            rate = to_float(m["median_intvty"])
            per_user = f"median_intvty {rate:.1f} tok/s/user"
            b.set("per_user_tok_s", rate, field=_p(mpath, "median_intvty"), span=per_user)
        elif m.get("median_tpot") is not None and to_float(m["median_tpot"]) > 0:
            rate = round(1 / to_float(m["median_tpot"]), 2)
            per_user = f"1/median_tpot {rate:.1f} tok/s/user"
            b.set("per_user_tok_s", rate, field=f"1 ÷ {_p(mpath, 'median_tpot')} (seconds)",
                  span=per_user)
    except BadValue:
        per_user = None
    for key, label in (("output_tput_per_gpu", "output tok/s per GPU"),
                       ("tput_per_gpu", "input+output tok/s per GPU (no output-only figure)")):
        value = m.get(key)
        if value is None or value == 0:  # 0 = the run produced no throughput figure
            continue
        try:
            tok_s = to_rate(value)
        except BadValue as exc:
            raise BadValue(f"'{key}' {exc}") from None
        span = f"{key}={value} ({label})" + (f"; per-user decode {per_user}" if per_user else "")
        b.set("tok_s", tok_s, field=_p(mpath, key), span=span)
        b.set("tok_s_kind", "per_gpu", field=_p(mpath, key))
        return


def _p(base: str, key: str) -> str:
    return f"{base}.{key}" if base else key
