"""KV-cache bytes: per context token from the model's geometry and KV dtype, per sequence.

The generous reading assumes the smallest KV dtype in common use (FP8), the realistic one the
engines' default (BF16), when the record does not state it.
"""

from __future__ import annotations

import re

from checks.models import Assumption, Claim
from checks.physics.figures import GB, Derived, Missing, join_parts, num
from checks.reference import ModelRow

__all__ = [
    "DEFAULT_KV_BYTES",
    "GENEROUS_KV_BYTES",
    "context_tokens",
    "kv_bytes_per_token",
    "kv_gb_per_sequence",
    "serving_context_tokens",
]

# Generous KV: FP8 (1 byte), the smallest KV-cache dtype in common use (SGLang/vLLM
# --kv-cache-dtype fp8). Realistic KV: BF16 (2 bytes), the engines' default ("auto" = model dtype).
GENEROUS_KV_BYTES = 1.0
DEFAULT_KV_BYTES = 2.0
# Bytes per KV element by dtype name (GGUF block sizes from gguf-py GGML_QUANT_SIZES in
# ggml-org/llama.cpp: q8_0 34 B per 32, q4_0 18 B per 32).
_KV_DTYPE_BYTES = {
    "fp32": 4.0, "float32": 4.0, "f32": 4.0,
    "bf16": 2.0, "bfloat16": 2.0, "fp16": 2.0, "float16": 2.0, "f16": 2.0, "half": 2.0,
    "fp8": 1.0, "fp8e4m3": 1.0, "fp8e5m2": 1.0, "int8": 1.0, "q80": 34 / 32,
    "q40": 18 / 32, "nvfp4": 0.5625, "fp4": 0.5625,
}

_A_KV_GENEROUS = Assumption(
    name="KV bytes per element (generous, dtype unknown)", value=GENEROUS_KV_BYTES, unit="bytes",
    source="FP8 KV cache, the smallest in common use (SGLang/vLLM --kv-cache-dtype fp8)",
)
_A_KV_DEFAULT = Assumption(
    name="KV bytes per element (realistic, dtype unknown)", value=DEFAULT_KV_BYTES, unit="bytes",
    source="BF16, the engines' default KV dtype (--kv-cache-dtype auto = model dtype)",
)


def _kv_dtype_bytes(kv_dtype: str | None, generous: bool) -> tuple[float, tuple[Assumption, ...], str]:
    key = re.sub(r"[^a-z0-9]", "", (kv_dtype or "").lower())
    if key in _KV_DTYPE_BYTES:
        return _KV_DTYPE_BYTES[key], (), f"KV dtype {kv_dtype}"
    a, value = (_A_KV_GENEROUS, GENEROUS_KV_BYTES) if generous else (_A_KV_DEFAULT, DEFAULT_KV_BYTES)
    why = f"KV dtype '{kv_dtype}' unknown" if kv_dtype else "KV dtype not stated"
    return value, (a,), f"{why}: {num(value)} byte(s) per element assumed"


def kv_bytes_per_token(model: ModelRow | None, kv_dtype: str | None, *, generous: bool) -> Derived | Missing:
    """KV-cache bytes per context token: 2 (K and V) × KV layers × KV heads × head dim × bytes."""
    if model is None:
        return Missing(("model row (KV geometry)",))
    per_elem, assumptions, dtype_text = _kv_dtype_bytes(kv_dtype, generous)
    layers = model.kv_layers or model.layers
    if model.kv_bytes_per_token_bf16:
        bf16 = model.kv_bytes_per_token_bf16
        how = f"{model.cite()}: {num(bf16)} B/token at BF16"
    elif layers and model.kv_heads and model.head_dim:
        bf16 = 2 * layers * model.kv_heads * model.head_dim * 2
        how = (f"{model.cite()}: 2 × {layers} KV layers × {model.kv_heads} KV heads × "
               f"{model.head_dim} head dim × 2 B = {num(bf16)} B/token at BF16")
    else:
        return Missing((f"KV geometry (layers, KV heads, head dim) of {model.name}",))
    value = bf16 * per_elem / 2
    return Derived(value, "B", (how, f"{dtype_text}: {num(bf16)} × {num(per_elem)} ÷ 2 = {num(value)} B/token"),
                   assumptions)


def context_tokens(claim: Claim) -> Derived | None:
    """The context the KV cache holds: the stated context length, else input + output tokens."""
    if claim.context_length:
        return Derived(claim.context_length, "tokens",
                       (f"{claim.source_of('context_length')} = {claim.context_length} tokens",))
    if claim.input_tokens or claim.output_tokens:
        n = (claim.input_tokens or 0) + (claim.output_tokens or 0)
        return Derived(n, "tokens", ((f"context = input {claim.input_tokens or 0} + output "
                                      f"{claim.output_tokens or 0} = {n} tokens"),))
    return None


def serving_context_tokens(claim: Claim) -> Derived | None:
    """The context a decoding sequence holds on average under continuous batching: a request
    decodes its output tokens at positions input + 1 … input + output, so it sits at input +
    output ÷ 2 on average (fewer KV bytes per sequence than the final length: the reading that
    favours an aggregate claim). A stated context length is used as stated."""
    if claim.context_length or claim.input_tokens is None or claim.output_tokens is None:
        return context_tokens(claim)
    n = claim.input_tokens + claim.output_tokens / 2
    return Derived(n, "tokens", ((f"average context while decoding = input {claim.input_tokens} + "
                                  f"output {claim.output_tokens} ÷ 2 = {num(n)} tokens"),))


def kv_gb_per_sequence(claim: Claim, model: ModelRow | None, *, generous: bool,
                       context: Derived | None = None) -> Derived:
    """KV GB one sequence reads per step at its context (`context`, else the claim's); 0 (said)
    when context or geometry is unknown."""
    ctx = context if context is not None else context_tokens(claim)
    if ctx is None:
        return Derived(0.0, "GB", notes=("no context length stated: KV reads not counted",))
    per_token = kv_bytes_per_token(model, claim.kv_dtype, generous=generous)
    if isinstance(per_token, Missing):
        return Derived(0.0, "GB", notes=(f"KV reads not counted: no {per_token.what[0]}",))
    gb = per_token.value * ctx.value / GB
    basis, assumptions, notes = join_parts(ctx, per_token)
    return Derived(gb, "GB", (*basis, f"KV = {num(per_token.value)} B × {num(ctx.value)} tokens = {num(gb)} GB"),
                   assumptions, notes)
