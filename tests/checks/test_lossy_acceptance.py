"""lossy_acceptance: acceptance thresholds below 1.0 and lossy verification modes."""

from __future__ import annotations

from checks.models import Answer, Claim, Evidence
from checks.reference import Reference
from checks.rules.lossy_acceptance import lossy_acceptance
from tests.seed_claims import LAUNCH, headline_evidence


def _run(ref: Reference, **fields: object) -> Answer:
    return lossy_acceptance(Evidence(claim=Claim(**fields)), ref, {})


def test_seed_launch_is_lossless(ref: Reference) -> None:
    a = lossy_acceptance(headline_evidence(), ref, {})
    assert a.key == "lossy_acceptance"
    assert a.status == "ok"


def test_accept_threshold_below_one_is_flagged(ref: Reference) -> None:
    a = _run(ref, launch_command=LAUNCH + " --speculative-accept-threshold-single 0.7")
    assert a.status == "flag"
    assert "not lossless" in a.summary and "greedy" in a.summary
    assert a.figures["accept_threshold"] == 0.7


def test_accept_threshold_at_one_is_lossless(ref: Reference) -> None:
    cmd = (
        LAUNCH + " --speculative-accept-threshold-single 1.0 --speculative-accept-threshold-acc=1.0"
    )
    a = _run(ref, launch_command=cmd)
    assert a.status == "ok"
    assert a.figures["accept_threshold"] == 1.0
    assert "stated at 1.0" in a.summary


def test_acc_threshold_with_equals_sign_is_flagged(ref: Reference) -> None:
    assert (
        _run(ref, launch_command=LAUNCH + " --speculative-accept-threshold-acc=0.5").status
        == "flag"
    )


def test_record_accept_threshold_below_one_is_flagged(ref: Reference) -> None:
    a = _run(ref, accept_threshold=0.9, speculative=True)
    assert a.status == "flag"
    assert a.figures["accept_threshold"] == 0.9


def test_record_accept_threshold_of_one_is_ok(ref: Reference) -> None:
    assert _run(ref, accept_threshold=1.0, speculative=True).status == "ok"


def test_vllm_fly_verification_is_flagged(ref: Reference) -> None:
    cmd = (
        'vllm serve Qwen/Qwen3-8B --speculative-config \'{"method":"draft_model",'
        '"num_speculative_tokens":8,"rejection_sample_method":"fly","fly_window_size":6}\''
    )
    a = _run(ref, launch_command=cmd)
    assert a.status == "flag"
    assert "FLy" in a.summary


def test_vllm_block_verification_is_lossless(ref: Reference) -> None:
    cmd = (
        "vllm serve m --speculative-config "
        '\'{"method":"dspark","rejection_sample_method":"block"}\''
    )
    assert _run(ref, launch_command=cmd).status == "ok"


def test_typical_acceptance_sampler_is_flagged(ref: Reference) -> None:
    cmd = (
        "vllm serve m --speculative-model medusa --spec-decoding-acceptance-method "
        "typical_acceptance_sampler --typical-acceptance-sampler-posterior-threshold 0.09"
    )
    a = _run(ref, launch_command=cmd)
    assert a.status == "flag"
    assert "typical acceptance" in a.summary


def test_medusa_posterior_threshold_is_flagged(ref: Reference) -> None:
    assert _run(ref, env={"MEDUSA_ARGS": "posterior_threshold=0.09"}).status == "flag"


def test_lossy_verification_in_notes_is_flagged(ref: Reference) -> None:
    assert _run(ref, notes="numbers use FLy verification on top of EAGLE-3").status == "flag"


def test_typical_acceptance_length_in_prose_is_not_lossy(ref: Reference) -> None:
    a = _run(ref, notes="typical acceptance length 4-6 on real tasks", speculative=True)
    assert a.status == "ok"


def test_negated_lossy_mention_in_notes_is_ok(ref: Reference) -> None:
    assert _run(ref, notes="exact verification, no FLy", speculative=True).status == "ok"


def test_commented_out_threshold_is_ok(ref: Reference) -> None:
    script = "# --speculative-accept-threshold-single 0.5\n" + LAUNCH
    assert _run(ref, launch_command=script).status == "ok"


def test_no_speculation_is_not_applicable(ref: Reference) -> None:
    assert _run(ref, launch_command="llama-server -m q.gguf", speculative=False).status == "n/a"


def test_nothing_to_search_is_unanswerable(ref: Reference) -> None:
    a = _run(ref, tok_s=2103.6)
    assert a.status == "unanswerable"
    assert "launch_command" in a.missing and "accept_threshold" in a.missing
