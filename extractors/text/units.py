"""Numbers and units in untrusted text: "2,103.6", "2.1k", "99–100", "0.969 s", "83.1%".

Every helper returns None rather than a number it cannot vouch for: inf and NaN (a "1e309 tok/s"
post), negative values, digit strings too long to mean anything, and fractions outside 0..1.
The checks divide by these figures, so a non-finite value would poison every ratio downstream.
"""

from __future__ import annotations

import math
import re

from extractors.text.lazyre import lazy

__all__ = [
    "GGUF_QUANT",
    "MS_PER_TOKEN",
    "NOT_SPEED",
    "NUM",
    "NUMBER_WORDS",
    "NUM_BODY",
    "RANGE_SEP",
    "SPEED_FIGURE",
    "SPEED_LABEL",
    "SPEED_QUALIFIER",
    "SPEED_UNIT",
    "WORD_NUM",
    "fraction",
    "parse_count",
    "parse_int",
    "parse_number",
    "parse_positive",
    "seconds",
    "states_speed",
    "with_suffix",
]

# A plain decimal, optionally with thousands separators or an exponent. The exponent is matched
# so that "1e309" is read whole (and rejected as inf) instead of as "309". NUM refuses a number
# glued to a word or a minus sign ("x2", "-5"); NUM_BODY is the bare form for a range's upper end.
# A decimal comma ("22,9", "2103,6"): one or two digits after a comma that no thousands grouping
# could make (a group has three; four or more digits never precede a thousands comma).
NUM_BODY = (r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,5},\d{1,2}(?![\d,])|\d+(?:\.\d+)?)"
            r"(?:[eE][+-]?\d+)?(?!\d)")
# Not inside a Latin word or another number ("H100", "gfx1100", "v0.6.3"); a character of another
# script may touch the figure ("测下来大概是1.87 token/s", kvcache-ai/ktransformers issues: CJK writes
# no spaces). ASCII only, so the class stays small in every pattern that holds it.
NUM = r"(?<![0-9A-Za-z_.\-\u2212])" + NUM_BODY
# Range separators: hyphen, en dash, "to", and an em dash only when unspaced ("AL 231–292",
# "99-100W", "4 to 6"); a spaced em dash is prose punctuation ("AL 5.2 — 2103.6 tok/s").
RANGE_SEP = r"(?:\s{0,3}(?:-|\u2013|~)\s{0,3}|\u2014|\s{1,3}to\s{1,3})"

# GGUF quantisation type names as they appear in file names and posts ("UD-Q4_K_XL", "Q8_0").
# ik_llama.cpp's row-interleaved repacks carry "_R4" / "_R8" ("IQ1_S_R4", "Q8_K_R8", "IQ2_K_R4").
GGUF_QUANT = (r"(?<![A-Za-z0-9])(?:UD-)?(?:I?Q[1-8]_(?:K_)?(?:XXS|XS|XL|NL|S|M|L|[01])"
              r"|IQ[1-8]_K(?:SS|S|T|L)|Q[1-8]_K|I?Q[1-8]_K)(?:_R[48])?(?![A-Za-z0-9])")

NUMBER_WORDS = {
    "one": 1, "single": 1, "two": 2, "dual": 2, "three": 3, "triple": 3, "four": 4, "quad": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "fifteen": 15, "sixteen": 16, "twenty": 20, "thirty": 30,
}
WORD_NUM = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))

_MAX_DIGITS = 15  # int() of a longer digit run is slow or refused (PEP 651 str-int limit)


_DECIMAL_COMMA = re.compile(r"\d{1,5},\d{1,2}")


def parse_number(text: str | None) -> float | None:
    """'2,103.6' -> 2103.6; None for anything not a finite number."""
    if text is None:
        return None
    s = str(text).strip().replace("\u2212", "-")
    if s.isascii() and s.isdigit() and len(s) <= _MAX_DIGITS:
        return float(s)  # plain digits, the most common figure: what the steps below give
    # "22,9" is a decimal comma (a figure with one or two digits after the comma); "2,103" and
    # "1,024" are thousands.
    s = s.replace(",", ".") if _DECIMAL_COMMA.fullmatch(s) else s.replace(",", "")
    if not s or len(s) > 64:
        return None
    try:
        value = float(s)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_positive(text: str | None) -> float | None:
    """A finite number strictly above zero, else None."""
    value = parse_number(text)
    return value if value is not None and value > 0 else None


def parse_int(text: str | None) -> int | None:
    """A non-negative integer of at most 15 digits ('2,048' -> 2048), else None."""
    if text is None:
        return None
    s = str(text).strip().replace(",", "")
    if not s.isdigit() or not s.isascii() or len(s) > _MAX_DIGITS:
        return None
    return int(s)


def parse_count(text: str | None) -> int | None:
    """A positive integer written as digits or a word ('2', 'two', 'dual'), else None."""
    if text is None:
        return None
    s = str(text).strip().lower()
    if s in NUMBER_WORDS:
        return NUMBER_WORDS[s]
    value = parse_int(s)
    return value if value else None


def with_suffix(value: float | None, suffix: str | None, *, binary_k: bool = False) -> float | None:
    """Apply a 'k'/'M' multiplier: '2.1k' tok/s -> 2100. Context lengths use binary_k
    ('32k context' -> 32768), as model cards and llama.cpp do."""
    if value is None:
        return None
    if not suffix:
        return value
    k = 1024 if binary_k else 1000
    mult = {"k": k, "m": k * k}.get(suffix.lower())
    if mult is None:
        return value
    out = value * mult
    return out if math.isfinite(out) else None


def seconds(value: float | None, unit: str | None) -> float | None:
    """A duration in seconds from a value and its unit ('969 ms' -> 0.969)."""
    if value is None or value <= 0:
        return None
    u = (unit or "s").lower()
    if u.startswith(("ms", "milli")):
        return value / 1000.0
    if u.startswith("min"):
        return value * 60.0
    if u in ("h", "hr", "hrs") or u.startswith("hour"):
        return value * 3600.0
    return value


def fraction(value: float | None, *, percent: bool) -> float | None:
    """An acceptance rate as 0..1: '83.1%' -> 0.831, '0.83' -> 0.83; None when out of range."""
    if value is None:
        return None
    if percent:
        value = value / 100.0
    return value if 0.0 <= value <= 1.0 else None


# ---- the speed grammar: one definition for the text reader and the chat pre-filter -------------
# Words between a figure and its unit that say which rate it is ("27 eval tok/sec", "89.2 code TPS",
# lmdeploy's "100.02 out tok/s").
SPEED_QUALIFIER = (r"(?:eval|output|out|decode|decoding|gen|generation|code|prompt|prefill|input|total|"
                   r"average|avg|median|mean|peak|sustained|narr\.?|text\s+gen)")
# A figure with its speed unit: "2,103.6 tok/s", "3800+ tokens/s", "~17 tk/s", "91.5–98.5 gen
# tok/s", "4.23 tokens/second", "60 to 80+ tokens per second", "2.1k t/s", "1.2M tok/s", mlx_lm's "41.2
# tokens-per-sec"; a spread after the figure is its deviation, not the figure ("131.42 ± 0.59
# t/s", llama-bench's mean ± sd).
# The unit of a speed, as SPEED_FIGURE reads it after its figure (also what makes a number a
# rate rather than a count: extractors.text.statements).
SPEED_UNIT = (r"(?:(?:tokens?|toks?|tk|t)\s?/\s?s(?:ec(?:ond)?s?)?(?![A-Za-z])|"
              r"tokens?[\s-](?:per|a)[\s-]sec(?:ond)?(?![A-Za-z])|tps(?![A-Za-z]))")
SPEED_FIGURE = lazy(
    rf"(?:(?P<lo>{NUM})(?P<lok>[kK])?{RANGE_SEP}(?P<hi>{NUM_BODY})|(?P<num>{NUM})"
    rf"(?:\s{{0,3}}(?:±|\+/-|\+-)\s{{0,3}}{NUM_BODY})?)\+?"
    r"(?:\s{0,3}(?P<k>[kKM])(?![a-zA-Z]))?\s{0,3}(?:(?P<q>" + SPEED_QUALIFIER + r"(?:\s{1,3}"
    + SPEED_QUALIFIER + r")?)\s{1,3})?"
    r"(?<![A-Za-z])(?P<unit>" + SPEED_UNIT + ")"
    r"(?P<tail>\s?(?:/|per)\s?(?:user|gpu|stream|request|req|card)\b)?", re.IGNORECASE)
# A table or printout label with the unit before the figure: "Output token throughput (tok/s): 7.27",
# in square brackets too ("generation speed [tokens/sec]: 41.94", h2oai/h2ogpt perf.md).
# TensorRT-LLM's tables: "Throughput (out tok/s/GPU): 5,885" (a per-GPU output figure).
SPEED_LABEL = lazy(rf"(?i)[(\[](?P<lq>(?:out(?:put)?|total|gen(?:eration)?)\s)?(?:tokens?|toks?|tk|t)"
                         rf"\s?/\s?s(?:ec)?(?P<ltail>\s?/\s?(?:gpu|card|user|stream))?[)\]]\s{{0,3}}[:=]"
                         rf"\s{{0,3}}(?P<num>{NUM})")
# "120 tok/s per dollar", "3 tok/s/W": an efficiency, not a speed.
NOT_SPEED = lazy(r"(?i)\s?(?:/|per)\s?(?:\$|dollars?|usd|€|eur|cents?|watts?|W\b|kW\b|joules?|J\b)")


# A per-token time is a rate read upside down: "7.1 ms/token", "35 ms per token" is 1000 / ms
# tok/s of one stream. A latency quoted alone ("TTFT median 364 ms, TPOT median 109 ms") is
# talk about serving, not a speed claim: TPOT is read only where a tool's record gives it.
MS_PER_TOKEN = lazy(rf"(?i)(?P<ms>{NUM})\s*+ms\s*+(?:/|per)\s*+(?:output\s++|generated\s++)?tok(?:en)?\b")


def states_speed(text: str) -> bool:
    """Does the text state a speed the text reader would read: a figure with its unit (not an
    efficiency) or a labelled printout figure? Without a digit nothing runs."""
    if not any(ch.isdigit() for ch in text):
        return False
    for m in SPEED_FIGURE.finditer(text):
        value = with_suffix(parse_positive(m.group("num") or m.group("hi")), m.group("k"))
        if value is not None and not NOT_SPEED.match(text, m.end()):
            return True
    return (any(parse_positive(m.group("num")) is not None for m in SPEED_LABEL.finditer(text))
            or any(parse_positive(m.group("ms")) for m in MS_PER_TOKEN.finditer(text)))
