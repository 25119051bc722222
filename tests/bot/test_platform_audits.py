"""Roofline ceilings beyond GPUs, from a pasted line to Q7: CPU-only decode (bandwidth = channels
× 64 bit × transfer rate) and Apple unified memory."""

from __future__ import annotations

import pytest

from bot.pipeline import audit_inputs
from checks.reference import Reference


@pytest.mark.parametrize(("text", "card", "bandwidth", "status", "ratio"), [
    # 12 channels × 64 bit ÷ 8 × 4800 MT/s = 460.8 GB/s; 25 ÷ (460.8 ÷ 4.01 GB) = 0.22
    ("Llama 3.1 8B Q4_K_M on an EPYC 9654, CPU only: 25 tok/s", "AMD EPYC 9004 (Genoa)", 460.8,
     "ok", 0.218),
    # 2 channels × 64 bit ÷ 8 × 5600 MT/s = 89.6 GB/s
    ("Llama 3.1 8B Q4_K_M on a Ryzen 9 9950X, CPU only, batch 1: 12 tok/s", "AMD Ryzen 9 9950X",
     89.6, "ok", 0.538),
    # 512-bit LPDDR5X-8533 = 546 GB/s
    ("Llama 3.1 8B Q4_K_M on an M4 Max: 60 tok/s", "Apple M4 Max", 546.0, "ok", 0.441),
    # A dense 70B at 35.3 GB cannot stream 10 tok/s from 89.6 GB/s without a method nobody named.
    ("Llama 3.1 70B Q4_K_M on a Ryzen 9 9950X, CPU only: 10 tok/s", "AMD Ryzen 9 9950X", 89.6,
     "flag", 3.94),
])
def test_cpu_and_apple_claims_are_bounded_by_their_memory_bandwidth(
        ref: Reference, text: str, card: str, bandwidth: float, status: str, ratio: float) -> None:
    report = audit_inputs([text], ref)
    q7 = report.question("roofline")
    assert report.hardware_name == card
    assert q7.status == status
    assert q7.figures["bandwidth_gbs"] == pytest.approx(bandwidth)
    assert q7.figures["ratio"] == pytest.approx(ratio, abs=0.01)
