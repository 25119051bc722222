"""The field alias table: ordinary spellings of each claim field.

`FIELD_ALIASES` maps a canonical target (see `targets.TARGETS`, which converts each target's
value into claim fields) to the spellings boards use for it (gpu / hardware / accelerator,
tokens_per_second / tok_s / throughput, …); `ALIAS_INDEX` is the same table keyed by folded
spelling, and `apply_target` sets a value's claim fields on a `ClaimBuilder` with the JSON path as
provenance.

Quirks, each with its reason:
- Keys are folded (case, `-`, `_`, spaces, `/`) so `Tok/s`, `tok-s` and `TOK_S` are one spelling.
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
- `n_batch` (llama.cpp's prompt batch) is deliberately not the decode batch, and a server's
  `max_model_len` is its cap, not the run's context: neither is an alias.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from extractors.builder import ClaimBuilder
from extractors.formats.targets import (
    EMPTY_MEANS_SOMETHING,
    PRIMARY,
    TARGETS,
    THROUGHPUT_TARGETS,
    fold,
)

__all__ = [
    "ALIAS_INDEX",
    "FIELD_ALIASES",
    "TARGETS",
    "THROUGHPUT_TARGETS",
    "apply_target",
    "fold",
]

# Ordinary spellings (already folded) → target.
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "hardware": ("gpu", "hardware", "accelerator", "accelerator_name", "device", "gpu_name",
                 "gpu_model", "hardware_name", "accel_name", "accelerator_model_name", "hw",
                 "chip_name", "gpu_info", "card"),
    "hardware_count": ("tp", "tensor_parallel", "tensor_parallel_size", "hardware_count",
                       "num_gpus", "gpu_count", "n_gpus", "gpus", "total_accelerators",
                       "chip_count", "num_chips", "accelerator_count",
                       # argonne-lcf/LLM-Inference-Bench's CSVs: "Num of Hardware"
                       "num_of_hardware", "number_of_gpus", "num_devices", "device_count"),
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
                      "model_quant",
                      "weight_data_types"),
    "kv_dtype": ("kv_dtype", "kv_cache_dtype", "kv_cache_type", "kv_type", "type_k"),
    "engine": ("engine", "framework", "runtime", "backend", "inference_engine", "runtime_name"),
    "engine_version": ("engine_version", "version", "framework_version", "runtime_version",
                       "engine_build", "build_commit", "commit_hash"),
    "container_image": ("image", "container_image", "docker_image"),
    "offload": ("offload", "cpu_offload", "offloaded"),
    "gpu_layers": ("gpu_layers", "n_gpu_layers", "ngl"),
    "host": ("host", "host_cpu"),
    "kv_depth": ("kv_depth", "n_kv"),
    "accepted_per_pass": ("accepted_per_pass", "accepted_drafts_per_pass"),
    "system_ram_gb": ("system_ram_gb", "ram_gb", "system_memory_gb", "host_memory_gb"),
    "hardware_memory_gb": ("accel_ram", "accel_memory", "accelerator_memory",
                           "accelerator_memory_gb", "accelerator_memory_capacity", "gpu_memory",
                           "gpu_memory_gb", "vram", "vram_gb", "gpu_ram", "accel_ram_gb",
                           "hardware_memory_gb", "accel_memory_gb"),
    "system_bandwidth_gbs": ("system_bandwidth_gbs", "memory_bandwidth_gbs",
                             "system_memory_bandwidth_gbs"),
    "batch": ("batch", "batch_size", "bs"),
    "concurrency": ("concurrency", "conc", "max_concurrency", "client_concurrency",
                    "target_concurrency", "sustained_concurrency"),
    # llama-server's slots: `--parallel` (n_parallel) and its /props `total_slots`
    "server_slots": ("server_slots", "n_parallel", "total_slots"),
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
    "tpot_target_ms": ("tpot_target_ms", "target_tpot_ms", "tpot_latency_ms", "tpot_slo_ms"),
    "ttft_target_ms": ("ttft_target_ms", "target_ttft_ms", "ttft_latency_ms", "ttft_slo_ms",
                       "sla_ttft_ms"),
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
    "record_id": ("id", "record_id", "run_id", "result_id", "submission_id", "uuid", "run",
                  "test_num", "test_id", "row_id", "entry_id", "run_number", "run_no"),
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
    if target not in EMPTY_MEANS_SOMETHING and (value is None or value == "" or value == []):
        return
    pairs = (_converted(target, value, key) if target not in _FRESH and _memoisable(value)
             else TARGETS[target](value, key))
    if not pairs:
        return
    primary = PRIMARY.get(target, pairs[0][0])
    if b.has(primary) or b.has(pairs[0][0]):
        return
    span = None if value is None or isinstance(value, (dict, list)) else str(value)[:200]
    for field, val in pairs:
        b.set(field, val, field=path, span=span)


# Targets whose converters build a list or dict (ratios, env): each record gets its own.
_FRESH = frozenset({"ratios", "env"})
# The longest text whose conversion is remembered: a board's hardware, model and engine names are
# short and repeat on every record; its notes and commands are read by `record_text`'s memo.
_MEMO_TEXT = 256


def _memoisable(value: Any) -> bool:
    """A value whose conversion `_converted` may remember: a short text, an int or bool, a float
    other than a zero (0.0 and -0.0 are equal keys that convert to different figures) or a NaN
    (never equal to itself, so never found again)."""
    kind = type(value)
    if kind is str:
        return len(value) <= _MEMO_TEXT
    if kind is int or kind is bool:
        return True
    return kind is float and value == value and value != 0.0


# Converters are pure functions of (value, source key), and a board writes the same values under
# the same keys on record after record (its cards, models, engines, batch sizes): each distinct
# (target, value, key) is converted once (bounded; typed, so 1, 1.0 and True stay apart). A value
# that does not convert raises BadValue every time (exceptions are not remembered).
@lru_cache(maxsize=8192, typed=True)
def _converted(target: str, value: Any, key: str) -> tuple[tuple[str, Any], ...]:
    return tuple(TARGETS[target](value, key))
