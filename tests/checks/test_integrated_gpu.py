"""An integrated GPU reads its host's memory (issue 13, this round's part 2): named as the
accelerator beside its CPU, it is bounded by that CPU's platform memory row, at its most generous
configuration (checks/physics/ceilings.py `integrated_row`); without a named CPU of its own
vendor it stays unanswered.

Shapes: d893a/localscore-insights@a4f81747b3e6 assets/localscore_results.tsv rows 1175 ("AMD
Radeon Graphics" beside "AMD Ryzen 5 7640U w/ Radeon 760M Graphics (znver4)") and 1118 ("AMD
Radeon Graphics" with 32 GB beside an Intel Core i9-14900K: a discrete card the export names
generically).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim, Report
from checks.physics.ceilings import integrated_row
from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import evidence_per_record, read_document
from extractors.inputs import InputSpec, read_local

_TSV_HEAD = ("test_num\ttest_date\tgen_tps\tttft\tttft_unit\tprompt_tps\tlocalscore\tmodel_name\tmodel_quant\t"
             "model_params\tmodel_params_unit\taccel_name\taccel_type\taccel_group\taccel_ram\taccel_ram_unit\t"
             "system_cpu\tsystem_ram\tsystem_ram_unit\tsystem_os\n")
_ROW_1175 = ("1175\t2025.07.02 20:49:00\t{tg}\t11200\tms\t121\t28\tPhi3\tF16\t3800\tM\tAMD Radeon Graphics\tGPU\t"
             "AMD GPU\t15\tGB\tAMD Ryzen 5 7640U w/ Radeon 760M Graphics (znver4)\t30.7\tGB\tLinux\n")
_ROW_1118 = ("1118\t2025.06.25 18:18:00\t{tg}\t27080\tms\t53\t30\tQwen2.5 14B Instruct\tQ4_K - Medium\t14800\tM\t"
             "AMD Radeon Graphics\tGPU\tAMD GPU\t32\tGB\tIntel Core i9-14900K (alderlake)\t94\tGB\tLinux\n")
_PHOENIX = "AMD Ryzen 7040/8040/200 mobile (Phoenix, Hawk Point)"


def _tsv(ref: Reference, tmp_path: Path, row: str) -> Report:
    path = tmp_path / "localscore_results.tsv"
    path.write_text(_TSV_HEAD + row, encoding="utf-8")
    (ev,) = evidence_per_record(read_document(read_local(InputSpec("file", str(path))), ref), ref)
    return audit(ev, ref)


@pytest.mark.parametrize(("tg", "status", "verdict"), [
    ("2.0", "ok", "consistent"),  # the row's own figure: 0.13 of 120 GB/s ÷ 7.6 GB
    ("20.0", "stop", "implausible"),  # ×10: 1.27 × what the APU's LPDDR5X-7500 can stream
])
def test_the_igpu_is_bounded_by_its_hosts_memory(ref: Reference, tmp_path: Path, tg: str, status: str,
                                                 verdict: str) -> None:
    report = _tsv(ref, tmp_path, _ROW_1175.format(tg=tg))
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == (status, verdict)
    assert q7.figures["bandwidth_gbs"] == pytest.approx(120.0)
    assert q7.figures["ceiling_tok_s"] == pytest.approx(120 / 7.6, rel=1e-3)
    assert any("is the integrated GPU of the host 'AMD Ryzen 5 7640U w/ Radeon 760M Graphics (znver4)'"
               in str(b.states) for b in q7.basis)


def test_a_generic_radeon_beside_an_intel_cpu_stays_unanswered(ref: Reference, tmp_path: Path) -> None:
    report = _tsv(ref, tmp_path, _ROW_1118.format(tg="144.0"))
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == ("unanswerable", "insufficient")
    assert "reference row for hardware 'AMD Radeon Graphics'" in q7.missing


@pytest.mark.parametrize(("card", "host", "platform"), [
    ("AMD Radeon Graphics", "AMD Ryzen 5 7640U w/ Radeon 760M Graphics (znver4)", _PHOENIX),
    ("AMD Radeon 780M Graphics", "AMD Ryzen 7 8845HS w/ Radeon 780M Graphics", _PHOENIX),
    ("Intel(R) UHD Graphics 770", "13th Gen Intel(R) Core(TM) i5-13400", "Intel 13th/14th gen desktop (Raptor Lake)"),
    # a bare Radeon beside an AMD CPU that names no graphics: it may be a discrete card
    ("AMD Radeon Graphics", "AMD Ryzen 9 7950X 16-Core Processor", None),
    ("AMD Radeon Graphics", "Intel Core i9-14900K (alderlake)", None),  # another vendor's host
    ("Intel(R) UHD Graphics 770", "AMD Ryzen 9 7950X 16-Core Processor", None),
    ("Intel Arc A770 Graphics", "13th Gen Intel(R) Core(TM) i5-13400", None),  # a discrete Arc has a number
    ("AMD Radeon Graphics", None, None),  # no host named: unanswered
])
def test_which_names_are_integrated(ref: Reference, card: str, host: str | None, platform: str | None) -> None:
    row = integrated_row(Claim(hardware=card, host=host), ref)
    assert (row.name if row is not None else None) == platform
    if row is not None:
        assert row.peak_tflops == {}  # the platform's peak is its CPU cores', not the GPU's
