"""One stream on several cards under llama.cpp's default layer split: the cards are read one after
another, so the batch-1 ceiling is the weights over one card's bandwidth, not over their sum.

The claims are rows of XiongjieDai/GPU-Benchmarks-on-LLM-Inference's README tables as the corpus
reader gives them ("tg 128, RTX 4090 24GB * 8, 8B Q4_K_M: 122.56 tokens/s", llama.cpp's
llama-bench), and an ik_llama.cpp discussion's 16x3090 DeepSeek R1 row.
"""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence
from checks.physics.ceilings import bandwidth, layer_split
from checks.reference import Reference
from checks.runner import audit


def _row(tok_s: float, **kw: object) -> Claim:
    base: dict[str, object] = {"model": "Llama 3.1 8B", "weight_format": "Q4_K_M", "hardware": "RTX 4090",
                               "hardware_count": 8, "engine": "llama.cpp", "tok_s": tok_s,
                               "tok_s_kind": "decode", "speculative": False,
                               "launch_command": "llama.cpp's llama-bench"}
    base.update(kw)
    return Claim(**base)


@pytest.mark.parametrize(("tok_s", "verdict", "ratio"), [
    # 1008 GB/s ÷ 4.015 GB = 251.1 tok/s, whatever the card count: the x10 of an honest 115 tok/s
    (1150.0, "implausible", 1150.0 / (1008 / 4.015)),
    (115.0, "consistent", 115.0 / (1008 / 4.015)),  # the honest row, under half of it
])
def test_eight_cards_under_the_default_split_are_one_cards_bandwidth(ref: Reference, tok_s: float,
                                                                     verdict: str, ratio: float) -> None:
    report = audit(Evidence(claim=_row(tok_s)), ref)
    q7 = report.question("roofline")
    assert report.verdict == verdict
    assert q7.figures["bandwidth_gbs"] == 1008.0
    assert q7.figures["ceiling_tok_s"] == pytest.approx(1008 / 4.015)
    assert q7.figures["ratio"] == pytest.approx(ratio)
    assert any("default layer split" in b.states and "ggml-org/llama.cpp@" in b.states for b in q7.basis)


@pytest.mark.parametrize("kw", [
    {"launch_command": "./llama-bench -m llama3-8b.gguf -sm row -ngl 99"},  # row split stated
    {"launch_command": "llama-server --split-mode tensor"},
    {"notes": "tensor parallel over 8 GPUs"},
    {"engine": "vLLM", "launch_command": None},  # not a llama.cpp-family tool
    {"engine": None, "launch_command": None},  # the tool is unknown
    {"tok_s_kind": "aggregate"},  # not one stream
    {"batch": 8},
    {"hardware_count": 1},
    {"hardware": "EPYC 9355", "hardware_count": 2},  # two sockets of a CPU, no cards
    {"hardware": "2x RTX 5090 + 2x RTX 4090", "hardware_count": 4},  # a mixed rig: shares unknown
    {"offload": True},
])
def test_the_split_applies_only_where_tool_split_and_stream_are_known(ref: Reference,
                                                                      kw: dict[str, object]) -> None:
    claim = _row(115.0, **kw)
    hw = ref.gpu(claim.hardware or "")
    assert hw is not None
    assert layer_split(claim, hw) is False
    assert bandwidth(claim, hw).value == hw.bandwidth_gbs * (claim.hardware_count or 1)


@pytest.mark.parametrize("engine", ["llama.cpp", "ik_llama.cpp", "llama-bench", "llamafile"])
def test_the_llama_cpp_family_shares_the_default_split(ref: Reference, engine: str) -> None:
    claim = _row(115.0, engine=engine)
    hw = ref.gpu("RTX 4090")
    assert hw is not None and layer_split(claim, hw) is True
    assert bandwidth(claim, hw).value == 1008.0


def test_an_honest_sixteen_card_moe_row_stays_under_the_tighter_ceiling(ref: Reference) -> None:
    """ik_llama.cpp discussion 266 (DeepSeek R1 on 16x RTX 3090, llama.cpp): 18.1 tok/s decode."""
    claim = _row(18.1, model="DeepSeek R1", weight_format="Q2_K", hardware="RTX 3090", hardware_count=16,
                 launch_command=None)
    report = audit(Evidence(claim=claim), ref)
    q7 = report.question("roofline")
    assert q7.figures["bandwidth_gbs"] == 936.0
    assert q7.status == "ok" and q7.figures["ratio"] < 1


def test_the_sentence_and_headline_say_the_cards_take_turns(ref: Reference) -> None:
    # One story per report: the ceiling is one card's bandwidth, so neither may print "8 × 126 GB/s"
    # (one card's 1008 GB/s split eight ways) or read as if the eight cards' bandwidth were summed.
    report = audit(Evidence(claim=_row(1150.0)), ref)
    q7 = report.question("roofline")
    assert q7.figures["layer_split"] is True
    assert "(one card's 1008 GB/s, the 8 cards taking turns, ÷ 4.01 GB of Q4_K_M weights" in q7.summary
    assert report.headline.startswith("implausible — 1150.0 tok/s is 4.6× the batch-1 ceiling of "
                                      "8× RTX 4090 read one after another (4.0 GB of Q4_K_M weights)")
