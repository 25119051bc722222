"""Weight formats as people spell them: "q4_k_m", "Q4", "4-bit", "4bit", "MLX 4bit", "AWQ",
"GPTQ-int4", "EXL2 4.0bpw", "NVFP4", "MXFP4", "FP8", "bf16", "IQ4_KS", distributed-llama's "q40".

A table alias ("awq", "bnb-4bit", "GPTQ-Int4") names its row; a spelling the tables lack is kept
in one canonical form ("Q4", "4-bit", "MLX 4-bit", "Q4_0" for "q40"). The first mention wins: in
"Qwen3-8B Q8_0 + Qwen3-1.7B Q4_K_M draft" the claim's model is Q8_0. A KV-cache format ("FP8 KV",
"--cache-type-k q8_0") is read into `kv_dtype` and blanked first: it is not the weights' format.
"""

from __future__ import annotations

import re

from extractors.text.names import finder
from extractors.text.scan import Scan
from extractors.text.units import GGUF_QUANT

__all__ = ["read_formats", "spell_format"]

_SHAPES = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:BF16|FP16|FP8|FP4|INT8|INT4|W4A16|W8A8|W8A16|W4A8|AWQ|GPTQ|MXFP4|"
    r"NVFP4|EXL2|EXL3|HQQ|" + GGUF_QUANT + r"|Q[2-8](?![A-Za-z0-9_])|q[48]0(?![A-Za-z0-9])|"
    r"(?:MLX[\s-])?[2-8][\s-]?bits?(?![A-Za-z0-9]))(?![A-Za-z0-9_])")
_KV_FMT = (r"fp8(?:[_ ]e[45]m[23])?|fp16|bf16|f16|int8|int4|q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl|"
           r"nvfp4|fp4|8[- ]?bit|4[- ]?bit")
_KV = re.compile(rf"(?i)(?<![A-Za-z0-9])(?P<f>{_KV_FMT})[\s-]?KV(?:[\s-]?cache)?\b|\bKV[\s-]?cache"
                 rf"(?:\s(?:dtype|type|quant\w*))?\s?(?:[:=]|in|is|at)?\s?(?P<f2>{_KV_FMT})\b")


def spell_format(raw: str) -> str:
    """'4bit' -> '4-bit', 'MLX 4bit' -> 'MLX 4-bit', 'q40' -> 'Q4_0', 'q4' -> 'Q4'."""
    if m := re.fullmatch(r"(?i)(MLX[\s-])?([2-8])[\s-]?bits?", raw):
        return ("MLX " if m.group(1) else "") + f"{m.group(2)}-bit"
    if m := re.fullmatch(r"(?i)q([48])0", raw):
        return f"Q{m.group(1)}_0"
    if re.fullmatch(r"(?i)q[2-8]", raw):
        return raw.upper()
    return raw


def read_formats(s: Scan) -> None:
    if kv := _KV.search(s.text):
        s.set("kv_dtype", kv.group("f") or kv.group("f2"), kv.group(0))
        s.blank(kv.start(), kv.end())  # "FP8 KV" is not the weight format
    table = next(finder(s.ref, "formats").finditer(s.text), None)
    shape = _SHAPES.search(s.text)
    if shape and (table is None or shape.start() < table.start):
        raw = shape.group(0)
        row = s.ref.format(raw) if s.ref else None
        s.set("weight_format", row.name if row else spell_format(raw), raw)
    elif table is not None:
        s.set("weight_format", table.name, table.raw)
