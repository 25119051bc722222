"""A decode timed after N tokens already sit in the KV cache (llama-sweep-bench `N_KV`,
llama-bench's "tg128 @ d4096") reads those N tokens' KV with every token: at batch 1 the generous
ceiling adds them at the smallest cache type any engine stores (checks/physics/kv.py depth_kv_gb).

Shapes: ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/357 (a sweep-bench row of
Qwen3-30B-A3B IQ4_XS, CPU-only on a Ryzen-7950X, as the calibration corpus writes it) and a
llama-bench row with a depth (ggml-org/llama.cpp tools/llama-bench `-d`).
"""

from __future__ import annotations

import pytest

from checks.models import Report
from checks.physics.kv import SMALLEST_KV_BYTES
from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local

_SWEEP = ("ik_llama.cpp, CPU-only performance (rig named in the post: Benchmarks are run on a Ryzen-7950X system "
          "with an RTX-4080 GPU. The custom IQ4_XS model is 15.4 GiB, so cannot be fully loaded on my 16 GB "
          "RTX-4080 GPU.) (model named in the post: I experimented with Qwen3-30B-A3B, the 30B total, 3B active "
          "parameter MoE model.): PP: 512; TG: 128; N_KV: {n_kv}; T_PP s: 23.937; S_PP t/s: 21.39; "
          "T_TG s: {t}; S_TG t/s: {tg}")


def _audit(ref: Reference, text: str) -> Report:
    return audit(build_evidence([read_document(read_local(InputSpec("text", text)), ref)], ref), ref)


# Qwen3-30B-A3B: 2 × 48 layers × 4 KV heads × 128 head dim × 2 B = 98304 B per token at BF16.
_KV_GB = 98304 / 2 * SMALLEST_KV_BYTES * 9216 / 1e9


@pytest.mark.parametrize(("t", "tg", "status"), [
    ("15.117", "8.47", "ok"),  # the post's own row
    ("1.5117", "84.7", "stop"),  # ×10: under the weights-only ceiling (85.3), above the KV-inclusive one
])
def test_kv_at_the_stated_depth_counts_in_the_batch1_ceiling(ref: Reference, t: str, tg: str,
                                                             status: str) -> None:
    report = _audit(ref, _SWEEP.format(n_kv=9216, t=t, tg=tg))
    assert report.claim.kv_depth == 9216
    q7 = report.question("roofline")
    assert q7.status == status
    weights = q7.figures["weights_gb"]
    # the Ryzen 7000 platform's generous 128 GB/s (2 × 64 bit × 8000 MT/s DDR5 kits)
    assert q7.figures["ceiling_tok_s"] == pytest.approx(q7.figures["bandwidth_gbs"] / (weights + _KV_GB), rel=1e-6)


def test_no_depth_no_kv(ref: Reference) -> None:
    q7 = _audit(ref, _SWEEP.format(n_kv=0, t="1.5117", tg="84.7")).question("roofline")
    assert q7.status == "ok"
    assert q7.figures["ceiling_tok_s"] == pytest.approx(q7.figures["bandwidth_gbs"] / q7.figures["weights_gb"])


def test_a_model_with_sliding_layers_gets_no_depth_kv(ref: Reference) -> None:
    # Gemma 3 slides 5 of 6 layers at 1024 tokens: a token at depth 32768 reads far less than
    # 32768 tokens' KV, so the depth adds nothing to its bound.
    row = ("| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
           "| gemma3 27B Q4_0 | 14.49 GiB | 27.01 B | CUDA | 99 | tg128 @ d32768 | 30.10 ± 0.02 |\n"
           "Gemma 3 27B on one RTX 4090.")
    report = _audit(ref, row)
    assert report.claim.kv_depth == 32768
    q7 = report.question("roofline")
    assert q7.figures["ceiling_tok_s"] == pytest.approx(1008 / (14.49 * 2**30 / 1e9), rel=1e-3)


def test_llama_bench_depth_is_read(ref: Reference) -> None:
    row = ("| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
           "| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 @ d4096 | 150.10 ± 0.02 |\n"
           "Llama 3.1 8B on one RTX 4090.")
    report = _audit(ref, row)
    assert report.claim.kv_depth == 4096
    q7 = report.question("roofline")
    kv = 131072 / 2 * SMALLEST_KV_BYTES * 4096 / 1e9  # Llama 3.1 8B: 131072 B/token at BF16
    assert q7.figures["ceiling_tok_s"] == pytest.approx(1008 / (4.58 * 2**30 / 1e9 + kv), rel=1e-3)
