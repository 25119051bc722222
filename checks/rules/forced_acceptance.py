"""forced_acceptance: synthetic or forced acceptance switches in flags, env or notes.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from checks.basis import field, note
from checks.models import Answer, Claim, Evidence
from checks.reference import Reference

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


@dataclass(frozen=True)
class _Switch:
    name: str
    engine_effect: str  # what the switch does, for the summary
    pattern: re.Pattern[str]
    companion: bool = False  # only modifies another switch; harmless alone
    has_value: bool = True  # its value can turn it off


def _rx(body: str) -> re.Pattern[str]:
    return re.compile(body, re.IGNORECASE)


SWITCHES: tuple[_Switch, ...] = (
    _Switch(
        "SGLANG_SIMULATE_ACC_LEN",
        "SGLang simulates the acceptance length",
        _rx(r"\bSGLANG_SIMULATE_ACC_LEN\b" + _ENV_VALUE),
    ),
    _Switch(
        "SGLANG_SIMULATE_ACC_METHOD",
        "SGLang's simulated-acceptance method",
        _rx(r"\bSGLANG_SIMULATE_ACC_METHOD\b" + _ENV_VALUE),
        companion=True,
        has_value=False,
    ),
    _Switch(
        "SGLANG_SIMULATE_ACC_TOKEN_MODE",
        "SGLang's simulated-acceptance token mode",
        _rx(r"\bSGLANG_SIMULATE_ACC_TOKEN_MODE\b" + _ENV_VALUE),
        companion=True,
        has_value=False,
    ),
    _Switch(
        '"rejection_sample_method": "synthetic"',
        "vLLM accepts drafts at a synthetic rate",
        _rx(r"""rejection[_-]sample[_-]method['"]?\s*[:=\s]\s*['"]?synthetic\b"""),
        has_value=False,
    ),
    _Switch(
        "synthetic_acceptance_length",
        "vLLM accepts drafts at a synthetic rate",
        _rx(r"\bsynthetic[_-]acceptance[_-](?:length|rates?)\b" + _ENV_VALUE),
    ),
    _Switch(
        "TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS",
        "TensorRT-LLM forces the accepted-token count",
        _rx(r"\bTLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS\b" + _ENV_VALUE),
    ),
    _Switch(
        "--spec-decode-acceptance-length",
        "ATOM forces the acceptance length",
        _rx(r"--spec[-_]decode[-_]acceptance[-_]length\b" + _FLAG_VALUE),
    ),
    _Switch(
        "--spec-decode-acceptance-rate",
        "ATOM forces the acceptance rate",
        _rx(r"--spec[-_]decode[-_]acceptance[-_]rate\b" + _FLAG_VALUE),
    ),
)


@dataclass(frozen=True)
class _Hit:
    switch: _Switch
    where: str  # "launch_command", "env" or "notes"
    span: str
    value: float | None
    off: str | None  # why it is not in force, or None when it is


def _number(raw: str | None) -> float | None:
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


def _why_off(text: str, m: re.Match[str], sw: _Switch, where: str) -> str | None:
    line_start = text.rfind("\n", 0, m.start()) + 1
    before_in_line = text[line_start : m.start()]
    if re.search(r"(?:^|\s)#", before_in_line):  # a shell/YAML comment, whole-line or trailing
        return "commented out"
    if re.search(r"\bunset\b", before_in_line):
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
        sentence = re.split(r"[.;!?\n]", text[max(0, m.start() - NEGATION_WINDOW) : m.start()])[-1]
        if _NEG_BEFORE.search(sentence) or _NEG_AFTER.search(text[m.end() : m.end() + 25]):
            return "negated in the notes"
    return None


def _search(c: Claim) -> list[_Hit]:
    places: list[tuple[str, str]] = []
    if c.launch_command:
        places.append(("launch_command", c.launch_command))
    places += [("env", f"{k}={v}") for k, v in c.env.items()]
    if c.notes:
        places.append(("notes", c.notes))
    hits = []
    for where, text in places:
        for sw in SWITCHES:
            for m in sw.pattern.finditer(text):
                value = _number(m.groupdict().get("value")) if sw.has_value else None
                hits.append(
                    _Hit(sw, where, m.group(0).strip(), value, _why_off(text, m, sw, where))
                )
    return hits


def forced_acceptance(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """forced_acceptance: synthetic or forced acceptance switches in flags, env or notes.

    Seed, section 2: "when a metric lands exactly on its theoretical ceiling, suspect it was fed in
    rather than measured." Every major engine has a switch that feeds it in
    (SemiAnalysisAI/InferenceX `golden_al_distribution/README.md`; sgl-project/sglang
    `docs/advanced_features/speculative_decoding.md`; docs.vllm.ai `vllm/config/speculative`): SGLang `SGLANG_SIMULATE_ACC_LEN` (with `SGLANG_SIMULATE_ACC_METHOD`,
    `SGLANG_SIMULATE_ACC_TOKEN_MODE`), vLLM `"rejection_sample_method": "synthetic"` /
    `synthetic_acceptance_length` / `synthetic_acceptance_rates`, TensorRT-LLM
    `TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS`, ATOM `--spec-decode-acceptance-length` /
    `--spec-decode-acceptance-rate`. Searched: the launch command, every env key and value, and
    the notes.

    Statuses:
    - `stop`: a switch is in force; the AL (and the tok/s built on it) was set, not measured. The
      summary names the switch and where it was found.
    - `flag`: a switch is mentioned but not in force: commented out (`# export ...`), `unset`, set
      to its off value (SGLang's default -1, TensorRT-LLM's 0), negated in the notes ("no
      SGLANG_SIMULATE_ACC_LEN"), or only a companion setting (`SGLANG_SIMULATE_ACC_METHOD` without
      the length). Not decisive, but the submitter had the switch at hand: check the real launch.
    - `ok`: a launch command, env or notes exist and none mentions a switch.
    - `n/a`: nothing to search and the record says speculative decoding was not used.
    - `unanswerable`: nothing to search (`missing` = launch_command, env, notes).

    Reference rows: none; the switch names are engine facts listed above.
    """
    c = ev.claim
    searched = [
        n
        for n, v in (("launch_command", c.launch_command), ("env", c.env), ("notes", c.notes))
        if v
    ]
    hits = _search(c)
    basis = [field(c, h.where, f': "{h.span}"' + (f" ({h.off})" if h.off else "")) for h in hits]
    live = [h for h in hits if h.off is None and not h.switch.companion]
    if live:
        h = live[0]
        figures: dict[str, float] = {"switches": len(live)}
        value = next((x.value for x in live if x.value is not None), None)
        if value is not None:
            figures["forced_value"] = value
        return Answer(
            key="forced_acceptance",
            status="stop",
            figures=figures,
            basis=basis,
            reason="forced",
            summary=(
                f"{h.span} in the {h.where.replace('_', ' ')}: {h.switch.engine_effect}, so "
                "the acceptance (and the tok/s built on it) was set by a switch, not measured"
            ),
        )
    if hits:
        h = hits[0]
        why = h.off or "a companion setting without the switch it modifies"
        return Answer(
            key="forced_acceptance",
            status="flag",
            figures={"switches": 0},
            basis=basis,
            reason="switch_at_hand",
            label=f"{h.switch.name} appears in the {h.where.replace('_', ' ')} but is not in force",
            summary=f"{h.switch.name} appears in the {h.where.replace('_', ' ')} but is not in "
            f"force ({why}); the submitter had forced acceptance at hand, so check the "
            "launch that produced the number",
        )
    if searched:
        places = " or ".join(s.replace("_", " ") for s in searched)
        return Answer(
            key="forced_acceptance",
            status="ok",
            figures={"switches": 0},
            basis=[*(field(c, n, "searched") for n in searched),
                   note(f"searched for {', '.join(s.name for s in SWITCHES)}")],
            summary=f"no synthetic or forced acceptance switch in the {places}",
        )
    if c.speculative is False:
        return Answer(
            key="forced_acceptance",
            status="n/a",
            summary="no speculative decoding, so there is no acceptance to force",
        )
    return Answer(
        key="forced_acceptance",
        status="unanswerable",
        missing=["launch_command", "env", "notes"],
        summary="no launch command, env or notes to search for a forced-acceptance switch",
    )
