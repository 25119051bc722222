"""The packaged reference tables (checks/data/*.json) and the user-file merge of checks/reference.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from checks.reference import (
    TABLES,
    HardwareRow,
    ModelRow,
    Reference,
    ReferenceError,
    _Row,
    load_reference,
    normalise_name,
)

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# "512-bit bus / 8 x 28 Gbps GDDR7", "1024-bit bus / 8 x 6.4 GT/s LPDDR5"
DERIVATION = re.compile(r"(\d+)-bit\b.*?\bx\s*([\d.]+)\s*(?:Gbps|GT/s)")
PEAK_KEYS = {"bf16", "fp8", "fp4", "int8"}


def all_rows(ref: Reference) -> Iterator[tuple[str, _Row]]:
    for table in TABLES:
        for row in ref.table(table):
            yield table, row


def _gpu(ref: Reference, name: str) -> HardwareRow:
    """The hardware row a test names; one that is missing fails here, not as an AttributeError."""
    row = ref.gpu(name)
    assert row is not None, name
    return row


def _model(ref: Reference, name: str) -> ModelRow:
    """The model row a test names; one that is missing fails here, not as an AttributeError."""
    row = ref.model(name)
    assert row is not None, name
    return row


def a_gpu(name: str, **fields: object) -> dict[str, object]:
    row: dict[str, object] = {
        "name": name,
        "kind": "consumer",
        "memory_gb": 24,
        "bandwidth_gbs": 1000,
        "tdp_w": 300,
        "source": "test fixture",
        "checked": "2026-11-29",
    }
    row.update(fields)
    return row


# ---- the packaged tables ------------------------------------------------------------------------


def test_packaged_tables_load(ref: Reference) -> None:
    assert ref.origin == ["packaged checks/data"]
    assert len(ref.hardware) >= 120
    assert len(ref.models) >= 45
    assert len(ref.formats) >= 40
    assert len(ref.methods) >= 10
    assert {b.name for b in ref.power_bands} == {"consumer", "workstation", "datacenter", "unified"}


def test_every_row_names_its_source_and_date(ref: Reference) -> None:
    for table, row in all_rows(ref):
        assert row.source.strip(), f"{table}: {row.name} has no source"
        assert DATE.match(row.checked), f"{table}: {row.name} checked={row.checked!r}"
    for method in ref.methods:
        for p in method.published_als:
            assert p.source.strip(), f"{method.name}: AL {p.al} has no source"
    for model in ref.models:
        for fmt, recipe in model.recipes.items():
            assert recipe.source.strip(), f"{model.name}: recipe {fmt} has no source"


def test_unverified_lists_only_real_fields(ref: Reference) -> None:
    for table, row in all_rows(ref):
        for field in row.unverified:
            assert field == "*" or field in type(row).model_fields, (
                f"{table}: {row.name}: {field!r}"
            )


def test_no_alias_maps_to_two_rows(ref: Reference) -> None:
    for table in TABLES:
        seen: dict[str, str] = {}
        for row in ref.table(table):
            for spelling in [row.name, *row.aliases]:
                key = normalise_name(spelling)
                assert key, f"{table}: {spelling!r} ({row.name}) normalises to nothing"
                assert seen.setdefault(key, row.name) == row.name, (
                    f"{table}: {spelling!r} means both {seen[key]} and {row.name}"
                )


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("NVIDIA GeForce RTX 4090", "RTX 4090"),  # nvidia-smi / LocalScore
        ("NVIDIA GeForce RTX 3090", "RTX 3090"),
        ("5090", "RTX 5090"),
        ("RTX 4080 SUPER", "RTX 4080 SUPER"),
        ("h100", "H100 SXM"),  # InferenceX hardware id; a bare H100 is the SXM card
        ("H100", "H100 SXM"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM"),
        ("H100-SXM5-80GB", "H100 SXM"),
        ("NVIDIA H100 PCIe", "H100 PCIe"),
        ("h200", "H200 SXM"),
        ("NVIDIA H200", "H200 SXM"),
        ("b200", "B200"),
        ("b300", "B300"),
        ("gb200", "GB200"),
        ("mi300x", "MI300X"),
        ("AMD Instinct MI355X", "MI355X"),
        ("A100", "A100 80GB SXM"),
        ("NVIDIA A100-SXM4-40GB", "A100 40GB SXM"),
        ("M3 Ultra", "Apple M3 Ultra"),
        ("Mac Studio M3 Ultra", "Apple M3 Ultra"),
        ("Apple M4 Max", "Apple M4 Max"),
        ("GB10", "DGX Spark (GB10)"),
        ("NVIDIA DGX Spark", "DGX Spark (GB10)"),
        ("Ryzen AI Max+ 395", "Strix Halo (Ryzen AI Max+ 395)"),
        ("Intel Arc B580 Graphics", "Intel Arc B580"),
        ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000 Blackwell"),
    ],
)
def test_gpu_spellings_resolve(ref: Reference, spelling: str, expected: str) -> None:
    row = ref.gpu(spelling)
    assert row is not None, spelling
    assert row.name == expected


def test_m4_ultra_is_not_a_row(ref: Reference) -> None:
    # Apple never shipped an M4 Ultra; llmfit's "m4 ultra = 819" (AlexsJones/llmfit@3f44fd3
    # llmfit-core/src/hardware.rs) is wrong.
    assert ref.gpu("M4 Ultra") is None
    assert "M4 Ultra" in (_gpu(ref, "M3 Ultra").notes or "")


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("Meta Llama 3.1 8B Instruct", "Llama 3.1 8B"),  # LocalScore
        ("meta-llama/Llama-3.1-8B-Instruct", "Llama 3.1 8B"),
        ("llama 8B", "Llama 3.1 8B"),  # llama.cpp model type
        ("Llama-3.3-70B-Instruct-FP8", "Llama 3.1 70B"),  # InferenceX display name
        ("DeepSeek-R1-0528", "DeepSeek V3"),
        ("dsr1", "DeepSeek V3"),
        ("gpt-oss-120b", "gpt-oss-120b"),
        ("Qwen3-8B", "Qwen3 8B"),
        ("qwen3 8B", "Qwen3 8B"),
        ("qwen2 7B", "Qwen2.5 7B"),
        ("Qwen-3.5-397B-A17B", "Qwen3.5 397B-A17B"),
        ("Qwen/Qwen3.5-27B", "Qwen3.6-27B"),
        ("Qwen3-30B-A3B", "Qwen3 30B-A3B"),
    ],
)
def test_model_spellings_resolve(ref: Reference, spelling: str, expected: str) -> None:
    row = ref.model(spelling)
    assert row is not None, spelling
    assert row.name == expected


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("Q4_K - Medium", "Q4_K_M"),  # llama-bench / LocalScore model_type
        ("q4_k_m", "Q4_K_M"),
        ("Q2_K - Medium", "Q2_K"),
        ("fp8_e4m3", "FP8"),
        ("W8A8", "INT8 W8A8"),
        ("awq", "W4A16 g128"),
        ("gptq", "W4A16 g128"),
        ("bfloat16", "BF16"),
        ("float16", "BF16"),
        ("fp16", "BF16"),
        ("mxfp4", "MXFP4"),
        ("modelopt_fp4", "NVFP4"),
    ],
)
def test_format_spellings_resolve(ref: Reference, spelling: str, expected: str) -> None:
    row = ref.format(spelling)
    assert row is not None, spelling
    assert row.name == expected


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("DFLASH", "DFlash"),
        ("dflash", "DFlash"),
        ("EAGLE", "EAGLE"),
        ("eagle3", "EAGLE-3"),
        ("EAGLE3", "EAGLE-3"),
        ("NEXTN", "MTP"),
        ("deepseek_mtp", "MTP"),
        ("qwen3_next_mtp", "MTP"),
        ("NGRAM", "n-gram"),
        ("prompt lookup", "n-gram"),
        ("STANDALONE", "Draft model (SpS)"),
        ("draft_model", "Draft model (SpS)"),
        ("medusa", "Medusa"),
        ("suffix", "Suffix decoding"),
    ],
)
def test_method_spellings_resolve(ref: Reference, spelling: str, expected: str) -> None:
    row = ref.method(spelling)
    assert row is not None, spelling
    assert row.name == expected


def test_bandwidth_matches_its_derivation(ref: Reference) -> None:
    checked = 0
    for gpu in ref.hardware:
        m = DERIVATION.search(gpu.bandwidth_derivation or "")
        if not m:
            continue
        bits, rate = int(m.group(1)), float(m.group(2))
        derived = bits / 8 * rate
        assert derived == pytest.approx(gpu.bandwidth_gbs, rel=0.01), (
            f"{gpu.name}: {derived} vs {gpu.bandwidth_gbs}"
        )
        checked += 1
    assert checked >= 25


def test_dense_peaks_rise_as_precision_falls(ref: Reference) -> None:
    for gpu in ref.hardware:
        peak = gpu.peak_tflops
        assert set(peak) <= PEAK_KEYS, gpu.name
        present = [peak[k] for k in ("bf16", "fp8", "fp4") if k in peak]
        assert present == sorted(present), f"{gpu.name}: {peak}"


def test_every_card_with_a_board_power_has_a_power_band(ref: Reference) -> None:
    for gpu in ref.hardware:
        if gpu.tdp_w is not None:
            assert ref.power_band(gpu) is not None, gpu.name
    for band in ref.power_bands:
        assert 0 < band.low < band.high <= 1.0, band.name


def test_apple_socs_have_no_board_power(ref: Reference) -> None:
    apple = [g for g in ref.hardware if g.name.startswith("Apple")]
    assert len(apple) >= 5
    assert all(g.tdp_w is None and g.kind == "unified" for g in apple)


def test_rtx_5090_is_1792_gbs_and_575_w(ref: Reference) -> None:
    gpu = ref.gpu("RTX 5090")
    assert gpu is not None
    assert gpu.bandwidth_gbs == 1792
    assert gpu.tdp_w == 575
    assert gpu.memory_gb == 32
    assert gpu.peak_tflops["fp4"] == 1676  # 3352 sparse / 2
    assert not gpu.unverified


def test_recalled_figures_are_marked_unverified(ref: Reference) -> None:
    # Figures recalled but not checked against a source ship only as unverified.
    assert not _gpu(ref, "Apple M2 Max").is_verified("peak_tflops")
    assert not _gpu(ref, "RTX A4000").is_verified("tdp_w")
    assert not _gpu(ref, "MI355X").is_verified("peak_tflops")
    assert not _model(ref, "Llama 2 13B").is_verified("params_total_b")
    assert _model(ref, "GLM-4.7").is_verified("params_total_b")  # read in the 4.7 config
    assert _gpu(ref, "H100 SXM").is_verified("bandwidth_gbs")


@pytest.mark.parametrize(("name", "peaks"), [
    # Dense tensor peaks checked against public sources on 2026-12-01 (each row's source): SMs ×
    # boost clock × the architecture's dense ops per SM per clock, or the vendor's figure; where
    # sources differ the higher is kept, and figures are rounded up, never down.
    ("RTX 3070", {"bf16": 81.3, "int8": 162.6}),
    ("RTX 3080", {"bf16": 119.1, "int8": 238.1}),
    ("RTX 3080 Ti", {"bf16": 136.4, "int8": 272.8}),
    ("RTX 3090", {"bf16": 142.4, "int8": 284.7}),
    ("RTX 3090 Ti", {"bf16": 160.0, "int8": 320.0}),
    ("RTX 4070 Ti", {"bf16": 160.4, "fp8": 320.7, "int8": 320.7}),
    ("RTX 4080", {"bf16": 195.0, "fp8": 390.0, "int8": 390.0}),
    ("RTX 4090", {"bf16": 330.4, "fp8": 660.7, "int8": 660.7}),
    ("RTX 5080", {"bf16": 225.1, "fp8": 450.2, "fp4": 900.5}),
    ("RTX A6000", {"bf16": 154.8, "int8": 309.7}),
    ("RTX 4000 Ada", {"bf16": 106.91, "fp8": 213.81, "int8": 213.81}),  # above NVIDIA's 163.8
    ("RTX 5000 Ada", {"bf16": 261.12, "fp8": 522.24, "int8": 522.24}),
    ("RTX 6000 Ada", {"bf16": 368.6, "fp8": 737.2, "int8": 737.2}),  # at the higher 2535 MHz boost
    ("A40", {"bf16": 149.7, "int8": 299.34}),
    ("Intel Arc B580", {"int8": 233}),  # Intel's figure, above the 2670 MHz derivation (218.7)
    ("Apple M1", {"bf16": 11.0}),  # the Neural Engine's 11 TOPS, above the GPU's 2 × 2.6
    ("Apple M1 Max", {"bf16": 20.8}),
    ("Apple M3 Max", {"bf16": 32.8}),
    ("Intel Xeon 5th Gen (Emerald Rapids)", {"bf16": 262.1, "int8": 524.3}),
])
def test_checked_peaks_are_verified(ref: Reference, name: str, peaks: dict[str, float]) -> None:
    row = _gpu(ref, name)
    assert row.peak_tflops == peaks
    assert row.is_verified("peak_tflops")


@pytest.mark.parametrize(("part", "peaks"), [
    ("Ryzen 9 7950X", {"bf16": 11.67, "int8": 23.35}),  # 16 × 5.7 GHz × 4 pipes of 256 bits
    ("Xeon 6980P", {"bf16": 511.2, "int8": 1022.4}),  # 128 × 3.9 GHz × AMX
])
def test_checked_platform_peaks_are_verified(ref: Reference, part: str,
                                             peaks: dict[str, float]) -> None:
    row = _gpu(ref, part)  # resolved through the platform table
    assert row.kind == "cpu"
    assert row.peak_tflops == peaks
    assert row.is_verified("peak_tflops")


def test_qwen36_27b_is_27_8b_dense(ref: Reference) -> None:
    model = ref.model("Qwen3.6-27B")
    assert model is not None
    assert model.params_total_b == 27.8
    assert model.moe is False
    assert model.params_active_b is None
    assert model.recipes["NVFP4"].gb_per_token == pytest.approx(17.61)


def test_kv_bytes_match_the_gqa_arithmetic(ref: Reference) -> None:
    for m in ref.models:
        if m.kv_heads and m.head_dim and m.kv_layers:
            assert m.kv_bytes_per_token_bf16 == 2 * m.kv_layers * m.kv_heads * m.head_dim * 2, (
                m.name
            )
    assert _model(ref, "DeepSeek V3").kv_bytes_per_token_bf16 == (512 + 64) * 61 * 2


def test_model_params_are_consistent(ref: Reference) -> None:
    for m in ref.models:
        assert m.streamed_b is not None and m.streamed_b <= m.params_total_b, m.name
        if m.moe:
            assert m.params_active_b is not None and m.params_active_b < m.params_total_b, m.name
        else:
            assert m.params_active_b is None, m.name
        if m.layers and m.kv_layers:
            assert m.kv_layers <= m.layers, m.name


def test_formats_name_a_peak_family_and_never_shrink(ref: Reference) -> None:
    for f in ref.formats:
        assert f.family in PEAK_KEYS, f.name
        assert f.effective_bits >= f.nominal_bits, f.name
    q4km = ref.format("Q4_K_M")
    assert q4km is not None and (q4km.nominal_bits, q4km.effective_bits) == (4, 4.8944)


def test_every_published_al_fits_its_window(ref: Reference) -> None:
    for method in ref.methods:
        for p in method.published_als:
            assert p.al >= 1, f"{method.name}: {p}"
            if p.window is not None:
                assert p.al <= p.window, f"{method.name}: AL {p.al} > window {p.window}"


def test_every_method_has_an_official_al_or_says_why_not(ref: Reference) -> None:
    for method in ref.methods:
        if not method.official_als():
            assert "official" in (method.notes or "").lower(), method.name


def test_dflash_official_als_give_the_seed_honest_range(ref: Reference) -> None:
    # The honest range: low = ceiling x 0.6 x lowest official AL, high = ceiling x highest official AL;
    # for the seed (1792 GB/s / 13.9 GB) this is about 340-700 tok/s.
    dflash = ref.method("DFlash")
    assert dflash is not None
    official = dflash.official_als()
    assert sorted(official) == [4.39, 4.79, 5.28, 5.46]
    ceiling = 1792 / 13.9
    assert ceiling * 0.6 * min(official) == pytest.approx(340, abs=5)
    assert ceiling * max(official) == pytest.approx(704, abs=5)
    best = dflash.best_published_al()
    assert best is not None and best.al == 8.24
    assert dflash.published_windows == [8, 16]


# ---- a user's own file merged over the packaged tables ------------------------------------------


def write(tmp_path: Path, data: object, name: str = "mine.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_user_file_replaces_a_row_by_name_and_adds_new_ones(ref: Reference, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {
            "hardware": [
                a_gpu("RTX 5090", memory_gb=32, bandwidth_gbs=1700, tdp_w=600, source="my card"),
                a_gpu("My Lab Card", aliases=["labcard"], bandwidth_gbs=500),
            ]
        },
    )
    merged = load_reference(path)
    assert merged.origin == ["packaged checks/data", str(path)]
    assert len(merged.hardware) == len(ref.hardware) + 1
    replaced = merged.gpu("GeForce RTX 5090")
    assert replaced is not None and replaced.bandwidth_gbs == 1700 and replaced.source == "my card"
    assert _gpu(merged, "labcard").name == "My Lab Card"
    # the row keeps its place; other tables are untouched
    assert [g.name for g in merged.hardware].index("RTX 5090") == [
        g.name for g in ref.hardware
    ].index("RTX 5090")
    assert merged.models == ref.models


def test_later_user_files_win(tmp_path: Path) -> None:
    first = write(tmp_path, {"hardware": [a_gpu("Box", bandwidth_gbs=100)]}, "a.json")
    second = write(tmp_path, {"hardware": [a_gpu("Box", bandwidth_gbs=200)]}, "b.json")
    assert _gpu(load_reference(first, second), "Box").bandwidth_gbs == 200


def test_invalid_json_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '{"hardware": [ {"name": "x", }')
    with pytest.raises(ReferenceError, match=re.escape(str(path))) as exc:
        load_reference(path)
    assert "not valid JSON" in str(exc.value)


def test_unknown_table_names_the_file_and_the_table(tmp_path: Path) -> None:
    path = write(tmp_path, {"gpus": []})
    with pytest.raises(ReferenceError, match=re.escape(str(path))) as exc:
        load_reference(path)
    assert "gpus" in str(exc.value)


def test_row_without_source_names_the_file_and_the_field(tmp_path: Path) -> None:
    row = a_gpu("No Source Card")
    del row["source"]
    path = write(tmp_path, {"hardware": [row]})
    with pytest.raises(ReferenceError, match=re.escape(str(path))) as exc:
        load_reference(path)
    assert "hardware[0]" in str(exc.value)
    assert "'source'" in str(exc.value)


def test_published_al_without_source_is_rejected(tmp_path: Path) -> None:
    method = {
        "name": "My Method",
        "window_convention": "draft tokens + 1",
        "published_als": [{"task": "GSM8K", "al": 3.0, "official": True}],
        "source": "me",
        "checked": "2026-11-29",
    }
    path = write(tmp_path, {"methods": [method]})
    with pytest.raises(ReferenceError, match="published_als.0.source"):
        load_reference(path)


def test_missing_file_is_a_reference_error(tmp_path: Path) -> None:
    with pytest.raises(ReferenceError, match="cannot read reference file"):
        load_reference(tmp_path / "nope.json")


# ---- names as boards write them -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("Apple M4 Max 12P+4E+40GPU", "Apple M4 Max"),  # mlx benchmark hardware string
        ("Apple M4 Max (14-core CPU, 32-core GPU)", "Apple M4 Max"),
        ("Apple M1", "Apple M1"),  # AccelMark
        ("Apple M4 Pro 14-core", "Apple M4 Pro"),
        ("Tesla V100-PCIE-32GB", "V100 PCIe 32GB"),  # nvidia-smi
        ("Tesla V100S-PCIE-32GB", "V100S PCIe 32GB"),
        ("Tesla T4", "T4"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM"),
        ("NVIDIA H20-3e", "H20-3e"),
        ("NVIDIA H20", "H20"),
        ("NVIDIA H20 GPU", "H20"),  # no memory named: the card whose own name needs none
        ("NVIDIA H20 141GB GPU", "H20-3e"),
        ("NVIDIA A100-SXM4 GPU", "A100 80GB SXM"),  # bin not named: the faster, as a bare A100
        ("A100 SXM4 40GB GPU", "A100 40GB SXM"),
        ("NVIDIA A800-SXM4-80GB", "A800 SXM4 80GB"),
        ("NVIDIA A100-SXM4-40GB", "A100 40GB SXM"),
        ("NVIDIA A100 40GB", "A100 40GB SXM"),  # memory size picks between same-named rows
        ("AMD Instinct MI300X", "MI300X"),
        ("google_tpu_v6e", "TPU v6e"),
        ("Google TPU v5e", "TPU v5e"),
        ("NVIDIA GeForce RTX 4090 D", "RTX 4090 D"),
        ("NVIDIA GeForce RTX 4060 Ti 16GB", "RTX 4060 Ti 16GB"),
        ("RTX 5070", "RTX 5070"),
        ("NVIDIA GeForce RTX 4090 Laptop GPU", "RTX 4090 Laptop"),
        ("2080 Ti", "RTX 2080 Ti"),
        ("AMD Radeon RX 7900 XTX", "RX 7900 XTX"),
        ("NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada"),
        ("NVIDIA RTX A6000", "RTX A6000"),
        ("Huawei Ascend 910B2", "Ascend 910B"),
        ("Huawei Ascend Ascend910", "Ascend 910B"),  # npu-smi's family name on 64 GB boards
        ("MTT S4000", "MTT S4000"),
        ("AMD Ryzen AI MAX+ 395 w/ Radeon 8060S", "Strix Halo (Ryzen AI Max+ 395)"),
        ("AMD EPYC 9654 96-Core Processor", "AMD EPYC 9004 (Genoa)"),  # AccelMark cpu.model
        ("AMD EPYC 7532 32-Core Processor", "AMD EPYC 7002 (Rome)"),
        ("AMD EPYC 7B13", "AMD EPYC 7003 (Milan)"),
        ("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", "Intel Xeon 2nd Gen (Cascade Lake)"),
        ("Intel(R) Xeon(R) Platinum 8368 CPU @ 2.40GHz", "Intel Xeon 3rd Gen (Ice Lake)"),
        ("INTEL(R) XEON(R) PLATINUM 8558", "Intel Xeon 5th Gen (Emerald Rapids)"),
    ],
)
def test_board_spellings_resolve_to_their_row(ref: Reference, spelling: str, expected: str) -> None:
    row = ref.gpu(spelling)
    assert row is not None and row.name == expected, (spelling, row and row.name)


@pytest.mark.parametrize(
    ("spelling", "not_this"),
    [
        ("NVIDIA GeForce RTX 4090 D", "RTX 4090"),  # a different product, not a 4090
        ("NVIDIA GeForce RTX 4090 Laptop GPU", "RTX 4090"),  # the laptop part has its own 256-bit bus
        ("Apple M4", "Apple M4 Max"),
        ("Apple M4 Max", "Apple M4"),
        ("RTX 4060 Ti 16GB", "RTX 4060 Ti"),
        ("RTX 5090 D", "RTX 5090"),
        ("H100 NVL", "H100 SXM"),
        ("NVIDIA A100 40GB", "A100 80GB SXM"),
    ],
)
def test_a_shorter_name_never_matches_inside_a_longer_product(
    ref: Reference, spelling: str, not_this: str
) -> None:
    row = ref.gpu(spelling)
    assert row is None or row.name != not_this


@pytest.mark.parametrize(
    "spelling", ["M4 Ultra", "RTX 4070 Ti Laptop GPU", "NVIDIA A100 120GB", "MI60", "Apple M5 Max"]
)
def test_products_without_a_row_find_nothing(spelling: str) -> None:
    # The curated table alone: behind it the GPU database answers some of these (MI60, the
    # 4070 Ti laptop part), marked as database rows (tests/checks/test_hardware_names.py).
    assert load_reference(database=False).gpu(spelling) is None


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("Qwen/Qwen2.5-0.5B-Instruct", "Qwen2.5 0.5B"),  # AccelMark model ids
        ("mlx-community/Qwen2.5-0.5B-Instruct-bf16", "Qwen2.5 0.5B"),
        ("meta-llama/Meta-Llama-3-8B-Instruct", "Llama 3 8B"),
        ("meta-llama/Meta-Llama-3-70B-Instruct", "Llama 3 70B"),
        ("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16", "Llama 3.1 8B"),
        ("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8", "Llama 3.1 8B"),
        ("mistralai/Mixtral-8x7B-Instruct-v0.1", "Mixtral 8x7B"),
        ("bartowski/Qwen2.5-Coder-32B-Instruct-GGUF", "Qwen2.5 32B"),
        ("unsloth/gemma-3-27b-it-GGUF", "Gemma 3 27B"),
        ("Qwen3-30B-A3B-Q4_K_M", "Qwen3 30B-A3B"),
        ("mistral 7b instruct", "Mistral 7B"),
        ("Phi-4 14B", "Phi-4"),
    ],
)
def test_hf_ids_and_quant_suffixes_resolve(ref: Reference, spelling: str, expected: str) -> None:
    row = ref.model(spelling)
    assert row is not None and row.name == expected, (spelling, row and row.name)


@pytest.mark.parametrize(
    ("spelling", "not_this"),
    [("Llama 3.1 70B", "Llama 3 70B"), ("Qwen3-8B", "Qwen2.5 7B"), ("Llama-3.2-3B", "Llama 3 8B")],
)
def test_a_model_name_never_matches_another_generation(
    ref: Reference, spelling: str, not_this: str
) -> None:
    row = ref.model(spelling)
    assert row is not None and row.name != not_this


def _linear_find(rows: list[_Row], name: str) -> _Row | None:
    """The lookup before the index: re-normalise every row per query, first exact match wins."""
    key = normalise_name(name)
    for row in rows:
        if key == normalise_name(row.name) or key in (normalise_name(a) for a in row.aliases):
            return row
    return None


@pytest.mark.parametrize(
    ("table", "lookup"),
    [("hardware", "gpu"), ("models", "model"), ("formats", "format"), ("methods", "method")],
)
def test_index_answers_every_name_and_alias_as_the_linear_scan_did(
    ref: Reference, table: str, lookup: str
) -> None:
    rows = ref.table(table)
    spellings = [s for row in rows for s in (row.name, *row.aliases)]
    find = getattr(ref, lookup)
    assert spellings
    for spelling in spellings:
        assert find(spelling) is _linear_find(rows, spelling), spelling


def test_index_is_built_once_and_survives_a_copy(ref: Reference) -> None:
    import pickle

    again = pickle.loads(pickle.dumps(ref))
    assert again.gpu("Apple M4 Max 12P+4E+40GPU") == ref.gpu("M4 Max")
    assert again.model("Qwen/Qwen2.5-0.5B-Instruct") == ref.model("Qwen2.5 0.5B")


def test_an_override_row_is_indexed_too(tmp_path: Path) -> None:
    f = tmp_path / "ref.json"
    f.write_text(json.dumps({"hardware": [a_gpu("Test Card 9000", aliases=["TC9K"])]}), encoding="utf-8")
    ref = load_reference(f)
    assert _gpu(ref, "NVIDIA Test Card 9000 24GB").name == "Test Card 9000"
    assert _gpu(ref, "tc9k").name == "Test Card 9000"


# ---- CPU-only, unified-memory and SRAM rows -----------------------------------------------------


def test_cpu_row_derives_its_bandwidth_from_channels_width_and_rate(ref: Reference) -> None:
    cpu = ref.gpu("EPYC 9654")
    assert cpu is not None and cpu.kind == "cpu"
    assert cpu.bandwidth_derivation == "768-bit bus (12 channels of 64 bits) / 8 x 4.8 GT/s DDR5-4800"
    assert cpu.bandwidth_gbs == pytest.approx(12 * 64 / 8 * 4.8)  # 460.8 GB/s
    desktop = ref.gpu("Ryzen 9 9950X")
    assert desktop is not None and desktop.bandwidth_gbs == pytest.approx(2 * 64 / 8 * 5.6)
    assert desktop.tdp_w is None  # a CPU's TDP says nothing about decode power


def test_every_cpu_row_writes_out_its_channel_arithmetic(ref: Reference) -> None:
    cpus = [h for h in ref.hardware if h.kind == "cpu"]
    assert len(cpus) >= 8
    for cpu in cpus:
        m = re.match(r"(\d+)-bit bus \((\d+) channels of 64 bits\) / 8 x ([\d.]+) GT/s", cpu.bandwidth_derivation or "")
        assert m, cpu.name
        bits, channels, rate = int(m.group(1)), int(m.group(2)), float(m.group(3))
        assert bits == channels * 64
        assert cpu.bandwidth_gbs == pytest.approx(bits / 8 * rate, rel=0.001), cpu.name
        assert "channels" in (cpu.notes or ""), cpu.name


@pytest.mark.parametrize(
    ("chip", "bandwidth", "bus_bits", "rate"),
    [("Apple M1", 68.25, 128, 4.266), ("Apple M2", 102.4, 128, 6.4), ("Apple M3 Pro", 153.6, 192, 6.4),
     ("Apple M4", 120, 128, 7.5), ("Apple M4 Pro", 273, 256, 8.533)],
)
def test_apple_rows_match_their_bus_arithmetic(
    ref: Reference, chip: str, bandwidth: float, bus_bits: int, rate: float
) -> None:
    row = ref.gpu(chip)
    assert row is not None and row.kind == "unified" and row.tdp_w is None
    assert row.bandwidth_gbs == bandwidth
    assert row.bandwidth_derivation is not None and row.bandwidth_derivation.startswith(f"{bus_bits}-bit bus / 8 x {rate} GT/s")
    assert bus_bits / 8 * rate == pytest.approx(bandwidth, rel=0.01)


def test_apple_m_series_has_every_tier(ref: Reference) -> None:
    for gen in ("M1", "M2", "M3", "M4"):
        for tier in ("", " Pro", " Max"):
            assert ref.gpu(f"Apple {gen}{tier}") is not None, f"{gen}{tier}"
    for ultra in ("M1 Ultra", "M2 Ultra", "M3 Ultra"):
        assert ref.gpu(ultra) is not None, ultra


def test_sram_accelerators_say_the_roofline_does_not_apply(ref: Reference) -> None:
    for name in ("Groq LPU", "Cerebras WSE-3"):
        row = ref.gpu(name)
        assert row is not None and "SRAM" in (row.bandwidth_derivation or row.notes or "") + (row.notes or "")
        assert "roofline" in (row.notes or ""), name


def test_max_power_is_at_least_the_board_power_and_sourced(ref: Reference) -> None:
    with_limit = [h for h in ref.hardware if h.max_power_w is not None]
    assert len(with_limit) >= 20
    for h in with_limit:
        assert h.max_power_w is not None and h.tdp_w is not None, h.name
        assert h.max_power_w >= h.tdp_w, h.name
        assert "max_power_w" in h.source, h.name
    assert _gpu(ref, "RTX 4090").max_power_w == 600
    assert _gpu(ref, "RTX 3090").max_power_w == 500
    assert _gpu(ref, "RTX 3090 Ti").max_power_w == 550


def test_no_table_cites_an_internal_document() -> None:
    root = Path(__file__).resolve().parents[2]
    # (a public repository or organisation whose name ends in "-research/" is no internal folder)
    internal = re.compile(r"reference-data\.md|(?<![\w-])research/|SPEC §|SPEC section|leaderboards\.md|shared/")
    for path in [*(root / "checks" / "data").glob("*.json"), root / "docs" / "reference-data.md"]:
        text = path.read_text(encoding="utf-8")
        found = internal.search(text)
        assert found is None, f"{path.name}: {found.group(0)}"


def test_a_lookup_normalises_only_its_query(monkeypatch: pytest.MonkeyPatch) -> None:
    ref = load_reference()  # its own: the session's reference caches names it has resolved
    assert ref.gpu("RTX 3090") is not None  # a table is indexed on its first look-up
    index = ref._index["hardware"]
    real = index._normalise
    calls: list[str] = []

    def counting(s: str) -> str:
        calls.append(s)
        return real(s)

    monkeypatch.setattr(index, "_normalise", counting)
    assert _gpu(ref, "NVIDIA GeForce RTX 4090").name == "RTX 4090"
    assert calls == ["NVIDIA GeForce RTX 4090"]  # the rows were normalised when the table loaded


def test_names_and_aliases_are_sorted_once_and_handed_out_as_copies(ref: Reference) -> None:
    first = ref.names_and_aliases("hardware")
    first.clear()
    again = ref.names_and_aliases("hardware")
    assert len(again) == sum(1 + len(r.aliases) for r in ref.hardware)
    assert [len(a) for a, _ in again] == sorted((len(a) for a, _ in again), reverse=True)


def test_a_copy_with_other_rows_looks_up_its_own_rows(ref: Reference) -> None:
    only = ref.model_copy(update={"hardware": [r for r in ref.hardware if r.name == "RTX 3090"]})
    assert _gpu(only, "NVIDIA GeForce RTX 3090").name == "RTX 3090"
    assert _gpu(only, "RTX 4090").source_kind == "database"  # the curated row is gone from the copy
    assert _gpu(ref, "RTX 4090").source_kind == "curated"
    # the copy's names never leak into the original's (its private dicts were shared once)
    assert len(ref.names_and_aliases("hardware")) == sum(1 + len(r.aliases) for r in ref.hardware)


def test_an_sram_system_without_a_device_count_is_not_judged_on_one_chips_memory(ref: Reference) -> None:
    from checks.models import Claim, Evidence
    from checks.rules.fits_memory import fits_memory

    claim = Claim(model="Llama 3.3 70B", hardware="Groq", tok_s=1200.0, batch=1)
    a = fits_memory(Evidence(claim=claim), ref, {})
    assert a.status == "unanswerable" and a.missing == ["device count"]
    assert "Groq LPU systems spread a model over many devices' on-chip memory" in a.summary
    many = fits_memory(Evidence(claim=claim.model_copy(update={"hardware_count": 576})), ref, {})
    assert many.status == "ok"  # 35 GB of 4-bit weights over 576 x 0.23 GB


def _platform_row(name: str, match: list[str]) -> dict[str, object]:
    return {"name": name, "kind": "cpu", "match": match, "memory_gb": 64, "bandwidth_gbs": 50.0,
            "bandwidth_derivation": "2 channels x 64 bit / 8 x 3125 MT/s", "source": "test row",
            "checked": "2026-12-01"}


def test_a_user_platform_pattern_that_is_no_regex_fails_at_load(tmp_path: Path) -> None:
    # Platform patterns are compiled on the first CPU looked up; a user's own are tried at load.
    path = write(tmp_path, {"platforms": [_platform_row("Broken CPU", ["ryzen (9"])]})
    with pytest.raises(ReferenceError, match=re.escape(str(path))) as exc:
        load_reference(path, database=False)
    assert "platforms[0] field 'match': not a regular expression" in str(exc.value)


def test_a_copy_with_other_platforms_matches_its_own(tmp_path: Path) -> None:
    # The compiled patterns belong to one reference: a copy with other rows, made after the
    # original compiled its own, reads the copy's rows (and the original keeps its own).
    base = load_reference(write(tmp_path, {"platforms": [_platform_row("Made-up A", ["zzcpu a\\d"])]}),
                          database=False)
    row_a = base.gpu("zzcpu a1")
    assert row_a is not None and row_a.bandwidth_gbs == 50.0
    other = base.model_copy(update={"platforms": [
        base.platforms[-1].model_copy(update={"name": "Made-up B", "match": ["zzcpu b\\d"],
                                             "bandwidth_gbs": 70.0})]})
    row_b = other.gpu("zzcpu b1")
    assert row_b is not None and row_b.bandwidth_gbs == 70.0
    assert other.gpu("zzcpu a1") is None
    row_a_again = base.gpu("zzcpu a1")
    assert row_a_again is not None and row_a_again.bandwidth_gbs == 50.0
