"""Model names as people type them, and the size a name states.

A model mention is a family word ("llama", "Qwen", "gpt oss", "r1") followed by the pieces people
put after it: a version ("3", "3.1", "V3.2"), variant words ("Coder", "Instruct", "Distill"), a
size ("8b", "0.8B", "350M", "30B-A3B", "8x7B") and a date suffix ("2507"). Reading stops at the
first piece that is none of these — a quant ("q4_k_m", "exl2", "4bit"), an engine, a card — so
"llama3 8b q4_k_m" is Llama 3 8B and "mistral-7b-instruct-v0.2.Q5_K_M" is Mistral 7B Instruct
v0.2. The name is then spelled the way the reference tables spell it and looked up there; a
name the tables do not know keeps that spelling, and its size comes from the name
(`checks.physics.size_from_name`, "Qwen3-30B-A3B" is 30B total, 3B active), marked
`size_inferred` with the name as its span.

A family word alone ("Qwen3 throughput", "Llama 3") names a family, not a model, and is not
read; the families whose names are single models (DeepSeek V3, Kimi K2, QwQ) are. An ollama tag
glues the size on with a colon ("llama3.1:70b", "qwen2.5:7b-instruct-q4_K_M"): a colon is read as
a separator only before a size.

A MoE's stated totals ("142B total, 14B active", "14B active of 142B total", "142B (A14B)") set
the total and active params and `is_moe`, with the words as their span.

Linear time: the pattern is anchored on a family word and takes at most eight pieces, each a run
of letters, digits and dots after one or two separators, so no two quantifiers can take the
same characters.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from checks.physics import size_from_name
from checks.physics.weights import family_row
from checks.reference import Reference
from extractors.text.lazyre import lazy
from extractors.text.names import finder
from extractors.text.quants import read_size_after_model
from extractors.text.scan import Scan

__all__ = ["ModelName", "find_models", "infer_size", "read_model", "read_moe_totals", "spell_model"]

_FAMILIES = {
    "llama": "Llama", "meta-llama": "Llama", "tinyllama": "TinyLlama", "codellama": "CodeLlama",
    "qwen": "Qwen", "qwq": "QwQ", "mistral": "Mistral", "mixtral": "Mixtral",
    "ministral": "Ministral", "devstral": "Devstral", "codestral": "Codestral",
    "magistral": "Magistral", "gemma": "Gemma", "phi": "Phi", "deepseek": "DeepSeek",
    "glm": "GLM", "kimi": "Kimi", "minimax": "MiniMax", "nemotron": "Nemotron",
    "granite": "granite", "olmo": "OLMo", "falcon": "Falcon", "internlm": "InternLM",
    "smollm": "SmolLM", "lfm": "LFM", "yi": "Yi", "exaone": "EXAONE", "hermes": "Hermes",
    "starcoder": "StarCoder", "baichuan": "Baichuan", "gpt-oss": "gpt-oss", "r1": "R1",
    "open-llama": "OpenLLaMA", "wayfarer": "Wayfarer", "miqu": "Miqu", "bitnet": "BitNet",
    "trilm": "TriLM",
    # the reference's other family rows (checks/data/models.json `families`), so that a name of
    # theirs is read and its row decides dense or MoE: "DBRX 132B", "Grok-1 314B", "Jamba 1.5"
    "dbrx": "DBRX", "grok": "Grok", "jamba": "Jamba", "command-r": "Command R",
    "vicuna": "Vicuna", "eurollm": "EuroLLM", "codegeex": "CodeGeeX", "mathstral": "Mathstral",
    # a fine-tune family named by its base's shape ("WizardLM-2 8x22B" is a Mixtral 8x22B)
    "wizardlm": "WizardLM",
}
# Families whose bare name is one model (one size), so it is a model name without a size.
_SINGLE = {"DeepSeek", "Kimi", "GLM", "MiniMax"}  # with a version: "DeepSeek V3", "Kimi K2"
_GLUED = {"Qwen", "LFM", "GLM", "SmolLM", "OLMo"}  # "Qwen3.5", not "Qwen 3.5"
_FAMILY_RE = "|".join(sorted((re.escape(f).replace(r"\-", "[- ]?") for f in _FAMILIES),
                             key=len, reverse=True))
_MENTION = lazy(
    rf"(?i)(?<![A-Za-z0-9])(?P<fam>{_FAMILY_RE})(?P<ver>\d[\d.]{{0,6}})?"
    r"(?P<rest>(?:(?:[ _\-]{1,2}|:(?=\d))[A-Za-z0-9][A-Za-z0-9.]{0,19}){0,8})")
_SHORT_LLAMA = lazy(r"(?<![A-Za-z0-9])L(?P<v>[1-4](?:\.\d)?)-(?P<s>\d{1,3})[Bb](?![A-Za-z0-9])")
_VARIANTS = {
    "instruct": "Instruct", "chat": "Chat", "it": "it", "coder": "Coder", "code": "Code",
    "large": "Large", "small": "Small", "medium": "Medium", "mini": "Mini", "nano": "Nano",
    "micro": "Micro", "distill": "Distill", "flash": "Flash", "air": "Air", "next": "Next",
    "vl": "VL", "thinking": "Thinking", "base": "Base", "scout": "Scout",
    "maverick": "Maverick", "turbo": "Turbo", "math": "Math", "omni": "Omni", "lite": "Lite",
}
_SIZE = lazy(r"(?i)^(?:\d{1,3}x)?\d{1,4}(?:\.\d{1,2})?[bm]$")
_ACTIVE = lazy(r"(?i)^a\d{1,3}(?:\.\d{1,2})?b$")
_EXPERTS = lazy(r"(?i)^\d{1,3}e$")
_VERSION = lazy(r"(?i)^[vrk]?\d{1,2}(?:\.\d{1,2}){0,2}$")
_DATE = lazy(r"^\d{4}$")
_DRAFTER = lazy(r"(?i)[-_. ](?:DFlash|EAGLE\d?|draft(?:er)?|speculator|MTP|Medusa)\b")


@dataclass(frozen=True)
class ModelName:
    """One model mention: where it is, as written, and spelled the way the tables spell it."""

    start: int
    end: int
    raw: str
    name: str
    has_size: bool


def _family(raw: str) -> str:
    key = re.sub(r"[- ]+", "-", raw.lower())
    return _FAMILIES[{"gptoss": "gpt-oss", "metallama": "meta-llama", "openllama": "open-llama"}.get(key, key)]


def _pieces(rest: str) -> list[tuple[str, str, int]]:
    """(separator, piece, end offset in `rest`); "v0.2.Q5" splits at the dot before a letter."""
    out: list[tuple[str, str, int]] = []
    for m in re.finditer(r"([ _\-]{1,2}|:(?=\d))([A-Za-z0-9][A-Za-z0-9.]*)", rest):
        sep, pos = m.group(1), m.start(2)
        for i, part in enumerate(re.split(r"\.(?=[A-Za-z])", m.group(2))):
            pos += len(part) + (1 if i else 0)
            out.append((sep if i == 0 else ".", part, pos))
    return out


@dataclass(frozen=True)
class _Spelled:
    name: str
    end: int  # offset in `rest` where the name's last piece ends (0: the family alone)
    sized: bool
    described: bool  # a version and a variant word ("Devstral-Small-2"): a model, not a family
    versioned: bool


# `_spell` is pure and a long paste names the same few models over and over: one spelling per
# distinct (family, version, rest), bounded.
@lru_cache(maxsize=4096)
def _spell(family: str, version: str | None, rest: str) -> _Spelled:
    words: list[str] = ["R1"] if family == "R1" else []
    family = "DeepSeek" if family == "R1" else family
    if version:
        words.append(version.rstrip("."))
    size: list[str] = []
    post: list[str] = []  # words after the size ("7B Instruct", "8B-A1B")
    end, variant = 0, False
    for i, (sep, piece, stop) in enumerate(_pieces(rest)):
        low = piece.lower()
        after = post if size else words
        if ":" in sep and not (sep == ":" and _SIZE.match(piece) and not size):
            break  # "llama3.1:70b" is an ollama tag; "Llama 3: 50 tok/s" is a sentence
        if _SIZE.match(piece) and not size:
            size.append(piece[:-1] + piece[-1].upper())
        elif size and not post and (_ACTIVE.match(piece) or _EXPERTS.match(piece)):
            size.append(piece.upper())
        elif low in _VARIANTS:
            after.append(_VARIANTS[low])
            variant = True
        elif _DATE.match(piece) and sep != " ":
            after.append(piece)
        elif _VERSION.match(piece) and (not size and (i == 0 or sep != " " or variant)
                                        or size and low.startswith("v") and sep != " "):
            after.append(piece.upper() if piece[:1].isalpha() else piece)
        else:
            break
        end = stop
    # "llama3_3_70b": two one-digit versions in a row are one dotted version.
    if len(words) >= 2 and words[0].isdigit() and len(words[1]) == 1 and words[1].isdigit():
        words[:2] = [f"{words[0]}.{words[1]}"]
    has_version = bool(version) or any(w[:1].isdigit() or w[:1] in "VRK" for w in words)
    head = family
    if family in _GLUED and words and words[0][:1].isdigit():
        head = family + words.pop(0)
    name = " ".join([head, *words, *(["-".join(size)] if size else []), *post])
    if family == "gpt-oss" and size:
        name = f"gpt-oss-{size[0].lower()}"
    return _Spelled(name, end, bool(size), variant and has_version, has_version)


def _lookup(name: str, sized: bool, ref: Reference | None) -> str:
    """The table's name for it, or `name`; a sized name whose row has another size is not it."""
    if ref is None:
        return name
    if row := ref.model(name):
        return row.name
    if sized and (ns := size_from_name(name)) is not None and name.endswith(ns.span):
        row = ref.model(name[: len(name) - len(ns.span)].rstrip(" -"))
        if row is not None and abs(row.params_total_b - ns.total_b) <= 0.05 * row.params_total_b:
            return row.name
    return name


def spell_model(text: str, ref: Reference | None = None) -> str | None:
    """One model name spelled the way the tables spell it ("llama3 8b" -> "Llama 3 8B")."""
    found = find_models(text, ref)
    return found[0].name if found else None


def find_models(text: str, ref: Reference | None) -> list[ModelName]:
    """Model mentions in order (family words alone and drafters left out)."""
    out: list[ModelName] = []
    for m in _SHORT_LLAMA.finditer(text):
        name = f"Llama {m.group('v')} {m.group('s')}B"
        out.append(ModelName(m.start(), m.end(), m.group(0), _lookup(name, True, ref), True))
    looked: dict[str, tuple[str, bool]] = {}  # one table lookup per distinct name
    for m in _MENTION.finditer(text):
        family = _family(m.group("fam"))
        sp = _spell(family, m.group("ver"), m.group("rest"))
        if sp.name not in looked:
            spelled = _lookup(sp.name, sp.sized, ref)
            looked[sp.name] = spelled, ref is not None and ref.model(spelled) is not None
        spelled, known = looked[sp.name]
        single = family == "QwQ" or family in _SINGLE and sp.versioned
        if not (sp.sized or known or sp.described or single):
            continue
        end = m.start("rest") + sp.end if sp.end else m.end("ver") if m.group("ver") else m.end("fam")
        if _DRAFTER.match(text, end):
            continue  # "Qwen3.5-27B-DFlash" is the drafter
        out.append(ModelName(m.start(), end, text[m.start():end], spelled, sp.sized))
    return sorted(out, key=lambda n: n.start)


# Not a flag's value or name: "fa=1 b=512" (llama-bench's flash-attention switch and n_batch) is
# no 1B model.
_BARE_SIZE = lazy(r"(?<![\w.$=])(?P<t>\d{1,4}(?:\.\d{1,2})?)\s?[Bb](?:\s?(?:-|–|to)\s?"
                        r"(?P<hi>\d{1,4}(?:\.\d{1,2})?)\s?[Bb])?(?![A-Za-z0-9/=])")


def read_model(s: Scan) -> None:
    """Set `model`: the first mention (table alias or typed name) on the headline figure's line,
    else the first in the text."""
    table = [n for n in finder(s.ref, "models").finditer(s.text)
             if not _DRAFTER.match(s.text, n.end)]
    typed = find_models(s.text, s.ref)
    mentions = sorted([(n.start, -(n.end - n.start), 0, n.name, n.raw) for n in table]
                      + [(n.start, -(n.end - n.start), 1, n.name, n.raw) for n in typed])
    if mentions:
        # The first mention on the headline figure's line ("Baseline: Llama 3 8B 40 tok/s\n
        # Ours: Qwen3 8B 90 tok/s" ran Qwen3 8B), else the first in the text.
        on_line = [m for m in mentions if s.line_of(m[0]) == s.primary_line]
        start, neg_length, _, name, raw = (on_line or mentions)[0]
        s.set("model", name, raw)
        row = s.ref.model(name) if s.ref is not None else None
        named = size_from_name(name) if row is None else None
        read_size_after_model(s, start - neg_length,
                              row.params_total_b if row is not None else named.total_b if named else None)
        _paired_drafter(s, typed)


# "Qwen2.5-14B Q8_0 + Qwen2.5-0.5B Q4_K_M": a model joined by "+" to a much smaller one is the
# target and its draft model (llama.cpp's `-m` / `-md` pairs are posted this way).
_PLUS = lazy(r"[\s\w.-]{0,20}?\+\s{0,3}$")
_DRAFT_SHARE = 0.25  # the drafter at most a quarter of the target: a 0.5B for a 14B, a 1B for 8B


def _paired_drafter(s: Scan, typed: list[ModelName]) -> None:
    for target, draft in itertools.pairwise(typed):
        gap = s.text[target.end:draft.start]
        big, small = size_from_name(target.name), size_from_name(draft.name)
        if (big is None or small is None or "\n" in gap or not _PLUS.fullmatch(gap)
                or small.total_b > big.total_b * _DRAFT_SHARE):
            continue
        span = s.text[target.start:draft.end]
        s.set("speculative", True, span)
        s.set("spec_method", "Draft model (SpS)", span)
        s.set("drafter_model", draft.name, draft.raw)
        return


_B = r"(\d{1,4}(?:\.\d{1,2})?)\s?B"
_PARAMS_WORD = r"(?:\s(?:params?|parameters))?"
# "142B total, 14B active", "142B total params and 14B activated", "14B active / 142B total",
# "142B (A14B)", "142B, A14B active", a bare shape without its family ("the large model
# (235B-A22)", kvcache-ai/ktransformers doc/en/AMX.md): bounded gaps, so each match costs at most a few dozen steps.
_TOTALS = lazy(
    rf"(?i)(?<![\w.])(?:(?P<t>{_B}){_PARAMS_WORD}\s(?:in\s)?total\b[^\n\d]{{0,30}}(?<![\w.])(?P<a>{_B})"
    rf"{_PARAMS_WORD}\s(?:active|activated)\b"
    rf"|(?P<a2>{_B}){_PARAMS_WORD}\s(?:active|activated)\b[^\n\d]{{0,30}}(?<![\w.])(?P<t2>{_B})"
    rf"{_PARAMS_WORD}\s(?:in\s)?total\b"
    rf"|(?P<t3>{_B})\s?[,(]\s?A(?P<a3>\d{{1,3}}(?:\.\d{{1,2}})?)B\b"
    rf"|(?P<t4>{_B})[-_]A(?P<a4>\d{{1,3}}(?:\.\d{{1,2}})?)B?(?![\w.]))")


def read_moe_totals(s: Scan) -> None:
    """A MoE's stated total and active params ("142B total, 14B active")."""
    m = _TOTALS.search(s.text)
    if m is None:
        return
    total = m.group("t") or m.group("t2") or m.group("t3") or m.group("t4")
    active = m.group("a") or m.group("a2") or m.group("a3") or m.group("a4")
    t = float(re.sub(r"(?i)\s?B$", "", total))
    a = float(re.sub(r"(?i)\s?B$", "", active))
    if not 0 < a < t:
        return
    s.set("params_total_b", t, m.group(0))
    s.set("params_active_b", a, m.group(0))
    s.set("is_moe", True, m.group(0))


# "llama.cpp", "llama-cpp", "llamafile" name a program, not a model family.
_PROGRAM_AFTER = lazy(r"(?i)[.\-_]?cpp\b|file\b|[.\-_]?server\b")


def _family_mentions(text: str) -> list[tuple[int, int, str]]:
    """(start, end, spelled family and version) of every bare family word ("LLaMA 3", "Llama2",
    "qwen 2.5"); program names built on a family word are left out."""
    out = []
    for m in _MENTION.finditer(text):
        family = _family(m.group("fam"))
        sp = _spell(family, m.group("ver"), m.group("rest"))
        end = m.start("rest") + sp.end if sp.end else m.end("ver") if m.group("ver") else m.end("fam")
        if family == "R1" or sp.sized or _PROGRAM_AFTER.match(text, m.end("fam")):
            continue
        out.append((m.start(), end, sp.name))
    return out


def _family_with_size(s: Scan, total_b: float, at: int | None) -> None:
    """A family word and a size written apart, as table rows and headings write them ("LLaMA 3
    ... 8B F16", "Llama, GPTQ, 7B", "Size (B): 14; Model: qwen 2.5") name that family's model of
    that size: the family word nearest before the size on its line, else the first in the text.
    Set only when the family table or a model row knows the composed name, so that
    `weights.architecture` can say dense or MoE from the family's row."""
    mentions = _family_mentions(s.text)
    if not mentions:
        return
    chosen = mentions[0]
    if at is not None:
        before = [m for m in mentions if m[0] < at and s.line_of(m[0]) == s.line_of(at)]
        chosen = before[-1] if before else chosen
    size = f"{total_b:g}B"
    name = _lookup(f"{chosen[2]} {size}", True, s.ref)
    if s.ref is None or (s.ref.model(name) is None and family_row(name, s.ref) is None):
        return
    s.set("model", name, f"{s.text[chosen[0]:chosen[1]]} … {size}")


def _sized_name(s: Scan, model: str, total_b: float) -> None:
    """A name without a size and a size stated beside it ("Model: qwen 2.5 coder; Size (B): 32")
    are one model: the sized name, when the tables know it."""
    if s.ref is None or family_row(model, s.ref) is not None:
        return  # the name alone already says dense or MoE ("Devstral Small 2")
    name = _lookup(f"{model} {total_b:g}B", True, s.ref)
    if s.ref.model(name) is not None or family_row(name, s.ref) is not None:
        prov = s.b.provenance.get("model")
        s.b.set("model", name, field=prov.field if prov else None,
                span=f"{prov.span if prov and prov.span else model} … {total_b:g}B", overwrite=True)


def infer_size(s: Scan) -> None:
    """After every statement reader ran: a size for a model the tables do not know."""
    read_moe_totals(s)
    if not s.b.has("model"):
        if s.b.has("params_total_b"):
            _family_with_size(s, s.b.values["params_total_b"], None)
        elif (bare := _BARE_SIZE.search(s.text)) is not None and not bare.group("hi"):
            _family_with_size(s, float(bare.group("t")), bare.start())
    model = s.b.values.get("model")
    if model is not None and s.b.has("params_total_b") and size_from_name(model) is None:
        _sized_name(s, model, s.b.values["params_total_b"])
        model = s.b.values.get("model")
    if model is not None and s.ref is not None and s.ref.model(model) is not None:
        return
    ns = size_from_name(model) if model else None
    if s.b.has("params_total_b"):
        # The statement reader took "26B-A4B" from the name: a size read from a name all the same.
        if ns is not None and s.b.values["params_total_b"] == ns.total_b:
            s.set("size_inferred", True, model or ns.span)
        return
    if ns is not None:
        span = model or ns.span
    elif m := _BARE_SIZE.search(s.text):
        total = m.group("hi") or m.group("t")
        ns = size_from_name(total + "B")
        span = m.group(0)
    if ns is None:
        return
    s.set("params_total_b", ns.total_b, span)
    if ns.active_b is not None:
        s.set("params_active_b", ns.active_b, span)
    if ns.is_moe:
        s.set("is_moe", True, span)
    s.set("size_inferred", True, span)
