"""Where the weights live: card memory, and the share an offloaded run keeps in system memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim
from checks.physics import (
    PLATFORM_BANDWIDTH,
    Missing,
    card_memory_gb,
    offload_split,
    resolve_format,
    says_offload,
)
from checks.reference import Reference
from tests.checks.test_physics import extra_ref


@pytest.fixture
def xref(tmp_path: Path) -> Reference:
    return extra_ref(tmp_path)


@pytest.mark.parametrize(("kind", "channels", "sockets"),
                         [("consumer", 2, 1), ("workstation", 8, 1), ("datacenter", 12, 2)])
def test_platform_bandwidth_is_channels_times_64_bit_times_6400_mts(kind: str, channels: int, sockets: int) -> None:
    gbs, how, source = PLATFORM_BANDWIDTH[kind]
    assert gbs == pytest.approx(sockets * channels * 64 * 6400 / 8 / 1000)  # 102.4 / 409.6 / 1228.8
    assert "DDR5-6400" in how and source.startswith("https://")


def test_card_memory_reads_gib_times_count(xref: Reference) -> None:
    hw = xref.gpu("RTX 3090")
    assert hw is not None and card_memory_gb(hw, 2) == pytest.approx(2 * 24 * 2**30 / 1e9)  # 51.5 GB


@pytest.mark.parametrize(("fields", "said"), [
    ({"offload": True}, True), ({"system_ram_gb": 64.0}, True), ({"system_bandwidth_gbs": 89.6}, True),
    ({"gpu_layers": 60}, True), ({"gpu_layers": 80}, False), ({"gpu_layers": 99}, False),
    ({}, False), ({"offload": False, "system_ram_gb": 64.0}, False),
])
def test_what_says_offload(xref: Reference, fields: dict[str, object], said: bool) -> None:
    claim = Claim(model="Llama-3.1-70B", **fields)
    assert says_offload(claim, xref.model("Llama-3.1-70B")) is said


def test_a_fitting_model_with_offload_said_has_no_split(xref: Reference) -> None:
    c = Claim(model="Llama-3.1-8B", weight_format="Q4_K_M", hardware="RTX 3090", offload=True)
    hw = xref.gpu("RTX 3090")
    assert hw is not None
    assert offload_split(c, hw, xref.model(c.model), resolve_format(c, xref)) is None


def test_unified_memory_has_no_offload(xref: Reference) -> None:
    c = Claim(model="Llama-3.1-70B", weight_format="BF16", hardware="Apple M2 Max", offload=True)
    hw = xref.gpu("Apple M2 Max")
    assert hw is not None
    assert offload_split(c, hw, xref.model(c.model), resolve_format(c, xref)) is None


def test_an_unsized_model_cannot_be_split(xref: Reference) -> None:
    c = Claim(model="NoSuchModel", hardware="RTX 3090", offload=True)
    hw = xref.gpu("RTX 3090")
    assert hw is not None
    split = offload_split(c, hw, None, resolve_format(c, xref))
    assert isinstance(split, Missing) and split.what == ("total params",)


@pytest.mark.parametrize(("fields", "fraction"), [
    # Kimi K2's 1026B at one bit a weight (the fewest any format stores) is 128.3 GB, past one
    # H100's 80 GiB = 85.9 GB: offloaded at any format, the spill read at that smallest size.
    ({"model": "Kimi K2", "hardware": "H100 SXM", "hardware_count": 1}, (128.25 - 85.90) / 128.25),
    # a 70B at one bit (8.75 GB) fits one H100: with the format unstated a small quant might fit
    ({"model": "Llama 3.1 70B", "hardware": "H100 SXM", "hardware_count": 1}, None),
    # no count stated on a datacenter card: it may be one of eight, nothing is offloaded
    ({"model": "Kimi K2", "hardware": "H100 SXM"}, None),
])
def test_weights_past_the_cards_at_every_format_are_offloaded(ref: Reference, fields: dict[str, object],
                                                              fraction: float | None) -> None:
    c = Claim(**fields)
    hw = ref.gpu(c.hardware)
    assert hw is not None
    split = offload_split(c, hw, ref.model(c.model), resolve_format(c, ref))
    if fraction is None:
        assert split is None
    else:
        assert not isinstance(split, Missing) and split is not None
        assert split.system_fraction == pytest.approx(fraction, rel=1e-3)
