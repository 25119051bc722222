"""Q8 measure: once the first seven pass, go measure."""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.measure import DISCIPLINE, measure
from tests.seed_claims import headline_evidence, real_decode_claim

STOP = Answer(key="acceptance", status="stop", summary="56.0 / 56 = 1.000: the draft never missed")
ROOF = Answer(
    key="roofline",
    status="flag",
    summary="ceiling 129 tok/s",
    figures={
        "ceiling_tok_s": 129.0,
        "realistic_ceiling_tok_s": 96.0,
        "honest_low_tok_s": 340.0,
        "honest_high_tok_s": 704.0,
    },
)


def _answers(*answers: Answer) -> dict[str, Answer]:
    return {a.key: a for a in answers}


@pytest.mark.parametrize("prior", [{}, _answers(STOP, ROOF), _answers(ROOF)])
def test_measure_is_always_plan(ref: Reference, prior: dict[str, Answer]) -> None:
    assert measure(headline_evidence(), ref, prior).status == "plan"


def test_dead_number_says_measure_the_real_baseline_instead(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, _answers(STOP, ROOF))
    assert "the number is dead" in a.summary
    assert "plain decode on the same box" in a.summary
    assert "DFlash at block 16 on a real task" in a.summary


def test_live_number_is_a_plan_not_a_death_notice(ref: Reference) -> None:
    a = measure(Evidence(claim=real_decode_claim(), kind="record"), ref, {})
    assert a.status == "plan"
    assert "dead" not in a.summary
    assert "reproduce it on the same box" in a.summary


def test_speculative_number_that_passed_gets_single_variable_experiments(ref: Reference) -> None:
    a = measure(headline_evidence(engine_version="0.5.4"), ref, {})
    assert "single-variable experiments against plain decode" in a.summary
    assert "spec_method" in a.summary


def test_discipline_is_kept_in_summary_and_basis(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, {})
    assert DISCIPLINE in a.summary
    assert any(DISCIPLINE in b for b in a.lines())


def test_baseline_command_drops_every_speculative_flag(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, {})
    baseline = next(b for b in a.lines() if b.startswith("experiment 1:"))
    assert "--model-path nvidia/Qwen3.6-27B-NVFP4" in baseline
    assert "--speculative" not in baseline
    assert "--power" not in baseline
    assert "nvidia-smi --query-gpu=power.draw --format=csv -lms 100" in baseline


def test_method_runs_at_its_published_window_on_a_real_task(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, {})
    spec = next(b for b in a.lines() if "published window" in b and b.startswith("experiment"))
    assert "--speculative-num-draft-tokens 16" in spec
    assert "--speculative-dflash-block-size 16" in spec
    assert "python -m dflash.benchmark --dataset gsm8k" in spec


def test_claimed_window_is_its_own_single_variable_experiment(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, {})
    assert any(b.startswith("difference: spec_window: 56 vs published 16") for b in a.lines())
    assert any("16 -> 56" in b for b in a.lines())


def test_realistic_ceiling_is_copied_from_the_roofline(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, _answers(ROOF))
    assert a.figures["realistic_ceiling_tok_s"] == 96.0
    assert a.figures["ceiling_tok_s"] == 129.0
    assert any("realistic ceiling of 96 tok/s" in b for b in a.lines())


def test_honest_range_from_the_roofline_bounds_the_method_run(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, _answers(ROOF))
    assert a.figures["honest_high_tok_s"] == 704.0
    assert any("honest range 340–704 tok/s" in b for b in a.lines())


def test_no_roofline_means_no_ceiling_figure(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, {})
    assert "realistic_ceiling_tok_s" not in a.figures


def test_serving_claim_adds_a_concurrency_sweep(ref: Reference) -> None:
    a = measure(headline_evidence(serving_claim=True), ref, {})
    assert any("concurrency sweep 1, 8, 32" in b for b in a.lines())


def test_single_stream_claim_has_no_concurrency_sweep(ref: Reference) -> None:
    a = measure(headline_evidence(), ref, {})
    assert not any("concurrency sweep" in b for b in a.lines())


def test_flagged_fork_adds_an_official_release_run(ref: Reference) -> None:
    flagged = Answer(key="fork", status="flag", summary='local build suffix "+dflash.a91f3e"')
    a = measure(headline_evidence(), ref, _answers(flagged))
    assert any(b.startswith("difference: engine_version") for b in a.lines())


def test_llama_cpp_baseline_is_a_plain_tg_run(ref: Reference) -> None:
    claim = Claim(
        model="model.gguf",
        hardware="RTX 5090",
        engine="llama.cpp",
        batch=1,
        tok_s=79.0,
        speculative=False,
    )
    a = measure(Evidence(claim=claim, kind="tool-output"), ref, {})
    assert any("llama-bench -m model.gguf -p 0 -n 128" in b for b in a.lines())


def test_unbalanced_quotes_in_launch_command_fall_back_to_a_template(ref: Reference) -> None:
    a = measure(
        headline_evidence(launch_command="python -m sglang.launch_server --model-path 'oops"),
        ref,
        {},
    )
    assert a.status == "plan"


def test_unknown_model_and_hardware_are_named_as_missing(ref: Reference) -> None:
    a = measure(Evidence(claim=Claim(tok_s=100.0), kind="post"), ref, {})
    assert a.status == "plan"
    assert {"model", "hardware"} <= set(a.missing)
