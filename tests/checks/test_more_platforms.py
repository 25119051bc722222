"""CPU, APU and virtual-machine names as LocalScore's client writes them (d893a/localscore-insights
@a4f81747b3e6 assets/localscore_results.tsv `accel_name` / `system_cpu`), each resolved to a
platform row whose bandwidth is channels × bus width × the highest rate the vendor supports.

A virtual machine ("DO-Premium-Intel (skylake-avx512)", QEMU's "Intel Core Processor (Haswell, no
TSX)") reads memory through its host, never faster than all of the host's channels: its bound is
the most generous server host of that vendor."""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence
from checks.reference import Reference
from checks.runner import audit


@pytest.mark.parametrize(("name", "row", "gbs"), [
    ("HUAWEI Kirin 990", "HiSilicon Kirin 990", 34.1),  # 4 × 16 bit × LPDDR4X-4266
    ("ZHAOXIN KaiXian KX-U6780A@2.7GHz", "Zhaoxin KaiXian KX-6000 / KX-U6000", 51.2),
    ("AMD FX(tm)-8320 Eight-Core Processor (bdver2)", "AMD FX (AM3+, Piledriver)", 29.9),
    ("AMD Ryzen 7 PRO 6860Z with Radeon Graphics (znver3)", "AMD Ryzen 6000 / 7035 mobile (Rembrandt)", 102.4),
    ("AMD Ryzen Embedded R1505G with Radeon Vega Gfx (znver2)", "AMD Ryzen Embedded R1000 / V1000", 51.2),
    ("Intel Core2 Duo CPU     L9400  @ 1.86GHz", "Intel Core 2 mobile (Penryn, Montevina)", 17.1),
    ("AMD Custom APU 0932 (znver2)", "Valve Steam Deck APU (Aerith, Sephiroth)", 102.4),  # Steam Deck OLED
    ("AMD Custom APU 0405", "Valve Steam Deck APU (Aerith, Sephiroth)", 102.4),  # the LCD model, read at the OLED's
    ("DO-Premium-AMD (znver2)", "virtual machine on an AMD server host (Zen or later)", 1228.8),
    ("AMD EPYC Processor (with IBPB)", "virtual machine on an AMD server host (Zen or later)", 1228.8),
    ("DO-Premium-Intel (skylake-avx512)", "virtual machine on an Intel server host (Haswell or later)", 4505.6),
    ("Intel Core Processor (Haswell, no TSX) (haswell)", "virtual machine on an Intel server host (Haswell or later)",
     4505.6),
    ("Intel Xeon Processor (Cascadelake)", "virtual machine on an Intel server host (Haswell or later)", 4505.6),
])
def test_a_part_resolves_to_its_platform(ref: Reference, name: str, row: str, gbs: float) -> None:
    hw = ref.gpu(name)
    assert hw is not None and (hw.name, hw.kind, hw.bandwidth_gbs) == (row, "cpu", gbs)


@pytest.mark.parametrize(("name", "row"), [
    ("AMD EPYC 7763 64-Core Processor", "AMD EPYC 7003 (Milan)"),  # a real part is never a guest
    ("Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz", "Intel Xeon Scalable gen 1 (Skylake-SP)"),
    # a Scalable part without its tier: the first digit is the tier, the second the generation
    ("Xeon 6454S", "Intel Xeon Scalable gen 4 (Sapphire Rapids)"),
    ("Xeon 6530", "Intel Xeon Scalable gen 5 (Emerald Rapids)"),
    ("Xeon 4310", "Intel Xeon Scalable gen 3 (Ice Lake-SP, Cooper Lake)"),
    ("Xeon 6980P", "Intel Xeon 6900P (Granite Rapids-AP)"),
    ("Intel Core i7-4770 CPU @ 3.40GHz (haswell)",
     "Intel Core 3rd-5th gen and Xeon E3 v2-v4 (Ivy Bridge, Haswell, Broadwell; DDR3)"),
])
def test_a_named_part_keeps_its_own_row(ref: Reference, name: str, row: str) -> None:
    hw = ref.gpu(name)
    assert hw is not None and hw.name == row


def test_a_generic_igpu_name_stays_unresolved(ref: Reference) -> None:
    """'AMD Radeon Graphics' is also what ROCm calls a discrete card it has no name for: LocalScore
    rows give it 32 GB beside an Intel Core i9-14900K host, which has no Radeon. The host's
    platform would be no bound for it."""
    assert ref.gpu("AMD Radeon Graphics") is None


@pytest.mark.parametrize(("tok_s", "verdict"), [(42.5, "consistent"), (8000.0, "implausible")])
def test_a_virtual_machine_is_judged_at_its_most_generous_host(ref: Reference, tok_s: float, verdict: str) -> None:
    """LocalScore row shape: Llama 3.2 1B Q4_K - Medium on 'DO-Premium-Intel (skylake-avx512)'."""
    c = Claim(hardware="DO-Premium-Intel (skylake-avx512)", model="Llama 3.2 1B Instruct", params_total_b=1.2,
              weight_format="Q4_K - Medium", tok_s=tok_s, tok_s_kind="decode", batch=1, concurrency=1,
              speculative=False, engine="llamafile")
    report = audit(Evidence(claim=c), ref)
    q7 = report.question("roofline")
    assert report.verdict == verdict
    assert q7.figures["bandwidth_gbs"] == pytest.approx(4505.6)
    assert any("a virtual machine: bounded by the most generous Intel server host" in str(b.states)
               for b in q7.basis)


@pytest.mark.parametrize("name", ["Framework Mainboard (128GB)", "Framework Mainboard", "Framework Desktop Mainboard"])
def test_a_bare_framework_mainboard_is_read_as_the_most_generous_one(ref: Reference, name: str) -> None:
    """geerlingguy/ollama-benchmark@51afb229ebaa README's 'System: Framework Mainboard (128GB)': the
    Desktop's Strix Halo board (256 GB/s) bounds every mainboard Framework sells."""
    hw = ref.gpu(name)
    assert hw is not None and (hw.kind, hw.bandwidth_gbs) == ("unified", 256.0)


def test_a_xeon_6_number_is_never_read_as_a_scalable_part(ref: Reference) -> None:
    # "6530P" is a Xeon 6 (Granite Rapids-SP) number, a platform the table does not hold
    assert ref.gpu("Xeon 6530P") is None


@pytest.mark.parametrize(("name", "sockets"), [
    ("Intel Xeon CPU E5-1650 v4 @ 3.60GHz (broadwell)", 1),
    ("Xeon E5-2683 v4", 2),
    ("Intel Xeon CPU E5-2697 v2 @ 2.70GHz (ivybridge)", 2),
    ("Intel Xeon CPU E5-2670 0 @ 2.60GHz (sandybridge)", 2),
    ("Xeon E5-4669 v4", 4),
])
def test_an_e5_part_number_says_how_many_sockets_it_takes(ref: Reference, name: str, sockets: int) -> None:
    # Intel ARK's 'Max CPU Configuration': 1 for every E5-1xxx, 2 for every E5-2xxx, 4 for every
    # E5-4xxx. The family's 4 read for an E5-2683 v4 doubled its generous ceiling.
    hw = ref.gpu(name)
    assert hw is not None and hw.max_sockets == sockets


def test_a_two_socket_part_bounds_its_ceiling_at_two_sockets(ref: Reference) -> None:
    claim = Claim(model="Llama 3 70B", hardware="Xeon E5-2683 v4", weight_format="IQ4_XS", batch=1,
                  tok_s_kind="decode", speculative=False, tok_s=13.9)
    answer = audit(Evidence(claim=claim), ref).question("roofline")
    # 2 × 76.8 GB/s over 70.55B × 4 bits: 4.35 tok/s, which 13.9 is 3.2× (at 4 sockets, 1.6×).
    assert answer.status == "stop"
    assert answer.figures["bandwidth_gbs"] == pytest.approx(153.6)
