"""MoE experts kept in system RAM are offload: llama.cpp's tensor override to the CPU
(`-ot exps=CPU`), `--cpu-moe`, `--n-cpu-moe N`, and a run's memory printed on both sides
("VRAM: 17.5G, RAM: 228G"). With the card named once and no count, the roofline then judges one
card with the rest of the weights read from system memory, instead of asking for a card count.
The rows are ik_llama.cpp discussion rows as the calibration corpus carries them
(ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/)."""

from __future__ import annotations

import pytest

from checks.models import Report
from checks.reference import load_reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local
from extractors.text.launch import parse_launch_command

REF = load_reference()
_RIG = "(rig named in the post: System: 7975wx with FCLK=2100 , 768G RAM at 5600MHz, RTX 5090.)"
_ROW = "PP: 512; TG: 128; N_KV: 17920; T_PP s: 5.520; S_PP t/s: 92.76; T_TG s: 8.868; S_TG t/s: 14.43"


def _audit(text: str) -> Report:
    reading = read_document(read_local(InputSpec("text", text)), REF)
    return audit(build_evidence([reading], REF), REF)


# The generous ceiling: 1792 GB/s over DeepSeek R1's 37.6B active, most of them in system memory
# at 1228.8 GB/s, + 0.35 GB KV at depth 17920: 136.0 tok/s at UD-Q2_K_XL's or IQ2_K_R4's 2 base
# bits (their names say them).
_AT_2_BITS = 136.0


@pytest.mark.parametrize(("heading", "ceiling"), [
    ("unsloth/DeepSeek-R1-UD-Q2_K_XL / --override-tensor down_exps=CPU,gate_exps=CPU,up_exps=CPU", _AT_2_BITS),
    ("unsloth/DeepSeek-R1-UD-Q2_K_XL / --override-tensor exps=CPU", _AT_2_BITS),
    ("unsloth/DeepSeek-R1-UD-Q2_K_XL / -ot exps=CPU", _AT_2_BITS),
    ('unsloth/DeepSeek-R1-UD-Q2_K_XL / -ngl 99 -ot ".ffn_.*_exps.=CPU"', _AT_2_BITS),
    ("unsloth/DeepSeek-R1-UD-Q2_K_XL / -ngl 99 --cpu-moe", _AT_2_BITS),
    ("unsloth/DeepSeek-R1-UD-Q2_K_XL / -ngl 99 -ncmoe 40", _AT_2_BITS),
    ("ubergarm/DeepSeek-V3-0324-IQ2_K_R4 / VRAM: 17.5G, RAM: 228G", _AT_2_BITS),  # its name says IQ2_K_R4
])
def test_experts_on_the_cpu_are_offload_on_one_named_card(heading: str, ceiling: float) -> None:
    r = _audit(f"ik_llama.cpp, {heading} {_RIG}: {_ROW}")
    q7 = r.question("roofline")
    assert r.claim.offload is True and r.claim.hardware == "RTX 5090"
    assert q7.status == "ok" and r.verdict == "consistent"
    assert q7.figures["ceiling_tok_s"] == pytest.approx(ceiling, abs=0.1)
    assert q7.figures["ratio"] == pytest.approx(14.43 / ceiling, abs=0.001)
    assert "offloaded to system memory" in q7.summary


def test_experts_kept_on_the_card_that_cannot_hold_them_leave_the_count_open() -> None:
    # "-ncmoe 0" says no expert sits in system RAM: on one RTX 5090 that cannot be, so the card
    # count stays the question.
    r = _audit(f"ik_llama.cpp, unsloth/DeepSeek-R1-UD-Q2_K_XL / -ngl 99 -ncmoe 0 {_RIG}: {_ROW}")
    q7 = r.question("roofline")
    assert r.claim.offload is False
    assert q7.status == "unanswerable" and q7.missing[0].startswith("card count")


def test_no_expert_offload_said_is_still_offload_where_no_format_fits_the_card() -> None:
    # Nothing says the experts sit in system RAM, and the format is not read; but DeepSeek R1's
    # 671B at one bit a weight (83.9 GB) overflow one RTX 5090's 32 GiB at any format, and a named
    # card is one card: the spill at that smallest size is read from system memory.
    r = _audit(f"ik_llama.cpp, unsloth/DeepSeek-R1 / VRAM: 30G {_RIG}: {_ROW}")
    q7 = r.question("roofline")
    assert r.claim.offload is not True and r.claim.weight_format is None
    assert q7.status == "ok" and r.verdict == "consistent"
    assert any("offloaded at any format" in str(b) for b in q7.basis)


def test_a_format_named_by_its_bits_sizes_the_spill() -> None:
    # "UD-Q2_K_XL" names its 2 base bits: 671B × 2 ÷ 8 = 167.75 GB overflow one RTX 5090's 34.4 GB
    # at that format, and the spill is read at it, not at one bit a weight
    r = _audit(f"ik_llama.cpp, unsloth/DeepSeek-R1-UD-Q2_K_XL / VRAM: 30G {_RIG}: {_ROW}")
    q7 = r.question("roofline")
    assert q7.status == "ok" and r.verdict == "consistent"
    assert q7.figures["ceiling_tok_s"] == pytest.approx(_AT_2_BITS, abs=0.1)
    assert not any("offloaded at any format" in str(b) for b in q7.basis)


@pytest.mark.parametrize(("command", "offload"), [
    ("llama-server -m DeepSeek-R1-Q2_K.gguf -ngl 99 -ot exps=CPU", True),
    ("llama-server -m DeepSeek-R1-Q2_K.gguf -ngl 99 --override-tensor '.ffn_.*_exps.=CPU'", True),
    ("llama-server -m Qwen3-235B-A22B-Q4_K_M.gguf -ngl 99 --cpu-moe -c 8192", True),
    ("llama-server -m Qwen3-235B-A22B-Q4_K_M.gguf -ngl 99 --n-cpu-moe 30", True),
    ("llama-server -m Qwen3-235B-A22B-Q4_K_M.gguf -ngl 99 --n-cpu-moe 0", None),
    ("llama-server -m Qwen3-235B-A22B-Q4_K_M.gguf -ngl 99 -ot exps=CUDA0", None),
])
def test_launch_flags_keeping_experts_on_the_cpu(command: str, offload: bool | None) -> None:
    c = parse_launch_command(command)
    assert c.offload is offload
