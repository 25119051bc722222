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
    "weight_format": _text("weight_format"),
    "kv_dtype": _text("kv_dtype"),
    "engine": _engine,
    "engine_version": _text("engine_version"),
    "container_image": _text("container_image"),
    "batch": _int("batch"),
    "concurrency": _int("concurrency"),
    "input_tokens": _int("input_tokens"),
    "output_tokens": _int("output_tokens"),
    "context_length": _int("context_length"),
    "tokens_generated": _int("tokens_generated"),
    "wall_seconds": _float("wall_seconds"),
    "tok_s": _tok_s(None),
    "decode_tok_s": _tok_s("decode"),
    "output_tok_s": _tok_s("output"),
    "total_tok_s": _tok_s("total"),
    "tok_s_kind": _tok_s_kind,
    "ttft_ms": _ttft(1.0),
    "ttft_s": _ttft(1000.0),
    "prefill_cached": _bool("prefill_cached"),
    "prefix_caching": _bool("prefix_caching"),
    "spec_method": _spec,
    "spec_window": _window(0, "board field '{key}' = window"),
    "num_draft_tokens": _window(0, "'{key}' {n} = window (SGLang num_draft_tokens / DFlash block size)"),
    "num_speculative_tokens": _window(1, "'{key}' {n} + 1 bonus token = window (vLLM convention)"),
    "draft_steps": _int("draft_steps"),
    "draft_topk": _int("draft_topk"),
    "drafter_model": _text("drafter_model"),
    "acceptance_length": _al,
    "acceptance_rate": _rate,
    "accepted_tokens": _int("accepted_tokens"),
    "drafted_tokens": _int("drafted_tokens"),
    "power_w": _power,
    "power_method": _text("power_method"),
    "temperature": _float("temperature"),
    "repeats": _int("repeats"),
    "cooldown_s": _float("cooldown_s"),
    "launch_command": _text("launch_command"),
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
            "num_speculative_tokens": "spec_window", "acceptance_length": "acceptance_length"}
THROUGHPUT_TARGETS = ("tok_s", "decode_tok_s", "output_tok_s", "total_tok_s")
_EMPTY_MEANS_SOMETHING = ("ttft_ms", "ttft_s")

# Ordinary spellings (already folded) → target.
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "hardware": ("gpu", "hardware", "accelerator", "accelerator_name", "device", "gpu_name",
                 "gpu_model", "hardware_name"),
    "hardware_count": ("tp", "tensor_parallel", "tensor_parallel_size", "hardware_count",
                       "num_gpus", "gpu_count", "n_gpus", "gpus"),
    "model": ("model", "model_name", "model_id", "llm"),
    "params_total_b": ("params", "params_b", "parameters_b", "param_count_b",
                       "parameter_count_b", "params_total_b"),
    "weight_format": ("quant", "quantization", "precision", "weight_format", "dtype",
                      "weight_dtype", "quant_type", "weights"),
    "kv_dtype": ("kv_dtype", "kv_cache_dtype", "kv_cache_type", "kv_type"),
    "engine": ("engine", "framework", "runtime", "backend", "inference_engine"),
    "engine_version": ("engine_version", "version", "framework_version", "runtime_version",
                       "engine_build"),
    "container_image": ("image", "container_image", "docker_image"),
    "batch": ("batch", "batch_size", "bs"),
    "concurrency": ("concurrency", "conc", "max_concurrency", "client_concurrency"),
    "input_tokens": ("isl", "input_len", "input_tokens", "prompt_tokens", "n_prompt",
                     "prompt_len", "input_length"),
    "output_tokens": ("osl", "output_len", "n_gen", "output_length", "gen_len", "max_tokens"),
    "context_length": ("context", "context_length", "ctx", "ctx_len", "ctx_size", "max_context"),
    "tokens_generated": ("tokens", "tokens_generated", "generated_tokens", "completion_tokens",
                         "num_tokens"),
    "wall_seconds": ("seconds", "wall_seconds", "elapsed_s", "elapsed", "elapsed_seconds",
                     "duration", "duration_s", "wall_time", "wall_time_s"),
    "tok_s": ("tokens_per_second", "tok_s", "tps", "throughput", "tokens_per_sec", "tokens_sec",
              "tokens_s", "t_s", "tok_sec", "toks_per_sec", "speed"),
    "decode_tok_s": ("decode_tps", "gen_tps", "decode_tok_s", "generation_tps", "tg_tps",
                     "decode_tokens_per_second", "gen_tok_s", "decode_throughput"),
    "output_tok_s": ("output_tok_s", "output_tps", "output_throughput",
                     "output_tokens_per_second"),
    "total_tok_s": ("total_tps", "total_tok_s", "total_throughput", "total_token_throughput"),
    "ttft_ms": ("ttft_ms", "ttft", "time_to_first_token_ms", "time_to_first_token",
                "first_token_ms"),
    "ttft_s": ("ttft_s", "ttft_sec", "ttft_seconds", "time_to_first_token_s"),
    "prefill_cached": ("prefill_cached", "prefill_from_cache", "cached_prefill", "prompt_cached"),
    "prefix_caching": ("prefix_caching", "prefix_cache", "enable_prefix_caching", "radix_cache"),
    "spec_method": ("spec_method", "speculative_method", "spec_decoding", "draft_method",
                    "speculative_algorithm", "spec_algo", "spec_decode", "speculative"),
    "spec_window": ("window", "spec_window", "draft_window", "speculative_window",
                    "window_width"),
    "num_draft_tokens": ("num_draft_tokens", "block_size", "speculative_num_draft_tokens",
                         "dflash_block_size", "draft_tokens"),
    "num_speculative_tokens": ("num_speculative_tokens", "num_spec_tokens",
                               "speculative_tokens"),
    "draft_steps": ("draft_steps", "num_steps", "speculative_num_steps"),
    "draft_topk": ("draft_topk", "eagle_topk", "speculative_eagle_topk"),
    "drafter_model": ("drafter", "draft_model", "drafter_model", "draft_model_id",
                      "draft_model_path"),
    "acceptance_length": ("al", "acceptance_length", "accept_len", "mean_accepted_tokens",
                          "accept_length", "avg_accept_length", "mean_acceptance_length"),
    "acceptance_rate": ("acceptance_rate", "accept_rate", "draft_acceptance_rate"),
    "accepted_tokens": ("accepted_tokens", "num_accepted_tokens"),
    "drafted_tokens": ("drafted_tokens", "num_drafted_tokens"),
    "power_w": ("power_w", "power_watts", "watts", "avg_power_w", "power", "power_draw_w",
                "gpu_power_w", "power_watts_avg"),
    "power_method": ("power_method", "power_source"),
    "temperature": ("temperature", "temp"),
    "repeats": ("repeats", "runs", "num_runs", "repetitions", "n_runs", "reps"),
    "cooldown_s": ("cooldown", "cooldown_s", "cooldown_seconds"),
    "launch_command": ("launch_command", "command", "cmd", "launch", "launch_cmd",
                       "command_line", "cmdline", "server_command"),
    "notes": ("notes", "note", "comments", "comment", "runtime_notes", "description", "remarks"),
    "submitter": ("submitter", "user", "author", "submitted_by", "username", "uploader"),
    "date": ("date", "created_at", "timestamp", "submitted_at", "created", "run_date"),
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
