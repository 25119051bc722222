"""token_accounting: "throughput" that counts input + output, quoted as generation speed."""

from __future__ import annotations

from typing import Any

from checks.models import Answer, Claim, Evidence, PostInfo, Provenance
from checks.reference import Reference
from checks.rules.token_accounting import token_accounting
from tests.seed_claims import headline_evidence


def _run(ref: Reference, post: str | None = None, **fields: object) -> Answer:
    ev = Evidence(claim=Claim(**fields), post=PostInfo(text=post) if post else None)
    return token_accounting(ev, ref, {})


# A vLLM bench-serve shape: 1000 prompt + 200 output tokens in 2 s.
_COUNTS: dict[str, Any] = {"input_tokens": 1000, "output_tokens": 200, "wall_seconds": 2.0}


def test_seed_decode_figure_counts_generated_tokens_only(ref: Reference) -> None:
    a = token_accounting(headline_evidence(), ref, {})
    assert a.key == "token_accounting"
    assert a.status == "ok"
    assert "labelled decode" in a.summary


def test_total_throughput_quoted_as_generation_speed_is_flagged(ref: Reference) -> None:
    a = _run(
        ref, post="Qwen 27B hits 600 tok/s on one card!", tok_s=600.0, tok_s_kind="total", **_COUNTS
    )
    assert a.status == "flag"
    assert a.figures["output_tok_s"] == 100.0 and a.figures["total_tok_s"] == 600.0
    assert "input + output" in a.summary and "generation speed" in a.summary


def test_output_throughput_beside_it_is_ok(ref: Reference) -> None:
    a = _run(
        ref, post="Qwen 27B hits 100 tok/s on one card", tok_s=100.0, tok_s_kind="output", **_COUNTS
    )
    assert a.status == "ok"
    assert "matches output tokens ÷ time" in a.summary


def test_total_throughput_labelled_total_in_the_post_is_ok(ref: Reference) -> None:
    a = _run(ref, post="600 tok/s total (input+output) throughput", tok_s=600.0, tok_s_kind="total")
    assert a.status == "ok"
    assert "labelled so" in a.summary


def test_total_field_read_straight_from_the_record_is_ok(ref: Reference) -> None:
    prov = {"tok_s": Provenance(source="bench.json", field="total_token_throughput")}
    a = _run(ref, tok_s=600.0, tok_s_kind="total", provenance=prov)
    assert a.status == "ok"
    assert "total_token_throughput" in a.summary


def test_total_kind_without_a_label_is_flagged(ref: Reference) -> None:
    assert _run(ref, tok_s=600.0, tok_s_kind="total").status == "flag"


def test_output_label_that_matches_input_plus_output_is_flagged(ref: Reference) -> None:
    a = _run(ref, tok_s=600.0, tok_s_kind="output", **_COUNTS)
    assert a.status == "flag"
    assert "matches input + output ÷ time" in a.summary


def test_unknown_kind_settled_by_the_counts_as_output_is_ok(ref: Reference) -> None:
    a = _run(ref, tok_s=100.0, **_COUNTS)
    assert a.status == "ok"


def test_unknown_kind_settled_by_the_counts_as_total_is_flagged(ref: Reference) -> None:
    assert _run(ref, tok_s=600.0, **_COUNTS).status == "flag"


def test_tiny_prompt_makes_the_readings_indistinguishable(ref: Reference) -> None:
    a = _run(ref, tok_s=1000.0, input_tokens=1, output_tokens=2000, wall_seconds=2.0)
    assert a.status == "ok"
    assert "too small" in a.summary


def test_unknown_kind_without_counts_is_unanswerable(ref: Reference) -> None:
    a = _run(ref, tok_s=2103.6)
    assert a.status == "unanswerable"
    assert "tok_s_kind" in a.missing and "input_tokens" in a.missing


def test_unknown_kind_that_matches_neither_reading_is_unanswerable(ref: Reference) -> None:
    a = _run(ref, tok_s=140.0, **_COUNTS)
    assert a.status == "unanswerable"
    assert a.missing == ["tok_s_kind"]


def test_prefill_speed_is_not_applicable(ref: Reference) -> None:
    assert _run(ref, tok_s=5000.0, tok_s_kind="prefill").status == "n/a"


# The vLLM bench-serve fixture's run: 80 requests of 1024 in / 256 out, 20480 output tokens in
# 42.1734 s (tests/fixtures/vllm_bench/llama31_8b_eagle3_conc4.json).
_RUN: dict[str, Any] = {"input_tokens": 1024, "output_tokens": 256, "tokens_generated": 20480,
                        "wall_seconds": 42.1734, "concurrency": 4}


def test_run_totals_are_divided_by_the_run_time_not_per_request_counts(ref: Reference) -> None:
    """Per-request tokens over the whole run's time gave 6.07 tok/s; the run's totals give the
    reported 485.6."""
    a = _run(ref, tok_s=485.614, tok_s_kind="aggregate", **_RUN)
    assert a.status == "ok" and "matches output tokens ÷ time" in a.summary
    assert a.figures["output_tok_s"] == 485.61 and a.figures["total_tok_s"] == 2428.07


def test_run_total_token_throughput_quoted_as_speed_is_flagged(ref: Reference) -> None:
    a = _run(ref, post="Llama 8B does 2428 tok/s on vLLM", tok_s=2428.07, **_RUN)
    assert a.status == "flag" and "matches input + output ÷ time" in a.summary
    assert a.figures["total_tok_s"] == 2428.07
