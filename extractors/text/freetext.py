"""Speed claims written in prose: posts, titles, chat lines, record notes.

This module reads the figures (tok/s, tokens in seconds, AL, acceptance rate, a/b ratios, power)
and runs the other prose readers in order: `cards` (card and count, told where the headline
figure is), `models` (model name), `quants` (weight format), `specwords` (negations and draft
mentions), `statements` (cell and method), `specwords` again (windows in plain words, offload),
and last `models.infer_size` (a size from the name when no table row has the model).

Each reader below looks for one kind of statement and sets the claim field with the matched text
as its span ("2103.6 tok/s", "AL=56.0", "99–100 W"); the first value set for a field wins, and a
launch command or log read earlier outranks the prose.

Choosing among several numbers:
- tok/s: every figure goes into `numbers` ("120 t/s", "3800+ tokens/s", "22,9 tok/s", "529.6 gen
  tok/s", "Output token throughput (tok/s): 7.27"); an efficiency ("tok/s per dollar", "tok/s/W")
  is no speed. The primary is the largest figure that is not presented as a baseline (a cue such
  as "baseline", "vs" between the previous figure and this one, or "without SD", "baseline"
  right after it) and not a prefill speed; failing that the largest non-prefill figure; failing
  that the largest. Viral claims are the big number; prefill speeds are bigger still and are not
  generation speed.
- kind: the words nearest the figure decide — its own tail ("/user", "per GPU") or qualifier
  ("gen", "eval", "prompt"), then the words right after it up to the next comma or number ("66
  tok/s generation, 779 prefill"), then the nearest word before it since the previous figure
  ("pp512 3000 t/s", "tg128 120 t/s"). "speculative decoding" names a method, not the decode
  rate.
- spec method, window, AL, tokens-in-seconds: the mention on the same line as the primary tok/s
  figure, else the first in the text.
- power: the first figure that is not a board-power / TDP / power-limit statement and not a
  baseline's; power limits go to `power_profile`.
- "32k context" is read as 32 × 1024 tokens (context sizes are powers of two in practice).
- A decode figure on a line naming a llama-bench test ("tg128", "tg 512") is plain decode
  unless the text speaks of speculation: llama-bench has no draft-model option.
Anything that is not a finite positive number is dropped; an AL below 1 is impossible and dropped
without a guess.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.text.cards import read_cards
from extractors.text.lazyre import fold, lazy, literals_of
from extractors.text.models import infer_size, read_model
from extractors.text.quants import read_formats
from extractors.text.scan import Scan, read_once
from extractors.text.specwords import read_spec_after, read_spec_words
from extractors.text.statements import IO_PAIR, read_statements
from extractors.text.units import (
    MS_PER_TOKEN,
    NOT_SPEED,
    NUM,
    NUM_BODY,
    RANGE_SEP,
    SPEED_FIGURE,
    SPEED_LABEL,
    SPEED_QUALIFIER,
    fraction,
    parse_int,
    parse_number,
    parse_positive,
    seconds,
    with_suffix,
)

__all__ = ["FreeTextReading", "read_free_text"]

_I = re.IGNORECASE
_BASELINE = lazy(r"(?i)\b(?:baseline|base\s+model|target\s+alone|normal(?:ly)?|auto-?regressive|AR|no[- ]spec\w*|"
                       r"without\s+spec\w*|plain|vanilla|control|vs\.?|versus|compared\s+(?:to|"
                       r"with)|instead\s+of|real\s+(?:\w+\s+)?decode|stock|without\s+SD|no\s+draft)"
                       r"\b")
# Cues after a figure that make it the baseline ("37.2 tok/s baseline", "2.2 t/s without SD");
# "vs" and "compared to" after a figure introduce the next one instead.
_BASELINE_AFTER = lazy(r"(?i)\b(?:baseline|auto-?regressive|no[- ]spec\w*|without\s+(?:spec\w*|"
                             r"SD|(?:a\s+)?draft\w*)|no\s+draft\w*|(?:plain|vanilla)\s+decod\w*)\b")
# Words that say which rate a figure is; the one nearest the figure decides. "speculative
# decoding" names a method, not the decode rate; "prompt eval" is prefill, a bare "eval" decode.
# koboldcpp labels its two rates "Process:" (the prompt) and "Generate:" ("CtxLimit: 3768/4096,
# Process:0.44s (442.0ms/T = 2.26T/s), Generate:0.00s (3.0ms/T = 333.33T/s), Total:0.45s
# (2.25T/s)", as pasted in LostRuins/koboldcpp issue #972): as labels, with their colon, they
# name the kind; the bare verbs in prose do not. Its newer perf summary writes them in one word
# ("ProcessingSpeed: 406.84T/s", "GenerationSpeed: 3.76T/s", koboldcpp issue #1527). A prompt's
# length ("with a prompt of 1024 tokens", "prompt length 512") is the cell, not the rate.
_PREFILL_WORDS = (
    r"(?P<prefill>\bpre-?fill|\bprompt(?:\s+(?:processing|eval\w*|tok\w*|throughput))?\b(?!s)"
    r"(?!\s+of\s+\d)(?![\s_-]?(?:len(?:gth)?|size)\b)|"
    r"\bprocess(?:ing)?(?=\s?:|speed\b)|"
    r"\bpp\d*\b|\binput(?![\s:=]{0,3}\d{1,6}\s{0,3}(?:tokens?\s{0,3})?[/,])(?![\s_-]{0,3}len)"
    r"(?:\s+throughput)?\b)")
_DECODE_WORDS = (r"(?P<decode>(?<!speculative )(?<!spec )\bdecod(?:e|ing)\b|\bgen(?:eration)?(?:\b|(?=speed\b))|"
                 r"\bgenerate(?=\s?:)|"
                 r"\btg\d*\b|\beval\b)")
# "end-to-end throughput" is still a throughput (kvcache-ai/ktransformers doc/en/AMX.md: "418
# tokens/s end-to-end throughput"): at unknown batch it is an aggregate, never one stream's rate.
# So is a generation throughput (vLLM's "Avg generation throughput" and SGLang's "gen throughput"
# sum every running request) and a "combined" figure; "gen"/"generation" alone stays a decode word.
# A total that is a time ("total 1.972 ms, 509.5 tok/sec", tinygrad's llama benchmark; "total
# time"; koboldcpp's "Total:4.06s (16.02T/s)") counts no streams: one run's tokens over its whole
# time, an end-to-end figure.
_A_TIME = r"\s{0,3}(?:time\b|[:=]?\s{0,3}\d[\d.]*\s{0,2}(?:ms|s|sec|seconds)\b)"
_KIND_WORDS = lazy(
    # llama-bench's -pg test ("pp4096+tg128") times a prompt and a generation together: a total,
    # read before its "pp" can name a prefill.
    r"(?i)(?P<total>(?<![A-Za-z])pp\s?\d{1,7}\s*\+\s*tg\s?\d{1,7}(?![\w.])|\btotal\s+tok(?:en)?s?\b(?:\s+throughput\b)?)|"
    + _PREFILL_WORDS + "|"
    r"(?P<per_user>\b(?:per|each)\s+(?:user|stream|request)\b|/\s?(?:user|stream|req(?:uest)?)\b)|"
    r"(?P<per_gpu>\bper\s+(?:gpu|card)\b|/\s?(?:gpu|card)\b)|"
    r"(?P<aggregate>\b(?:end[- ]to[- ]end|e2e|gen(?:eration)?)\s+throughput\b|\baggregate\b|\btotal\b(?!"
    + _A_TIME + r")|\bcombined\b|(?<!decode )(?<!decoding )\bthroughput\b|\b\d{1,5}\s(?:prompts|requests|concurrent)\b|\bdp\d{1,2}\b|\bdp\s?=\s?\d{1,2}\b)|"
    r"(?P<output>\bend[- ]to[- ]end\b|\be2e\b|\btotal(?=" + _A_TIME + r"))|"
    + _DECODE_WORDS)
# Only a prefill or a decode word decides a figure's line (`_line_kind`): the strings one of
# which every such word holds (casefolded), so a line holding none of them costs one scan.
_LINE_KIND_NEED = lazy(r"(?i)" + _PREFILL_WORDS + "|" + _DECODE_WORDS)
_QUALIFIER = SPEED_QUALIFIER  # the unit and figure grammar lives in units.py: the chat pre-filter uses it too
_TOKS = SPEED_FIGURE
_TOKS_LABEL = SPEED_LABEL
_AFTER_STOP = lazy(r"[,;(|)\[\]\d]")
_WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"
# "120 tok/s per dollar", "3 tok/s/W": an efficiency, not a speed.
_NOT_SPEED = NOT_SPEED


# A training or fine-tuning throughput ("LoRA fine-tuning throughput ... 455.37 token/s",
# kvcache-ai/ktransformers doc/en/SFT) is tokens pushed through forward and backward passes in
# parallel, not a generation rate: read against the decode roofline it looks 10x too fast.
# A generation word in the figure's own part of the sentence keeps it ("Training is slow, but it
# decodes at 90 tok/s").
_TRAINING = lazy(r"(?i)\b(?:fine[- ]?tun(?:ing|es)|(?:pre-?)?training|SFT)\b")
_GENERATION = lazy(r"(?i)\b(?:decod\w*|generat\w*|infer\w*)")


_TRAINING_REACH = 1000  # a table row's caption stands this far at most before its last cell


def _training_figure(text: str, at: int) -> bool:
    """Is the figure at `at` a training throughput? Its line says training (a table row's caption
    says it for every cell) and its own part of the sentence names no generation. Bounded windows:
    a one-line paste of many figures costs each of them at most twice the reach."""
    start = max(text.rfind("\n", max(0, at - _TRAINING_REACH), at) + 1, at - _TRAINING_REACH)
    end = text.find("\n", at, at + _TRAINING_REACH)
    if not _TRAINING.search(text, start, end if end >= 0 else min(len(text), at + _TRAINING_REACH)):
        return False
    own = max(text.rfind(",", start, at), text.rfind(";", start, at), text.rfind(". ", start, at),
              start)
    return not _GENERATION.search(text, own, at)

# tqdm progress bars ("100%|████| 128/128 [21:13<00:00]") hold a/b counts that are not statistics.
_PROGRESS = lazy(r"(?m)^[^\n]*?\d%\|[^\n]*$")


@dataclass
class FreeTextReading:
    found: bool = False
    numbers: list[float] = field(default_factory=list)
    primary: float | None = None


@dataclass
class _Mention:
    value: float
    start: int
    end: int
    span: str
    baseline: bool
    prefill: bool
    kind: str | None


def read_free_text(text: str, b: ClaimBuilder, ref: Reference | None = None) -> FreeTextReading:
    """Fill `b` from prose; return the tok/s figures quoted and which one is the claim."""
    if text.isspace() or not text:
        # Nothing left to read (a record's launch command once its command is blanked): no
        # reader can match blanks, and asking each of them cost a third of reading a record.
        return FreeTextReading()
    # A pasted log's repeated lines are read once (`read_once`): each of the readers below runs
    # over the whole text, and a log of claim lines is a few hundred lines repeated.
    once, copies = read_once(text)
    s = Scan(_PROGRESS.sub(lambda m: " " * len(m.group(0)), once), b, ref, copies)
    mentions, primary, at = _tok_s(s)
    if primary is None and (timed := _per_token_time(s)) is not None:
        primary, at = timed
    out = FreeTextReading(numbers=[m.value for m in mentions], primary=primary)
    for reader in (_tokens_in_seconds, _acceptance, _ratios, _power):
        reader(s)
    read_cards(s, at)
    for reader in (read_model, read_formats, read_spec_words, read_statements, read_spec_after,
                   infer_size):
        reader(s)
    if at is not None:
        _bench_test(s, at)
    out.found = s.found or bool(mentions)
    return out


# ---- tok/s -------------------------------------------------------------------------------------

# llama-bench's test names: "tg128" (decode of 128 tokens), "pp512" (prompt processing), written
# glued or spaced ("tg 512") in the tables that quote it (ggml-org/llama.cpp
# tools/llama-bench/README.md: `-n` / `-p` tests print as tgN / ppN).
_TG_TEST = lazy(r"(?i)(?<![A-Za-z0-9])tg\s?\d{1,6}(?![\w.])")


def _bench_test(s: Scan, at: int) -> None:
    """A decode figure on a line naming a llama-bench tg test is llama-bench output, and
    llama-bench has no speculative decoding (no draft-model option in its README): plain decode,
    unless the text itself spoke of speculation (read earlier, so it wins)."""
    if s.b.has("speculative") or s.b.values.get("tok_s_kind") != "decode":
        return
    start = max(s.text.rfind("\n", 0, at) + 1, at - _LINE_REACH)
    if m := _TG_TEST.search(s.text, start, at):
        s.set("speculative", False, f"{m.group(0)}: a llama-bench decode test (no speculative decoding)")


# Memos of pure functions of short strings (a figure's own words, the words after it, the window
# before it): a log repeats its lines, so a few hundred distinct windows serve ten thousand
# figures. Bounded (lru_cache).
# How far back `_KIND_WORDS` can look before where it starts matching: its longest lookbehind
# ("speculative ") and a word boundary.
_KIND_BEHIND = 16


@lru_cache(maxsize=4096)
def _first_kind(words: str) -> str | None:
    """The kind the first kind word in `words` names."""
    found = _KIND_WORDS.search(words)
    return found.lastgroup if found else None


def _last_kind(text: str, start: int, end: int) -> str | None:
    """The kind the last kind word in text[start:end] names, read as the whole text would be
    (the characters just before `start` are kept for the pattern's lookbehinds)."""
    lead = max(0, start - _KIND_BEHIND)
    return _last_kind_in(text[lead:end], start - lead)


@lru_cache(maxsize=4096)
def _last_kind_in(window: str, start: int) -> str | None:
    nearest = None
    for found in _KIND_WORDS.finditer(window, start):
        nearest = found.lastgroup
    return nearest


@lru_cache(maxsize=4096)
def _is_baseline(before: str, after: str) -> bool:
    """A baseline cue before the figure (in its comma segment) or right after it."""
    return bool(_BASELINE.search(before) or _BASELINE_AFTER.search(after))


def _kind(text: str, before_at: int, m: re.Match[str], after: str) -> str | None:
    """The kind the words nearest the figure give it: its own tail or qualifier, then the words
    right after it (`after`: up to the next comma or number), then the nearest word before it."""
    # The unit is part of the figure's own words: "total tokens/s" counts input and output.
    own = (m.group("tail") or "") + " " + (m.group("q") or "") + " " + m.group("unit")
    return _first_kind(own) or _first_kind(after) or _last_kind(text, before_at, m.start())


# A legend defining abbreviations ("TG = text generation, PP = prompt processing") names every
# kind and none in particular.
_LEGEND = lazy(r"\b[A-Z]{2,5}\s?=\s?[A-Za-z][A-Za-z ]{0,40}")
_LINE_REACH = 2000  # characters of the figure's line looked at, before the figure


def _line_kind(text: str, at: int) -> str | None:
    """The rate a figure's line names when nothing near the figure did: a table row's heading or
    caption ("Average 1024 tokens prompt eval speed (tokens/s) by GPUs") says what every figure
    under it is. Only a line naming exactly one of prefill or decode decides; legends are skipped."""
    start = max(text.rfind("\n", 0, at) + 1, at - _LINE_REACH)
    low = fold(text[start:at])  # blanking a legend only takes words away: checked before it
    if not any(w in low for w in literals_of(_LINE_KIND_NEED) or ("",)):
        return None
    line = _LEGEND.sub(" ", text[start:at])
    kinds = {k.lastgroup for k in _KIND_WORDS.finditer(line)} & {"prefill", "decode"}
    return kinds.pop() if len(kinds) == 1 else None


def _tok_s(s: Scan) -> tuple[list[_Mention], float | None, int | None]:
    mentions: list[_Mention] = []
    # Every number, plainly: its matches are dense, where a start-class pass costs more than it
    # skips. Found when the first figure needs them: most texts quote no tok/s figure at all.
    numbers: list[int] | None = None
    last_end = 0
    training = _TRAINING.search(s.text) is not None  # one scan; most texts train nothing
    for m in s.finditer(_TOKS):
        value = with_suffix(parse_positive(m.group("num") or m.group("hi")), m.group("k"))
        if value is None or _NOT_SPEED.match(s.text, m.end()):
            continue
        start, end = s.clause(m.start())
        if training and _training_figure(s.text, m.start()):
            continue
        if numbers is None:
            numbers = [n.start() for n in re.finditer(NUM, s.text)]
        i = bisect.bisect_left(numbers, m.start())
        prev = numbers[i - 1] if i > 0 and numbers[i - 1] >= start else start
        # A cue after a figure's comma belongs to that figure ("2.2 t/s without SD, 3.5 t/s").
        before = s.text[prev:m.start()]
        before = before[max(before.rfind(","), before.rfind(";")) + 1:]
        after = s.text[m.end():min(end, m.end() + 30)]
        cut = _AFTER_STOP.search(after)
        if cut is not None:
            # A word glued to the next number names the next figure ("pp512 1500 t/s tg128 54
            # t/s": the "tg" is the 54's test), not this one; so does llama-bench's "pp"/"tg"
            # before it ("pp 1500 t/s / tg 54 t/s").
            after = after[:cut.start()]
            if cut.group(0).isdigit():
                bare = after.rstrip()
                if bare is after or bare[-2:].lower() in ("pp", "tg"):
                    after = bare.rstrip(_WORD_CHARS)
        kind = _kind(s.text, max(start, last_end, m.start() - 60), m, after)
        last_end = m.end()
        prefill = kind == "prefill"
        low = with_suffix(parse_positive(m.group("lo")), m.group("lok") or m.group("k"))
        if low is not None:
            mentions.append(_Mention(low, m.start(), m.end(), m.group(0), True, prefill, kind))
        mentions.append(_Mention(value, m.start(), m.end(), m.group(0),
                                 _is_baseline(before, after), prefill, kind))
    for m in s.finditer(_TOKS_LABEL):
        value = parse_positive(m.group("num"))
        if value is None:
            continue
        if training and _training_figure(s.text, m.start()):
            continue
        start, _ = s.clause(m.start())
        label = s.text[max(start, m.start() - 40):m.start()]
        kinds = [k.lastgroup for k in _KIND_WORDS.finditer(label)]
        kind = kinds[-1] if kinds else None
        own = [k.lastgroup for k in _KIND_WORDS.finditer((m.group("ltail") or "").replace("/", "per "))]
        kind = own[0] if own else kind
        mentions.append(_Mention(value, m.start(), m.end(), m.group(0),
                                 bool(_BASELINE.search(label)), kind == "prefill", kind))
    if not mentions:
        return mentions, None, None
    # An input+output total ("5678.90 total tokens/s") is no generation speed: an output figure
    # beside it is the claim.
    pool = ([m for m in mentions if not m.baseline and not m.prefill and m.kind != "total"]
            or [m for m in mentions if not m.baseline and not m.prefill]
            or [m for m in mentions if not m.prefill] or mentions)
    best = max(pool, key=lambda m: m.value)
    if best.kind is None:
        best.kind = _line_kind(s.text, best.start)
    _claimed(s, best.value, best.kind, best.start, best.end, best.span)
    return mentions, best.value, best.start


def _claimed(s: Scan, value: float, kind: str | None, start: int, end: int, span: str) -> None:
    """The figure at text[start:end] is the claim: its rate, its kind, and its line as the
    primary one (a method, window or engine written on it wins)."""
    s.primary_line = s.line_of(start)
    s.primary_span = (start, end)
    s.set("tok_s", value, span)
    s.set("tok_s_kind", kind, span)


def _per_token_time(s: Scan) -> tuple[float, int] | None:
    """The rate a per-token time states, when the text quotes no tok/s figure: 1000 / ms, one
    stream's. A prompt's per-token time ("prompt eval 0.5 ms/token") is its prefill rate."""
    for m in s.finditer(MS_PER_TOKEN):
        ms = parse_positive(m.group("ms"))
        if ms is None:
            continue
        line_kind = _last_kind(s.text, max(s.text.rfind("\n", 0, m.start()) + 1, m.start() - 60), m.start())
        kind = "prefill" if line_kind == "prefill" else "decode"
        rate = round(1000.0 / ms, 2)  # as a rate read off tokens and seconds is (extractors.evidence)
        _claimed(s, rate, kind, m.start(), m.end(), m.group(0))
        return rate, m.start()
    return None


_TOKENS_IN = lazy(rf"(?P<tok>{NUM})\s*(?:output\s+|generated\s+|new\s+|decode\s+)?"
                        rf"tok(?:en)?s?\s+(?:in|over|within)\s+(?P<sec>{NUM})\s*"
                        r"(?P<unit>ms|milliseconds?|s|secs?|seconds?)\b", _I)


def _tokens_in_seconds(s: Scan) -> None:
    m = s.pick(s.finditer(_TOKENS_IN))
    if not m:
        return
    tokens = parse_int(m.group("tok"))
    wall = seconds(parse_positive(m.group("sec")), m.group("unit"))
    if tokens and wall:
        s.set("tokens_generated", tokens, m.group(0))
        s.set("wall_seconds", wall, m.group(0))


# ---- speculative statistics --------------------------------------------------------------------

# The spellings tools and posts use: SGLang's "accept len", vLLM's "Accpt Len" (its spec-decode
# throughput line), "acc len", "avg accept length", "mean accepted tokens".
_AL = lazy(rf"(?:\bAL\b|τ|\btau\b|(?i:\b(?:avg\s+|average\s+|mean\s+)?(?:acceptance|accept(?:ed)?|accpt|acc)"
                 rf"[ _-]len(?:gth)?\b|\bmean\s+accepted\s+tokens))\s*(?:(?:[:=≈~(]|of|is|was|at|around|about)\s*)*"
                 rf"(?P<lo>{NUM})(?:{RANGE_SEP}(?P<hi>{NUM_BODY}))?")
_RATE = [
    lazy(rf"(?P<p>{NUM})\s*(?P<pct>%)\s*(?:draft\s+)?(?:acceptance|accepted|accept(?:ance)?"
               r"\s+rate|hit\s+rate)\b", _I),
    lazy(rf"\b(?:draft\s+)?accept(?:ance)?\s+rate\s*(?:(?:[:=≈~]|of|is|was)\s*)*"
               rf"(?P<p>{NUM})\s*(?P<pct>%)?", _I),
]
_RATIO = lazy(r"(?<![\d./,])(\d{1,12})\s*/\s*(\d{1,12})(?![\d./]|,\d)")


def _acceptance(s: Scan) -> None:
    m = s.pick(s.finditer(_AL))
    if m:
        lo, hi = parse_number(m.group("lo")), parse_number(m.group("hi"))
        if lo is not None and hi is not None and 1 <= lo <= hi:
            s.set("acceptance_length_low", lo, m.group(0))
            s.set("acceptance_length_high", hi, m.group(0))
        elif lo is not None and lo >= 1:
            s.set("acceptance_length", lo, m.group(0) if hi is None else f"AL {m.group('lo')}")
    for pattern in _RATE:
        for m in s.finditer(pattern):
            rate = fraction(parse_number(m.group("p")), percent=bool(m.group("pct")))
            if rate is not None:
                s.set("acceptance_rate", rate, m.group(0))
                return


# An a/b count is an acceptance statistic only where its sentence speaks of accepting, drafting
# or verifying tokens; anywhere else it is a score, a length pair or a count of things.
ACCEPT_CONTEXT = lazy(r"(?i)accept|\bdraft|\bAL\b|specul|verif|propos|\bspec\b|\bhits?\b")


def _ratios(s: Scan) -> None:
    pairs: list[tuple[int, int]] = []
    spans = []
    # "ISL/OSL 128/128", "128/128 in/out": two lengths, never a ratio.
    lengths = [(m.start(), m.end()) for m in s.every(IO_PAIR)]
    for m in s.finditer(_RATIO):
        if any(a <= m.start() < b for a, b in lengths):
            continue
        start, end = s.clause(m.start())
        if not ACCEPT_CONTEXT.search(s.text, start, end):
            continue
        a, d = parse_int(m.group(1)), parse_int(m.group(2))
        if a is not None and d and (a, d) not in pairs and len(pairs) < 100:
            pairs.append((a, d))
            spans.append(m.group(0))
    if pairs:
        s.set("ratios", pairs, "; ".join(spans))


# ---- power -------------------------------------------------------------------------------------

_POWER = lazy(rf"(?P<lo>{NUM})(?:{RANGE_SEP}(?P<hi>{NUM_BODY}))?\s*(?:W\b|(?i:watts?)\b)")
# What a machine draws doing nothing ("Idle power draw: 47.7W", geerlingguy/ai-benchmarks issue
# #46, before its "Power consumption: 241.4W" under load) is no draw of the run either.
_NOT_DRAW = lazy(r"(?i)\b(?:TDP|TGP|board\s+power|power\s+limit\w*|limit\w*|cap(?:ped)?|"
                       r"rated|max(?:imum)?|PSU|power\s+supply|idl(?:e|ing))\b")
_LIMIT = lazy(rf"(?i)(?:power[- ]limit(?:ed)?|capped)\s{{0,3}}(?:(?:to|at|of|:|=)\s{{0,3}})?{NUM}"
                    rf"\s{{0,3}}W\b|{NUM}\s{{0,3}}W\s{{0,3}}(?:power[- ]limit|cap)\b")
_METER = [(lazy(r"(?i)nvidia-smi|nvml"), "nvidia-smi"),
          (lazy(r"(?i)at\s+the\s+wall|wall\s+(?:power|meter|socket)|kill-?a-?watt"), "wall"),
          (lazy(r"(?i)board\s+power\s+draw|GPU\s+power\s+draw"), "board")]


def _power(s: Scan) -> None:
    chosen = None
    draws = []
    for m in s.finditer(_POWER):
        start, end = s.clause(m.start())
        before = s.text[max(start, m.start() - 25):m.start()]
        after = s.text[m.end():min(end, m.end() + 25)]
        if _NOT_DRAW.search(before + " " + after):
            continue
        draws.append(m)
        if not _BASELINE.search(s.text[start:m.start()]):
            chosen = m
            break
    # A lone draw figure in a "plain decode: 146 tok/s at 310 W" post belongs to the claim: there
    # is no other run for it to describe.
    if chosen is None and sum(s.copies_at(m.start()) for m in draws) == 1:
        chosen = draws[0]
    if limit := _LIMIT.search(s.text):
        s.set("power_profile", limit.group(0), limit.group(0))
    if chosen is None:
        return
    lo, hi = parse_positive(chosen.group("lo")), parse_positive(chosen.group("hi"))
    if lo is None:
        return
    s.set("power_w", lo, chosen.group(0))
    if hi is not None and hi >= lo:
        s.set("power_w_high", hi, chosen.group(0))
    for pattern, method in _METER:
        if meter := pattern.search(s.text):
            s.set("power_method", method, meter.group(0))
            break


