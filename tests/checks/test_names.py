"""checks/names.py: folding board spellings, and the index the reference tables are looked up in."""

from __future__ import annotations

import pytest

from checks.names import MAX_NAME, NameIndex, fold_hardware, fold_model
from checks.reference import Reference, normalise_name


@pytest.mark.parametrize(
    ("spelling", "key", "memory"),
    [
        ("Apple M4 Max 12P+4E+40GPU", "m4max", None),
        ("Apple M3 Max (14-core CPU, 30-core GPU)", "m3max", None),
        ("Tesla V100S-PCIE-32GB", "v100spcie", 32.0),
        ("NVIDIA H100 80GB HBM3", "h100", 80.0),
        ("NVIDIA A100 80 GB PCIe", "a100pcie", 80.0),  # the size written apart
        ("NVIDIA H20-3e", "h203e", None),  # '3e' is part of the product, not a core count
        ("NVIDIA GeForce RTX 4090 D", "rtx4090d", None),
        ("google_tpu_v6e", "tpuv6e", None),
        ("Huawei Ascend Ascend910", "ascend910", None),
        ("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", "xeongold6248", None),
    ],
)
def test_fold_hardware_drops_only_words_that_never_tell_products_apart(
    spelling: str, key: str, memory: float | None
) -> None:
    assert fold_hardware(spelling) == (key, memory)


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        ("mlx-community/Qwen2.5-0.5B-Instruct-bf16", "qwen2.50.5b"),
        ("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16", "llama3.18b"),
        ("unsloth/Qwen3-30B-A3B-GGUF:UD-Q4_K_XL", "qwen330ba3b"),
        ("Qwen2.5-Coder-32B-Instruct", "qwen2.5coder32b"),  # "Coder" stays: a different model line
        ("qwen2 7B Q4_K - Medium", "qwen27b"),  # llama-bench model_type
        ("Mistral-Small-24B-Instruct-2501", "mistralsmall24b2501"),  # "Small" is the model, not a quant
    ],
)
def test_fold_model_drops_owner_and_packaging(spelling: str, key: str) -> None:
    assert fold_model(spelling) == key


@pytest.mark.parametrize("spelling", ["NVIDIA GPU", "", "  ", "(R)(TM)", "32GB", "Apple"])
def test_a_name_of_only_generic_words_folds_to_nothing_and_finds_nothing(ref: Reference, spelling: str) -> None:
    assert fold_hardware(spelling)[0] == ""
    assert ref.gpu(spelling) is None


def test_folding_reads_at_most_max_name_characters() -> None:
    long = "RTX " + "9" * 100_000
    assert fold_hardware(long) == fold_hardware(long[:MAX_NAME])
    assert fold_model("x" * 100_000) == "x" * MAX_NAME


def test_an_index_without_folding_answers_only_exact_spellings(ref: Reference) -> None:
    index = NameIndex(ref.formats, normalise_name, None)
    assert index.find("q4_k_m").name == "Q4_K_M"
    assert index.find("unsloth Q4_K_M") is None
    assert index.folded == {}
