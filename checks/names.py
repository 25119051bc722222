"""Folding hardware and model names the way boards write them, for the reference lookup index.

Boards and tools spell one product many ways: nvidia-smi says "Tesla V100S-PCIE-32GB", an MLX
benchmark "Apple M4 Max 12P+4E+40GPU", a cloud image "google_tpu_v6e", a Hugging Face id
"mlx-community/Qwen2.5-0.5B-Instruct-bf16". `fold_hardware` and `fold_model` drop only the words
that never tell two products apart (vendor and brand words, core counts, memory technology, a
repo owner, "Instruct", a quantization suffix) and keep every word that does ("D" in "RTX 4090 D",
"Max" in "M4 Max", "PCIe" against "SXM", "Coder"). Two names meet only when what is left is equal:
a shorter name is never found inside a longer, different product.

A memory size in a hardware name ("32GB", "80GB") is taken out of the key and returned beside it,
so the caller can choose between rows that differ only by memory (A100 40GB / 80GB, H20 / H20-3e).

Linear time on any input: each pattern is a single pass with no two quantifiers over the same
characters, and input is capped at `MAX_NAME` characters before anything runs.
"""

from __future__ import annotations

import re

__all__ = ["MAX_NAME", "fold_hardware", "fold_model"]

MAX_NAME = 200

_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+[a-z0-9]*)*")
_TRADEMARK = re.compile(r"\((?:r|tm)\)|[®™]")
_CLOCK = re.compile(r"@ ?\d{1,2}(?:\.\d{1,3})? ?ghz")
_MEMORY = re.compile(r"(\d{1,4}(?:\.\d{1,2})?)(?:gb|gib|g)")
# Core and unit counts: "12p", "4e", "40gpu", "16core", "32cu".
_COUNT = re.compile(r"\d{1,3}(?:p|e|gpu|cpu|core|cores|cu)")

_HW_DROP = frozenset({
    # vendors and brands: never the product
    "nvidia", "geforce", "amd", "radeon", "instinct", "apple", "intel", "tesla", "huawei",
    "google", "the", "moore", "threads", "mthreads", "hisilicon", "cloud",
    # descriptors
    "generation", "graphics", "gpu", "gpus", "cpu", "core", "cores", "card", "edition",
    "founders", "processor", "accelerator", "chip", "soc", "with", "w", "unified", "memory",
    "integrated", "silicon",
    # memory technology: implied by the product
    "hbm", "hbm2", "hbm2e", "hbm3", "hbm3e", "gddr6", "gddr6x", "gddr7", "lpddr5", "lpddr5x",
    "ddr4", "ddr5", "ecc",
})
_UNIT_WORDS = frozenset({"core", "cores", "gpu", "cpu", "cu"})

_MODEL_DROP = frozenset({
    "instruct", "chat", "it", "hf", "base", "meta", "model", "gguf", "mlx", "quantized",
    "bf16", "fp16", "f16", "fp32", "fp8", "nvfp4", "mxfp4", "awq", "gptq", "int4", "int8",
    "dynamic", "w4a16", "w8a16", "w8a8", "w4a8", "exl2", "exl3", "4bit", "8bit", "3bit", "6bit",
})
# GGUF quant suffixes ("Q4_K_M", "IQ3_XXS", "UD-Q4_K_XL"): underscores split them into pieces, so
# they go before tokenising.
_GGUF = re.compile(r"(?:ud-)?i?q\d_[a-z0-9]{1,4}(?:_[a-z0-9]{1,4}){0,2}")


def _tokens(name: str) -> list[str]:
    text = _TRADEMARK.sub(" ", name[:MAX_NAME].lower())
    return _TOKEN.findall(_CLOCK.sub(" ", text))


def _drop_repeats(tokens: list[str]) -> list[str]:
    """'ascend ascend910' -> 'ascend910': a family word repeated as the product's prefix."""
    return [t for t, nxt in zip(tokens, [*tokens[1:], ""], strict=True)
            if not (nxt.startswith(t) and len(nxt) > len(t))]


def fold_hardware(name: str) -> tuple[str, float | None]:
    """('v100spcie', 32.0) for 'Tesla V100S-PCIE-32GB'; ('m4max', None) for 'Apple M4 Max 12P+4E+40GPU'."""
    tokens = _tokens(name)
    kept: list[str] = []
    memory: float | None = None
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if m := _MEMORY.fullmatch(tok):
            memory = float(m.group(1))
        elif tok in _HW_DROP or _COUNT.fullmatch(tok) or (tok.isdigit() and nxt in _UNIT_WORDS):
            continue
        else:
            kept.append(tok)
    return "".join(_drop_repeats(kept)), memory


def fold_model(name: str) -> str:
    """'llama3.18b' for 'RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16'."""
    text = name[:MAX_NAME].lower()
    text = text.rsplit("/", 1)[-1]  # the repo owner names who uploaded it, not the model
    text = _GGUF.sub(" ", text)
    return "".join(t for t in _TOKEN.findall(text) if t not in _MODEL_DROP)
