"""Sizes as written: BitNet, MLX and EXL2/EXL3 formats from the table, and a stated file size as the
weight footprint (checks/data/formats.json, checks/physics/weights.py)."""

from __future__ import annotations

import pytest

from checks.models import Claim, Provenance
from checks.physics.figures import GB, Derived
from checks.physics.weights import generous_weight_gb, realistic_weight_gb, resolve_format
from checks.reference import Reference


@pytest.mark.parametrize(("spelling", "name", "nominal", "effective"), [
    ("IQ1_BN", "IQ1_BN", 1, 1.625),
    ("iq2_bn", "IQ2_BN", 2, 2.0),
    ("i2_s", "I2_S", 2, 2.0),
    ("TQ1_0", "TQ1_0", 1, 1.6875),
    ("tq2_0", "TQ2_0", 2, 2.0625),
    ("MLX 2-bit", "MLX 2-bit", 2, 2.5),
    ("mlx 3bit", "MLX 3-bit", 3, 3.5),
    ("MLX 4-bit", "MLX 4-bit", 4, 4.5),
    ("MLX-6bit", "MLX 6-bit", 6, 6.5),
    ("mlx 8bit", "MLX 8-bit", 8, 8.5),
    ("EXL2", "EXL2", 2, 2.0),
    ("exl3", "EXL3", 1, 1.0),
    ("Q4_K_M", "Q4_K_M", 4, 4.8944),
    ("Q6_K", "Q6_K", 6, 6.5633),
])
def test_formats_have_their_bits(ref: Reference, spelling: str, name: str, nominal: float,
                                 effective: float) -> None:
    fmt = resolve_format(Claim(weight_format=spelling), ref)
    assert (fmt.name, fmt.nominal_bits, fmt.effective_bits) == (name, nominal, effective)
    assert fmt.row is not None and "recalled" not in fmt.row.source


@pytest.mark.parametrize(("fmt_name", "bpw"), [("EXL2", 4.65), ("EXL3", 3.0), ("exl2", 6.0)])
def test_a_stated_bpw_is_the_exl_formats_own(ref: Reference, fmt_name: str, bpw: float) -> None:
    claim = Claim(weight_format=fmt_name, bits_per_weight=bpw,
                  provenance={"bits_per_weight": Provenance(source="text", span=f"{bpw}bpw")})
    fmt = resolve_format(claim, ref)
    assert (fmt.nominal_bits, fmt.effective_bits) == (bpw, bpw)
    assert fmt.row is not None and fmt.row.bits_stated
    assert f"(text: \"{bpw}bpw\") = {bpw:g} bits per weight" in fmt.basis[0]


def test_a_fixed_format_keeps_its_bits_beside_a_stated_bpw(ref: Reference) -> None:
    fmt = resolve_format(Claim(weight_format="Q4_K_M", bits_per_weight=4.89), ref)
    assert (fmt.nominal_bits, fmt.effective_bits) == (4, 4.8944)


@pytest.mark.parametrize(("size_bytes", "gb"), [
    (729.64 * 2**20, 0.7651),  # BitNet b1.58 2B IQ1_BN, 729.64 MiB
    (4.58 * 2**30, 4.9177),  # Llama 3 8B Q4_K_M, 4.58 GiB (llama-bench's size column)
    (17.28 * 2**30, 18.5542),
    (4.58e9, 4.58),  # "4.58 GB" is decimal
])
def test_a_stated_file_size_is_the_footprint(ref: Reference, size_bytes: float, gb: float) -> None:
    claim = Claim(model="Llama 3 8B", weight_format="IQ1_BN", model_size_bytes=size_bytes,
                  provenance={"model_size_bytes": Provenance(source="text", span="size")})
    model = ref.model(claim.model)
    fmt = resolve_format(claim, ref)
    generous = generous_weight_gb(claim, model, fmt, ref)
    realistic = realistic_weight_gb(claim, model, fmt, ref)
    assert isinstance(generous, Derived) and isinstance(realistic, Derived)
    assert generous.value == pytest.approx(gb, abs=1e-4) == size_bytes / GB
    assert realistic.value == pytest.approx(gb, abs=1e-4)
    assert any("beats params × bits" in b for b in generous.basis)


def test_bitnet_without_a_file_size_is_not_read_as_four_bit(ref: Reference) -> None:
    claim = Claim(model="Llama 3 8B", weight_format="IQ1_BN")
    gb = generous_weight_gb(claim, ref.model(claim.model), resolve_format(claim, ref), ref)
    assert isinstance(gb, Derived)
    assert gb.value == pytest.approx(8.03 * 1 / 8)
    assert not gb.assumptions  # no 4-bit assumption
