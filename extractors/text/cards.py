"""Which card a claim ran on, and how many, as people write them.

Cards come from `names.find_gpus` (table aliases, then shapes: "RTX 4060 Ti", "2080ti",
"7900 XTX", "8xH200", "M4 Max", "13900K", "EPYC 9334", "Cerebras"). The claim's card is the one
nearest before its headline figure on the same line ("M2 20 tokens/s, 8 x Quadro P6000 40
tokens/s" ran on the Quadros), else the first after it on that line, else the first in the text.

The count is read around that card, in every common form:
- before it: "8x H100", "8×B200", "4*2080ti", "2x 3090s", "dual 4090s", "two 3090s",
  "dual-socket EPYC", "a single", "one used", and "a", "an", "my" for one card ("my 3090 does
  120 t/s"; "my 3090s" says nothing about how many);
- after it: "RTX 5090 ×1", "4090 24GB * 8" (the memory between card and count), "H200 8x:" where
  the clause ends after the count ("a 4090 2x faster" is a speedup);
- elsewhere: "4 GPUs", "two cards" (not "48 GPU cores", a chip's cores), then a tensor-parallel degree ("TP8", "TP=4", "tp2", "--tp 8"),
  which is the number of cards one model is split over.
"two H200 machines" is two machines of unknown size: no count.

The device is the accelerator: a CPU in parentheses after a card ("RTX 4070 (5950X box)") or
named as the "box", "rig", "host", "PC", "server" or "workstation" is the host, never the device
while a card is named. A rig of different cards ("RTX 4090 + RTX 3090 Ti", "3090 + 2x 3060", joined by "+") is
read card by card: the hardware names every card ("RTX 3090 + 2x RTX 3060", which the reference
resolves to the rig's summed bandwidth and memory) and the count is their sum. A named system
("p5.48xlarge", "OCI BM.GPU.MI300X.8", "DGX H100") holds its own count of cards (× the number of
systems when one is given).
A card named by its class only ("on one consumer GPU") is the device where no card is named, and
judged at the most generous row of its class (checks/physics/ceilings.py `class_row`).
A run said to use no card ("CPU-only performance", "CPU only:") before its figure ran on the CPU
the text names, unless the figure's own clause names a card.
The one CPU named beside the card is the card's host (`host`): what an offloaded run reads from
system memory is bounded by that CPU's platform, not by the most generous host of any card.
"""

from __future__ import annotations

from collections.abc import Sequence

from checks.reference import CONSUMER_GPU, Reference
from extractors.text.lazyre import lazy
from extractors.text.names import Name, find_gpus
from extractors.text.scan import Scan
from extractors.text.units import WORD_NUM, parse_count

__all__ = ["choose_card", "read_cards"]

_ADJ = (r"(?i:(?:consumer|flagship|datacenter|data-center|desktop|gaming|high-end|workstation|"
        r"NVIDIA|AMD|GeForce|Radeon|used|new|old|lone|stock|spare|older|cheap)\s+){0,3}")
_COUNT_BEFORE = lazy(
    rf"(?:(?<![\w.])(?P<n>\d{{1,3}})\s?[x×*]\s?|(?<![\w.])(?i:(?P<w>{WORD_NUM}|a\s+single|a|an|my|"
    rf"\d{{1,3}}))(?:[\s-]socket)?\s+{_ADJ})$")
# After it, perhaps past the card's memory: "RTX 5090 ×1", "4090 24GB * 8" (a table's "card, memory * count").
_COUNT_AFTER = lazy(r"(?:\s?\d{1,3}\s?GB)?\s?[x×*]\s?(\d{1,3})\b")
# Or the count first, after the card: "H200 8x:", "(RTX 3090 2x)", "RTX 4090 x2"'s mirror; only
# where the clause ends there, so "a 4090 2x faster" stays a speedup.
_COUNT_AFTER_FIRST = lazy(r"\s(\d{1,2})\s?[x×](?=\s?(?:[:;,)\]]|$))")
_COUNT_ENDS = ("x", "×", "*")  # what `_COUNT_BEFORE` can end in, besides a space
_MACHINES = lazy(r"(?i)s?\s{1,3}(?:machines?|nodes?|servers?|boxes|systems|rigs|hosts)\b")
# "8 GPUs", "two cards", and hyphenated before the thing that holds them ("an 8-GPU node"); "99
# GPU layers" is llama.cpp's -ngl, no count of cards; a number ending one line is no count of the
# "GPU:" label starting the next ("RAM: 64G DDR5✖️12" over "GPU: RTX 4090 24G✖️1").
_COUNT_GPUS = lazy(rf"(?<![\w.])(?i:(?P<w>{WORD_NUM}|a\s+single|\d{{1,3}}))(?:[ \t]+|-){_ADJ}"
                         r"(?i:GPUs?|cards?|graphics\s+cards?|accelerators?)\b(?!\s?(?i:cores?|layers?)\b)")
_TP = lazy(r"(?i)(?<![\w-])(?:TP|tensor[-_ ]parallel(?:[-_ ]size)?)\s?[:=]?\s?(\d{1,3})"
                 r"(?![\d.])|(?<![\w-])--tp(?:-size)?[ =](\d{1,3})\b")
_SINGULAR = {"a", "an", "my"}
_HOST_AFTER = lazy(r"(?i)[\s-]{0,3}(?:based\s+)?(?:box|rig|host|pc|server|workstation|desktop|"
                         r"machine|build|system|tower)\b")
# Between two cards of one rig: "+", then perhaps the second card's count.
# "and" is left out: "on a 3090 and a 4090" more often compares two runs than names one rig.
_RIG_JOIN = lazy(r"s?\s{0,3}\+\s{0,3}(?:(\d{1,2})\s?[x×*]\s?)?")
# A run stated to use no card: "CPU-only performance", "CPU only:", "pure CPU inference".
_CPU_ONLY = lazy(r"(?i)\b(?:CPU[\s-]only|only\s+(?:on\s+)?(?:the\s+)?CPU|pure\s+CPU)\b")
# A CPU-only run named as what the run is compared with ("doubles generation speed compared to a
# pure CPU run", hexkern.com's R1 671B on an i7-14700 and an RTX 4090) is the baseline, not this run.
_BASELINE_BEFORE = lazy(r"(?i)\b(?:compared\s+(?:to|with)|than|vs\.?|versus|over)\s+(?:an?\s+|the\s+)?$")
# Where one statement ends: a sentence, a "; " item, a bracket closing before another, a line.
_CLAUSE_END = lazy(r"[.!?;]\)?\s|\)\s?[(:]|\n")


def _is_cpu(card: Name, ref: Reference | None) -> bool:
    row = ref.gpu(card.name) if ref is not None else None
    return row is not None and row.kind == "cpu"


# A GPU vendor's name opening a parenthesis right after a CPU or board: "Pi 5 (AMD Pro W7700)",
# "Ryzen 9 7950X (Nvidia 4080)" — the machine named first, the card that ran in the brackets.
_CARD_IN_BRACKETS = lazy(r"(?i)[^()\n]{0,30}?\(\s?(?:AMD|NVIDIA|Radeon|GeForce|Intel\s+Arc)\b")


def _hosts_bracketed_card(card: Name, text: str, ref: Reference | None) -> bool:
    return _is_cpu(card, ref) and bool(_CARD_IN_BRACKETS.match(text, card.end))


# A CPU and a card joined into one machine: "Core i9-14900KF + RTX 4090", "Xeon Gold 6454S + 8×L20",
# "a Ryzen 9 7950X with an RTX 4090", "RTX 4090 + Ryzen 9 7950X".
# Either side may carry its memory: "RTX 4090 24GB + Ryzen 9 7950X", "Ryzen 9 7950X 64GB + RTX 4090".
_MEMORY = r"(?:[\s,]{0,3}\(?\d{1,4}\s?GB(?:\s(?:V?RAM|DDR\d\w*))?\)?)?"
_HOST_JOIN = lazy(r"(?i)" + _MEMORY + r"\s{0,3}(?:\+|with|w/)\s{0,3}(?:(?:an?|one|\d{1,3}\s?[x×*])\s?)?")
# The CPUs may carry their own count: "RTX 4090 + dual Xeon Gold 6454S", "+ 2x EPYC 9654".
_CARD_THEN_HOST = lazy(r"(?i)s?(?:\s{1,3}(?:GPUs?|cards?))?" + _MEMORY + r"\s{0,3}\+\s{0,3}"
                       r"(?:(?:dual|twin|two|quad|four|\d{1,2}\s?[x×*])[\s-]{0,3}(?:socket\s{0,3})?)?")


def _joined_to_card(card: Name, found: list[Name], text: str, ref: Reference | None) -> bool:
    i = found.index(card) if card in found else -1
    after = found[i + 1] if 0 <= i < len(found) - 1 else None
    before = found[i - 1] if i > 0 else None
    return bool(
        (after is not None and not _is_cpu(after, ref)
         and _HOST_JOIN.fullmatch(text, card.end, after.start))
        or (before is not None and not _is_cpu(before, ref)
            and _CARD_THEN_HOST.fullmatch(text, before.end, card.start)))


def _is_host(card: Name, text: str, ref: Reference | None, found: list[Name]) -> bool:
    """A CPU written as the machine around the card: in parentheses, as the box/rig/host, joined
    to the card ("i9-14900KF + RTX 4090"), or followed by the card in brackets (even one the
    tables do not know: then no device is read, rather than the host taken for it)."""
    if not _is_cpu(card, ref):
        return False
    if _hosts_bracketed_card(card, text, ref) or _joined_to_card(card, found, text, ref):
        return True
    before = text[max(0, card.start - 40):card.start]
    opened = before.rfind("(") > before.rfind(")")
    return opened or bool(_HOST_AFTER.match(text, card.end)) or _host_word_before(before)


def _host_word_before(before: str) -> bool:
    """'host: EPYC 9654', 'CPU a Ryzen 9': the word right before the name (string ops: linear)."""
    words = before.lower().replace(":", " ").replace("=", " ").split()
    while words and words[-1] in ("a", "an"):
        words.pop()
    return bool(words) and words[-1] in ("host", "hosted", "cpu")


def _rig(cards: list[Name], card: Name, text: str, ref: Reference | None) -> list[tuple[int, Name]]:
    """The cards (never a CPU) joined to `card` by "+" on either side, each with its count."""
    cards = [c for c in cards if not _is_cpu(c, ref)]
    if card not in cards:
        return []
    i = cards.index(card)
    lo = hi = i
    while lo > 0 and _RIG_JOIN.fullmatch(text, cards[lo - 1].end, cards[lo].start):
        lo -= 1
    while hi + 1 < len(cards) and _RIG_JOIN.fullmatch(text, cards[hi].end, cards[hi + 1].start):
        hi += 1
    if lo == hi:
        return []
    out: list[tuple[int, Name]] = []
    for j in range(lo, hi + 1):
        n = 1
        if j == lo:
            near = _count_near(cards[j], text)
            n = near[0] if near and near[0] else 1
        elif (m := _RIG_JOIN.fullmatch(text, cards[j - 1].end, cards[j].start)) and m.group(1):
            n = int(m.group(1))
        out.append((n, cards[j]))
    return out


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


def _count_near(card: Name, text: str, names: Sequence[Name] = ()) -> tuple[int | None, str] | None:
    """The count written beside `card`, and its words. A number inside another of the text's
    `names` is that name's model number, not a count: "Orange Pi 5 RK3588" is one board."""
    start = max(0, card.start - 60)
    window = text[start:card.start]
    if _MACHINES.match(text, card.end):
        return None
    # Every count before a card ends in a space or the "x" of "8x " right before it: a window
    # ending in anything else ("(RTX 5090", "on the 4090") is not searched at each of its places.
    last = window[-1:]
    if ((last.isspace() or last in _COUNT_ENDS) and (m := _COUNT_BEFORE.search(window))
            and not any(n.start <= start + m.start() < n.end for n in names if n is not card)):
        word = " ".join((m.group("w") or "").lower().replace("a single", "single").split())
        plural = text[card.end:card.end + 1] == "s"
        if word in _SINGULAR:
            return (None, "") if plural else (1, m.group(0) + card.raw)
        return parse_count(m.group("n") or word), m.group(0) + card.raw
    if m := _COUNT_AFTER.match(text, card.end) or _COUNT_AFTER_FIRST.match(text, card.end):
        return parse_count(m.group(1)), card.raw + m.group(0)
    return None


def _cpu_only(found: list[Name], text: str, at: int | None, ref: Reference | None) -> list[Name]:
    """The named CPU where the text says, before the headline figure, that the run used no card
    ("CPU-only performance" over a table whose post names "a Ryzen-7950X system with an RTX-4080
    GPU"): then the CPU decoded, and the card is only the machine's. Never where the figure's own
    clause names a card ("CPU-only it was 10 t/s, but my 4090 does 120 t/s"), and never on a
    statement after the figure ("4080: 120 t/s, CPU only: 25 t/s"): [] in those cases."""
    # No figure found in the prose (a table row's "S_TG t/s: 25.26", read later): its figure is
    # the row's last item, so the clause to check is the text's last.
    at = len(text) if at is None else at
    if not (m := _CPU_ONLY.search(text, 0, at)) or _BASELINE_BEFORE.search(text, max(0, m.start() - 30), m.start()):
        return []
    cpus = [c for c in found if _is_cpu(c, ref)]
    cards = [c for c in found if not _is_cpu(c, ref)]
    clause = max((e.end() for e in _CLAUSE_END.finditer(text, m.end(), at)), default=m.end())
    if not cpus or any(clause <= c.start < at for c in cards) or len({c.name for c in cpus}) > 1:
        return []
    return cpus


def _read_host(found: list[Name], card: Name | None, s: Scan) -> None:
    """The host CPU of a card run: the one CPU the text names beside the card (two CPUs named, or
    a CPU run, give none: which machine held the card is then unknown)."""
    if card is None or _is_cpu(card, s.ref):
        return
    cpus = [c for c in found if _is_cpu(c, s.ref)]
    if cpus and len({c.name for c in cpus}) == 1:
        s.set("host", cpus[0].name, cpus[0].raw)


def read_cards(s: Scan, at: int | None = None) -> None:
    """Set hardware and hardware_count; `at` is where the headline figure is, if any."""
    found = find_gpus(s.text, s.ref)
    if any(c.name != CONSUMER_GPU for c in found):  # a card by its class only where none is named
        found = [c for c in found if c.name != CONSUMER_GPU]
    devices = _cpu_only(found, s.text, at, s.ref) or [c for c in found if not _is_host(c, s.text, s.ref, found)]
    # A lone CPU is the device of a CPU run; one that hosts a bracketed card never is, but it
    # is that card's host ("Ryzen 9 7900X (Nvidia 4090)").
    named = found
    found = [c for c in found if not _hosts_bracketed_card(c, s.text, s.ref)]
    card = choose_card(devices or found, s, at)
    _read_host(named, card, s)
    if card is not None:
        rig = _rig(devices or found, card, s.text, s.ref)
        if rig:
            name = " + ".join(f"{n}x {c.name}" if n > 1 else c.name for n, c in rig)
            span = s.text[rig[0][1].start:rig[-1][1].end]
            s.set("hardware", name, span)
            s.set("hardware_count", sum(n for n, _ in rig), span)
            return
        s.set("hardware", card.name, card.raw)
        near = _count_near(card, s.text, named)
        system = s.ref.system_cards(card.name) if s.ref is not None else None
        if system:  # a named system holds its cards: "2x p5.48xlarge" is 16 H100s
            systems = near[0] if near and near[0] else 1
            s.set("hardware_count", systems * system, near[1] if near and near[0] else card.raw)
            return
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
