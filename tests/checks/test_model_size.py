"""Sizes read from a model's name."""

from __future__ import annotations

import pytest

from checks.physics.model_size import size_from_name


@pytest.mark.parametrize(("name", "total", "active", "moe"), [
    ("Llama-3.1-8B-Instruct", 8.0, None, False),
    ("Llama 3 70B", 70.0, None, False),
    ("Qwen3-30B-A3B", 30.0, 3.0, True),
    ("Qwen3-235B-A22B-Instruct-2507", 235.0, 22.0, True),
    ("gemma-4-26B-A4B", 26.0, 4.0, True),
    ("Mixtral-8x7B-Instruct-v0.1", 56.0, None, True),
    ("mixtral 8x22b", 176.0, None, True),
    ("gpt-oss-120b", 120.0, None, False),
    ("Qwen2.5-0.5B-Instruct", 0.5, None, False),
    ("SmolLM2-360M", 0.36, None, False),
    ("phi-4 14B q4_k_m", 14.0, None, False),
])
def test_sizes_in_names(name: str, total: float, active: float | None, moe: bool) -> None:
    size = size_from_name(name)
    assert size is not None
    assert (size.total_b, size.active_b, size.is_moe) == (total, active, moe)


@pytest.mark.parametrize("name", [None, "", "DeepSeek-R1", "Qwen3-Coder", "llama3", "BF16", "4bit", "v0.1"])
def test_names_without_a_size(name: str | None) -> None:
    assert size_from_name(name) is None
