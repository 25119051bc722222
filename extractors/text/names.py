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
from functools import cache

from checks.reference import CONSUMER_GPU, Reference
from extractors.text import compiled
from extractors.text.lazyre import lazy

__all__ = ["GPU_GENERIC", "Name", "NameFinder", "card_name", "find_gpus", "finder"]

# A word starts after a non-alphanumeric, or right after a count glued to it ("8xH200", "4*2080ti").
_WORD = lazy(r"(?:(?<![A-Za-z0-9])|(?<=\d[xX×*]))[A-Za-z0-9]")
_FOLD = lazy(r"[\s_-]+")
_NOT_UNIT = (r"(?!\s*(?:[.,]\d|tok|t/s|tps|tk/s|W\b|watts?|ms\b|sec|%|x\b|×|tokens?|GB|MB|MHz|"
             r"B\b))(?!\s+s\b)")
_START = r"(?:(?<![A-Za-z0-9$.])|(?<=\d[xX×*]))"
# A footnote mark glued to a card's name in a README table ("RX 6500 XT¹" rendered "RX 6500 XT1",
# "RX 7600¹" as "RX 76001"): one digit after a complete name, dropped by `card_name`.
_FOOTNOTE = r"(?:[1-9](?![\d.]))?"
_TAILS = {
    # "H100s" is two H100s; "RTX 5090 laptop" and "H200 NVL" are other cards than the bare names.
    # Apple's M chips are one chip in a laptop or a desktop ("an M2-Max laptop" is the M2 Max).
    "hardware": r"(?=s?(?![A-Za-z0-9]))(?:(?<=M[1-5])|(?<=M[1-5][ -]Max)|(?<=M[1-5][ -]Pro)|"
                r"(?<=M[1-5][ -]Ultra)|(?!\s*(?i:laptop|mobile|notebook|NVL)\b))",
    # "Qwen3.6-27B-NVFP4" still names Qwen3.6-27B; "DeepSeek-R1-8B" and "DeepSeek-V3.2" do not
    # name DeepSeek R1 / V3.
    "models": r"(?![A-Za-z0-9])(?![.\-_]\d)",
    "formats": r"(?![A-Za-z0-9_])",  # "Q4_K" must not claim the start of "Q4_K_XL"
    "methods": r"(?![\w-])",
    "systems": r"(?![A-Za-z0-9])",  # "p5.48xlarge", "DGX H100", "BM.GPU.MI300X.8"
}
# An A/H/B/L with two or three digits is a card's shape (A100, H200, L40S) except right after a
# size: "235B-A22" is a MoE's 22B active parameters (Qwen3-235B-A22B), not a card.
_GPU_SOURCE = (_START + r"(?:"
    r"(?i:(?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX|GTX)\s?(?:PRO\s+)?\d{4}(?:\s?(?:Ti|SUPER|D|S)\b){0,2}"
    r"(?:\s+(?:Blackwell|Laptop|Mobile|Max-Q))?)|"
    r"(?i:[1-5]0[5-9]0(?:\s?Ti)?(?:\s?SUPER)?)" + _NOT_UNIT + r"|"
    r"(?i:(?:RTX\s+)?A[2-6]000)|(?i:Quadro\s+(?:RTX\s+)?[A-Z]?\d{3,4})|"
    r"(?<!\d[Bb]-)(?<!\d[Bb]_)[AHBL]\d{2,3}S?(?:\s(?:NVL|PCIe|SXM\d?))?|G[BH]\d{2,3}|MI\d{3}X?|V100|T4|P40|P100|"
    r"(?i:(?:AMD\s+)?(?:Radeon\s+)?(?:RX\s?)?[5-9]\d{2}0\s?(?:XTX|XT|GRE)" + _FOOTNOTE + r")|"
    r"(?i:(?:Radeon\s+)?RX\s?\d{4}" + _FOOTNOTE + r")|(?i:(?:Radeon\s+|RX\s?)[6-9]\d0M)|"
    r"(?i:(?:AMD\s+)?(?:Radeon\s+)?Pro\s+W[5-7]\d00X?" + _FOOTNOTE + r")|"
    r"(?i:Raspberry\s+Pi|RPi)\s?(?:[345]\d{0,2}\+?|CM[45])(?!\.\d)|Pi\s+(?:[45]\d{0,2}\+?|CM[45])(?!\.\d)|"
    r"AmpereOne(?:\s+A\d{2,3}-\d{2}X)?|(?i:Intel\s+)?N(?:9[57]|1[05]0|200|30[05])|"
    r"(?:Apple\s+)?M[1-5](?:[\s-](?:Max|Ultra|Pro))?(?!\.\d|\s?(?i:SSD|NVMe|slot|drive|screw))|"
    r"(?i:(?:Intel\s+)?(?:Core\s+)?i[3579][-\s]1[0-4]\d00[A-Z]{0,2}|1[0-4]\d00(?:KS|KF|K))|"
    # Intel's other numbers as written: 2nd-9th gen desktops ("i7-8700K"), 10th-14th gen mobile
    # ("i7-1185G7", "i5-1235U"), Core Ultra ("Core Ultra 7 155H"); the platform rows resolve them.
    r"(?i:(?:Intel\s+)?(?:Core\s+)?i[3579]-(?:[2-9]\d{3}|1[0-4]\d{2})[A-Z]{0,2}\d?|"
    r"(?:Intel\s+)?(?:Core\s+)?Ultra\s+[579]\s+\d{3}[A-Z]{0,2})|"
    # A CPU as the OS prints it keeps its trademark marks ("Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz",
    # /proc/cpuinfo and Windows both): "(R)" and "CPU" are skipped; an E5 names its generation by
    # its "v" suffix ("Xeon E5-2683 v4").
    r"(?i:EPYC\s+\d{4}[A-Z]?|Xeon(?:\((?:R|TM)\))?\s+(?:CPU\s+)?(?:(?:Gold|Platinum|Silver|Bronze|w[3579]-)\s?)?"
    r"(?:E[57]-\d{4}\w?(?:\s?v[2-4])?|[A-Z]?\d{4}\w{0,2})|"
    # A Ryzen with its suffix as AMD writes it: desktop X, X3D, XT, G, GE, F; mobile U, H, HS,
    # HX ("Ryzen 7 7840U", "Ryzen 9 7945HX"); and the Ryzen AI 300 mobile parts.
    r"Ryzen[\s-]+(?:Threadripper[\s-]+)?(?:[3579][\s-]+)?(?:PRO[\s-]+)?\d{4}(?:X3D|XT|X|GE|G|F|HS|HX|H|U)?|"
    r"Ryzen\s+AI\s+[579]\s+(?:HX\s+|PRO\s+)?3\d{2}|"
    # Written bare, as owners type them: "Threadripper 7980X", "7950X3D", "5800X3D", "9950X".
    # Only AMD's desktop numbers (second digit 6-9, an X or X3D suffix), and never before a
    # speedup word: "2000x faster" names no CPU.
    r"Threadripper[\s-]+(?:PRO[\s-]+)?\d{4}(?:WX|X)?|"
    r"[1-9][6-9][05]0X(?:3D)?(?!\s*(?:faster|slower|speed|more|less|boost|gain|improvement|increase)))|"
    r"(?i:(?:Ryzen\s+)?AI\s+Max\+?\s?(?:PRO\s+)?3[89]\d)|"
    r"(?i:Cerebras(?:\s(?:CS-[23]|WSE-[23]))?|WSE-3|CS-3|Groq(?:\s(?:LPU))?|SambaNova(?:\sSN40L)?|"
    r"SN40L|Gaudi\s?[23]|Ascend\s?910\w?|Trainium\d?)|"
    r"(?i:DGX\s+Spark|Strix\s+Halo|TPU\s?v\d\w*)|"
    # Boards and SoCs written by their product names (the platform table resolves each):
    # "Jetson AGX Orin" (microsoft/T-MAC README), "Orin Nano Super", "Snapdragon X Elite".
    r"(?i:Jetson\s+(?:AGX\s+)?(?:Orin(?:\s+(?:Nano(?:\s+Super)?|NX))?|Thor|Xavier(?:\s+NX)?|Nano)|"
    r"(?:AGX\s+)?Orin\s+(?:Nano(?:\s+Super)?|NX)|AGX\s+Orin|Snapdragon\s+X\s+(?:Elite|Plus)|RK3588|"
    r"Orange\s+Pi\s+5|Graviton\s?[234]|Ampere\s+Altra(?:\s+Max)?|Steam\s+Deck|Kirin\s+990)|"
    # Intel's discrete cards: "Arc A770" is the card, its bare "A770" no NVIDIA A-series one.
    r"(?i:(?:Intel\s+)?Arc\s+(?:Pro\s+)?[AB]\d{2,3}[MEX]?)|"
    # Older and named cards, as owners type them, that the GPU database answers for: "GTX 970",
    # "GT 1030", "RX 580", "Vega 56", "Radeon VII", "Titan Xp", "Tesla K80", "MI50", "P102-100",
    # "CMP 170HX", "NVIDIA A2" (a name the database does not hold stays unknown, never guessed).
    r"(?i:(?:NVIDIA\s+)?(?:GeForce\s+)?(?:GTX\s?\d{3}|GT\s?\d{3,4})(?:\s?Ti)?|"
    r"(?:NVIDIA\s+)?(?:GeForce\s+)?TITAN\s+(?:RTX|Xp|V|X\s+Pascal|Z|Black)|(?:NVIDIA\s+)?Tesla\s+[KMPVTA]\d{1,3}|"
    r"P10[246]-100|CMP\s?\d{2,3}HX|(?:AMD\s+)?(?:Radeon\s+)?RX\s?[45][4-9]0|"
    r"(?:AMD\s+)?(?:Radeon\s+)?(?:RX\s+)?Vega\s?(?:56|64)|(?:AMD\s+)?Radeon\s+(?:Pro\s+)?VII|"
    r"(?:AMD\s+)?(?:Radeon\s+)?(?:Instinct\s+)?MI[256]\d|NVIDIA\s+A2)|"
    # A card by its class only ("on one consumer GPU", "a consumer-grade graphics card"): read
    # where no card is named (extractors/text/cards.py), judged at the class's most generous row.
    r"(?i:(?:consumer(?:[-\s]grade)?|gaming|desktop)\s+(?:GPU|graphics\s+card|video\s+card|card)|"
    # A gaming machine holds a consumer card: "on my gaming PC", "a gaming rig".
    r"gaming\s+(?:PC|rig|computer|desktop|laptop)))"
    r"(?=s?(?![A-Za-z0-9]))")
GPU_GENERIC = lazy(_GPU_SOURCE)
# Every character a match of GPU_GENERIC can start with: ASCII letters and digits, and the four
# non-ASCII characters `re` matches to an ASCII letter under IGNORECASE (İ and ı as i, ſ as s,
# the Kelvin sign as k; tests/extractors/test_names_speed.py checks all of Unicode).
_FIRST = "[A-Za-z0-9\u0130\u0131\u017f\u212a]"


@cache  # built on first use: parsing the pattern for its first characters is not import work
def _gpu_at() -> re.Pattern[str]:
    """The positions where GPU_GENERIC matches, found by a pattern that opens with a character
    class: `re` then skips every position outside the class in C, where GPU_GENERIC's opening
    look-behind made it try its alternatives at every position of the text. The class is the
    characters its matches can start with (`start_class`: 'f', 'j', 'o', 'u' … start none)."""
    first = compiled.start_class(_GPU_SOURCE) or _FIRST
    return compiled.compile(first + "(?<=(?=" + _GPU_SOURCE + ")" + first + ")")


def _generic(text: str) -> Iterator[re.Match[str]]:
    """`GPU_GENERIC.finditer(text)`: the same matches, in order, none overlapping; each search
    resumes where the last match ended, as `finditer` does."""
    pos = 0
    gpu_at = _gpu_at()
    while (at := gpu_at.search(text, pos)) is not None:
        m = GPU_GENERIC.match(text, at.start())
        if m is None:  # cannot happen (the pass looked ahead with the pattern itself)
            pos = at.start() + 1
            continue
        yield m
        pos = m.end()


_ACCEL = {"cerebras": "Cerebras CS-3", "groq": "Groq LPU", "sambanova": "SambaNova SN40L"}


def card_name(raw: str) -> str:
    """A card as written, spelled the way the tables spell cards ("2080ti" -> "RTX 2080 Ti")."""
    s = " ".join(re.sub(r"\((?:R|TM)\)", "", raw).split())
    s = re.sub(r"(?i)^(Xeon) CPU ", r"\1 ", s)
    low = s.lower()
    if low in _ACCEL:
        return _ACCEL[low]
    if low.startswith(("consumer", "gaming", "desktop")):
        return CONSUMER_GPU
    if m := re.fullmatch(r"(?i)([1-5]0[5-9]0)\s?(ti)?\s?(super)?", s):
        series = "GTX" if m.group(1).startswith("10") else "RTX"
        return " ".join(x for x in (series, m.group(1), m.group(2) and "Ti",
                                    m.group(3) and "SUPER") if x)
    if m := re.fullmatch(r"(?i)(?:RTX|GTX)\s?(\d{4})((?:\s?(?:ti|super|d|s)){0,2})(.*)", s):
        tail = " ".join({"ti": "Ti", "super": "SUPER"}.get(t.lower(), t.upper())
                        for t in re.findall(r"(?i)ti|super|d|s", m.group(2)))
        rest = m.group(3).strip().title()
        return " ".join(x for x in (s[:3].upper(), m.group(1), tail, rest) if x)
    if re.fullmatch(r"(?i)(?:RTX\s+)?A[2-6]000", s):
        return "RTX " + s.split()[-1].upper()
    if m := re.fullmatch(r"(?i)((?:AMD\s+)?(?:Radeon\s+)?RX\s?\d{4}|(?:AMD\s+)?(?:Radeon\s+)?(?:RX\s?)?"
                         r"\d{4}\s?(?:XTX|XT|GRE))[1-9]", s):
        s = m.group(1)  # the footnote mark off
    if m := re.fullmatch(r"(?i)(?:AMD\s+)?(?:Radeon\s+)?(?:RX\s+)?Vega\s?(56|64)", s):
        return f"RX Vega {m.group(1)}"  # the database's "Radeon RX Vega 56"
    if m := re.fullmatch(r"(?i)(?:AMD\s+)?(?:Radeon\s+)?RX\s?([45]\d0)", s):
        return f"RX {m.group(1)}"
    if m := re.fullmatch(r"(?i)(?:NVIDIA\s+)?(?:GeForce\s+)?(GTX|GT)\s?(\d{3,4})(\s?Ti)?", s):
        return " ".join(x for x in (m.group(1).upper(), m.group(2), m.group(3) and "Ti") if x)
    if re.fullmatch(r"(?i)NVIDIA\s+A2", s):
        return "A2"
    if m := re.fullmatch(r"(?i)(?:AMD\s+)?(?:Radeon\s+)?Pro\s+(W\d{4}X?)[1-9]?", s):
        return f"Radeon PRO {m.group(1).upper()}"
    if m := re.fullmatch(r"(?i)(?:Raspberry\s+Pi|RPi|Pi)\s?(\d.*|CM\d.*)", s):
        return "Raspberry Pi " + m.group(1).upper()  # "rpi5", "raspberry pi 5", "Pi 4" alike
    if m := re.fullmatch(r"(?i)(?:AMD\s+)?(?:Radeon\s+)?(?:RX\s?)?(\d{4})\s?(XTX|XT|GRE)?", s):
        return " ".join(x for x in ("RX", m.group(1), (m.group(2) or "").upper()) if x)
    if m := re.fullmatch(r"(?i)(?:Radeon\s+|RX\s?)(\d{3})m", s):
        return f"Radeon {m.group(1)}M"
    if m := re.fullmatch(r"(?:Apple\s+)?(M[1-5])(?:[\s-](Max|Ultra|Pro))?", s):
        return "Apple " + " ".join(x for x in m.groups() if x)  # "M2-Max" is the M2 Max
    if m := re.fullmatch(r"(?i)(?:Intel\s+)?(?:Core\s+)?(?:i([3579])[-\s])?(1[0-4](\d)00)(\w{0,2})", s):
        tier = m.group(1) or {"9": "9", "7": "7", "6": "5", "5": "5", "4": "5"}.get(m.group(3), "3")
        return f"Core i{tier}-{m.group(2)}{m.group(4).upper()}"
    if m := re.fullmatch(r"(?i)(?:Ryzen\s+)?AI\s+Max\+?\s?(?:PRO\s+)?(3[89]\d)", s):
        return f"Ryzen AI Max+ {m.group(1)}"
    # No tier written ("Ryzen 7950X", "Ryzen-5800X3D", a bare "7950X3D"): AMD's model number
    # carries it, the second digit being the segment (9: Ryzen 9; 7-8: Ryzen 7; 5-6: Ryzen 5; else
    # Ryzen 3), as AMD's own names show: 5950X/7950X Ryzen 9, 5800X/7700X Ryzen 7, 7600X Ryzen 5,
    # 3300X Ryzen 3 (https://www.amd.com/en/products/specifications/processors.html).
    if m := (re.fullmatch(r"(?i)Ryzen[\s-]+(\d)(\d)(\d\d\w*)", s)
             or re.fullmatch(r"(?i)(\d)(\d)(\d0X(?:3D)?)", s)):
        tier = {"9": "9", "8": "7", "7": "7", "6": "5", "5": "5"}.get(m.group(2), "3")
        return f"Ryzen {tier} {m.group(1)}{m.group(2)}{m.group(3).upper()}"
    if m := re.fullmatch(r"(?i)Threadripper[\s-]+(.+)", s):
        return "Ryzen Threadripper " + m.group(1).upper().replace("-", " ")
    if m := re.fullmatch(r"(?i)Ryzen-(.+)", s):  # "Ryzen-9 5950X" as "Ryzen 9 5950X"
        return "Ryzen " + m.group(1).replace("-", " ")
    if low.startswith("epyc"):
        return "EPYC " + s.split()[-1].upper()
    return s


@dataclass(frozen=True)
class Name:
    """One name found in text: where, as written, and the table row it names (or as written)."""

    start: int
    end: int
    raw: str
    name: str


def _trie(keys: list[str]) -> str:
    """An alternation of `keys` factored by their first character, so a word start that begins
    no key fails after one branch per distinct first character rather than one per key. A key
    that ends here makes the longer ones redundant (the gate only asks whether some key starts)."""
    if "" in keys:
        return ""
    heads: dict[str, list[str]] = {}
    for k in keys:
        heads.setdefault(k[0], []).append(k[1:])
    branches = [(r"[\s_-]+" if c == " " else re.escape(c)) + (f"(?:{rest})" if (rest := _trie(tails)) else "")
                for c, tails in heads.items()]
    return "|".join(branches) or "(?!)"


def _fold(text: str) -> str:
    return _FOLD.sub(" ", text.lower())


_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _starts_of(keys: list[str]) -> str:
    """The ASCII letters and digits a case-blind match of some key can start with (the gate's
    word start is one of them), as a class body; one that matches nothing when there are no keys."""
    firsts = {k[0] for k in keys if k}
    chars = [a for a in _ALNUM if any(re.fullmatch("(?i)" + re.escape(c), a) for c in firsts)]
    return re.escape("".join(chars)) if chars else "^\\x00-\\U0010ffff"


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
        # Compiled on first use: a message touches a handful of the ~400 keys, and compiling
        # them all up front was a tenth of a cold `audit --example`.
        self._sources = {
            key: "(?i:" + "|".join(
                re.escape(a).replace(r"\ ", r"[\s-]+").replace(r"\-", r"[\s-]+") + (_NOT_UNIT if a.isdigit() else "")
                for a in aliases) + ")" + tail
            for key, aliases in groups.items()
        }
        self.patterns: dict[str, re.Pattern[str]] = {}
        self.key_lengths = sorted({len(k) for k in groups}, reverse=True)
        self._keys = sorted(groups, key=len, reverse=True)
        self._gate: re.Pattern[str] | None = None
        self._plans: dict[str, tuple[re.Pattern[str], ...]] = {}

    def gate(self) -> re.Pattern[str]:
        """The word starts where some key can begin: one scan in C instead of a dictionary lookup
        per word in Python. A key's space stands for a run of spaces, underscores or dashes (as
        `_fold` collapses them) and letters match in either case, so every word start whose
        folded head is a key matches (a superset: the keys are ASCII, and every non-ASCII
        character that lowercases to ASCII is matched by IGNORECASE, e.g. the Kelvin sign)."""
        if self._gate is None:
            # The one-character gate `(word start)(?=key)[A-Za-z0-9]`, spelled as that character
            # followed by a look back at it: the same matches, but a pattern that opens with a
            # character class lets `re` skip every position outside the class in C (spaces,
            # punctuation, the blanked spans of a log) instead of trying the gate there.
            one = _WORD.pattern[:-len("[A-Za-z0-9]")] + f"(?=(?i:{_trie(self._keys)}))[A-Za-z0-9]"
            # The class holds only the characters a key can start with (in either case): a word
            # starting with any other letter is skipped in C, not tried against the trie.
            self._gate = compiled.compile(f"[{_starts_of(self._keys)}](?<={one})")
        return self._gate

    def pattern(self, key: str) -> re.Pattern[str] | None:
        """The alternation of every alias starting with `key` (folded), or None."""
        found = self.patterns.get(key)
        if found is None and key in self._sources:
            found = self.patterns[key] = compiled.compile(self._sources[key])
        return found

    def plan(self, head: str) -> tuple[re.Pattern[str], ...]:
        """The patterns to try where a word starts with `head` (the text's next `longest`
        characters), one per key length whose folded head is a key, longest first."""
        found = self._plans.get(head)
        if found is None:
            # Most words start with plain ASCII letters and digits: folding is then lowercasing.
            plain = head.isascii() and head.isalnum()
            folded = head.lower() if plain else ""
            tried = (self.pattern(folded[:n] if plain else _fold(head[:n])) for n in self.key_lengths)
            found = tuple(p for p in tried if p is not None)
            if len(self._plans) >= _PLANS_KEPT:  # bounded: a stranger's text has many heads
                self._plans.clear()
            self._plans[head] = found
        return found

    def finditer(self, text: str) -> Iterator[Name]:
        last_end = 0
        longest = self.key_lengths[0] if self.key_lengths else 0
        plans, plan = self._plans, self.plan
        for w in self.gate().finditer(text):
            pos = w.start()
            if pos < last_end:
                continue
            best: re.Match[str] | None = None
            head = text[pos:pos + longest]
            # A text repeats its words: what to try after each head is worked out once.
            for found in plans.get(head) or plan(head):
                m = found.match(text, pos)
                if m and (best is None or m.end() > best.end()):
                    best = m
            if best is not None:
                last_end = best.end()
                raw = best.group(0)
                yield Name(best.start(), last_end, raw, self.names.get(_fold(raw), raw))


_PLANS_KEPT = 4096  # heads a finder remembers the patterns of
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
    """GPU mentions in order: table aliases, then cards found by shape where no alias matched.

    Both lists come out sorted and the alias matches do not overlap, so a shape is checked
    against the alias spans with one forward pointer: linear in the text."""
    # A named system ("OCI BM.GPU.MI300X.8", "DGX H100") is one name: the card inside it is not a
    # second mention.
    systems = list(finder(ref, "systems").finditer(text)) if ref is not None else []
    found = _outside(list(finder(ref, "hardware").finditer(text)), systems)
    spans = [(n.start, n.end) for n in found]
    named: dict[str, str] = {}  # one table lookup per distinct spelling, not per mention
    i = 0
    for m in _generic(text):
        while i < len(spans) and spans[i][1] <= m.start():
            i += 1
        if i < len(spans) and spans[i][0] < m.end():
            continue
        raw = m.group(0)
        if raw not in named:
            name = card_name(raw)
            row = ref.gpu(name) if ref else None
            # A curated row's name; otherwise the card as written (the reference resolves it to a
            # platform or database row when judged, and the report names that row).
            named[raw] = row.name if row is not None and row.source_kind == "curated" else name
        found.append(Name(m.start(), m.end(), raw, named[raw]))
    found = _outside(sorted(found, key=lambda n: n.start), systems)
    return sorted([*(_with_memory(n, text, ref) for n in found), *systems], key=lambda n: n.start)


def _outside(names: list[Name], spans: list[Name]) -> list[Name]:
    """The names (sorted) that overlap none of the spans (sorted, disjoint): one forward pointer."""
    if not spans:
        return names
    out, i = [], 0
    for n in names:
        while i < len(spans) and spans[i].end <= n.start:
            i += 1
        if i < len(spans) and spans[i].start < n.end:
            continue
        out.append(n)
    return out


_MEMORY = lazy(r"\s?(\d{1,3})\s?GB\b")


def _with_memory(name: Name, text: str, ref: Reference | None) -> Name:
    """"4060 Ti 16GB" names the 16 GB board when the tables tell the memory sizes apart."""
    m = _MEMORY.match(text, name.end)
    if m is None or ref is None:
        return name
    row = ref.gpu(f"{card_name(name.raw)} {m.group(1)}GB")
    if row is None or row.name == name.name or row.source_kind != "curated":
        return name
    return Name(name.start, m.end(), text[name.start:m.end()], row.name)


