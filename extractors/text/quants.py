"""Weight formats as people spell them: "q4_k_m", "Q4", "4-bit", "4bit", "MLX 4bit", "AWQ",
"GPTQ-int4", "EXL2 4.0bpw", "NVFP4", "MXFP4", "FP8", "bf16", "IQ4_KS", distributed-llama's "q40".

A table alias ("awq", "bnb-4bit", "GPTQ-Int4") names its row; a spelling the tables lack is kept
in one canonical form ("Q4", "4-bit", "MLX 4-bit", "Q4_0" for "q40"). The first mention wins: in
"Qwen3-8B Q8_0 + Qwen3-1.7B Q4_K_M draft" the claim's model is Q8_0; but a format in the headline
figure's own part of its sentence is that figure's ("F16: 61 t/s, Q8_0: 98 t/s": Q8_0). A KV-cache format ("FP8 KV",
"--cache-type-k q8_0") is read into `kv_dtype` and blanked first: it is not the weights' format.
"""

from __future__ import annotations

import re

from extractors.text.lazyre import lazy
from extractors.text.names import finder
from extractors.text.scan import Scan
from extractors.text.units import GGUF_QUANT, NUM, parse_positive

__all__ = ["read_formats", "read_size_after_model", "read_weight_size", "size_in_bytes", "spell_format"]

_SHAPES = lazy(
    r"(?i)(?<![A-Za-z0-9])(?:BF16|FP16|FP8|FP4|INT8|INT4|W4A16|W8A8|W8A16|W4A8|AWQ|GPTQ|MXFP4|"
    r"NVFP4|EXL2|EXL3|HQQ|IQ[12]_BN|I2_S|TQ[12]_0|" + GGUF_QUANT + r"|Q[2-8](?![A-Za-z0-9_])|q[48]0(?![A-Za-z0-9])|"
    r"(?:MLX[\s-])?[2-8][\s-]?bits?(?![A-Za-z0-9]))(?![A-Za-z0-9_])")
_KV_FMT = (r"fp8(?:[_ ]e[45]m[23])?|fp16|bf16|f16|int8|int4|q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl|"
           r"nvfp4|fp4|8[- ]?bit|4[- ]?bit")
_KV = lazy(rf"(?i)(?<![A-Za-z0-9])(?P<f>{_KV_FMT})[\s-]?KV(?:[\s-]?cache)?\b|\bKV[\s-]?cache"
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
    if (own := s.own_part()) is not None:
        # Several runs in one sentence, each after its format ("F16: 61 t/s, Q8_0: 98 t/s"): the
        # headline figure's own part names its weights.
        lo, hi = own
        own_table = None
        for t in finder(s.ref, "formats").finditer(s.text):
            if t.start >= lo:
                own_table = t if t.start < hi else None
                break
        own_shape = _SHAPES.search(s.text, lo, hi)
        if own_table is not None or own_shape is not None:
            table, shape = own_table, own_shape
    end: int | None = None
    if shape and (table is None or shape.start() < table.start):
        raw = shape.group(0)
        row = s.ref.format(raw) if s.ref else None
        s.set("weight_format", row.name if row else spell_format(raw), raw)
        end = shape.end()
    elif table is not None:
        s.set("weight_format", table.name, table.raw)
        end = table.end
    read_weight_size(s, end)


_BYTES = {"gib": 2**30, "mib": 2**20, "tib": 2**40, "gb": 10**9, "mb": 10**6, "tb": 10**12}
_SIZE = rf"(?P<v>{NUM})\s?(?P<u>[GMT]i?B)(?![A-Za-z0-9/])"
# Words that make a size the weights' own: before it ("file size 4.58 GiB", "weights: 17 GB") or
# after it ("a 4.35 GiB GGUF", "17.28 GiB file", "40 GB of weights", "5 GB on disk").
_SIZE_BEFORE = lazy(r"(?i)\b(?:size(?:\s(?:on\s)?disk)?|file|weights|footprint)\s?(?:is|of|:|=)?\s?"
                          r"(?:~|about\s|approx\.?\s|only\s)?" + _SIZE)
# "VRAM size 24 GB", "KV cache size 2 GB", "batch size": sizes of something else.
_OTHER_SIZE = lazy(r"(?i)(?:v?ram|memory|cache|kv|batch|context|page|buffer|pool)\W{0,3}$")
# Not "a 32 GB download" / "checkpoint": what was fetched is often the original BF16 weights before the
# run quantised them ("DeepSeek-Lite, i.e., a 32 GB download ... a Q4_0 quantized DeepSeek-Lite",
# ikawrakow/ik_llama.cpp discussions/354), so it is no size of the format that ran.
_SIZE_AFTER = lazy(r"(?i)" + _SIZE + r"\s(?:of\s)?(?:model\sfile|file|gguf|weights|on\sdisk)\b")
# Right after the weight format: "IQ1_BN, 729.64 MiB", "Q4_K_M (4.58 GiB)", "Q4_K - Medium | 4.58 GiB".
# The separator must hold a comma, bracket, bar or colon, and the size must close the phrase, so
# "Q4_K_M 24GB 3090" (a card's memory after the format) is not read.
_SIZE_NEXT = lazy(r"(?i)\s{0,2}[,(\[|:]\s{0,2}" + _SIZE
                        + r"(?=\s{0,2}(?:[),;|\]]|$|\n|\son\s|\swith\s|\s(?:file|gguf)))")
# What a card's or machine's memory is called: a size followed by these is no file size.
_MEMORY_AFTER = lazy(r"(?i)\s?(?:of\s)?(?:v?ram|vram|memory|unified|hbm\w*|gddr\w*|lpddr\w*|ddr\w*|card|gpu)\b")


def _bytes(m: re.Match[str]) -> float | None:
    value = parse_positive(m.group("v"))
    return value * _BYTES[m.group("u").lower()] if value is not None else None


_SIZE_VALUE = lazy(rf"\s{{0,3}}(?P<v>{NUM})\s?(?P<u>[GMT]i?B)\s{{0,3}}", re.IGNORECASE)


def size_in_bytes(value: str) -> float | None:
    """Bytes in a size written with its unit ("4.58 GiB" -> 4.58 × 2^30, "729.64 MiB", "4.9 GB"
    -> 4.9e9); None for anything else (a bare number's unit is the column's to say)."""
    m = _SIZE_VALUE.fullmatch(value[:64])
    return _bytes(m) if m else None


# Bits per weight any released format stores: BitNet's ternary 1.58 (TQ1_0 ~1.7) to F16/BF16 with
# a little metadata; a size outside this span for the model's params is no file of it (a card's
# memory, a download of something else).
_FILE_BITS = (1.5, 17.0)


def read_size_after_model(s: Scan, at: int, params_b: float | None) -> None:
    """A size right after the model's name that closes its phrase ("Qwen2.5 7B (4.35 GiB)",
    "BitNet b1.58 2B, 729.64 MiB"): the model's weight footprint, as right after its format,
    where it is one a weight format could give the model's `params_b` (1.5-17 bits per weight:
    "Llama 3 8B, 24 GB, RTX 4090" names the card's memory, not a file). A memory word after it
    ("(24 GB VRAM)") is never a file size."""
    if s.b.has("model_size_bytes") or not params_b:
        return
    m = _SIZE_NEXT.match(s.text, at)
    if m is None or _MEMORY_AFTER.match(s.text, m.end("u")):
        return
    size = _bytes(m)
    if size is not None and _FILE_BITS[0] <= size * 8 / (params_b * 1e9) <= _FILE_BITS[1]:
        s.set("model_size_bytes", size, m.group(0).strip(" ,;:([|/-"))


def read_weight_size(s: Scan, after: int | None = None) -> None:
    """Set `model_size_bytes` from a size the words make the weights' own (see the module doc);
    `after` is where the weight format's mention ends, if one was read."""
    found: re.Match[str] | None = None
    if after is not None and (m := _SIZE_NEXT.match(s.text, after)):
        found = m
    if found is None:
        found = next((m for m in s.finditer(_SIZE_BEFORE) if not _MEMORY_AFTER.match(s.text, m.end("u"))
                      and not _OTHER_SIZE.search(s.text, max(0, m.start() - 16), m.start())), None)
    if found is None:
        found = next((m for m in s.finditer(_SIZE_AFTER) if not _MEMORY_AFTER.match(s.text, m.end("u"))),
                     None)
    if found is None or _MEMORY_AFTER.match(s.text, found.end("u")):
        return
    s.set("model_size_bytes", _bytes(found), found.group(0).strip(" ,;:([|/-"))
