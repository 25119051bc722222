"""lossy_acceptance: acceptance thresholds below 1.0 and lossy verification modes.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from checks.basis import answer, field, note
from checks.models import Answer, Basis, Claim, Evidence, ParsedConfig
from checks.parsing import parsed
from checks.reference import Reference

# SGLang's accept thresholds default to 1.0, and "values < 1.0 make acceptance lossy"
# (sglang docs/advanced_features/speculative_decoding.md, Full Parameter Reference).
LOSSLESS_THRESHOLD = 1.0


@dataclass(frozen=True)
class _Hit:
    where: str
    span: str
    how: str


def _search(c: Claim, text: ParsedConfig) -> tuple[list[_Hit], list[Basis], list[float]]:
    """Lossy settings found, lossless thresholds seen (for the basis), every threshold value,
    from the thresholds and modes the parser found (checks.switches)."""
    hits: list[_Hit] = []
    lossless: list[Basis] = []
    values: list[float] = []
    for m in text.lossy:
        if m.value is None:  # a lossy mode in force
            hits.append(_Hit(m.where, m.span, m.how or "lossy verification"))
            continue
        values.append(m.value)
        if m.value < LOSSLESS_THRESHOLD:
            hits.append(_Hit(m.where, m.span, f"a {m.which} threshold of {m.value:g} "
                             "accepts draft tokens the target ranks below its own choice"))
        else:
            lossless.append(field(c, m.where, f': "{m.span}" (lossless at {m.value:g})'))
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
    hits, lossless, values = _search(c, parsed(ev))
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
        return answer(
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
        return answer(
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
        return answer(
            key="lossy_acceptance",
            status="unanswerable",
            missing=["launch_command", "env", "notes", "accept_threshold"],
            summary="no launch command, env, notes or accept threshold to tell whether "
            "verification was lossless",
        )
    stated = " (thresholds stated at 1.0)" if lossless else ""
    places = " or ".join(s.replace("_", " ") for s in searched)
    return answer(
        key="lossy_acceptance",
        status="ok",
        figures=figures,
        basis=[*(field(c, n, "searched") for n in searched),
               note("searched for accept thresholds < 1.0, FLy and typical acceptance"), *lossless],
        summary=f"no lossy acceptance setting in the {places}{stated}; verification is taken as "
        "exact (SGLang's thresholds default to 1.0)",
    )
