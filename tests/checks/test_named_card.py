"""A named card is one card (issue 13 part 6): weights that do not fit it are offloaded, and the
ceiling is the offloaded one (checks/physics/offload.py `one_named_card`); no card is invented.

Shapes as the calibration corpus writes them:
- ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/258 (the post's rig "* RTX A6000
  48GB VRAM.", a llama-bench row of DeepSeek-R1 UD-Q2_K_XL, 211 GiB, `-ngl 63`: the experts sat
  in system memory);
- d893a/localscore-insights@a4f81747b3e6 assets/localscore_results.tsv rows 674 (Qwen2.5 Coder
  14B Q8_0 on an RTX 2080 Ti, host Ryzen 5 5600X) and 748 (gemma2 Q8_0 on an RTX 4060 Ti whose
  accel_ram says 16 GB).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Report
from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence, evidence_per_record, read_document
from extractors.inputs import InputSpec, read_local

_POST = ("ik_llama.cpp, Benchmarking / llama-bench (rig named in the post: * RTX A6000 48GB VRAM.): model: "
         "DS-R1 671B unsloth  UD-Q2_K_XL; size: 211.03 GiB; params: 671.03 B; backend: CUDA; ngl: 63; "
         "type_k: f16; type_v: f16; fa: 1; mla: 2; amb: 2048; rtr: 1; fmoe: 1; test: tg128; t/s: {tg} ± 0.07")
_TSV_HEAD = ("test_num\ttest_date\tgen_tps\tttft\tttft_unit\tprompt_tps\tlocalscore\tmodel_name\tmodel_quant\t"
             "model_params\tmodel_params_unit\taccel_name\taccel_type\taccel_group\taccel_ram\taccel_ram_unit\t"
             "system_cpu\tsystem_ram\tsystem_ram_unit\tsystem_os\n")
_ROW_674 = ("674\t2025.04.10 18:43:00\t{tg}\t12350\tms\t137\t29\tQwen2.5 Coder 14B Instruct AWQ\tQ8_0\t14800\tM\t"
            "NVIDIA GeForce RTX 2080 Ti\tGPU\tNVIDIA GPU\t11\tGB\tAMD Ryzen 5 5600X 6-Core Processor (znver3)\t"
            "95.9\tGB\tWindows\n")
_ROW_748 = ("748\t2025.04.20 09:32:00\t{tg}\t770\tms\t1787\t371\tgemma2\tQ8_0\t10200\tM\tNVIDIA GeForce RTX 4060 Ti\t"
            "GPU\tNVIDIA GPU\t16\tGB\tAMD Ryzen 5 3600 6-Core Processor (znver2)\t31.9\tGB\tWindows\n")


def _text(ref: Reference, text: str) -> Report:
    return audit(build_evidence([read_document(read_local(InputSpec("text", text)), ref)], ref), ref)


def _tsv(ref: Reference, tmp_path: Path, row: str) -> Report:
    path = tmp_path / "localscore_results.tsv"
    path.write_text(_TSV_HEAD + row, encoding="utf-8")
    reading = read_document(read_local(InputSpec("file", str(path))), ref)
    (ev,) = evidence_per_record(reading, ref)
    return audit(ev, ref)


@pytest.mark.parametrize(("tg", "status", "verdict"), [
    ("13.68", "ok", "consistent"),  # the post's own figure: 0.16 of the offloaded ceiling
    ("136.8", "stop", "implausible"),  # the same ×10
])
def test_one_named_card_the_weights_overflow_is_judged_offloaded(ref: Reference, tg: str, status: str,
                                                                 verdict: str) -> None:
    report = _text(ref, _POST.format(tg=tg))
    assert (report.claim.hardware, report.claim.hardware_count) == ("RTX A6000", None)
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == (status, verdict)
    # 226.6 GB of weights, 51.5 GB on the card: 0.77 read from the most generous host's memory.
    assert q7.figures["system_fraction"] == pytest.approx((226.59 - 51.54) / 226.59, abs=1e-3)
    assert q7.figures["system_bandwidth_gbs"] == pytest.approx(1228.8)
    assert q7.figures["ceiling_tok_s"] == pytest.approx(85.2, abs=0.1)
    assert "0.77 of them offloaded to system memory" in q7.summary
    assert any("a named card is one card" in str(b.states) for b in q7.basis)


@pytest.mark.parametrize(("tg", "verdict"), [("2.2", "consistent"), ("22", "implausible")])
def test_localscore_one_accelerator_offloads_to_its_system_cpu(ref: Reference, tmp_path: Path, tg: str,
                                                               verdict: str) -> None:
    report = _tsv(ref, tmp_path, _ROW_674.format(tg=tg))
    assert report.claim.host == "AMD Ryzen 5 5600X 6-Core Processor (znver3)"
    q7 = report.question("roofline")
    assert report.verdict == verdict
    assert q7.figures["system_fraction"] == pytest.approx(0.20, abs=0.01)
    assert q7.figures["system_bandwidth_gbs"] < 70  # AM4 dual-channel DDR4, the host's own platform
    assert q7.figures["ceiling_tok_s"] == pytest.approx(15.2, abs=0.1)


def test_the_record_s_16_gb_card_holds_what_the_8_gb_row_would_not(ref: Reference, tmp_path: Path) -> None:
    """accel_ram 16 GB: the RTX 4060 Ti 16 GB, so 10.9 GB of Q8_0 fits and nothing is offloaded."""
    report = _tsv(ref, tmp_path, _ROW_748.format(tg="21.9"))
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == ("ok", "consistent")
    assert "system_fraction" not in q7.figures
    assert q7.figures["ratio"] < 1
