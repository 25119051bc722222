"""forced_acceptance: synthetic or forced acceptance switches in flags, env or notes.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, note
from checks.models import Answer, Evidence
from checks.parsing import parsed
from checks.reference import Reference
from checks.switches import SWITCHES, Switch

_BY_NAME = {sw.name: sw for sw in SWITCHES}


def _switch(name: str) -> Switch:
    return _BY_NAME[name]


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
    hits = parsed(ev).forced  # the switches table and search: checks.switches
    basis = [field(c, h.where, f': "{h.span}"' + (f" ({h.off})" if h.off else "")) for h in hits]
    live = [h for h in hits if h.off is None and not _switch(h.switch).companion]
    if live:
        h = live[0]
        figures: dict[str, float] = {"switches": len(live)}
        value = next((x.value for x in live if x.value is not None), None)
        if value is not None:
            figures["forced_value"] = value
        return answer(
            key="forced_acceptance",
            status="stop",
            figures=figures,
            basis=basis,
            reason="forced",
            summary=(
                f"{h.span} in the {h.where.replace('_', ' ')}: {_switch(h.switch).engine_effect}, so "
                "the acceptance (and the tok/s built on it) was set by a switch, not measured"
            ),
        )
    if hits:
        h = hits[0]
        why = h.off or "a companion setting without the switch it modifies"
        return answer(
            key="forced_acceptance",
            status="flag",
            figures={"switches": 0},
            basis=basis,
            reason="switch_at_hand",
            label=f"{h.switch} appears in the {h.where.replace('_', ' ')} but is not in force",
            summary=f"{h.switch} appears in the {h.where.replace('_', ' ')} but is not in "
            f"force ({why}); the submitter had forced acceptance at hand, so check the "
            "launch that produced the number",
        )
    if searched:
        places = " or ".join(s.replace("_", " ") for s in searched)
        return answer(
            key="forced_acceptance",
            status="ok",
            figures={"switches": 0},
            basis=[*(field(c, n, "searched") for n in searched),
                   note(f"searched for {', '.join(s.name for s in SWITCHES)}")],
            summary=f"no synthetic or forced acceptance switch in the {places}",
        )
    if c.speculative is False:
        return answer(
            key="forced_acceptance",
            status="n/a",
            summary="no speculative decoding, so there is no acceptance to force",
        )
    return answer(
        key="forced_acceptance",
        status="unanswerable",
        missing=["launch_command", "env", "notes"],
        summary="no launch command, env or notes to search for a forced-acceptance switch",
    )
