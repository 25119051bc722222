"""llama.cpp's -ngl / --n-gpu-layers: how many layers sit on the card (the rest are offloaded)."""

from __future__ import annotations

import pytest

from extractors.text.launch import parse_launch_command


@pytest.mark.parametrize(("command", "layers"), [
    ("llama-server -m Llama-3.1-70B-Q4_K_M.gguf -ngl 60 -c 8192", 60),
    ("llama-cli -m model.gguf --n-gpu-layers 0", 0),
    ("llama-server -m model.gguf --gpu-layers=30", 30),
])
def test_llama_cpp_gpu_layers_are_read(command: str, layers: int) -> None:
    c = parse_launch_command(command)
    assert c.gpu_layers == layers and c.provenance["gpu_layers"].span is not None


def test_ngl_on_a_vllm_command_is_not_read() -> None:
    assert parse_launch_command("vllm serve meta-llama/Llama-3.1-8B -ngl 10").gpu_layers is None
