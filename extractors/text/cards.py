"""Which card a claim ran on, and how many, as people write them.

Cards come from `names.find_gpus` (table aliases, then shapes: "RTX 4060 Ti", "2080ti",
"7900 XTX", "8xH200", "M4 Max", "13900K", "EPYC 9334", "Cerebras"). The claim's card is the one
nearest before its headline figure on the same line ("M2 20 tokens/s, 8 x Quadro P6000 40
tokens/s" ran on the Quadros), else the first after it on that line, else the first in the text.

The count is read around that card, in every common form:
- before it: "8x H100", "8×B200", "4*2080ti", "2x 3090s", "dual 4090s", "two 3090s",
  "dual-socket EPYC", "a single", "one used", and "a", "an", "my" for one card ("my 3090 does
  120 t/s"; "my 3090s" says nothing about how many);
- after it: "RTX 5090 ×1";
- elsewhere: "4 GPUs", "two cards", then a tensor-parallel degree ("TP8", "TP=4", "tp2", "--tp 8"),
  which is the number of cards one model is split over.
"two H200 machines" is two machines of unknown size: no count.
"""

from __future__ import annotations

import re

from extractors.text.names import Name, find_gpus
from extractors.text.scan import Scan
from extractors.text.units import WORD_NUM, parse_count

__all__ = ["choose_card", "read_cards"]

_ADJ = (r"(?i:(?:consumer|flagship|datacenter|data-center|desktop|gaming|high-end|workstation|"
        r"NVIDIA|AMD|GeForce|Radeon|used|new|old|lone|stock|spare|older|cheap)\s+){0,3}")
_COUNT_BEFORE = re.compile(
    rf"(?:(?<![\w.])(?P<n>\d{{1,3}})\s?[x×*]\s?|(?<![\w.])(?i:(?P<w>{WORD_NUM}|a\s+single|a|an|my|"
    rf"\d{{1,3}}))(?:[\s-]socket)?\s+{_ADJ})$")
_COUNT_AFTER = re.compile(r"\s?[x×]\s?(\d{1,3})\b")
_MACHINES = re.compile(r"(?i)s?\s{1,3}(?:machines?|nodes?|servers?|boxes|systems|rigs|hosts)\b")
_COUNT_GPUS = re.compile(rf"(?<![\w.])(?i:(?P<w>{WORD_NUM}|a\s+single|\d{{1,3}}))\s+{_ADJ}"
                         r"(?i:GPUs?|cards?|graphics\s+cards?|accelerators?)\b")
_TP = re.compile(r"(?i)(?<![\w-])(?:TP|tensor[-_ ]parallel(?:[-_ ]size)?)\s?[:=]?\s?(\d{1,3})"
                 r"(?![\d.])|(?<![\w-])--tp(?:-size)?[ =](\d{1,3})\b")
_SINGULAR = {"a", "an", "my"}


def choose_card(cards: list[Name], s: Scan, at: int | None) -> Name | None:
    """The card nearest before the headline figure on its line, else after it, else the first."""
    if not cards:
        return None
    if at is not None:
        line = s.line_of(at)
        same = [c for c in cards if s.line_of(c.start) == line]
        before = [c for c in same if c.start < at]
        if before:
            return before[-1]
        if same:
            return same[0]
    return cards[0]


def _count_near(card: Name, text: str) -> tuple[int | None, str] | None:
    window = text[max(0, card.start - 60):card.start]
    if _MACHINES.match(text, card.end):
        return None
    if m := _COUNT_BEFORE.search(window):
        word = " ".join((m.group("w") or "").lower().replace("a single", "single").split())
        plural = text[card.end:card.end + 1] == "s"
        if word in _SINGULAR:
            return (None, "") if plural else (1, m.group(0) + card.raw)
        return parse_count(m.group("n") or word), m.group(0) + card.raw
    if m := _COUNT_AFTER.match(text, card.end):
        return parse_count(m.group(1)), card.raw + m.group(0)
    return None


def read_cards(s: Scan, at: int | None = None) -> None:
    """Set hardware and hardware_count; `at` is where the headline figure is, if any."""
    card = choose_card(find_gpus(s.text, s.ref), s, at)
    if card is not None:
        s.set("hardware", card.name, card.raw)
        near = _count_near(card, s.text)
        if near is not None:
            if near[0]:
                s.set("hardware_count", near[0], near[1])
            return
    if m := _COUNT_GPUS.search(s.text):
        word = " ".join(m.group("w").lower().replace("a single", "single").split())
        n = parse_count(word)
        if n and n <= 100000:
            s.set("hardware_count", n, m.group(0))
            return
    if m := _TP.search(s.text):
        s.set("hardware_count", parse_count(m.group(1) or m.group(2)), m.group(0))
