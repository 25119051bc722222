"""Model names, MoE totals, BitNet formats and stated file sizes as people write them
(extractors/text/models.py, extractors/text/quants.py)."""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.text import parse_text
from extractors.text.quants import size_in_bytes


def claim(text: str, ref: Reference) -> Claim:
    return parse_text(RawDocument.from_text(text), ref).claim


@pytest.mark.parametrize(("text", "size", "span"), [
    ("BitNet b1.58 2B4T (IQ1_BN, 729.64 MiB) on an RTX 4090: 400 tok/s", 729.64 * 2**20, "729.64 MiB"),
    ("Llama 3 8B Q4_K_M, file size 4.58 GiB, on an RTX 3090: 120 tok/s", 4.58 * 2**30, "size 4.58 GiB"),
    ("| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 150.12 t/s |", 4.58 * 2**30, "4.58 GiB"),
    ("a 4.35 GiB GGUF of Qwen2.5 7B on a 3060: 40 tok/s", 4.35 * 2**30, "4.35 GiB GGUF"),
    ("Gemma 3 27B Q4_K_M: 17.28 GiB, 38 tok/s on an RTX 4090", 17.28 * 2**30, "17.28 GiB"),
    ("Gemma 3 27B at 38 tok/s on an RTX 4090, a 17.28 GiB file", 17.28 * 2**30, "17.28 GiB file"),
    ("Qwen2.5 32B Q4_K_M (19.85 GB) on a 3090: 30 tok/s", 19.85e9, "19.85 GB"),
    ("weights: 40 GB, Llama 3 70B Q4 on 2x 3090 at 17 tok/s", 40e9, "weights: 40 GB"),
    # right after the model's name, where it is a size a format could give its params
    ("Qwen2.5 7B (4.35 GiB) on RTX 3060: 60 tok/s", 4.35 * 2**30, "4.35 GiB"),
    ("Llama 3 8B, 16 GB, on an RTX 4090: 60 tok/s", 16e9, "16 GB"),
])
def test_a_stated_weight_size_is_the_footprint(ref: Reference, text: str, size: float, span: str) -> None:
    c = claim(text, ref)
    assert c.model_size_bytes == pytest.approx(size)
    assert c.provenance["model_size_bytes"].span == span


@pytest.mark.parametrize("text", [
    "Llama 3 8B Q4_K_M on an RTX 3090 24GB: 120 tok/s",
    "Qwen 32B Q4_K_M, 24GB VRAM: 30 tok/s",
    "Qwen 32B Q4_K_M, 24 GB of VRAM: 30 tok/s",
    "RTX 4090 (24 GB) with Llama 3 8B: 120 tok/s",
    "64GB RAM, Llama 3 70B q4: 3 tok/s",
    "VRAM size 24 GB, Llama 3 8B: 100 tok/s",
    "M4 Max 128 GB unified memory, Qwen3 32B 4bit: 20 tok/s",
    "Llama 3 8B Q8_0, 24GB card: 80 tok/s",
    "KV cache size: 2 GB, Llama 3 8B at 100 tok/s on a 4090",
    # 24 GB is 23.9 bits for each of Llama 3 8B's 8.03B params: no format's file, the card's memory
    "Llama 3 8B, 24 GB, RTX 4090: 100 tok/s",
    "Llama 3 70B (24 GB VRAM) on a 3090 at 10 tok/s",
])
def test_a_cards_or_machines_memory_is_no_file_size(ref: Reference, text: str) -> None:
    assert claim(text, ref).model_size_bytes is None


@pytest.mark.parametrize(("text", "fmt"), [
    ("BitNet b1.58 2B IQ1_BN on a Ryzen 9 7950X: 40 tok/s", "IQ1_BN"),
    ("bitnet-b1.58-2B-4T i2_s on an M2: 30 tok/s", "I2_S"),
    ("TriLM 3.9B TQ2_0 on an RTX 4090: 300 tok/s", "TQ2_0"),
    ("iq2_bn 3B BitNet on an RTX 4080: 368 tok/s", "IQ2_BN"),
    ("Llama 3 8B MLX 8bit on an M4 Max: 50 tok/s", "MLX 8-bit"),
    ("Llama 3 8B EXL2 on an RTX 3090: 100 tok/s", "EXL2"),
])
def test_bitnet_mlx_and_exl_formats_are_read_as_written(ref: Reference, text: str, fmt: str) -> None:
    assert claim(text, ref).weight_format == fmt


@pytest.mark.parametrize(("text", "model"), [
    ("llama3.1:70b on 2x RTX 3090: 17 tok/s", "Llama 3.1 70B"),
    ("ollama run qwen2.5:7b-instruct-q4_K_M on a 4090: 120 tok/s", "Qwen2.5 7B"),
    ("gemma2:9b on a 3060: 40 tok/s", "Gemma 2 9B"),
])
def test_an_ollama_tag_names_the_model(ref: Reference, text: str, model: str) -> None:
    assert claim(text, ref).model == model


def test_a_colon_after_a_family_in_a_sentence_is_no_tag(ref: Reference) -> None:
    assert claim("Llama 3: 50 tok/s on an RTX 3090", ref).model is None
    c = claim("distributed-llama on 4x RTX 3090: llama3_3_70b_instruct_q40 4.35 tokens/s", ref)
    assert c.model == "Llama 3.1 70B"  # the 3.3 row, whose alias table covers Llama 3.3 70B


@pytest.mark.parametrize(("text", "total", "active", "span"), [
    ("dots.llm1 142B total, 14B active, Q4_K_M on 4x RTX 3090: 40 tok/s", 142.0, 14.0,
     "142B total, 14B active"),
    ("a 14B active of 142B total MoE on 4x 3090: 40 tok/s", 142.0, 14.0,
     "14B active of 142B total"),
    ("dots.llm1 142B (A14B) Q4_K_M on 4x RTX 3090: 40 tok/s", 142.0, 14.0, "142B (A14B"),
    ("Hunyuan 80B total params, 13B activated params on 2x 4090: 30 tok/s", 80.0, 13.0,
     "80B total params, 13B activated"),
    # kvcache-ai/ktransformers doc/en/AMX.md writes the shape without its family or second B
    ("we run the large model (235B-A22) at 10 tok/s on a Core i9-14900KF + RTX 4090", 235.0,
     22.0, "235B-A22"),
])
def test_stated_moe_totals_set_total_active_and_moe(ref: Reference, text: str, total: float,
                                                    active: float, span: str) -> None:
    c = claim(text, ref)
    assert (c.params_total_b, c.params_active_b, c.is_moe) == (total, active, True)
    assert c.provenance["params_active_b"].span == span


@pytest.mark.parametrize(("value", "size"), [
    ("4.58 GiB", 4.58 * 2**30), ("729.64 MiB", 729.64 * 2**20), ("4.9 GB", 4.9e9), ("1.2TB", 1.2e12),
    (" 17.28 gib ", 17.28 * 2**30), ("4.58", None), ("24 GB VRAM", None), ("", None),
])
def test_a_size_with_its_unit_in_bytes(value: str, size: float | None) -> None:
    got = size_in_bytes(value)
    assert got == (pytest.approx(size) if size is not None else None)


def test_an_engine_name_is_no_weight_format(ref: Reference) -> None:
    assert claim("ExLlamaV2 on a 3090, Llama 2 7B GPTQ: 181 t/s", ref).weight_format == "W4A16 g128"


def test_the_headline_names_a_stated_size_as_stated(ref: Reference) -> None:
    r = audit(Evidence(claim=claim("Qwen2.5 7B (4.35 GiB) on RTX 3060: 60 tok/s", ref)), ref)
    # 360 GB/s ÷ 4.67 GB (4.35 GiB) = 77.1 tok/s
    assert r.headline.startswith("consistent — 60.0 tok/s is 0.78 of the generous batch-1 ceiling of one "
                                 "RTX 3060 (4.7 GB of weights, the stated size)")
