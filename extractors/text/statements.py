"""Statements about the cell and the method, in prose: batch, concurrency, serving, TTFT, sampling,
repeats, cooldown, prefix caching, model size, engine and version, speculative decoding, method,
draft window, context length and speedup, in free text.

Each is a small pattern; the first statement of a kind sets the field (a method, window or engine
on the primary tok/s figure's line wins over an earlier one). Negations are read first and
blanked ("no speculative decoding" is not a mention of speculative decoding); an engine's version
string is blanked once read ("+dflash.a91f3e" is a build suffix, not a method).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from extractors.text.flags import canonical_method
from extractors.text.lazyre import lazy
from extractors.text.names import finder
from extractors.text.scan import Scan
from extractors.text.units import (
    NUM,
    SPEED_UNIT,
    WORD_NUM,
    parse_count,
    parse_int,
    parse_number,
    parse_positive,
    seconds,
    with_suffix,
)

__all__ = ["read_statements"]


def read_statements(s: Scan) -> None:
    """Every statement reader, in an order where earlier blanking helps later readers."""
    for reader in (_cell, _params, _engine, _speculative, _window, _flags_in_prose, _method,
                   _context, _serving, _speedup):
        reader(s)


_COUNT = rf"(?:\d{{1,6}}|{WORD_NUM})"
# A number that carries a rate's unit is the rate, never a count: "128 concurrency: 4500 tok/s"
# states concurrency 128, not 4500.
_NOT_A_RATE = r"(?!\s*+[kK]?\s*+(?:" + SPEED_UNIT + r"|req(?:uest)?s?\s?/\s?s))"
_CELL: list[tuple[str, re.Pattern[str], Callable[[re.Match[str]], Any]]] = [
    ("batch", lazy(r"(?i)\b(?:batch(?:[\s_-]?size)?|bs)\s*+(?:[:=]|of|is)?\s*+-?\s*+"
                         r"(\d{1,6})(?![\d.])" + _NOT_A_RATE), lambda m: parse_int(m.group(1)) or None),
    ("concurrency", lazy(r"(?i)\b(?:concurrency|conc\.?)\s*+(?:[:=]|of|is|at)?\s*+"
                               r"(\d{1,6})(?![\d.])" + _NOT_A_RATE + r"|(?<![\w.])(\d{1,5})\s++concurrency\b"
                               r"|\bc\s*+=\s*+(\d{1,6})\b|(?<![\w.])(\d{1,6})"
                               r"\s++(?:concurrent|parallel|simultaneous)\s++(?:users|requests|streams|sessions|clients|sequences)"
                               r"|(?<![\w.])(\d{1,5})\s++(?:users?|streams?)\b"
                               # "4 clients in parallel", "8 requests at once"
                               r"|(?<![\w.])(\d{1,5})\s++(?:requests|streams|sessions|clients|sequences|prompts)"
                               r"\s++(?:in\s++parallel|concurrently|simultaneously|at\s++once)\b"
                               # "32 concurrent" with its noun left out, never before hardware
                               r"|(?<![\w.])(\d{1,5})\s++concurrent\b(?!\s*+(?:GPUs?|cards?|nodes?|cores?|"
                               r"threads?|devices?|machines?|servers?|users|requests|streams|sessions|"
                               r"clients|sequences)\b)"),
     lambda m: parse_int(next(g for g in m.groups() if g)) or None),
    # "single user", "one stream", "for one user", "one request at a time", "no batching"
    ("concurrency", lazy(r"(?i)\b(?:single|one)[- ](?:stream|user|request)\b|\bno\s++batching\b"),
     lambda m: 1),
    ("serving_claim", lazy(r"(?i)\bmulti[- ]?(?:user|tenant)\s++serving\b|\bproduction\s++"
                                 r"serving\b|\bserv(?:e|es|ing)\s++\d[\d,]*\+?\s++(?:concurrent\s++)?"
                                 r"(?:users|requests|clients|customers)\b|\bmulti[- ]tenant\b"),
     lambda m: True),
    ("ttft_empty", lazy(r"(?i)\bTTFT\b[^.\n]{0,30}?\b(?:empty|blank|missing|null)\b|"
                              r"\bempty\s++(?:TTFT|time[- ]to[- ]first[- ]token)\b"),
     lambda m: True),
    ("prefill_cached", lazy(r"(?i)\bprefill\s++(?:(?:came|comes|was|is|served|read)\s++)?"
                                  r"from\s++(?:the\s++)?(?:prefix\s++|KV\s++)?cache\b|\bprefill\s++"
                                  r"(?:was\s++|is\s++)?cached\b|\bcached\s++prefill\b"),
     lambda m: True),
    ("ttft_ms", lazy(rf"(?i)\bTTFT\s*+(?:(?:[:=~≈]|of|is|was|median|mean|avg)\s*+)*(?P<v>{NUM})"
                           r"\s*+(?P<u>ms|s|sec|seconds?)\b|(?P<v2>" + NUM + r")\s*+(?P<u2>ms|s)\s++"
                           r"(?:median\s++|mean\s++|avg\s++|average\s++)?TTFT\b"), lambda m: _ttft(m)),
    # Sampling temperatures stay within 0-5; "GPU temp 65°C" is the card's, not the sampler's.
    ("temperature", lazy(rf"(?i)\b(?:temperature|temp)\s*+(?:(?:[:=]|of|at|is|was|set\s++to)"
                               rf"\s*+)*(?P<v>{NUM})(?!\s*+(?:°|º|C\b|F\b|deg))"),
     lambda m: _bounded(m.group("v"), 0, 5)),
    ("repeats", lazy(rf"(?i)\bbest\s++of\s++({_COUNT})\b|\b(?:median|mean|average|avg)\s++of"
                           rf"\s++({_COUNT})\s++runs\b|\b({_COUNT})\s++(?:runs|repeats|repetitions|"
                           rf"trials)\b|\brepeated\s++({_COUNT})\s++times\b"),
     lambda m: parse_count(next(g for g in m.groups() if g))),
    ("cooldown_s", lazy(rf"(?i)(?P<v>{NUM}|{WORD_NUM})[\s-]*+(?P<u>ms|s|secs?|seconds?|mins?|"
                              rf"minutes?)[\s-]++cool[- ]?downs?\b|\bcool[- ]?downs?\s*+(?:(?:of|:|="
                              rf"|between\s++runs\s++of)\s*+)?(?P<v2>{NUM})\s*+(?P<u2>ms|s|secs?|"
                              r"seconds?|mins?|minutes?)\b"), lambda m: _cooldown(m)),
    ("prefix_caching", lazy(r"(?i)\bprefix[- ]cach(?:e|ing)\s*+(?:[:=]|is|was)?\s*+(?:on|"
                                  r"enabled|true|yes)\b|\b(?:with|enabled?)\s++prefix[- ]caching\b"),
     lambda m: True),
    ("prefix_caching", lazy(r"(?i)\bprefix[- ]cach(?:e|ing)\s*+(?:[:=]|is|was)?\s*+(?:off|"
                                  r"disabled|false|no)\b|\b(?:no|without|disabled?)\s++prefix[- ]"
                                  r"caching\b|\bradix[- ]cache\s++(?:disabled|off)\b"),
     lambda m: False),
]


def _bounded(text: str | None, low: float, high: float) -> float | None:
    value = parse_number(text)
    return value if value is not None and low <= value <= high else None


def _ttft(m: re.Match[str]) -> float | None:
    value = parse_positive(m.group("v") or m.group("v2"))
    unit = m.group("u") or m.group("u2")
    secs = seconds(value, unit)
    return secs * 1000.0 if secs is not None else None


def _cooldown(m: re.Match[str]) -> float | None:
    raw = m.group("v") or m.group("v2")
    value = parse_count(raw) if raw and raw.isalpha() else parse_positive(raw)
    return seconds(float(value), m.group("u") or m.group("u2")) if value else None


_GREEDY = lazy(r"(?i)\bgreedy\b")
_MOE_WORD = lazy(r"(?<!not )(?<!non-)\bMoE\b")
_ATOM = lazy(r"(?<![\w-])ATOM(?![\w-])")
_THRESHOLD = lazy(r"--speculative-accept-threshold-(?:single|acc)[\s=]+(" + NUM + ")")
_NEGATED = lazy(r"(?i)\b(?:not|cannot|can't|no|never|nothing|isn't|doesn't|without)\b")


# How far back in its clause a negation is looked for: bounded, so many matches in one long
# clause cost linear time, not a slice of the clause each.
_NEGATION_REACH = 200


# What each _CELL pattern cannot match without (casefolded): the keyword gate, in _CELL's order.
_CELL_WORDS: list[tuple[str, ...]] = [
    ("batch", "bs"),
    ("conc", "=", "parallel", "simultan", "user", "stream", "once"),
    ("single", "one", "batching"),
    ("multi", "production", "serv"),
    ("ttft", "empty"),
    ("prefill",),
    ("ttft",),
    ("temp",),
    ("best", "run", "repe", "trial"),
    ("cool",),
    ("prefix",),
    ("prefix", "radix"),
]


def _own_mention(s: Scan, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The pattern's match in the headline figure's own part of its line, if another match
    stands elsewhere on that line (one mention alone is the line's, wherever it stands)."""
    part = s.own_part()
    if part is None:
        return None
    lo, hi = part
    on_line = list(pattern.finditer(s.text, *s.line_span(lo)))
    if len(on_line) < 2:
        return None
    return next((m for m in on_line if lo <= m.start() < hi), None)


# A table rendered as plain text, its header a line of column names and each row a line of values
# (docs.vultr.com's stress tests: "Concurrency Throughput Output tok/s p99 Latency" over "50 3,428
# tok/s 1,296 7.75s"): the header's first column, a count's name, is the row's first number.
_HEADER_COUNT = lazy(r"(?im)^[ \t]*+(?P<name>concurrency|concurrent\s++users|users|batch(?:[ _]size)?|bs)"
                     r"[ \t]++[A-Za-z][^\n]{0,120}\n(?:[ \t]*+\n)?[ \t]*+(?P<n>\d{1,5})[ \t]++\d")


def _header_count(s: Scan) -> None:
    """The count a plain-text table's header names first, read off the headline figure's row."""
    if s.primary_line is None or not s.mentions(("concurren", "users", "batch", "bs")):
        return
    for m in s.finditer(_HEADER_COUNT):
        if s.line_of(m.start("n")) != s.primary_line:
            continue
        name = "batch" if m.group("name").lower().startswith("b") else "concurrency"
        n = parse_int(m.group("n"))
        if n and not s.b.has(name):
            s.set(name, n, f"{m.group('name')} … {m.group('n')}")
        return


def _cell(s: Scan) -> None:
    _header_count(s)
    for (name, pattern, convert), words in zip(_CELL, _CELL_WORDS, strict=True):
        if not s.mentions(words):
            continue
        # Two figures at two batches on one line: the headline's batch is the one beside it.
        own = _own_mention(s, pattern) if name in ("batch", "concurrency") else None
        if own is not None and (value := convert(own)) is not None:
            s.set(name, value, own.group(0))
            continue
        for m in s.finditer(pattern):
            if name == "serving_claim" and _NEGATED.search(
                s.text, max(s.clause(m.start())[0], m.start() - _NEGATION_REACH), m.start()
            ):
                continue  # "cannot support a conclusion about multi-user serving"
            value = convert(m)
            if value is not None:
                s.set(name, value, m.group(0))
                break
    if not s.b.has("temperature") and s.mentions(("greedy",)) and (
            greedy := _GREEDY.search(s.text)):
        s.set("temperature", 0.0, greedy.group(0))


_MOE = lazy(r"(?i)(?<![\w.])(?P<t>\d{1,4}(?:\.\d+)?)\s*+B[-\s]?A(?P<a>\d{1,4}(?:\.\d+)?)B\b")
_DENSE = lazy(r"(?i)(?<![\w.])(?P<t>\d{1,4}(?:\.\d+)?)\s*+B[\s-]++dense\b")
_PARAMS = lazy(r"(?i)(?<![\w.])(?P<t>\d{1,4}(?:\.\d+)?)\s*+(?:B|billion|(?P<tera>T|trillion))[\s-]++"
                     r"(?:(?P<act>active)\s++)?param(?:eter)?s?\b")
_BITS = lazy(rf"(?i)(?P<v>{NUM})\s*+(?:(?P<bits>bpw|bits?\s*+(?:per|/)\s*+(?:weight|param\w*))|"
                   r"(?:B|bytes?)\s*+(?:per|/)\s*+param\w*)\b")


def _params(s: Scan) -> None:
    if m := _MOE.search(s.text):
        s.set("params_total_b", parse_positive(m.group("t")), m.group(0))
        s.set("params_active_b", parse_positive(m.group("a")), m.group(0))
        s.set("is_moe", True, m.group(0))
    if m := _DENSE.search(s.text):
        s.set("params_total_b", parse_positive(m.group("t")), m.group(0))
        s.set("is_moe", False, m.group(0))
    for m in s.finditer(_PARAMS):
        value = parse_positive(m.group("t"))
        # "1T params", "a 1 trillion parameter model": a thousand billion
        s.set("params_active_b" if m.group("act") else "params_total_b",
              value * 1000 if value is not None and m.group("tera") else value, m.group(0))
    if m := _MOE_WORD.search(s.text):
        s.set("is_moe", True, m.group(0))
    if m := _BITS.search(s.text):
        value = parse_positive(m.group("v"))
        bits = value if m.group("bits") or value is None else value * 8
        s.set("bits_per_weight", bits if bits is not None and 1 <= bits <= 32 else None,
              m.group(0))


_ENGINE = lazy(
    r"(?i)(?<![\w.-])(?P<e>BeeLlama\.cpp|ik_llama\.cpp|llama\.cpp|llama-cpp|SGLang|vLLM|"
    r"TensorRT-LLM|TRT-LLM|trtllm|ExLlamaV[23]|MLX-LM|MLX|Ollama|LM\s++Studio|LMDeploy|TGI|"
    r"KTransformers)(?![\w-])(?:\s*+(?:\(|version\s*+|ver\.?\s*+|build\s*+)?\s*+"
    r"(?P<v>(?>v?\d+\.\d+[\w.+\-]*+|b\d{3,6}\b[\w.+\-]*+))"
    r"(?!\s*+(?:tok|t/s|tps|tokens|%|x\b|×|W\b|ms\b|s\b|GB)))?")
_ENGINES = {"sglang": "sglang", "vllm": "vllm", "llama.cpp": "llama.cpp", "llama-cpp": "llama.cpp",
            "tensorrt-llm": "tensorrt-llm", "trt-llm": "tensorrt-llm", "trtllm": "tensorrt-llm"}


def _engine(s: Scan) -> None:
    if m := s.pick(s.finditer(_ENGINE)):
        name = m.group("e")
        s.set("engine", _ENGINES.get(name.lower(), name), m.group(0))
        if m.group("v"):
            version = m.group("v").rstrip(".,;:)")
            version = version[1:] if version[:1] in "vV" and version[1:2].isdigit() else version
            s.set("engine_version", version, m.group(0))
        s.blank(m.start(), m.end())  # "+dflash.a91f3e" is a build suffix, not a method
    elif m := _ATOM.search(s.text):
        s.set("engine", "atom", m.group(0))


_NOT_SPEC = lazy(r"(?i)\b(?:auto-?regressive|no[- ]spec(?:ulative)?(?:[- ]decod(?:e|ing))?|"
                       r"without\s++spec(?:ulative)?(?:[- ]decod(?:e|ing))?|spec(?:ulative)?[- ]"
                       r"decod(?:e|ing)\s*+[:=]?\s*+(?:none|off|disabled|no)\b|(?:plain|vanilla)"
                       r"\s++decod(?:e|ing))")
_SPEC = lazy(r"(?i)\bspec(?:ulative)?[- ](?:decod(?:e|ing)|window|draft)|\bspeculative\b|"
                   r"\bdraft(?:er|\s++model)\b")
_METHOD = (r"EAGLE[- ]?[123]?|DFlash\d?|MTP\d*|Medusa|N-?gram|prompt[- ]lookup|"
           r"lookahead\s++decoding|"
           r"DSpark|NextN")


def _speculative(s: Scan) -> None:
    negatives = list(s.finditer(_NOT_SPEC))
    for m in negatives:
        s.blank(m.start(), m.end())
    hit = _SPEC.search(s.text) or _METHOD_WORD.search(s.text)
    if hit:
        s.set("speculative", True, hit.group(0))
    elif negatives:
        s.set("speculative", False, negatives[0].group(0))


_METHOD_WORD = lazy(rf"(?i)(?<![\w-])(?:{_METHOD})(?![\w-])")
_EAGLE_GENERATION = lazy(r"(?i)eagle[-_ ]?([23])(?!\d)")
_SPEC_CONTEXT = lazy(r"(?i)decod|speculat|draft")


def _up_to_primary(s: Scan, found: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """Of mentions in order of start, the ones `_method` can choose: the first, and those on the
    primary line (reading stops past it, so the rest of a long text is not searched)."""
    out: list[tuple[int, str]] = []
    for f in found:
        line = s.line_of(f[0])
        if not out or line == s.primary_line:
            out.append(f)
        if s.primary_line is None or line > s.primary_line:
            break
    return out


def _method(s: Scan) -> None:
    """Distinctive names (DFlash, EAGLE-3, MTP, Medusa, n-gram) count anywhere; the reference
    table's other aliases ("suffix", "REST", "lookahead") are ordinary words too, so they count
    only in a sentence that speaks of decoding, speculation or drafting."""
    in_context = ((n.start, n.raw) for n in finder(s.ref, "methods").finditer(s.text)
                  if _SPEC_CONTEXT.search(s.text[slice(*s.clause(n.start))]))
    found = [*_up_to_primary(s, ((m.start(), m.group(0)) for m in s.finditer(_METHOD_WORD))),
             *_up_to_primary(s, in_context)]
    if not found:
        return
    found.sort()
    on_line = [f for f in found if s.line_of(f[0]) == s.primary_line]
    raw = (on_line or found)[0][1]
    method = canonical_method(re.sub(r"(?i)^MTP\d+$", "MTP", raw), s.ref)
    if method == "EAGLE" and (gen := _EAGLE_GENERATION.search(s.text)):
        # "eagle.evaluation … --use_eagle3", a drafter "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B": the
        # generation named anywhere, even inside a flag or a path, is the method; the bare family
        # name only where none is.
        raw, method = gen.group(0), canonical_method(f"EAGLE-{gen.group(1)}", s.ref)
    s.set("spec_method", method, raw)
    s.set("speculative", True, raw)


_WINDOWS: list[tuple[re.Pattern[str], int, str]] = [
    (lazy(r"(?i)\bblock[\s_-]?size\s*+(?:[:=]|of|is)?\s*+(\d{1,6})(?![\d.])"), 0,
     "DFlash block size '{span}' = window {n}"),
    # An EAGLE tree's depth (EAGLE's `--depth`, SGLang's num_steps) bounds one pass: depth + 1,
    # whatever count of draft tokens its branches hold (EAGLE-2, arXiv 2406.16858).
    (lazy(r"(?i)(?<![\w])(?:--|tree\s++)?depth\s*+(?:[:=]|of|is)?\s*+(\d{1,2})(?![\d.])|"
                r"(?<![\w])(?:--speculative-)?num[_\s-]steps\s*+[:=]?\s*+(\d{1,2})(?![\d.])"), 1,
     "tree depth '{span}' + 1 = window {n}"),
    (lazy(r"(?i)\bnum[_\s-]draft[_\s-]tokens\s*+[:=]?\s*+(\d{1,6})(?![\d.])"), 0,
     "SGLang num_draft_tokens '{span}' = window {n}"),
    (lazy(r"(?i)\bnum[_\s-]spec(?:ulative)?[_\s-]tokens\s*+[:=]?\s*+(\d{1,6})(?![\d.])"), 1,
     "vLLM num_speculative_tokens '{span}' + 1 = window {n}"),
    (lazy(r"(?i)\bdraft[\s_-]max\s*+[:=]?\s*+(\d{1,6})(?![\d.])"), 1,
     "llama.cpp draft max '{span}' + 1 = window {n}"),
    (lazy(r"(?i)(?<![\w-])(?:(?:spec(?:ulative)?|draft|verify|speculation)\s++)?window"
                r"(?:\s++(?:size|width))?\s*+(?:[:=]|of|is)?\s*+-?\s*+(\d{1,6})(?![\d.])"), 0,
     "stated window '{span}' = window {n}"),
    (lazy(r"(?i)(?<![\w.])(?:width\s++)?(\d{1,6})[\s-]*+(?:token[\s-]++)?(?:wide\s++)?"
                r"(?:(?:spec(?:ulative)?|draft|verify)\s++)window\b"), 0,
     "stated window '{span}' = window {n}"),
]
# What each _WINDOWS pattern cannot match without (casefolded), in its order.
_WINDOW_WORDS = [("block",), ("depth", "steps"), ("draft",), ("spec",), ("draft",), ("window",), ("window",)]
_NOT_WINDOW = lazy(r"(?i)\b(?:context|sliding|attention|rolling|time|moving)\s*+$")
# A depth is a draft tree's only beside speculation ("draft tree depth 8", EAGLE's "--depth 7"),
# never a context's ("tg128 at depth 4096").
_DEPTH = 1
_TREE_CONTEXT = lazy(r"(?i)draft|eagle|speculat|medusa|tree|top[-_ ]?k")


def _window(s: Scan) -> None:
    """Patterns are in priority order (a DFlash block size beats a draft-token count, as in
    launch.py); the primary figure's line wins over priority."""
    first: tuple[re.Match[str], int, str] | None = None
    chosen: tuple[re.Match[str], int, str] | None = None
    for priority, (pattern, plus, convention) in enumerate(_WINDOWS):
        if not s.mentions(_WINDOW_WORDS[priority]):
            continue
        # This pattern's mentions up to the primary line (each in order of start): the first
        # on that line wins, else the first mention of the highest priority.
        on_line = s.pick(m for m in s.finditer(pattern)
                         if not _NOT_WINDOW.search(s.text[max(0, m.start() - 12):m.start()])
                         and (priority != _DEPTH or _TREE_CONTEXT.search(s.text[slice(*s.clause(m.start()))])))
        if on_line is None:
            continue
        if first is None:
            first = (on_line, plus, convention)
        if s.primary_line is None:
            break
        if s.line_of(on_line.start()) == s.primary_line:
            chosen = (on_line, plus, convention)
            break
    if (winner := chosen or first) is None:
        return
    m, plus, convention = winner
    n = parse_int(m.group(1) or m.group(2) if m.re.groups > 1 else m.group(1))
    if not n:
        return
    span = " ".join(m.group(0).split())
    s.set("spec_window", n + plus, span)
    s.set("spec_window_convention", convention.format(span=span, n=n + plus), span)
    s.set("speculative", True, span)


def _flags_in_prose(s: Scan) -> None:
    """Threshold flags quoted in notes outside a recognised command."""
    for m in s.finditer(_THRESHOLD):
        value = _bounded(m.group(1), 0, 1)
        s.set("accept_threshold", value, m.group(0))


_CONTEXT = [
    lazy(rf"(?i)(?P<v>{NUM})\s*+(?P<k>[kKmM])?\s*+(?:-?\s*+tokens?\s++)?(?:context|ctx)\b"),
    lazy(rf"(?i)\b(?:context(?:\s++(?:length|size|window))?|ctx(?:[-_ ]?size)?|n_ctx|"
               rf"max[-_ ]model[-_ ]len)\s*+(?:[:=]|of|is)?\s*+(?P<v>{NUM})\s*+(?P<k>[kKmM])?\b"),
]
_IO = [("input_tokens", lazy(rf"(?i)\b(?:ISL|input[\s_-]++len(?:gth)?)\s*+[:=]?\s*+({NUM})")),
       ("output_tokens", lazy(rf"(?i)\b(?:OSL|output[\s_-]++len(?:gth)?)\s*+[:=]?\s*+({NUM})"))]


_CONTEXT_WORDS = [("context", "ctx"), ("context", "ctx", "max")]
_IO_WORDS_NEEDED = {"input_tokens": ("isl", "input"), "output_tokens": ("osl", "output")}


def _context(s: Scan) -> None:
    for pattern, words in zip(_CONTEXT, _CONTEXT_WORDS, strict=True):
        if not s.mentions(words):
            continue
        if m := pattern.search(s.text):
            value = with_suffix(parse_positive(m.group("v")), m.group("k"), binary_k=True)
            if value is not None and value == int(value) and value < 1e9:
                s.set("context_length", int(value), m.group(0))
                break
    for name, pattern in _IO:
        if s.mentions(_IO_WORDS_NEEDED[name]) and (m := pattern.search(s.text)):
            s.set(name, parse_int(m.group(1)) or None, m.group(0))


# An input/output length pair, the cell of every serving benchmark: "ISL/OSL 128/128", "128/128
# in/out", "input 2048 / output 128", "1000/1000 (ISL/OSL)". Two lengths, never a ratio.
_IO_WORDS = (r"(?:ISL\s*+/\s*+OSL|input\s*+/\s*+output(?:\s++(?:lengths?|tokens))?|in\s*+/\s*+out|"
             r"I\s*+/\s*+O|prompt\s*+/\s*+(?:gen(?:eration)?|output|completion)|"
             r"(?:input|output|seq(?:uence)?)\s++len(?:gth)?s?)")
IO_PAIR = lazy(
    rf"(?i)\b{_IO_WORDS}\s*+(?:[:=(]|of|is)?\s*+(?P<i>\d{{1,6}})\s*+/\s*+(?P<o>\d{{1,6}})(?![\d./])|"
    rf"(?<![\d./])(?P<i2>\d{{1,6}})\s*+/\s*+(?P<o2>\d{{1,6}})\s*+(?:tokens?\s++)?\(?{_IO_WORDS}\b|"
    r"\binput\s*+(?:len(?:gth)?\s*+)?[:=]?\s*+(?P<i3>\d{1,6})\s*+(?:tokens?\s*+)?[/,]\s*+output\s*+"
    r"(?:len(?:gth)?\s*+)?[:=]?\s*+(?P<o3>\d{1,6})\b")
# Serving-benchmark wording: the figure counts every stream of a loaded server (trtllm-bench
# `throughput`, vLLM `bench throughput` / `benchmark_throughput`, SGLang `bench_offline_throughput`,
# MLPerf Offline / Server, "max load", "infinite request rate", request rates and counts).
_SERVING = lazy(
    r"(?i)\btrtllm-bench\b[^\n]{0,60}?\bthroughput\b|\bbench(?:mark)?[_ ]throughput\b|"
    r"\bbench\s++throughput\b|\b(?:bench_)?offline[_ ]throughput\b|\bmax(?:imum)?\s++load\b|"
    r"\binfinite\s++(?:request\s++)?rate\b|\brequest[_ ]rate\s*+[:=]?\s*+inf\b|"
    r"\b(?:requests?|reqs?)\s*+/\s*+s(?:ec)?\b|\brequests?\s++per\s++second\b|"
    r"\bMLPerf\b[^\n]{0,60}?\b(?:Offline|Server)\b|\b(?:Offline|Server)\s++scenario\b|"
    r"\bscenario\s*+[:=]?\s*+(?:Offline|Server)\b|\b\d[\d,]{0,9}\s++(?:requests|prompts)\b")


# Tensor-parallel degree as serving tables write it: "TP (1): 4" (a footnote mark), "tp size: 8",
# "tensor parallel size 2": that many cards, when no card count was read.
_TP = lazy(r"(?i)\b(?:tp|tensor[\s_-]parallel(?:ism)?)(?:[\s_-]size)?\s*+(?:\(\d\)\s*+)?"
                 r"[:=]\s*+(\d{1,3})(?![\d.])|\btensor[\s_-]parallel(?:[\s_-]size)?\s++(\d{1,3})(?![\d.])")


def _serving(s: Scan) -> None:
    """Input/output pairs fill the cell; they and other serving wording mark the figure as an
    aggregate over every stream when nothing nearer the figure said which rate it is."""
    if not s.b.has("hardware_count") and (tp := s.pick(s.finditer(_TP))):
        n = parse_int(tp.group(1) or tp.group(2))
        s.set("hardware_count", n if n and n <= 512 else None, tp.group(0))
    pair = s.pick(s.every(IO_PAIR))  # the same matches the ratio reader skipped
    if pair is not None:
        i = pair.group("i") or pair.group("i2") or pair.group("i3")
        o = pair.group("o") or pair.group("o2") or pair.group("o3")
        s.set("input_tokens", parse_int(i) or None, pair.group(0))
        s.set("output_tokens", parse_int(o) or None, pair.group(0))
    marker = pair or s.pick(s.finditer(_SERVING))
    if marker is not None and s.b.has("tok_s") and not s.b.has("batch"):
        s.set("tok_s_kind", "aggregate", marker.group(0))


_SPEEDUP = lazy(rf"(?i)(?P<v>{NUM})\s*+[x×]\s*+(?:(?:lossless\s++)?speed-?up|faster|"
                      rf"acceleration)\b|\bspeed-?up\s*+(?:(?:[:=≈~]|of|is|was|up\s++to)\s*+)*"
                      rf"(?P<v2>{NUM})\s*+[x×]?")


def _speedup(s: Scan) -> None:
    if not s.mentions(("speed", "faster", "acceleration")):
        return
    if m := s.pick(s.finditer(_SPEEDUP)):
        s.set("speedup", parse_positive(m.group("v") or m.group("v2")), m.group(0))

