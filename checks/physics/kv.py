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
    "FULL_ATTENTION",
    "GENEROUS_KV_BYTES",
    "SMALLEST_KV_BYTES",
    "context_tokens",
    "depth_kv_gb",
    "kv_bytes_per_token",
    "kv_gb_per_sequence",
    "parallel_slots",
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

# The smallest KV-cache element any engine in common use stores: llama.cpp's q4_0 / iq4_nl cache
# types, 18 bytes per block of 32 (ikawrakow/ik_llama.cpp@8337e4cd3861 common/common.cpp
# kv_cache_type_from_str: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1, q6_0, q8_KV;
# block sizes from gguf-py GGML_QUANT_SIZES); NVFP4's 4 bits + an FP8 scale per 16 is the same.
SMALLEST_KV_BYTES = 18 / 32
# Models whose every KV layer attends to the whole context (no sliding window, no chunked local
# attention), so a token decoded after N cached tokens reads all N of them: their configs set no
# sliding window (Llama 2/3.x, GPT-J, DeepSeek/Kimi/GLM MLA and GQA) or `use_sliding_window: false`
# (Qwen2.5, Qwen3; Qwen3-Next/3.5 count only their full-attention layers in `kv_layers`). Gemma 2/3
# and gpt-oss (sliding layers), Llama 4 (chunked attention), Mistral-family and Phi models (sliding
# windows in some releases) are left out: their long-context reads are smaller than N tokens'.
FULL_ATTENTION = frozenset({
    "Llama 2 7B", "Llama 2 13B", "Llama 2 70B", "Llama 3 8B", "Llama 3 70B", "Llama 3.1 8B",
    "Llama 3.1 70B", "Llama 3.1 405B", "Llama 3.2 1B", "Llama 3.2 3B", "GPT-J 6B",
    "Qwen2.5 0.5B", "Qwen2.5 1.5B", "Qwen2.5 3B", "Qwen2.5 7B", "Qwen2.5 14B", "Qwen2.5 32B",
    "Qwen2.5 72B", "Qwen3 0.6B", "Qwen3 1.7B", "Qwen3 4B", "Qwen3 8B", "Qwen3 14B", "Qwen3 32B",
    "Qwen3 30B-A3B", "Qwen3 235B-A22B", "Qwen3-Coder 480B-A35B", "Qwen3-Next 80B-A3B",
    "Qwen3.5 35B-A3B", "Qwen3.5 122B-A10B", "Qwen3.5 397B-A17B", "Qwen3.6-27B",
    "DeepSeek V2 Lite", "DeepSeek V3", "Kimi K2", "GLM-4.5", "GLM-4.5-Air", "GLM-4.7-Flash",
})

_A_KV_SMALLEST = Assumption(
    name="KV bytes per element (smallest cache type, dtype unknown)", value=SMALLEST_KV_BYTES, unit="bytes",
    source="llama.cpp q4_0 / iq4_nl KV cache, 18 B per 32 elements, the smallest any engine stores "
           "(ikawrakow/ik_llama.cpp@8337e4cd3861 common/common.cpp kv_cache_type_from_str)",
)
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


def parallel_slots(claim: Claim) -> int | None:
    """The sequences the server was launched to decode at once (llama-server `-np N`), when more
    than one: a figure may sum them, and each holds its share of the context."""
    slots = claim.server_slots
    return slots if slots is not None and slots > 1 else None


def context_tokens(claim: Claim) -> Derived | None:
    """The context one sequence's KV cache holds: the stated context length, else input + output
    tokens. A llama-server with N slots (`-np N`) holds `-c` tokens across all of them, each
    slot its share (ggml-org/llama.cpp tools/server/server.cpp: `n_ctx_slot = n_ctx /
    params.n_parallel`)."""
    if claim.context_length and (slots := parallel_slots(claim)) is not None:
        n = claim.context_length / slots
        return Derived(n, "tokens", (f"context per slot = {claim.source_of('context_length')} "
                                     f"{claim.context_length} ÷ {slots} slots = {num(n)} tokens",))
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
    favours an aggregate claim). A stated context length is used as stated (`context_tokens`)."""
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


def depth_kv_gb(claim: Claim, model: ModelRow | None, *, generous: bool) -> Derived:
    """KV GB each decoded token reads at the depth the record states (`kv_depth`: sweep-bench
    N_KV, llama-bench `@ dN`): at batch 1 every token attends to every cached token, so this adds
    to the weights in a true bound. 0 (said) where the depth, the geometry or full attention over
    the whole context is not known. The generous reading stores the cache at the smallest type
    any engine offers unless the record states its type."""
    if not claim.kv_depth:
        return Derived(0.0, "GB")
    if model is None or model.name not in FULL_ATTENTION:
        return Derived(0.0, "GB", notes=("KV at the stated depth not counted: the model is not known to "
                                         "attend to the whole context in every KV layer",))
    per_token = kv_bytes_per_token(model, claim.kv_dtype, generous=generous)
    if isinstance(per_token, Missing):
        return Derived(0.0, "GB", notes=(f"KV reads not counted: no {per_token.what[0]}",))
    value, assumptions, basis = per_token.value, per_token.assumptions, per_token.basis
    if generous and claim.kv_dtype is None:
        value = per_token.value * SMALLEST_KV_BYTES / GENEROUS_KV_BYTES
        assumptions = (_A_KV_SMALLEST,)
        basis = (basis[0], f"KV dtype not stated: {num(SMALLEST_KV_BYTES)} byte(s) per element, the smallest "
                           f"cache type (q4_0 / iq4_nl) = {num(value)} B/token")
    gb = value * claim.kv_depth / GB
    return Derived(gb, "GB", (*basis, f"{claim.source_of('kv_depth')} = {claim.kv_depth} tokens cached before "
                              f"the timed decode: KV read per token ≥ {num(value)} B × {claim.kv_depth} = "
                              f"{num(gb)} GB"), assumptions)
