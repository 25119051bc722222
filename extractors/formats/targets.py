"""What each alias-table target means: how one value converts into claim fields.

`TARGETS` maps a canonical target (`tok_s`, `ttft_s`, `num_speculative_tokens`, …) to a converter
`(value, source key) -> [(claim field, value), …]`; `aliases.FIELD_ALIASES` lists the spellings
boards use for each target. Split from `aliases` so each module keeps one job.

Quirks, each with its reason:
- A present-but-empty TTFT is itself a finding (the seed's "TTFT empty"): it sets `ttft_empty`.
- Draft windows come in three conventions: a `window` is the window; SGLang's
  `num_draft_tokens` and DFlash's `block_size` are the window; vLLM's `num_speculative_tokens`
  is k drafts plus the bonus token, so the window is k + 1. The rule used is recorded.
- An AL can be a range ("231–292"); it fills the low/high fields, never the point value.
- Acceptance rates arrive as percentages or fractions; > 1 is read as a percentage.
- Sizes read their unit wherever the record writes it ("8000 M", "729.64 MiB": `units`).
- A per-request step time (TPOT, ITL) is a per-user rate: 1000 / ms, or 1 / s for InferenceX's
  converted keys.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, get_args

from checks.models import TokSKind
from extractors.formats.units import to_billions, to_bytes, to_gigabytes
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
from extractors.text.lazyre import lazy

__all__ = ["EMPTY_MEANS_SOMETHING", "PRIMARY", "TARGETS", "THROUGHPUT_TARGETS", "UNIT_TARGETS",
           "Converter", "fold"]


_NOT_KEY = re.compile(r"[^a-z0-9]+")
def fold(key: str) -> str:
    """`Tok/s` → `tok_s`, `Power-Watts` → `power_watts`."""
    if type(key) is not str:
        return _NOT_KEY.sub("_", str(key).lower()).strip("_")
    return _fold_text(key)


# Boards spell the same few dozen keys on every record: one fold per distinct key, bounded.
@lru_cache(maxsize=4096)
def _fold_text(key: str) -> str:
    return _NOT_KEY.sub("_", key.lower()).strip("_")


# A quoted range ("231–292", "350-400 W"): ALs and power draws are often given as one.
_RANGE = lazy(
    r"^\s*(\d+(?:\.\d+)?)\s*(?:-|–|—|~|to|\.\.)\s*(\d+(?:\.\d+)?)\s*[a-zA-Z%/ ]*$"
)


Pairs = list[tuple[str, Any]]
Converter = Callable[[Any, str], Pairs]  # (value, source key) -> [(claim field, value), …]


def _plain(field: str, conv: Callable[[Any], Any]) -> Converter:
    return lambda v, key: [(field, conv(v))]


def _params(v: Any, key: str) -> Pairs:
    return [("params_total_b", to_billions(v))]  # "8000 M", "8B", a raw count or billions


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
    "params_active_b": _plain("params_active_b", to_billions),
    "is_moe": _moe,
    "bits_per_weight": _float("bits_per_weight"),
    "model_size_bytes": _plain("model_size_bytes", to_bytes),
    "size_inferred": _bool("size_inferred"),
    "weight_format": _text("weight_format"),
    "kv_dtype": _text("kv_dtype"),
    "engine": _engine,
    "engine_version": _text("engine_version"),
    "container_image": _text("container_image"),
    "offload": _bool("offload"),
    "gpu_layers": _int("gpu_layers"),
    "host": _text("host"),
    "kv_depth": _int("kv_depth"),
    "accepted_per_pass": _float("accepted_per_pass"),
    "system_ram_gb": _plain("system_ram_gb", to_gigabytes),
    "hardware_memory_gb": _plain("hardware_memory_gb", to_gigabytes),
    "tpot_target_ms": _plain("tpot_target_ms", to_rate),
    "ttft_target_ms": _plain("ttft_target_ms", to_rate),
    "system_bandwidth_gbs": _float("system_bandwidth_gbs"),
    "batch": _int("batch"),
    "concurrency": _int("concurrency"),
    "server_slots": _int("server_slots"),
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
PRIMARY = {"decode_tok_s": "tok_s", "output_tok_s": "tok_s", "total_tok_s": "tok_s",
            "ttft_s": "ttft_ms", "num_draft_tokens": "spec_window",
            "num_speculative_tokens": "spec_window", "acceptance_length": "acceptance_length",
            "per_gpu_tok_s": "tok_s", "tpot_ms": "per_user_tok_s", "tpot_s": "per_user_tok_s"}
THROUGHPUT_TARGETS = ("tok_s", "decode_tok_s", "output_tok_s", "total_tok_s", "per_gpu_tok_s")
EMPTY_MEANS_SOMETHING = ("ttft_ms", "ttft_s")
# Targets whose value may carry a unit (a unit column, a header unit, a cell suffix: `units`).
UNIT_TARGETS = ("params_total_b", "params_active_b", "model_size_bytes", "system_ram_gb",
                "hardware_memory_gb")
