"""The field alias table: ordinary spellings of each claim field, and how each value converts.

`FIELD_ALIASES` maps a canonical target to the spellings boards use for it (gpu / hardware /
accelerator, tokens_per_second / tok_s / throughput, …); `ALIAS_INDEX` is the same table keyed by
folded spelling. `TARGETS` converts a value of each target into claim fields, and `apply_target`
sets them on a `ClaimBuilder` with the JSON path as provenance.

Quirks, each with its reason:
- Keys are folded (case, `-`, `_`, spaces, `/`) so `Tok/s`, `tok-s` and `TOK_S` are one spelling.
- A present-but-empty TTFT is itself a finding (the seed's "TTFT empty"): it sets `ttft_empty`.
- Draft windows come in three conventions: a `window` is the window; SGLang's
  `num_draft_tokens` and DFlash's `block_size` are the window; vLLM's `num_speculative_tokens`
  is k drafts plus the bonus token, so the window is k + 1. The rule used is recorded.
- An AL can be a range ("231–292"); it fills the low/high fields, never the point value.
- Acceptance rates arrive as percentages or fractions; > 1 is read as a percentage.
- Every claim field is also spelled by its own name (tests/extractors/test_aliases.py fails
  otherwise), so a board written in claimcheck's own field names is read whole.
- Real boards' and tools' spellings are listed beside ours: LocalScore (cjpais/LocalScore
  `src/db/schema.ts`: `accel_name`-style accelerator names, `avg_gen_tps`, `ram_gb`,
  `model_quant_str`, `model_n_params`), llama-bench (ggml-org/llama.cpp
  `scripts/compare-llama-bench.py`: `model_size` in bytes, `n_gpu_layers`, `build_commit`,
  `type_k`), MLPerf (mlcommons/inference `tools/submission/generate_final_report.py`:
  `accelerator_model_name`, `total_accelerators`, `weight_data_types`, `notes`), InferenceX
  (SemiAnalysisAI/InferenceX `utils/process_result.py`: `hw`, `tput_per_gpu`, `median_intvty`,
  `median_tpot` in seconds), vLLM bench serve (vllm-project/vllm `vllm/benchmarks/serve.py`:
  `median_tpot_ms`, `spec_decode_*`), AIPerf (`output_token_throughput_per_user`).
- A per-request step time (TPOT, ITL) is a per-user rate: 1000 / ms, or 1 / s for InferenceX's
  converted keys; `n_batch` (llama.cpp's prompt batch) is deliberately not the decode batch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args

from checks.models import TokSKind
from extractors.builder import ClaimBuilder
from extractors.formats.values import (
    BadValue,
    scaled,
    to_bool,
    to_date,
    to_float,
    to_int,
    to_rate,
    to_text,
)

__all__ = [
    "ALIAS_INDEX",
    "FIELD_ALIASES",
    "TARGETS",
    "THROUGHPUT_TARGETS",
    "apply_target",
    "fold",
]


def fold(key: str) -> str:
    """`Tok/s` → `tok_s`, `Power-Watts` → `power_watts`."""
    return re.sub(r"[^a-z0-9]+", "_", str(key).lower()).strip("_")


# A quoted range ("231–292", "350-400 W"): ALs and power draws are often given as one.
_RANGE = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*(?:-|–|—|~|to|\.\.)\s*(\d+(?:\.\d+)?)\s*[a-zA-Z%/ ]*$"
)


# ------------------------------------------------------------------------ targets and aliases

Pairs = list[tuple[str, Any]]
Converter = Callable[[Any, str], Pairs]  # (value, source key) -> [(claim field, value), …]


def _plain(field: str, conv: Callable[[Any], Any]) -> Converter:
    return lambda v, key: [(field, conv(v))]


def _params(v: Any, key: str) -> Pairs:
    n = to_float(v)
    return [("params_total_b", n / 1e9 if n > 1e5 else n)]  # a raw count vs billions


def _tok_s(kind: str | None) -> Converter:
    def conv(v: Any, key: str) -> Pairs:
        out: Pairs = [("tok_s", to_rate(v))]
        return out + [("tok_s_kind", kind)] if kind else out
    return conv


def _tok_s_kind(v: Any, key: str) -> Pairs:
    kind = to_text(v).strip().lower()
    if kind not in get_args(TokSKind):
        raise BadValue(f"{kind!r} is not one of {', '.join(get_args(TokSKind))}")
    return [("tok_s_kind", kind)]


def _ttft(scale: float) -> Converter:
    def conv(v: Any, key: str) -> Pairs:
        if v is None or (isinstance(v, str) and not v.strip()):
            return [("ttft_empty", True)]
        return [("ttft_ms", scaled(v, scale)), ("ttft_empty", False)]
    return conv


def _spec(v: Any, key: str) -> Pairs:
    if isinstance(v, bool):
        return [("speculative", v)]
    text = to_text(v).strip()
    if text.lower() in {"none", "off", "no", "false", "0", "", "baseline", "ar",
                        "autoregressive", "disabled", "n/a", "-"}:
        return [("speculative", False)]
    return [("spec_method", text), ("speculative", True)]


def _window(offset: int, rule: str) -> Converter:
    def conv(v: Any, key: str) -> Pairs:
        n = to_int(v)
        return [("spec_window", n + offset), ("spec_window_convention", rule.format(key=key, n=n))]
    return conv


def _al(v: Any, key: str) -> Pairs:
    if isinstance(v, str):
        m = _RANGE.match(v)
        if m:
            lo, hi = sorted((float(m.group(1)), float(m.group(2))))
            return [("acceptance_length_low", lo), ("acceptance_length_high", hi)]
    return [("acceptance_length", to_float(v))]


def _rate(v: Any, key: str) -> Pairs:
    r = to_float(v)
    if (isinstance(v, str) and v.strip().endswith("%")) or r > 1:
        r /= 100
    if not 0 <= r <= 1:
        raise BadValue(f"{v!r} is not an acceptance rate")
    return [("acceptance_rate", r)]


def _power(v: Any, key: str) -> Pairs:
    if isinstance(v, str):
        m = _RANGE.match(v)
        if m:
            lo, hi = sorted((float(m.group(1)), float(m.group(2))))
            if lo > 0:
                return [("power_w", lo), ("power_w_high", hi)]
    return [("power_w", to_rate(v))]


def _engine(v: Any, key: str) -> Pairs:
    out: Pairs = [("engine", to_text(v))]
    if isinstance(v, dict) and isinstance(v.get("version"), (str, int, float)):
        out.append(("engine_version", str(v["version"])))
    return out


def _per_user(scale: float | None) -> Converter:
    """A per-request decode rate: given as tok/s (scale None) or as a step time (TPOT / ITL) in
    ms (scale 1000) or seconds (scale 1), whose reciprocal is the rate."""
    def conv(v: Any, key: str) -> Pairs:
        x = to_rate(v)
        return [("per_user_tok_s", x if scale is None else round(scale / x, 2))]
    return conv


def _moe(v: Any, key: str) -> Pairs:
    """`is_moe: true`, or an architecture word ("moe", "dense"); any other word says nothing."""
    if isinstance(v, str) and v.strip().lower() in ("moe", "mixture-of-experts", "sparse", "dense"):
        return [("is_moe", v.strip().lower() != "dense")]
    if isinstance(v, str) and fold(v) not in ("true", "false", "yes", "no", "1", "0"):
        return []
    return [("is_moe", to_bool(v))]


def _al_bound(field: str) -> Converter:
    return lambda v, key: [(field, to_float(v))]


def _ratios(v: Any, key: str) -> Pairs:
    """`[[accepted, drafted], …]` or "a/b" strings."""
    items = v if isinstance(v, list) else [v]
    out: list[tuple[int, int]] = []
    for item in items:
        if isinstance(item, str) and "/" in item:
            item = item.split("/", 1)
        if not (isinstance(item, (list, tuple)) and len(item) == 2):
            raise BadValue(f"{item!r} is not an a/b ratio")
        out.append((to_int(item[0]), to_int(item[1])))
    return [("ratios", out)]


def _env(v: Any, key: str) -> Pairs:
    if not isinstance(v, dict):
        raise BadValue(f"{v!r} is not a set of environment variables")
    return [("env", {str(k): str(val) for k, val in v.items()})]


def _text(field: str) -> Converter:
    return _plain(field, to_text)


def _int(field: str) -> Converter:
    return _plain(field, to_int)


def _float(field: str) -> Converter:
    return _plain(field, to_float)


def _bool(field: str) -> Converter:
    return _plain(field, to_bool)


# Canonical target → converter. Mapping-config `fields` keys are these names. Order matters: it
# is the order values are applied, and the first value set for a claim field wins.
TARGETS: dict[str, Converter] = {
    "hardware": _text("hardware"),
    "hardware_count": _int("hardware_count"),
    "model": _text("model"),
    "params_total_b": _params,
    "params_active_b": _float("params_active_b"),
    "is_moe": _moe,
    "bits_per_weight": _float("bits_per_weight"),
    "model_size_bytes": _float("model_size_bytes"),
    "size_inferred": _bool("size_inferred"),
    "weight_format": _text("weight_format"),
    "kv_dtype": _text("kv_dtype"),
    "engine": _engine,
    "engine_version": _text("engine_version"),
    "container_image": _text("container_image"),
    "offload": _bool("offload"),
    "gpu_layers": _int("gpu_layers"),
    "system_ram_gb": _float("system_ram_gb"),
    "system_bandwidth_gbs": _float("system_bandwidth_gbs"),
    "batch": _int("batch"),
    "concurrency": _int("concurrency"),
    "input_tokens": _int("input_tokens"),
    "output_tokens": _int("output_tokens"),
    "context_length": _int("context_length"),
    "serving_claim": _bool("serving_claim"),
    "cell": _text("cell"),
    "tokens_generated": _int("tokens_generated"),
    "wall_seconds": _float("wall_seconds"),
    "tok_s": _tok_s(None),
    "decode_tok_s": _tok_s("decode"),
    "output_tok_s": _tok_s("output"),
    "total_tok_s": _tok_s("total"),
    "per_gpu_tok_s": _tok_s("per_gpu"),
    "tok_s_kind": _tok_s_kind,
    "per_user_tok_s": _per_user(None),
    "tpot_ms": _per_user(1000.0),
    "tpot_s": _per_user(1.0),
    "ttft_ms": _ttft(1.0),
    "ttft_s": _ttft(1000.0),
    "prefill_cached": _bool("prefill_cached"),
    "prefix_caching": _bool("prefix_caching"),
    "speedup": _float("speedup"),
    "baseline_tok_s": _float("baseline_tok_s"),
    "ttft_empty": _bool("ttft_empty"),
    "spec_method": _spec,
    "spec_window": _window(0, "board field '{key}' = window"),
    "num_draft_tokens": _window(0, "'{key}' {n} = window (SGLang num_draft_tokens / DFlash block size)"),
    "num_speculative_tokens": _window(1, "'{key}' {n} + 1 bonus token = window (vLLM convention)"),
    "spec_window_convention": _text("spec_window_convention"),
    "draft_steps": _int("draft_steps"),
    "draft_topk": _int("draft_topk"),
    "drafter_model": _text("drafter_model"),
    "acceptance_length": _al,
    "acceptance_length_low": _al_bound("acceptance_length_low"),
    "acceptance_length_high": _al_bound("acceptance_length_high"),
    "acceptance_rate": _rate,
    "accept_threshold": _float("accept_threshold"),
    "ratios": _ratios,
    "accepted_tokens": _int("accepted_tokens"),
    "drafted_tokens": _int("drafted_tokens"),
    "power_w": _power,
    "power_w_high": _float("power_w_high"),
    "power_method": _text("power_method"),
    "power_profile": _text("power_profile"),
    "temperature": _float("temperature"),
    "repeats": _int("repeats"),
    "cooldown_s": _float("cooldown_s"),
    "launch_command": _text("launch_command"),
    "env": _env,
    "notes": _text("notes"),
    "submitter": _text("submitter"),
    "date": _plain("date", to_date),
    "record_id": _text("record_id"),
    "source_url": _text("source_url"),
}
# Targets whose value fills several claim fields: the first field is the one that decides
# whether this value is still needed.
_PRIMARY = {"decode_tok_s": "tok_s", "output_tok_s": "tok_s", "total_tok_s": "tok_s",
            "ttft_s": "ttft_ms", "num_draft_tokens": "spec_window",
            "num_speculative_tokens": "spec_window", "acceptance_length": "acceptance_length",
            "per_gpu_tok_s": "tok_s", "tpot_ms": "per_user_tok_s", "tpot_s": "per_user_tok_s"}
THROUGHPUT_TARGETS = ("tok_s", "decode_tok_s", "output_tok_s", "total_tok_s", "per_gpu_tok_s")
_EMPTY_MEANS_SOMETHING = ("ttft_ms", "ttft_s")

# Ordinary spellings (already folded) → target.
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "hardware": ("gpu", "hardware", "accelerator", "accelerator_name", "device", "gpu_name",
                 "gpu_model", "hardware_name", "accel_name", "accelerator_model_name", "hw",
                 "chip_name", "gpu_info", "card"),
    "hardware_count": ("tp", "tensor_parallel", "tensor_parallel_size", "hardware_count",
                       "num_gpus", "gpu_count", "n_gpus", "gpus", "total_accelerators",
                       "chip_count", "num_chips", "accelerator_count"),
    "model": ("model", "model_name", "model_id", "llm", "model_filename", "model_type"),
    "params_total_b": ("params", "params_b", "parameters_b", "param_count_b",
                       "parameter_count_b", "params_total_b", "model_n_params", "model_params",
                       "n_params", "num_params"),
    "params_active_b": ("params_active_b", "active_params_b", "active_params",
                        "active_parameters_b"),
    "is_moe": ("is_moe", "moe", "architecture"),
    "bits_per_weight": ("bits_per_weight", "bpw"),
    "model_size_bytes": ("model_size_bytes", "model_size", "model_bytes", "size_bytes"),
    "size_inferred": ("size_inferred",),
    "weight_format": ("quant", "quantization", "precision", "weight_format", "dtype",
                      "weight_dtype", "quant_type", "weights", "model_quant_str", "quant_str",
                      "weight_data_types"),
    "kv_dtype": ("kv_dtype", "kv_cache_dtype", "kv_cache_type", "kv_type", "type_k"),
    "engine": ("engine", "framework", "runtime", "backend", "inference_engine", "runtime_name"),
    "engine_version": ("engine_version", "version", "framework_version", "runtime_version",
                       "engine_build", "build_commit", "commit_hash"),
    "container_image": ("image", "container_image", "docker_image"),
    "offload": ("offload", "cpu_offload", "offloaded"),
    "gpu_layers": ("gpu_layers", "n_gpu_layers", "ngl"),
    "system_ram_gb": ("system_ram_gb", "ram_gb", "system_memory_gb", "host_memory_gb"),
    "system_bandwidth_gbs": ("system_bandwidth_gbs", "memory_bandwidth_gbs",
                             "system_memory_bandwidth_gbs"),
    "batch": ("batch", "batch_size", "bs"),
    "concurrency": ("concurrency", "conc", "max_concurrency", "client_concurrency",
                    "target_concurrency", "sustained_concurrency"),
    "input_tokens": ("isl", "input_len", "input_tokens", "prompt_tokens", "n_prompt",
                     "prompt_len", "input_length"),
    "output_tokens": ("osl", "output_len", "n_gen", "output_length", "gen_len", "max_tokens",
                      "output_tokens"),
    "context_length": ("context", "context_length", "ctx", "ctx_len", "ctx_size", "max_context"),
    "serving_claim": ("serving_claim",),
    "cell": ("cell", "scenario", "test_name", "workload"),
    "tokens_generated": ("tokens", "tokens_generated", "generated_tokens", "completion_tokens",
                         "num_tokens"),
    "wall_seconds": ("seconds", "wall_seconds", "elapsed_s", "elapsed", "elapsed_seconds",
                     "duration", "duration_s", "wall_time", "wall_time_s"),
    "tok_s": ("tokens_per_second", "tok_s", "tps", "throughput", "tokens_per_sec", "tokens_sec",
              "tokens_s", "t_s", "tok_sec", "toks_per_sec", "speed",
              "throughput_tokens_per_sec"),
    "decode_tok_s": ("decode_tps", "gen_tps", "decode_tok_s", "generation_tps", "tg_tps",
                     "decode_tokens_per_second", "gen_tok_s", "decode_throughput",
                     "avg_gen_tps"),
    "output_tok_s": ("output_tok_s", "output_tps", "output_throughput",
                     "output_tokens_per_second", "output_token_throughput"),
    "total_tok_s": ("total_tps", "total_tok_s", "total_throughput", "total_token_throughput",
                    "total_tput_tps"),
    "per_gpu_tok_s": ("per_gpu_tok_s", "tok_s_per_gpu", "output_tput_per_gpu", "tput_per_gpu",
                      "throughput_tokens_per_sec_per_chip", "tokens_per_sec_per_chip"),
    "tok_s_kind": ("tok_s_kind", "throughput_kind", "rate_kind"),
    "per_user_tok_s": ("per_user_tok_s", "tok_s_per_user", "tokens_per_second_per_user",
                       "output_token_throughput_per_user", "intvty", "median_intvty",
                       "interactivity", "tps_per_user"),
    "tpot_ms": ("tpot_ms", "median_tpot_ms", "mean_tpot_ms", "tpot_ms_p50", "median_itl_ms",
                "itl_ms", "time_per_output_token_ms", "inter_token_latency_ms"),
    "tpot_s": ("tpot_s", "median_tpot", "mean_tpot"),
    "ttft_ms": ("ttft_ms", "ttft", "time_to_first_token_ms", "time_to_first_token",
                "first_token_ms", "median_ttft_ms", "mean_ttft_ms", "ttft_ms_p50",
                "avg_ttft_ms"),
    "ttft_s": ("ttft_s", "ttft_sec", "ttft_seconds", "time_to_first_token_s", "median_ttft"),
    "ttft_empty": ("ttft_empty",),
    "prefill_cached": ("prefill_cached", "prefill_from_cache", "cached_prefill", "prompt_cached"),
    "prefix_caching": ("prefix_caching", "prefix_cache", "enable_prefix_caching", "radix_cache"),
    "speedup": ("speedup", "decoding_speedup", "speedup_x"),
    "baseline_tok_s": ("baseline_tok_s", "baseline_tps", "baseline_throughput",
                       "baseline_tokens_per_second"),
    "spec_method": ("spec_method", "speculative_method", "spec_decoding", "draft_method",
                    "speculative_algorithm", "spec_algo", "spec_decode", "speculative"),
    "spec_window": ("window", "spec_window", "draft_window", "speculative_window",
                    "window_width"),
    "num_draft_tokens": ("num_draft_tokens", "block_size", "speculative_num_draft_tokens",
                         "dflash_block_size", "draft_tokens"),
    "num_speculative_tokens": ("num_speculative_tokens", "num_spec_tokens",
                               "speculative_tokens", "speculative_num_tokens"),
    "spec_window_convention": ("spec_window_convention", "window_convention"),
    "draft_steps": ("draft_steps", "num_steps", "speculative_num_steps"),
    "draft_topk": ("draft_topk", "eagle_topk", "speculative_eagle_topk"),
    "drafter_model": ("drafter", "draft_model", "drafter_model", "draft_model_id",
                      "draft_model_path", "speculative_draft_model_id"),
    "acceptance_length": ("al", "acceptance_length", "accept_len", "mean_accepted_tokens",
                          "accept_length", "avg_accept_length", "mean_acceptance_length",
                          "spec_decode_acceptance_length", "spec_accept_length"),
    "acceptance_length_low": ("acceptance_length_low", "al_low", "al_min"),
    "acceptance_length_high": ("acceptance_length_high", "al_high", "al_max"),
    "acceptance_rate": ("acceptance_rate", "accept_rate", "draft_acceptance_rate",
                        "spec_decode_acceptance_rate"),
    "accept_threshold": ("accept_threshold", "acceptance_threshold",
                         "speculative_accept_threshold_acc"),
    "accepted_tokens": ("accepted_tokens", "num_accepted_tokens", "spec_decode_accepted_tokens",
                        "draft_n_accepted"),
    "drafted_tokens": ("drafted_tokens", "num_drafted_tokens", "spec_decode_draft_tokens",
                       "draft_n"),
    "ratios": ("ratios", "accepted_drafted"),
    "power_w": ("power_w", "power_watts", "watts", "avg_power_w", "power", "power_draw_w",
                "gpu_power_w", "power_watts_avg", "avg_total_gpu_power_w"),
    "power_w_high": ("power_w_high", "power_watts_peak", "peak_power_w", "max_power_draw_w"),
    "power_method": ("power_method", "power_source"),
    "power_profile": ("power_profile", "power_limit", "power_limit_w", "power_cap_w"),
    "temperature": ("temperature", "temp"),
    "repeats": ("repeats", "runs", "num_runs", "repetitions", "n_runs", "reps"),
    "cooldown_s": ("cooldown", "cooldown_s", "cooldown_seconds"),
    "launch_command": ("launch_command", "command", "cmd", "launch", "launch_cmd",
                       "command_line", "cmdline", "server_command", "reproduce_command",
                       "reproduce", "invocation", "launch_script", "serve_command"),
    "env": ("env", "env_vars", "environment_variables"),
    "notes": ("notes", "note", "comments", "comment", "runtime_notes", "description", "remarks",
              "sw_notes", "remark"),
    "submitter": ("submitter", "user", "author", "submitted_by", "username", "uploader"),
    "date": ("date", "created_at", "timestamp", "submitted_at", "created", "run_date",
             "test_time", "collected_at"),
    "record_id": ("id", "record_id", "run_id", "result_id", "submission_id", "uuid"),
    "source_url": ("url", "run_url", "source_url", "link", "permalink", "record_url"),
}


def _index() -> dict[str, str]:
    out: dict[str, str] = {}
    for target, spellings in FIELD_ALIASES.items():
        if target not in TARGETS:
            raise RuntimeError(f"alias table names unknown target {target!r}")
        for s in spellings:
            if fold(s) in out:
                raise RuntimeError(f"alias {s!r} maps to both {out[fold(s)]!r} and {target!r}")
            out[fold(s)] = target
    return out


ALIAS_INDEX = _index()


def apply_target(b: ClaimBuilder, target: str, value: Any, path: str, key: str) -> None:
    """Convert one value through `TARGETS[target]` and set its claim fields (first value wins).

    An empty value says nothing, except for TTFT, where an empty field is itself the finding."""
    if target not in _EMPTY_MEANS_SOMETHING and (value is None or value == "" or value == []):
        return
    pairs = TARGETS[target](value, key)
    if not pairs:
        return
    primary = _PRIMARY.get(target, pairs[0][0])
    if b.has(primary) or b.has(pairs[0][0]):
        return
    span = None if value is None or isinstance(value, (dict, list)) else str(value)[:200]
    for field, val in pairs:
        b.set(field, val, field=path, span=span)
