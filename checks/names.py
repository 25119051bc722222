"""Folding hardware and model names the way boards write them, and the reference lookup index.

Boards and tools spell one product many ways: nvidia-smi says "Tesla V100S-PCIE-32GB", an MLX
benchmark "Apple M4 Max 12P+4E+40GPU", a cloud image "google_tpu_v6e", a Hugging Face id
"mlx-community/Qwen2.5-0.5B-Instruct-bf16". `fold_hardware` and `fold_model` drop only the words
that never tell two products apart (vendor and brand words, core counts, memory technology, a
repo owner, "Instruct", a quantization suffix) and keep every word that does ("D" in "RTX 4090 D",
"Max" in "M4 Max", "PCIe" against "SXM", "Coder"). Two names meet only when what is left is equal:
a shorter name is never found inside a longer, different product.

A memory size in a hardware name ("32GB", "80GB") is taken out of the key and returned beside it,
so the caller can choose between rows that differ only by memory (A100 40GB / 80GB, H20 / H20-3e).

`NameIndex` holds one table's names and aliases normalised once (exact keys, then folded keys), so
that a lookup normalises only its query: exact key first, folded key second.

Linear time on any input: each pattern is a single pass with no two quantifiers over the same
characters, and input is capped at `MAX_NAME` characters before anything runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

__all__ = ["MAX_NAME", "MEMORY_MATCH", "NameIndex", "fold_hardware", "fold_model"]

MAX_NAME = 200

_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+[a-z0-9]*)*")
_TRADEMARK = re.compile(r"\((?:r|tm)\)|[®™]")
_CLOCK = re.compile(r"@ ?\d{1,2}(?:\.\d{1,3})? ?ghz")
_MEMORY = re.compile(r"(\d{1,4}(?:\.\d{1,2})?)(?:gb|gib|g)")
# Apple's core split as benchmarks print it: "12P+4E" (performance + efficiency cores).
_CORE_SPLIT = re.compile(r"\b\d{1,2} ?p ?\+ ?\d{1,2} ?e\b")
# Core and unit counts: "40gpu", "16core", "32cu".
_COUNT = re.compile(r"\d{1,3}(?:gpu|cpu|core|cores|cu)")

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
_MEMORY_UNITS = frozenset({"gb", "gib"})
_NUMBER = re.compile(r"\d{1,4}(?:\.\d{1,2})?")

_MODEL_DROP = frozenset({
    "instruct", "chat", "it", "hf", "base", "meta", "model", "gguf", "mlx", "quantized",
    "bf16", "fp16", "f16", "fp32", "fp8", "nvfp4", "mxfp4", "awq", "gptq", "int4", "int8",
    "dynamic", "w4a16", "w8a16", "w8a8", "w4a8", "exl2", "exl3", "4bit", "8bit", "3bit", "6bit",
})
# GGUF quant suffixes ("Q4_K_M", "IQ3_XXS", "UD-Q4_K_XL"): underscores split them into pieces, so
# they go before tokenising.
_GGUF = re.compile(
    r"(?:ud-)?i?q\d_[a-z0-9]{1,4}(?:_[a-z0-9]{1,4}){0,2}(?: - (?:small|medium|large|\d{1,2}\.\d{1,4} bpw))?"
)  # llama-bench prints the type as "Q4_K - Medium", "IQ2_XXS - 2.0625 bpw"


def _tokens(name: str) -> list[str]:
    text = _TRADEMARK.sub(" ", name[:MAX_NAME].lower())
    return _TOKEN.findall(_CORE_SPLIT.sub(" ", _CLOCK.sub(" ", text)))


def _drop_repeats(tokens: list[str]) -> list[str]:
    """'ascend ascend910' -> 'ascend910': a family word repeated as the product's prefix."""
    nexts = [*tokens[1:], ""][: len(tokens)]
    return [t for t, nxt in zip(tokens, nexts, strict=True) if not (nxt.startswith(t) and len(nxt) > len(t))]


def fold_hardware(name: str) -> tuple[str, float | None]:
    """('v100spcie', 32.0) for 'Tesla V100S-PCIE-32GB'; ('m4max', None) for 'Apple M4 Max 12P+4E+40GPU'."""
    tokens = _tokens(name)
    kept: list[str] = []
    memory: float | None = None
    skip = False
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if skip:
            skip = False
        elif m := _MEMORY.fullmatch(tok):
            memory = float(m.group(1))
        elif _NUMBER.fullmatch(tok) and nxt in _MEMORY_UNITS:  # "80 GB", written apart
            memory, skip = float(tok), True
        elif tok in _HW_DROP or _COUNT.fullmatch(tok) or (len(tok) <= 3 and tok.isdigit() and nxt in _UNIT_WORDS):
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


# A stated memory size still names the same card when it differs by the binary/decimal GB spelling
# or by what a driver reports ("NVIDIA L4" reports 22.5 of 24 GB, "H200" 140.4 of 141).
MEMORY_MATCH = (0.85, 1.08)


def _memory_fits(row: Any, stated: float | None) -> bool:
    if stated is None:
        return True
    lo, hi = MEMORY_MATCH
    if row.kind == "unified":  # one chip ships with several memory sizes, up to the row's
        return bool(stated <= row.memory_gb * hi)
    return bool(row.memory_gb * lo <= stated <= row.memory_gb * hi)


_FOUND_MAX = 4096


class NameIndex:
    """One table's rows by their names and aliases, normalised once when the table is loaded.

    `fold` says how a spelling that misses the exact keys is folded: "hardware" (memory size kept
    beside the key, e.g. "H20 141GB" -> ("h20", 141)), "model", or None (exact keys only).
    """

    def __init__(self, rows: Sequence[Any], normalise: Callable[[str], str],
                 fold: Literal["hardware", "model"] | None) -> None:
        self._normalise = normalise
        self._fold = fold
        self.exact: dict[str, Any] = {}
        self._found: dict[str, Any] = {}
        self.folded: dict[str, list[tuple[Any, float | None]]] = {}
        for row in rows:
            for name in (row.name, *row.aliases):
                if key := normalise(name):
                    self.exact.setdefault(key, row)  # the first row with a spelling keeps it
                folded, memory = self._folded(name)
                if folded and (row, memory) not in (bucket := self.folded.setdefault(folded, [])):
                    bucket.append((row, memory))

    def _folded(self, name: str) -> tuple[str, float | None]:
        if self._fold == "hardware":
            return fold_hardware(name)
        return (fold_model(name), None) if self._fold == "model" else ("", None)

    def find(self, name: str) -> Any:
        """The row for a spelling: exact (normalised) name or alias first, then the folded key.
        Remembered per spelling (the rows never change; one audit asks for the same name a dozen
        times), up to a bound so a sweep of a huge dump does not grow it without end."""
        try:
            return self._found[name]
        except KeyError:
            pass
        row = self._find(name)
        if len(self._found) < _FOUND_MAX and len(name) <= MAX_NAME:  # bounded in count and size
            self._found[name] = row
        return row

    def _find(self, name: str) -> Any:
        key = self._normalise(name)
        if key and (row := self.exact.get(key)) is not None:
            return row
        folded, memory = self._folded(name)
        entries = self.folded.get(folded, []) if folded else []
        if self._fold == "model":
            return entries[0][0] if entries else None
        if memory is None:
            # A spelling that names no memory means the row whose own names need none (a bare
            # "H20" is the 96 GB card, not the one its alias "H20 141GB" names).
            entries = [e for e in entries if e[1] is None] or entries
        fits = [r for r, _ in entries if _memory_fits(r, memory)]
        # Rows left differ only by bin and the name does not say which: the faster one, generous to
        # the claim (as a bare "A100" or "M4 Max" is).
        return max(fits, key=lambda r: r.bandwidth_gbs, default=None)
