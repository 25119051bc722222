"""Comparing two numbers: the difference table before any conclusion (seed §6)."""

from __future__ import annotations

from checks.compare import KNOBS, compare
from checks.models import Claim
from checks.reference import Reference


def _rtx(**fields: object) -> Claim:
    base: dict[str, object] = {
        "model": "Qwen3.6-27B",
        "weight_format": "NVFP4",
        "hardware": "RTX 5090",
        "hardware_count": 1,
        "engine": "vllm",
        "engine_version": "0.11.0",
        "batch": 1,
        "tok_s_kind": "decode",
        "power_profile": "575 W",
    }
    base.update(fields)
    return Claim(**base)


def _seed_pair() -> tuple[Claim, Claim]:
    """Seed §6: 65-74 tok/s vs 212.7 on the same hardware model, four knobs apart."""
    a = _rtx(
        tok_s=74.0, speculative=False, context_length=32768, prefix_caching=False, kv_dtype="fp8"
    )
    b = _rtx(
        tok_s=212.7,
        speculative=True,
        spec_method="DFlash",
        spec_window=8,
        context_length=4096,
        prefix_caching=True,
        kv_dtype="bf16",
        hardware="NVIDIA GeForce RTX 5090",
    )
    return a, b


def test_seed_pair_is_not_comparable_on_exactly_four_knobs(ref: Reference) -> None:
    c = compare(*_seed_pair(), ref)
    assert not c.comparable
    assert set(c.differing) == {"spec_method", "context_length", "prefix_caching", "kv_dtype"}
    assert c.conclusion.startswith("not comparable as they stand; differs on 4 knobs")


def test_window_of_a_side_without_spec_decoding_is_part_of_the_method_row(ref: Reference) -> None:
    rows = {r.knob: r for r in compare(*_seed_pair(), ref).rows}
    assert rows["spec_method"].status == "differs"
    assert rows["spec_window"].status == "unknown"
    assert rows["spec_window"].a == "none"


def test_two_spec_runs_at_different_windows_differ_on_the_window(ref: Reference) -> None:
    a = _rtx(speculative=True, spec_method="DFlash", spec_window=16)
    b = _rtx(speculative=True, spec_method="dflash", spec_window=56)
    assert compare(a, b, ref).differing == ["spec_window"]


def test_two_plain_decode_runs_have_the_same_window(ref: Reference) -> None:
    rows = {r.knob: r for r in compare(_rtx(speculative=False), _rtx(speculative=False), ref).rows}
    assert rows["spec_window"].status == "same"


def test_identical_setups_are_comparable(ref: Reference) -> None:
    c = compare(_rtx(tok_s=79.0, speculative=False), _rtx(tok_s=80.0, speculative=False), ref)
    assert c.comparable
    assert c.differing == []


def test_names_are_compared_through_reference_aliases(ref: Reference) -> None:
    a = _rtx(speculative=False, hardware="RTX 5090", weight_format="NVFP4")
    b = _rtx(speculative=False, hardware="NVIDIA GeForce RTX 5090", weight_format="nvfp4")
    rows = {r.knob: r for r in compare(a, b, ref).rows}
    assert rows["hardware"].status == "same"
    assert rows["weight_format"].status == "same"


def test_names_fold_without_a_reference_too() -> None:
    a = _rtx(speculative=False)
    b = _rtx(speculative=False, hardware="NVIDIA GeForce RTX-5090")
    assert {r.knob: r for r in compare(a, b).rows}["hardware"].status == "same"


def test_a_side_lacking_a_value_is_unknown_not_same(ref: Reference) -> None:
    a = _rtx(speculative=False, kv_dtype="fp8")
    b = _rtx(speculative=False)
    rows = {r.knob: r for r in compare(a, b, ref).rows}
    assert rows["kv_dtype"].status == "unknown"


def test_unknown_core_knob_is_not_comparable(ref: Reference) -> None:
    c = compare(_rtx(speculative=False, batch=None), _rtx(speculative=False), ref)
    assert not c.comparable
    assert c.differing == []
    assert c.conclusion.startswith("cannot tell")


def test_date_alone_does_not_break_comparability(ref: Reference) -> None:
    c = compare(
        _rtx(speculative=False, date="2026-01-10"), _rtx(speculative=False, date="2026-11-20"), ref
    )
    assert c.comparable
    assert "date" not in c.differing
    assert "Dates differ" in c.conclusion


def test_context_length_comes_from_input_plus_output(ref: Reference) -> None:
    a = _rtx(speculative=False, input_tokens=1024, output_tokens=1024)
    b = _rtx(speculative=False, context_length=2048)
    assert {r.knob: r for r in compare(a, b, ref).rows}["context_length"].status == "same"


def test_batch_comes_from_concurrency_when_batch_is_absent(ref: Reference) -> None:
    a = _rtx(speculative=False, batch=None, concurrency=8)
    b = _rtx(speculative=False, batch=1)
    c = compare(a, b, ref)
    assert "batch" in c.differing


def test_different_gpu_count_differs_on_hardware(ref: Reference) -> None:
    c = compare(_rtx(speculative=False, hardware_count=2), _rtx(speculative=False), ref)
    assert "hardware" in c.differing


def test_prefill_from_cache_counts_as_prefix_caching_on(ref: Reference) -> None:
    a = _rtx(speculative=False, prefix_caching=False)
    b = _rtx(speculative=False, prefill_cached=True)
    assert "prefix_caching" in compare(a, b, ref).differing


def test_gap_is_b_relative_to_a(ref: Reference) -> None:
    a, b = _seed_pair()
    c = compare(a, b, ref)
    assert c.figures["gap_pct"] == round((212.7 - 74.0) / 74.0 * 100, 1)


def test_one_experiment_per_differing_knob_and_no_attribution(ref: Reference) -> None:
    c = compare(*_seed_pair(), ref)
    assert len(c.experiments) == len(c.differing)
    for knob, exp in zip(c.differing, c.experiments, strict=False):
        assert exp.startswith(f"{knob}:")
    assert "not attributed to any one knob" in c.conclusion


def test_rows_use_the_exact_knob_names(ref: Reference) -> None:
    assert [r.knob for r in compare(*_seed_pair(), ref).rows] == list(KNOBS)
    assert KNOBS == (
        "hardware",
        "model",
        "weight_format",
        "kv_dtype",
        "engine",
        "engine_version",
        "spec_method",
        "spec_window",
        "context_length",
        "batch",
        "prefix_caching",
        "power_profile",
        "tok_s_kind",
        "date",
    )
