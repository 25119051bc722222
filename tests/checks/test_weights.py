"""checks/physics/weights.py: where a claim's model size comes from, and that an inferred one says so."""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence, Provenance
from checks.physics.figures import Derived, Missing
from checks.physics.weights import (
    INFERRED_NOTE,
    generous_weight_gb,
    params_per_token,
    resident_weight_gb,
    resolve_format,
)
from checks.reference import Reference
from checks.render import basis_lines
from checks.rules.acceptance import acceptance
from checks.rules.roofline import roofline


def _inferred(notes: tuple[str, ...]) -> bool:
    return any(n.startswith(INFERRED_NOTE) for n in notes)


def _claim(**kw: object) -> Claim:
    base: dict[str, object] = {"hardware": "RTX 3090", "hardware_count": 1, "batch": 1,
                               "tok_s": 20.0, "tok_s_kind": "decode", "speculative": False}
    base.update(kw)
    return Claim(**base)


def test_a_size_in_the_name_is_used_when_no_row_matches_and_is_reported_inferred(ref: Reference) -> None:
    claim = _claim(model="Yi 34B Chat", weight_format="Q4_K_M")
    assert ref.model(claim.model) is None
    params = params_per_token(claim, None)
    assert isinstance(params, Derived)
    assert params.value == 34
    assert "model size inferred from the name 'Yi 34B Chat', not from a reference row" in params.notes
    assert any("inferred from the name 'Yi 34B Chat' ('34B')" in b for b in params.basis)
    gb = generous_weight_gb(claim, None, resolve_format(claim, ref))
    assert isinstance(gb, Derived)
    assert gb.value == pytest.approx(34 * 4 / 8)  # Q4_K_M nominal 4 bits
    assert _inferred(gb.notes)


def test_an_moe_name_gives_its_active_params(ref: Reference) -> None:
    claim = _claim(model="Foo-80B-A5B", weight_format="BF16")
    params = params_per_token(claim, None)
    assert isinstance(params, Derived)
    assert params.value == 5
    assert _inferred(params.notes)
    assert "('80B-A5B')" in params.basis[0]


def test_the_claims_own_params_beat_the_name(ref: Reference) -> None:
    claim = _claim(model="Yi 34B", params_total_b=34.4,
                   provenance={"params_total_b": Provenance(source="record", field="params")})
    params = params_per_token(claim, None)
    assert isinstance(params, Derived)
    assert params.value == 34.4
    assert not _inferred(params.notes)


def test_an_extractor_inferred_size_is_said_to_be_inferred(ref: Reference) -> None:
    claim = _claim(model="Llama 3 70B", params_total_b=70.0, size_inferred=True)
    params = params_per_token(claim, None)
    assert isinstance(params, Derived)
    assert params.value == 70
    assert _inferred(params.notes)
    assert "inferred from the name 'Llama 3 70B'" in params.basis[-1]


def test_the_file_size_beats_the_name_and_is_reported_inferred(ref: Reference) -> None:
    claim = _claim(model="Yi 34B", model_size_bytes=20.66e9, weight_format="Q4_K_M")
    gb = resident_weight_gb(claim, None, resolve_format(claim, ref))
    assert isinstance(gb, Derived)
    assert gb.value == pytest.approx(20.66)
    assert gb.notes == ("model size inferred from the record's file size, not from a reference row",)


def test_a_row_is_not_inferred(ref: Reference) -> None:
    claim = _claim(model="Llama 3 70B", weight_format="BF16")
    row = ref.model(claim.model)
    params = params_per_token(claim, row)
    assert isinstance(params, Derived)
    assert params.value == 70.55
    assert not _inferred(params.notes)


def test_no_name_size_and_no_row_is_still_missing(ref: Reference) -> None:
    missing = params_per_token(_claim(model="my-finetune"), None)
    assert isinstance(missing, Missing) and missing.what == ("model size (params or file size)",)


def test_roofline_answers_an_unknown_model_from_its_name_and_says_so(ref: Reference) -> None:
    # 34B at a generous 4 bits = 17 GB per token on a 936 GB/s RTX 3090: ceiling 55.1 tok/s
    ev = Evidence(claim=_claim(model="Yi 34B Chat", weight_format="Q4_K_M", tok_s=20.0))
    a = roofline(ev, ref, {"acceptance": acceptance(ev, ref, {})})
    assert a.status == "ok"
    assert a.figures["ceiling_tok_s"] == pytest.approx(936 / 17, abs=0.1)
    assert "model size inferred from the name 'Yi 34B Chat'" in a.summary
    assert "34B params inferred from the name 'Yi 34B Chat' ('34B'); no reference row matches" in a.lines()


@pytest.mark.parametrize(("fmt", "gb"), [("BF16", 5.71 * 4 / 8), ("Q8_0", 5.71 * 4 / 8), ("MXFP4", 5.71 * 4 / 8)])
def test_gpt_oss_is_read_at_its_native_mxfp4_bits_whatever_wider_label_a_build_has(
        ref: Reference, fmt: str, gb: float) -> None:
    claim = Claim(model="gpt-oss-120b", weight_format=fmt)
    model = ref.model("gpt-oss-120b")
    got = generous_weight_gb(claim, model, resolve_format(claim, ref))
    assert isinstance(got, Derived) and got.value == pytest.approx(gb)
    assert fmt == "MXFP4" or any("released in MXFP4" in b for b in basis_lines(got.basis))


def test_a_model_without_a_native_format_keeps_the_claimed_bits(ref: Reference) -> None:
    claim = Claim(model="Llama 3.1 8B", weight_format="BF16")
    got = generous_weight_gb(claim, ref.model("Llama 3.1 8B"), resolve_format(claim, ref))
    assert isinstance(got, Derived) and got.value == pytest.approx(8.03 * 16 / 8)


@pytest.mark.parametrize(("fmt", "bits", "assumed"), [
    ("Q8", 8.0, False), ("q6", 6.0, False), ("8-bit", 8.0, False), ("int4", 4.0, False),
    ("Q4", 4.0, False),
    # GGUF-shaped names the table lacks read their base bits: Unsloth's dynamic quants,
    # ik_llama.cpp's own types, repacked ARM types
    ("UD-Q2_K_XL", 2.0, False), ("Q3_K_XL", 3.0, False), ("IQ2_KS", 2.0, False), ("IQ4_KSS", 4.0, False),
    ("IQ1_KT", 1.0, False), ("Q4_0_4_4", 4.0, False), ("UD-IQ1_S", 1.0, False),
    ("Q9", 4.0, True), ("Q1", 4.0, True), ("Q9_K", 4.0, True), ("weird", 4.0, True),  # no bits a format has: 4-bit assumed
])
def test_a_format_named_by_its_bits_alone_is_read_at_those_bits(ref: Reference, fmt: str, bits: float,
                                                                assumed: bool) -> None:
    # "Llama 3 70B Q8" had been judged at 4-bit (35 GB) while its headline said "Q8 weights"
    got = resolve_format(Claim(model="Llama 3 70B", weight_format=fmt, tok_s=10.0), ref)
    assert (got.nominal_bits, got.assumed) == (bits, assumed)


def test_q3_k_m_is_read_at_its_file_bits(ref: Reference) -> None:
    # llama-quantize lists Q3_K_M at 3.74 GiB on Llama-3-8B (8.0306e9 params): 4.0014 bits/weight;
    # it had been missing, and read at an assumed 4 bits
    got = resolve_format(Claim(weight_format="Q3_K - Medium"), ref)
    assert (got.name, got.nominal_bits, got.effective_bits, got.assumed) == ("Q3_K_M", 3.0, 4.0014, False)


@pytest.mark.parametrize("fmt", ["fp32", "FP32", "float32", "F32", "32-bit"])
def test_fp32_streams_four_bytes_a_weight(ref: Reference, fmt: str) -> None:
    # premAI-io/benchmarks' Llama-2-7B rows "fp32" had been read at an assumed 4 bits (3.4 GB):
    # at 27.0 GB an A100 80GB's 2039 GB/s allows 75.6 tok/s, so a ×10 fake (366.5) was consistent
    got = resolve_format(Claim(weight_format=fmt), ref)
    assert (got.name, got.nominal_bits, got.assumed) == ("FP32", 32.0, False)


@pytest.mark.parametrize(("fmt", "base"), [("IQ1_S_R4", "IQ1_S"), ("Q4_K_R4", "Q4_K"), ("IQ4_XS_R8", "IQ4_XS")])
def test_a_row_interleaved_type_is_its_base_types_bytes(ref: Reference, fmt: str, base: str) -> None:
    row = ref.format(fmt)
    assert row is not None and row.name == base
