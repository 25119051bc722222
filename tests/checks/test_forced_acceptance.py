"""forced_acceptance: synthetic or forced acceptance switches in flags, env or notes."""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.forced_acceptance import forced_acceptance
from tests.seed_claims import LAUNCH, headline_evidence


def _run(ref: Reference, **fields: object) -> Answer:
    return forced_acceptance(Evidence(claim=Claim(**fields)), ref, {})


def test_seed_record_has_no_forcing_switch(ref: Reference) -> None:
    a = forced_acceptance(headline_evidence(), ref, {})
    assert a.key == "forced_acceptance"
    assert a.status == "ok"
    assert "launch command" in a.summary and "notes" in a.summary


def test_simulated_acceptance_env_is_stop(ref: Reference) -> None:
    a = _run(ref, launch_command=LAUNCH, env={"SGLANG_SIMULATE_ACC_LEN": "56"})
    assert a.status == "stop"
    assert "SGLANG_SIMULATE_ACC_LEN=56" in a.summary and "env" in a.summary
    assert a.figures["forced_value"] == 56.0


def test_unrelated_env_is_ok(ref: Reference) -> None:
    a = _run(
        ref, launch_command=LAUNCH, env={"SGLANG_ENABLE_SPEC_V2": "1", "CUDA_VISIBLE_DEVICES": "0"}
    )
    assert a.status == "ok"


def test_env_prefix_in_launch_command_is_stop(ref: Reference) -> None:
    a = _run(
        ref,
        launch_command="SGLANG_SIMULATE_ACC_LEN=3.24 SGLANG_SIMULATE_ACC_METHOD=match-expected "
        + LAUNCH,
    )
    assert a.status == "stop"
    assert "launch command" in a.summary
    assert a.figures["forced_value"] == 3.24


def test_vllm_synthetic_rejection_sampling_is_stop(ref: Reference) -> None:
    cmd = (
        "vllm serve Qwen/Qwen3-8B --speculative-config "
        '\'{"method":"mtp","num_speculative_tokens":3,"rejection_sample_method":"synthetic",'
        '"synthetic_acceptance_length":3.12}\''
    )
    a = _run(ref, launch_command=cmd)
    assert a.status == "stop"
    assert "synthetic" in a.summary
    assert a.figures["forced_value"] == 3.12


def test_vllm_standard_rejection_sampling_is_ok(ref: Reference) -> None:
    cmd = (
        'vllm serve m --speculative-config \'{"method":"eagle3","num_speculative_tokens":3,'
        '"rejection_sample_method":"standard"}\''
    )
    assert _run(ref, launch_command=cmd).status == "ok"


def test_synthetic_length_under_a_real_sampler_is_not_in_force(ref: Reference) -> None:
    cmd = (
        'vllm serve m --speculative-config \'{"rejection_sample_method":"block",'
        '"synthetic_acceptance_length":3.5}\''
    )
    a = _run(ref, launch_command=cmd)
    assert a.status == "flag"
    assert "rejection_sample_method is block" in a.summary


def test_tensorrt_forced_accepted_tokens_is_stop(ref: Reference) -> None:
    a = _run(ref, env={"TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS": "1.78"})
    assert a.status == "stop"
    assert "TensorRT-LLM" in a.summary


def test_tensorrt_switch_at_its_off_value_is_only_a_flag(ref: Reference) -> None:
    a = _run(ref, env={"TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS": "0"})
    assert a.status == "flag"
    assert "off value" in a.summary


def test_atom_acceptance_length_flag_is_stop(ref: Reference) -> None:
    cmd = (
        "python -m atom.entrypoints.openai_server --model /models/K --method dspark "
        "--num-speculative-tokens 7 --spec-decode-acceptance-length 3.78"
    )
    a = _run(ref, launch_command=cmd)
    assert a.status == "stop"
    assert "--spec-decode-acceptance-length 3.78" in a.summary
    assert a.figures["forced_value"] == 3.78


def test_atom_acceptance_rate_flag_is_stop(ref: Reference) -> None:
    a = _run(ref, launch_command="atom serve --spec-decode-acceptance-rate=0.9")
    assert a.status == "stop"


def test_switch_named_in_notes_is_stop(ref: Reference) -> None:
    a = _run(ref, notes="AL pinned with SGLANG_SIMULATE_ACC_LEN=4.5 for comparability")
    assert a.status == "stop"
    assert "notes" in a.summary


@pytest.mark.parametrize(
    "notes",
    [
        "no SGLANG_SIMULATE_ACC_LEN, real acceptance",
        "ran without SGLANG_SIMULATE_ACC_LEN this time",
        "SGLANG_SIMULATE_ACC_LEN was not set",
    ],
)
def test_negated_mention_in_notes_is_a_flag_not_a_stop(ref: Reference, notes: str) -> None:
    a = _run(ref, notes=notes)
    assert a.status == "flag"
    assert "negated" in a.summary


def test_commented_out_export_is_a_flag_not_a_stop(ref: Reference) -> None:
    script = "# export SGLANG_SIMULATE_ACC_LEN=3.2\n" + LAUNCH
    a = _run(ref, launch_command=script)
    assert a.status == "flag"
    assert "commented out" in a.summary


def test_unset_switch_is_a_flag_not_a_stop(ref: Reference) -> None:
    script = "unset SGLANG_SIMULATE_ACC_LEN SGLANG_SIMULATE_ACC_METHOD\n" + LAUNCH
    assert _run(ref, launch_command=script).status == "flag"


def test_sglang_default_minus_one_is_off(ref: Reference) -> None:
    assert _run(ref, env={"SGLANG_SIMULATE_ACC_LEN": "-1"}).status == "flag"


def test_companion_setting_alone_is_a_flag(ref: Reference) -> None:
    a = _run(ref, env={"SGLANG_SIMULATE_ACC_METHOD": "match-expected"})
    assert a.status == "flag"
    assert "companion" in a.summary


def test_nothing_to_search_is_unanswerable(ref: Reference) -> None:
    a = _run(ref, tok_s=2103.6, speculative=True)
    assert a.status == "unanswerable"
    assert "launch_command" in a.missing and "env" in a.missing


def test_nothing_to_search_without_speculation_is_not_applicable(ref: Reference) -> None:
    assert _run(ref, tok_s=79.0, speculative=False).status == "n/a"
