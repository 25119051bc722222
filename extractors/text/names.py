"""Names from the reference tables found in prose: GPUs, models, weight formats, methods.

The tables hold hundreds of aliases. One alternation of them all makes Python's `re` try every
alias at every character, which took seconds on a long paste; instead the aliases are indexed by
their first characters and tried only where a word starts. The longest alias wins at a position
("RTX 5090" over "5090"); a space in an alias also matches a hyphen ("RTX-5090").

Quirks, each for a reason:
- A bare model number alias ("5090") counts only when no unit follows: "5090 tokens" is a count.
- GPUs missing from the table are still found by shape (`RTX 4070 Ti`, `H100`, `MI300X`,
  `M3 Ultra`, ...) and kept as written, so an unknown card is reported rather than dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from checks.reference import Reference
from extractors.text.scan import Scan
from extractors.text.units import GGUF_QUANT, WORD_NUM, parse_count

__all__ = ["Name", "NameFinder", "find_gpus", "finder", "read_names"]

_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]")
_FOLD = re.compile(r"[\s_-]+")
_NOT_UNIT = (r"(?!\s*(?:[.,]\d|\d|tok|t/s|tps|tk/s|W\b|watts?|ms\b|s\b|sec|%|x\b|×|tokens?|GB|"
             r"MB|MHz|B\b))")
_TAILS = {
    "hardware": r"(?=s?(?![A-Za-z0-9]))",  # "H100s" is two H100s
    "models": r"(?![A-Za-z0-9])",  # "Qwen3.6-27B-NVFP4" still names Qwen3.6-27B
    "formats": r"(?![A-Za-z0-9_])",  # "Q4_K" must not claim the start of "Q4_K_XL"
    "methods": r"(?![\w-])",
}
GPU_GENERIC = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    r"(?i:(?:NVIDIA\s+)?(?:GeForce\s+)?RTX\s*(?:PRO\s+)?\d{4}(?:\s*(?:Ti|SUPER|D)\b)?"
    r"(?:\s+Blackwell)?)|(?i:RTX\s+A\d{4})|[AHBL]\d{2,3}S?|G[BH]\d{2,3}|MI\d{3}X?|"
    r"(?i:(?:Radeon\s+)?RX\s*\d{4}\s*(?:XTX|XT|GRE)?)|M\d\s+(?:Max|Ultra|Pro)|"
    r"(?i:DGX\s+Spark|Strix\s+Halo|TPU\s*v\d\w*))" + _TAILS["hardware"])


@dataclass(frozen=True)
class Name:
    """One name found in text: where, as written, and the table row it names (or as written)."""

    start: int
    end: int
    raw: str
    name: str


def _fold(text: str) -> str:
    return _FOLD.sub(" ", text.lower())


class NameFinder:
    """Every alias of one table, indexed by its first three characters."""

    def __init__(self, pairs: list[tuple[str, str]], tail: str) -> None:
        self.names: dict[str, str] = {}
        groups: dict[str, list[str]] = {}
        for alias, name in pairs:  # longest first, as Reference.names_and_aliases gives them
            alias = alias.strip()
            if not alias or not alias[0].isalnum():
                continue
            self.names.setdefault(_fold(alias), name)
            groups.setdefault(_fold(alias[:3]), []).append(alias)
        self.patterns = {
            key: re.compile("(?i:" + "|".join(
                re.escape(a).replace(r"\ ", r"[\s-]+") + (_NOT_UNIT if a.isdigit() else "")
                for a in aliases) + ")" + tail)
            for key, aliases in groups.items()
        }
        self.key_lengths = sorted({len(k) for k in groups}, reverse=True)

    def finditer(self, text: str) -> Iterator[Name]:
        last_end = 0
        for w in _WORD.finditer(text):
            pos = w.start()
            if pos < last_end:
                continue
            best: re.Match[str] | None = None
            for length in self.key_lengths:
                pattern = self.patterns.get(_fold(text[pos:pos + length]))
                m = pattern.match(text, pos) if pattern else None
                if m and (best is None or m.end() > best.end()):
                    best = m
            if best is not None:
                last_end = best.end()
                raw = best.group(0)
                yield Name(best.start(), best.end(), raw, self.names.get(_fold(raw), raw))


_CACHE: dict[int, tuple[Reference, dict[str, NameFinder]]] = {}


def finder(ref: Reference | None, table: str) -> NameFinder:
    """The finder for one table of `ref`, built once per loaded reference."""
    if ref is None:
        return NameFinder([], _TAILS[table])
    entry = _CACHE.get(id(ref))
    if entry is None or entry[0] is not ref:
        if len(_CACHE) >= 8:
            _CACHE.clear()
        entry = (ref, {})
        _CACHE[id(ref)] = entry
    finders = entry[1]
    if table not in finders:
        finders[table] = NameFinder(ref.names_and_aliases(table), _TAILS[table])
    return finders[table]


def find_gpus(text: str, ref: Reference | None) -> list[Name]:
    """GPU mentions in order: table aliases, then cards found by shape where no alias matched."""
    found = list(finder(ref, "hardware").finditer(text))
    taken = [(n.start, n.end) for n in found]
    for m in GPU_GENERIC.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        raw = " ".join(m.group(0).split())
        row = ref.gpu(raw) if ref else None
        found.append(Name(m.start(), m.end(), m.group(0), row.name if row else raw))
    return sorted(found, key=lambda n: n.start)


# ---- reading names into a claim ---------------------------------------------------------------

_ADJ = (r"(?i:(?:consumer|flagship|datacenter|data-center|desktop|gaming|high-end|workstation|"
        r"NVIDIA|AMD|GeForce|Radeon)\s+){0,3}")
_COUNT_BEFORE = re.compile(rf"(?:(?<![\w.])(?P<n>\d{{1,3}})\s*[x×]\s*|(?<![\w.])(?i:(?P<w>"
                           rf"{WORD_NUM}|a\s+single|\d{{1,3}}))\s+{_ADJ})$")
_COUNT_AFTER = re.compile(r"\s*[x×]\s*(\d{1,3})\b")
_COUNT_GPUS = re.compile(rf"(?<![\w.])(?i:(?P<w>{WORD_NUM}|a\s+single|\d{{1,3}}))\s+{_ADJ}"
                         r"(?i:GPUs?|cards?|graphics\s+cards?)\b")
# A card number alone after a count ("2x 3060") is an RTX card even when the table lacks it.
_COUNT_BARE = re.compile(r"(?<![\w.])(?P<n>\d{1,3})\s*[x×]\s*(?P<bare>(?i:RTX\s*)?[2-5]0[5-9]0"
                         r"(?:\s*Ti)?)(?=s?(?![A-Za-z0-9]))")
_FORMATS = re.compile(r"(?i)(?<![A-Za-z0-9])(?:BF16|FP16|FP8|INT8|INT4|W4A16|W8A8|W8A16|W4A8|AWQ|"
                      r"GPTQ|MXFP4|NVFP4|EXL2|EXL3|HQQ|" + GGUF_QUANT + r")(?![A-Za-z0-9_])")
_KV_FMT = (r"fp8(?:[_ ]e[45]m[23])?|fp16|bf16|f16|int8|int4|q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl|"
           r"nvfp4|fp4|8[- ]?bit|4[- ]?bit")
_KV = re.compile(rf"(?i)(?<![A-Za-z0-9])(?P<f>{_KV_FMT})[\s-]*KV(?:[\s-]?cache)?\b|\bKV[\s-]?cache"
                 rf"(?:\s+(?:dtype|type|quant\w*))?\s*(?:[:=]|in|is|at)?\s*(?P<f2>{_KV_FMT})\b")
_DRAFTER_TAIL = re.compile(r"(?i)[-_.](?:DFlash|EAGLE|draft|speculator|MTP|Medusa)")
_MODEL_GENERIC = re.compile(r"(?i)(?<![\w/.-])(?:[\w.-]+/)?(?:Qwen|Llama|Meta-Llama|Mistral|"
                            r"Mixtral|Gemma|Phi|DeepSeek|GLM|gpt-oss|Kimi|MiniMax|Nemotron|Granite|"
                            r"OLMo|Falcon|InternLM|SmolLM)[\w.-]*\d[\w.-]*")


def read_names(s: Scan) -> None:
    _hardware(s)
    for name in finder(s.ref, "models").finditer(s.text):
        if not _DRAFTER_TAIL.match(s.text, name.end):  # "Qwen3.5-27B-DFlash" is the drafter
            s.set("model", name.name, name.raw)
            break
    for m in s.finditer(_MODEL_GENERIC):
        raw = m.group(0).rstrip(".-_")
        if not _DRAFTER_TAIL.search(raw):
            s.set("model", raw, raw)
            break
    if kv := _KV.search(s.text):
        s.set("kv_dtype", kv.group("f") or kv.group("f2"), kv.group(0))
        s.blank(kv.start(), kv.end())  # "FP8 KV" is not the weight format
    table = next(finder(s.ref, "formats").finditer(s.text), None)
    shape = _FORMATS.search(s.text)
    if shape and (table is None or shape.start() < table.start):
        row = s.ref.format(shape.group(0)) if s.ref else None
        s.set("weight_format", row.name if row else shape.group(0), shape.group(0))
    elif table is not None:
        s.set("weight_format", table.name, table.raw)


def _hardware(s: Scan) -> None:
    gpus = find_gpus(s.text, s.ref)
    if gpus:
        s.set("hardware", gpus[0].name, gpus[0].raw)
    counts: list[tuple[int, int | None, str, str | None]] = []  # (pos, n, span, bare card)
    for g in gpus:
        if m := _COUNT_BEFORE.search(s.text[max(0, g.start - 60):g.start]):
            word = (m.group("w") or "").lower().replace("a single", "single")
            counts.append((g.start, parse_count(m.group("n") or " ".join(word.split())),
                           m.group(0) + g.raw, None))
        elif m := _COUNT_AFTER.match(s.text, g.end):
            counts.append((g.start, parse_count(m.group(1)), g.raw + m.group(0), None))
    for m in s.finditer(_COUNT_GPUS):
        word = " ".join(m.group("w").lower().replace("a single", "single").split())
        counts.append((m.start(), parse_count(word), m.group(0), None))
    for m in s.finditer(_COUNT_BARE):
        counts.append((m.start(), parse_count(m.group("n")), m.group(0), m.group("bare")))
    for _, n, span, bare in sorted(counts, key=lambda c: c[0]):
        if n and n <= 100000:
            s.set("hardware_count", n, span)
            if bare:
                raw = "RTX " + re.sub(r"(?i)^RTX\s*", "", " ".join(bare.split()))
                row = s.ref.gpu(raw) if s.ref else None
                s.set("hardware", row.name if row else raw, span)
            break


