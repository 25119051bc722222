"""lossy_acceptance: acceptance thresholds below 1.0 and lossy verification modes.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from checks.basis import field, note
from checks.models import Answer, Basis, Claim, Evidence
from checks.reference import Reference

# SGLang's accept thresholds default to 1.0, and "values < 1.0 make acceptance lossy"
# (sglang docs/advanced_features/speculative_decoding.md, Full Parameter Reference).
LOSSLESS_THRESHOLD = 1.0
# Notes: a negation this close before a setting, in the same sentence, disarms it.
NEGATION_WINDOW = 40
_NEGATION = re.compile(
    r"\b(no|not|without|never|disabled?|unset|removed|w/o|instead of)\b", re.IGNORECASE
)

_THRESHOLD = re.compile(
    r"--speculative[-_]accept[-_]threshold[-_](?P<which>single|acc)\b(?:\s*=\s*|\s+)['\"]?(?P<value>\d*\.?\d+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Mode:
    name: str
    pattern: re.Pattern[str]
    how: str


MODES: tuple[_Mode, ...] = (
    _Mode(
        "vLLM FLy verification",
        re.compile(r"""rejection[_-]sample[_-]method['"]?\s*[:=\s]\s*['"]?fly\b""", re.IGNORECASE),
        "FLy defers rejections at high-entropy positions and is lossy by design",
    ),
    _Mode(
        "FLy / lossy verification",
        re.compile(r"\bFLy\b|\blossy\s+(?:verif\w*|accept\w*)", 0),
        "a lossy verifier accepts tokens the target would not have emitted",
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
    ),
)


@dataclass(frozen=True)
class _Hit:
    where: str
    span: str
    how: str


def _disarmed(text: str, start: int, end: int, where: str) -> bool:
    line = text[text.rfind("\n", 0, start) + 1 : start]
    if re.search(r"(?:^|\s)#", line) or re.search(r"\bunset\b", line):
        return True
    if where != "notes":
        return False
    sentence = re.split(r"[.;!?\n]", text[max(0, start - NEGATION_WINDOW) : start])[-1]
    after = text[end : end + 25]
    return bool(
        _NEGATION.search(sentence)
        or re.match(r"\W{0,3}(?:was |is )?(?:not used|off|disabled)\b", after, re.IGNORECASE)
    )


def _search(c: Claim) -> tuple[list[_Hit], list[Basis], list[float]]:
    """Lossy settings found, lossless thresholds seen (for the basis), every threshold value."""
    places = [("launch_command", c.launch_command or "")]
    places += [("env", f"{k}={v}") for k, v in c.env.items()]
    places.append(("notes", c.notes or ""))
    hits: list[_Hit] = []
    lossless: list[Basis] = []
    values: list[float] = []
    for where, text in places:
        for m in _THRESHOLD.finditer(text):
            if _disarmed(text, m.start(), m.end(), where):
                continue
            value = float(m.group("value"))
            values.append(value)
            if value < LOSSLESS_THRESHOLD:
                hits.append(
                    _Hit(
                        where,
                        m.group(0),
                        f"a {m.group('which')} threshold of {value:g} "
                        "accepts draft tokens the target ranks below its own choice",
                    )
                )
            else:
                lossless.append(field(c, where, f': "{m.group(0)}" (lossless at {value:g})'))
        for mode in MODES:
            for m in mode.pattern.finditer(text):
                if not _disarmed(text, m.start(), m.end(), where):
                    hits.append(_Hit(where, m.group(0), mode.how))
                    break
    return hits, lossless, values


def lossy_acceptance(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """lossy_acceptance: acceptance thresholds below 1.0 and lossy verification modes.

    Seed, section 1: "It's lossless — under greedy decoding the output matches token-by-token
    generation exactly." A verify step that accepts what the target would not have chosen breaks
    that, and a lenient verifier accepts more drafts, so its tok/s is not comparable to greedy
    decoding (an SGLang log with "accept len: 16.00, accept rate: 1.00" under lenient top-k
    acceptance was a degenerate repetition loop). Lossy settings searched for (sgl-project/sglang
    `docs/advanced_features/speculative_decoding.md`, vllm-project/vllm
    `docs/features/speculative_decoding/README.md`):
    - SGLang `--speculative-accept-threshold-single` / `--speculative-accept-threshold-acc` below
      1.0 (both default to 1.0), or the record's own `accept_threshold` below 1.0;
    - vLLM FLy verification (`"rejection_sample_method": "fly"`, "intentionally lossy" in vLLM's
      docs/features/speculative_decoding/fly.md), or notes naming FLy / lossy verification;
    - typical acceptance (Medusa's `posterior_threshold` / `posterior_alpha`, vLLM's
      `typical_acceptance_sampler`): accepts any token the target finds plausible enough.

    Statuses:
    - `flag`: a lossy setting is in force ("not lossless, so not comparable to greedy decoding").
    - `ok`: searched and found none; thresholds stated at 1.0 are named as lossless.
    - `n/a`: no speculative decoding, so no acceptance to loosen.
    - `unanswerable`: no launch command, env, notes or threshold to search (`missing` says which).
    Commented-out lines, `unset` and mentions negated in the notes ("no FLy") do not count.

    Reference rows: none; the flag names are engine facts listed above.
    """
    c = ev.claim
    hits, lossless, values = _search(c)
    if c.accept_threshold is not None:
        values.append(c.accept_threshold)
        if c.accept_threshold < LOSSLESS_THRESHOLD:
            hits.insert(
                0,
                _Hit(
                    "accept_threshold",
                    f"accept threshold {c.accept_threshold:g}",
                    f"an accept threshold of {c.accept_threshold:g} (< 1.0) lets "
                    "near-miss draft tokens through",
                ),
            )
        else:
            lossless.append(field(c, "accept_threshold", f"= {c.accept_threshold:g} (lossless)"))
    figures = {"accept_threshold": min(values)} if values else {}
    if hits:
        h = hits[0]
        basis = [field(c, x.where, f': "{x.span}" — {x.how}') for x in hits]
        basis.append(note(f"lossless means every accept threshold = {LOSSLESS_THRESHOLD:g} "
                          "(SGLang's default) and exact verification"))
        return Answer(
            key="lossy_acceptance",
            status="flag",
            figures=figures,
            basis=basis + lossless,
            reason="lossy",
            label=f'"{h.span}": the decoding is not lossless',
            summary=f'"{h.span}" in the {h.where.replace("_", " ")}: {h.how}; the decoding is '
            "not lossless, so its tok/s is not comparable to greedy decoding",
        )
    if c.speculative is False:
        return Answer(
            key="lossy_acceptance",
            status="n/a",
            summary="no speculative decoding, so there is no acceptance step to loosen",
        )
    searched = [
        n
        for n, v in (
            ("launch_command", c.launch_command),
            ("env", c.env),
            ("notes", c.notes),
            ("accept_threshold", c.accept_threshold),
        )
        if v not in (None, "", {})
    ]
    if not searched:
        return Answer(
            key="lossy_acceptance",
            status="unanswerable",
            missing=["launch_command", "env", "notes", "accept_threshold"],
            summary="no launch command, env, notes or accept threshold to tell whether "
            "verification was lossless",
        )
    stated = " (thresholds stated at 1.0)" if lossless else ""
    places = " or ".join(s.replace("_", " ") for s in searched)
    return Answer(
        key="lossy_acceptance",
        status="ok",
        figures=figures,
        basis=[*(field(c, n, "searched") for n in searched),
               note("searched for accept thresholds < 1.0, FLy and typical acceptance"), *lossless],
        summary=f"no lossy acceptance setting in the {places}{stated}; verification is taken as "
        "exact (SGLang's thresholds default to 1.0)",
    )
