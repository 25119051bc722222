"""The engine switches and phrases that checks look for in a claim's own words, and the search
that finds them: forced or synthetic acceptance (`forced_acceptance`), lossy verification
(`lossy_acceptance`) and prefill left out of the rate (`prefill_excluded`). The engine facts
behind each table, with their sources, are in those checks' docstrings.

Run once per distinct text by `checks.parsing` (the results sit on `ParsedConfig`), never by the
checks themselves. Each pattern is tried only when a literal it cannot match without is in the
text (a casefolded `in` test): most launch commands and notes name none of these switches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from checks.models import LossyMention, SwitchHit

__all__ = ["MODES", "SWITCHES", "Switch", "forced_hits", "lossy_mentions", "prefill_phrases"]

Place = tuple[str, str]  # (where: "launch_command", "env" or "notes"; the text)

# ---- forced acceptance ---------------------------------------------------------------------

# Values an engine reads as "off": SGLang's SGLANG_SIMULATE_ACC_LEN defaults to -1 and applies
# only when > 0 (sglang environ.py, EnvFloat(-1)); TensorRT-LLM's forced count defaults to 0
# (tensorrt_llm env spec: EnvSpec("int", 0, "Force accepted token count ...")).
_OFF_WORDS = frozenset({"", "false", "off", "none", "no", "null"})
# Notes: a negation this close before a switch name, in the same sentence, disarms it.
NEGATION_WINDOW = 40
_NEG_BEFORE = re.compile(
    r"\b(no|not|without|never|disabled?|unset|removed|w/o|instead of)\b", re.IGNORECASE
)
_NEG_AFTER = re.compile(
    r"^\W{0,3}(?:was |is |were |are )?(?:not set|not used|unset|disabled|off|removed)\b",
    re.IGNORECASE,
)
# NAME=value, "name": value, name: value (env, JSON, YAML); an empty value is off.
_ENV_VALUE = r"""(?:['"]?\s*[:=]\s*['"]?(?P<value>[^\s'",;}\]]*))?"""
# --flag value / --flag=value: only a number or a shell variable counts as its value.
_FLAG_VALUE = r"""(?:\s*=\s*|\s+)?['"]?(?P<value>-?\d[\d.]*|\$\{?\w+\}?)?"""
# vLLM reads synthetic_acceptance_length only under rejection_sample_method "synthetic".
_METHOD = re.compile(r"""rejection[_-]sample[_-]method['"]?\s*[:=\s]\s*['"]?(\w+)""", re.IGNORECASE)
_COMMENT = re.compile(r"(?:^|\s)#")
_UNSET = re.compile(r"\bunset\b")
_CLAUSE_BREAK = re.compile(r"[.;!?\n]")


@dataclass(frozen=True)
class Switch:
    name: str
    engine_effect: str  # what the switch does, for the summary
    pattern: re.Pattern[str]
    literal: str  # casefolded text the pattern cannot match without (the cheap gate)
    companion: bool = False  # only modifies another switch; harmless alone
    has_value: bool = True  # its value can turn it off


def _rx(body: str) -> re.Pattern[str]:
    return re.compile(body, re.IGNORECASE)


SWITCHES: tuple[Switch, ...] = (
    Switch(
        "SGLANG_SIMULATE_ACC_LEN",
        "SGLang simulates the acceptance length",
        _rx(r"\bSGLANG_SIMULATE_ACC_LEN\b" + _ENV_VALUE), "sglang_simulate_acc_len",
    ),
    Switch(
        "SGLANG_SIMULATE_ACC_METHOD",
        "SGLang's simulated-acceptance method",
        _rx(r"\bSGLANG_SIMULATE_ACC_METHOD\b" + _ENV_VALUE), "sglang_simulate_acc_method",
        companion=True,
        has_value=False,
    ),
    Switch(
        "SGLANG_SIMULATE_ACC_TOKEN_MODE",
        "SGLang's simulated-acceptance token mode",
        _rx(r"\bSGLANG_SIMULATE_ACC_TOKEN_MODE\b" + _ENV_VALUE), "sglang_simulate_acc_token_mode",
        companion=True,
        has_value=False,
    ),
    Switch(
        '"rejection_sample_method": "synthetic"',
        "vLLM accepts drafts at a synthetic rate",
        _rx(r"""rejection[_-]sample[_-]method['"]?\s*[:=\s]\s*['"]?synthetic\b"""), "synthetic",
        has_value=False,
    ),
    Switch(
        "synthetic_acceptance_length",
        "vLLM accepts drafts at a synthetic rate",
        _rx(r"\bsynthetic[_-]acceptance[_-](?:length|rates?)\b" + _ENV_VALUE), "synthetic",
    ),
    Switch(
        "TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS",
        "TensorRT-LLM forces the accepted-token count",
        _rx(r"\bTLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS\b" + _ENV_VALUE),
        "tllm_spec_decode_force_num_accepted_tokens",
    ),
    Switch(
        "--spec-decode-acceptance-length",
        "ATOM forces the acceptance length",
        _rx(r"--spec[-_]decode[-_]acceptance[-_]length\b" + _FLAG_VALUE), "--spec",
    ),
    Switch(
        "--spec-decode-acceptance-rate",
        "ATOM forces the acceptance rate",
        _rx(r"--spec[-_]decode[-_]acceptance[-_]rate\b" + _FLAG_VALUE), "--spec",
    ),
)


def _number(raw: str | None) -> float | None:
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


def _why_off(text: str, m: re.Match[str], sw: Switch, where: str) -> str | None:
    line_start = text.rfind("\n", 0, m.start()) + 1
    before_in_line = text[line_start : m.start()]
    if _COMMENT.search(before_in_line):  # a shell/YAML comment, whole-line or trailing
        return "commented out"
    if _UNSET.search(before_in_line):
        return "unset"
    raw = m.groupdict().get("value")
    if sw.has_value and raw is not None:
        value = _number(raw)
        if (value is not None and value <= 0) or raw.lower() in _OFF_WORDS:
            return f"set to its off value {raw}"
    if sw.name == "synthetic_acceptance_length":
        method = _METHOD.search(text)
        if method and method.group(1).lower() != "synthetic":
            return f"rejection_sample_method is {method.group(1)}"
    if where == "notes":
        sentence = _CLAUSE_BREAK.split(text[max(0, m.start() - NEGATION_WINDOW) : m.start()])[-1]
        if _NEG_BEFORE.search(sentence) or _NEG_AFTER.search(text[m.end() : m.end() + 25]):
            return "negated in the notes"
    return None


def forced_hits(places: Sequence[Place]) -> tuple[SwitchHit, ...]:
    """Every mention of a forced-acceptance switch, in place order, with why it is off if it is."""
    hits = []
    for where, text in places:
        folded = text.casefold()
        for sw in SWITCHES:
            if sw.literal not in folded:
                continue
            for m in sw.pattern.finditer(text):
                value = _number(m.groupdict().get("value")) if sw.has_value else None
                hits.append(SwitchHit(switch=sw.name, where=where, span=m.group(0).strip(),
                                      value=value, off=_why_off(text, m, sw, where)))
    return tuple(hits)


# ---- lossy verification --------------------------------------------------------------------

_NEGATION = re.compile(
    r"\b(no|not|without|never|disabled?|unset|removed|w/o|instead of)\b", re.IGNORECASE
)
_THRESHOLD = re.compile(
    r"--speculative[-_]accept[-_]threshold[-_](?P<which>single|acc)\b(?:\s*=\s*|\s+)['\"]?(?P<value>\d*\.?\d+)",
    re.IGNORECASE,
)
_OFF_AFTER = re.compile(r"\W{0,3}(?:was |is )?(?:not used|off|disabled)\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Mode:
    name: str
    pattern: re.Pattern[str]
    how: str
    literals: tuple[str, ...]  # casefolded; the pattern cannot match without one of them


MODES: tuple[_Mode, ...] = (
    _Mode(
        "vLLM FLy verification",
        re.compile(r"""rejection[_-]sample[_-]method['"]?\s*[:=\s]\s*['"]?fly\b""", re.IGNORECASE),
        "FLy defers rejections at high-entropy positions and is lossy by design",
        ("rejection",),
    ),
    _Mode(
        "FLy / lossy verification",
        re.compile(r"\bFLy\b|\blossy\s+(?:verif\w*|accept\w*)", 0),
        "a lossy verifier accepts tokens the target would not have emitted",
        ("fly", "lossy"),
    ),
    _Mode(
        "typical acceptance",
        # "typical acceptance length" is ordinary English; only the sampler's names count.
        re.compile(
            r"typical[_-]acceptance|typical acceptance (?:sampl\w*|method|verif\w*)"
            r"|posterior[_-](?:threshold|alpha)",
            re.IGNORECASE,
        ),
        "typical acceptance keeps any draft token the target finds plausible enough",
        ("typical", "posterior"),
    ),
)


def _disarmed(text: str, start: int, end: int, where: str) -> bool:
    line = text[text.rfind("\n", 0, start) + 1 : start]
    if _COMMENT.search(line) or _UNSET.search(line):
        return True
    if where != "notes":
        return False
    sentence = _CLAUSE_BREAK.split(text[max(0, start - NEGATION_WINDOW) : start])[-1]
    after = text[end : end + 25]
    return bool(_NEGATION.search(sentence) or _OFF_AFTER.match(after))


def lossy_mentions(places: Sequence[Place]) -> tuple[LossyMention, ...]:
    """Accept thresholds stated (any value) and lossy verification modes in force, in place
    order: per place its thresholds, then the first mention of each mode."""
    out: list[LossyMention] = []
    for where, text in places:
        folded = text.casefold()
        if "threshold" in folded:
            for m in _THRESHOLD.finditer(text):
                if not _disarmed(text, m.start(), m.end(), where):
                    out.append(LossyMention(where=where, span=m.group(0), which=m.group("which"),
                                            value=float(m.group("value"))))
        for mode in MODES:
            if not any(k in folded for k in mode.literals):
                continue
            for m in mode.pattern.finditer(text):
                if not _disarmed(text, m.start(), m.end(), where):
                    out.append(LossyMention(where=where, span=m.group(0), how=mode.how))
                    break
    return tuple(out)


# ---- prefill left out ----------------------------------------------------------------------

_PHRASES = re.compile(
    r"prefill\s+(?:came\s+|was\s+|is\s+)?(?:served\s+|read\s+|loaded\s+)?from\s+(?:the\s+)?"
    r"(?:prefix\s+|kv\s+)?cache"
    r"|cached\s+(?:prefill|prompt)|(?:prefill|prompt)\s+(?:was\s+|is\s+)?(?:fully\s+)?cached"
    r"|prefix[- ]cach\w*\s+hit(?:\s+rate)?\s*(?:of|[:=])?\s*100\s*%"
    r"|(?:TTFT|prefill|first[- ]token)\s+(?:time\s+)?(?:was\s+|is\s+)?(?:excluded|skipped)"
    r"|(?:exclud\w*|skipp?\w*|without)\s+(?:the\s+)?"
    r"(?:TTFT|prefill|first[- ]token|time[- ]to[- ]first[- ]token)"
    r"(?![\s-]*cach)",  # "without prefill caching" says the opposite
    re.IGNORECASE,
)
_PHRASE_LITERALS = ("prefill", "cach", "ttft", "token")
# A negation this close before a phrase disarms it ("not cached prefill", "never excluded TTFT").
PREFILL_NEGATION_WINDOW = 15
_PREFILL_NEGATION = re.compile(r"\b(no|not|never|nor)\b", re.IGNORECASE)


def prefill_phrases(notes: str | None) -> tuple[str, ...]:
    """The notes' phrases saying prefill was cached, excluded or skipped (not negated)."""
    if not notes or not any(k in notes.casefold() for k in _PHRASE_LITERALS):
        return ()
    out = []
    for m in _PHRASES.finditer(notes):
        before = _CLAUSE_BREAK.split(notes[max(0, m.start() - PREFILL_NEGATION_WINDOW) : m.start()])[-1]
        if not _PREFILL_NEGATION.search(before):
            out.append(m.group(0))
    return tuple(out)
