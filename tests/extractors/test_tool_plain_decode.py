"""What a tool implies: a llama-bench tg test cannot speculate, so its figure is plain decode.

The lines are the calibration corpus's shape of XiongjieDai/GPU-Benchmarks-on-LLM-Inference
(README, "tg 512" columns of llama-bench, ggml-org/llama.cpp tools/llama-bench/README.md: no
draft-model option). A x10 fake of one lands above the ceiling as `implausible`; an honest F16 row
at 0.91-0.93 of the generous ceiling stays `consistent`.
"""

from __future__ import annotations

import pytest

from checks.models import Evidence
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.text import parse_text

HEAD = ("llama.cpp on LLaMA 3, average speed in tokens/s (TG = text generation, PP = prompt "
        "processing), GPU-Benchmarks-on-LLM-Inference / LLaMA 3: / NVIDIA Gaming GPUs (OS: Ubuntu "
        "22.04.2 LTS, pytorch:2.2.0, py: 3.10, cuda: 12.1.1 on RunPod) (snapshots in May 2024), ")


def _ev(line: str, ref: Reference) -> Evidence:
    return Evidence(claim=parse_text(RawDocument.from_text(HEAD + line), ref).claim)


@pytest.mark.parametrize("line", ["tg 512, 4080 16GB, 8B Q4_K_M: 108.15 tokens/s",
                                  "tg1024, 3090 24GB, 8B F16: 46.51 tokens/s"])
def test_a_tg_test_row_is_plain_decode_with_its_basis(ref: Reference, line: str) -> None:
    c = _ev(line, ref).claim
    assert c.speculative is False
    assert c.provenance["speculative"].span is not None
    assert c.provenance["speculative"].span.endswith("a llama-bench decode test (no speculative decoding)")


@pytest.mark.parametrize("line", [
    "pp 512, 4080 16GB, 8B Q4_K_M: 5389.74 tokens/s",  # prompt processing: no decode figure
    "4080 16GB, 8B Q4_K_M: 108.15 tokens/s",  # no test named
    "tg 512 with speculative decoding (draft 1B), 4080 16GB, 8B Q4_K_M: 208.15 tokens/s",
])
def test_without_a_tg_decode_figure_plain_decode_is_not_implied(ref: Reference, line: str) -> None:
    assert _ev(line, ref).claim.speculative is not False


@pytest.mark.parametrize(("line", "factor", "verdict", "status"), [
    ("tg 512, 4080 16GB, 8B Q4_K_M: 108.15 tokens/s", 10, "implausible", "stop"),  # 5.3x the ceiling
    ("tg 512, 4080 16GB, 8B Q4_K_M: 108.15 tokens/s", 3, "implausible", "stop"),  # 1.6x
    ("tg 512, 4080 16GB, 8B Q4_K_M: 108.15 tokens/s", 1, "consistent", "ok"),  # 0.57
    # honest F16 decode at 0.91 of the generous ceiling: near it, never flagged
    ("tg 512, 4080 16GB, 8B F16: 40.58 tokens/s", 1, "consistent", "ok"),
    ("tg 512, RTX 4000 Ada 20GB, 8B F16: 20.92 tokens/s", 1, "consistent", "ok"),  # 0.93
    ("tg 512, RTX 4000 Ada 20GB, 8B F16: 20.92 tokens/s", 10, "implausible", "stop"),
])
def test_above_the_ceiling_a_tg_row_is_implausible_and_near_it_consistent(
        ref: Reference, line: str, factor: int, verdict: str, status: str) -> None:
    ev = _ev(line, ref)
    assert ev.claim.tok_s is not None
    ev = ev.model_copy(update={"claim": ev.claim.model_copy(update={"tok_s": ev.claim.tok_s * factor})})
    report = audit(ev, ref)
    assert (report.verdict, report.question("roofline").status) == (verdict, status)


@pytest.mark.parametrize(("line", "ratio"), [("tg 512, 4080 16GB, 8B F16: 40.58 tokens/s", 0.91),
                                             ("tg 512, RTX 4000 Ada 20GB, 8B F16: 20.92 tokens/s", 0.93)])
def test_an_honest_f16_row_near_the_ceiling_is_named_near_it(ref: Reference, line: str,
                                                            ratio: float) -> None:
    q7 = audit(_ev(line, ref), ref).question("roofline")
    assert q7.figures["ratio"] == pytest.approx(ratio, abs=0.005)
    assert "near the generous ceiling (above 0.9)" in q7.summary
