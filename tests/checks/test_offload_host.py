"""A card run's host CPU, named beside the card, bounds what an offloaded run reads from system
memory (checks/physics/offload.py, extractors/text/cards.py `host`).

The shape is ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/548 as the calibration
corpus writes a row: the post's rig ("- CPU: Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz(20c, 40t) x2",
"- GPU: NVIDIA GeForce RTX 4060Ti 8G") and a sweep-bench row of Qwen3-30B-A3B Q8_0 run with
`-ot exps=CPU` (30.5 GB of weights, 8 GB on the card).
"""

from __future__ import annotations

import pytest

from checks.models import Report
from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local

_RIG = ("(rig named in the post: Because I have a nvidia GPU(RTX 4060Ti) with 8G VRAM on my PC, so I compiled "
        "ik_llama.cpp with the cuda backend, and run with -ot exps=CPU to offload experts(ffn_down_exps, "
        "ffn_up_exps, gate_exps) to CPU. {cpu}- GPU: NVIDIA GeForce RTX 4060Ti 8G.)")
_ROW = ("ik_llama.cpp, Benchmark / ik_llama.cpp cuda backed (Model: Qwen3-30B-A3B-Q8_0) (main: n_kv_max = "
        "16384, n_batch = 2048, n_ubatch = 512, flash_attn = 1, n_gpu_layers = 48, n_threads = 16, "
        "n_threads_batch = 16) {rig}: PP: 512; TG: 128; N_KV: 0; T_PP s: 2.308; S_PP t/s: 221.84; "
        "T_TG s: {t}; S_TG t/s: {tg}")
_XEON = "- CPU: Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz(20c, 40t) x2. "


def _audit(ref: Reference, cpu: str, t: str, tg: str) -> Report:
    text = _ROW.format(rig=_RIG.format(cpu=cpu), t=t, tg=tg)
    return audit(build_evidence([read_document(read_local(InputSpec("text", text)), ref)], ref), ref)


@pytest.mark.parametrize(("t", "tg", "status", "verdict"), [
    ("6.463", "19.81", "ok", "consistent"),  # the post's own figure: 0.22 of the host-bound ceiling
    ("0.6463", "198.1", "stop", "implausible"),  # the same ×10
])
def test_the_named_host_bounds_the_offloaded_share(ref: Reference, t: str, tg: str, status: str,
                                                   verdict: str) -> None:
    report = _audit(ref, _XEON, t, tg)
    assert report.claim.hardware == "RTX 4060 Ti"
    assert report.claim.host == "Xeon Gold 6138"
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == (status, verdict)
    # Skylake-SP: 6 channels × 64 bit ÷ 8 × 2666 MT/s DDR4 = 128 GB/s per socket, × 2 sockets.
    assert q7.figures["system_bandwidth_gbs"] == pytest.approx(256.0)
    f = q7.figures["system_fraction"]
    assert q7.figures["ceiling_tok_s"] == pytest.approx(1 / (3.0 * (1 - f) / 288 + 3.0 * f / 256), rel=1e-6)


def test_no_host_named_reads_the_most_generous_host(ref: Reference) -> None:
    report = _audit(ref, "", "0.6463", "198.1")
    assert report.claim.host is None
    q7 = report.question("roofline")
    assert q7.figures["system_bandwidth_gbs"] == pytest.approx(1228.8)  # 2 × 12-channel DDR5-6400
    assert q7.status == "ok"


def test_two_cpus_name_no_host(ref: Reference) -> None:
    report = _audit(ref, "- CPU: Xeon Gold 6138 or an EPYC 9355. ", "0.6463", "198.1")
    assert report.claim.host is None
