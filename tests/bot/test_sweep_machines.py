"""A board's records are bounded by their machine's other records in `sweep` (bot/sweep.py
`_BoardMachines`, checks/peers.py `machine_key`, checks/rules/machine_outlier.py).

tests/fixtures/localscore/insights_submissions.tsv: two LocalScore submissions as the board's TSV
export writes them (d893a/localscore-insights@a4f81747b3e6f0841f48c7bea6496d4f0e4a464c
assets/localscore_results.tsv, rows 87, 92, 99 and 64, 67, 73): an H100 80GB HBM3 box and an
A100 80GB PCIe box, each running the suite's Llama 3.2 1B, Llama 3.1 8B and Qwen2.5 14B
(Q4_K - Medium) on 2025.03.28, far under their cards' ceilings (the H100's 8B at 42.4 tok/s is
0.05 of it). The H100's 8B row x10 (424 tok/s) is still under the ceiling, so only its machine
can catch it: the lighter 1B ran at 95.8 tok/s on the same box.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from bot.sweep import _first_pass, _peer_id, sweep_source
from checks.models import Claim
from checks.peers import PeerIndex
from checks.reference import Reference
from extractors.dump import open_dump
from tests.bot.test_cli import run
from tests.bot.test_sweep import _whole

BOARD = Path(__file__).resolve().parents[1] / "fixtures" / "localscore" / "insights_submissions.tsv"
H100 = ("submission NVIDIA H100 80GB HBM3 | 79 | Intel Xeon Platinum 8470 (sapphirerapids) | 1007.3 | "
        "Linux | 2025.03.28")


@pytest.fixture()
def planted(tmp_path: Path) -> Path:
    """The board with the H100's 8B row (test 92) at x10."""
    text = BOARD.read_text(encoding="utf-8")
    row = "92\t2025.03.28 21:26:00\t42.4\t"
    assert text.count(row) == 1
    path = tmp_path / "planted.tsv"
    path.write_text(text.replace(row, "92\t2025.03.28 21:26:00\t424.0\t"), encoding="utf-8")
    return path


def test_each_row_names_its_submission_as_its_machine(ref: Reference) -> None:
    result = sweep_source(str(BOARD), ref)
    assert [r.claim.machine for r in result.reports][:3] == [H100] * 3
    assert len({r.claim.machine for r in result.reports}) == 2


def test_the_planted_row_is_suspicious_by_its_machine_with_the_exact_ratio(
        ref: Reference, planted: Path) -> None:
    report = next(r for r in sweep_source(str(planted), ref).reports if r.claim.record_id == "92")
    finding = report.finding("machine_outlier")
    assert (report.verdict, finding.status, report.question("roofline").status) == ("suspicious", "flag", "ok")
    # the lighter 1B of the same box (0.62 GB per token at 95.8 tok/s) bounds the 8B (4.015 GB)
    assert finding.figures["bound_tok_s"] == 95.8
    assert finding.figures["ratio_to_bound"] == pytest.approx(424.0 / 95.8)
    assert (finding.figures["machine_peers"], finding.figures["gb_per_token"]) == (2, pytest.approx(4.015))
    assert finding.basis[1].source == "doc:peer record 0 (87)"
    assert report.headline.startswith("suspicious — 424.0 tok/s: 4.4× what 2 other records of its "
                                      "machine allow")


@pytest.mark.parametrize(("record_id", "ratio"), [
    ("87", 95.8 / (23.4 * 7.385 / 0.62)),  # the 1B by the bandwidth the 14B drew
    ("99", 23.4 / 95.8),
    ("64", 81.9 / (20.8 * 7.385 / 0.62)),  # the A100 box: another machine, untouched by the plant
    ("67", 37.1 / 81.9),
    ("73", 20.8 / 81.9),
])
def test_the_honest_rows_stay_consistent_beside_the_plant(
        ref: Reference, planted: Path, record_id: str, ratio: float) -> None:
    honest = next(r for r in sweep_source(str(BOARD), ref).reports if r.claim.record_id == record_id)
    beside = next(r for r in sweep_source(str(planted), ref).reports if r.claim.record_id == record_id)
    assert (honest.verdict, beside.verdict) == ("consistent", "consistent")
    assert honest.finding("machine_outlier").status == beside.finding("machine_outlier").status == "ok"
    assert honest.finding("machine_outlier").figures["ratio_to_bound"] == pytest.approx(ratio)


def test_the_sweeps_machine_peers_are_what_the_peer_index_gives(ref: Reference, planted: Path) -> None:
    dump = open_dump(planted, ref)
    claims = [c for _, c in dump.read() if isinstance(c, Claim)]
    _, readable, _, _, built = _first_pass(dump, ref, None, 1, None)
    peers = pickle.loads(pickle.dumps(built))  # as a worker process receives them
    index = PeerIndex.build(((_peer_id(i, c), c) for i, c in enumerate(claims)), ref)
    for i in readable:
        want = index.peers_of(_peer_id(i, claims[i]), claims[i], ref)
        got = peers.machines.fill(i, peers.of(i))
        assert want is not None and got is not None
        assert (got.machine, got.machine_figures) == (want.machine, want.machine_figures)
        assert len(got.machine_figures) == 2  # each row's submission has two other models
    assert len(readable) == 6


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_sweep_gives_the_reports_of_the_whole_document(ref: Reference, planted: Path, jobs: int) -> None:
    assert sweep_source(str(planted), ref, jobs=jobs).reports == _whole(planted, ref)


def test_claimcheck_sweep_ranks_the_plant_first_as_suspicious(planted: Path) -> None:
    code, out, err = run("sweep", "--json", str(planted))
    assert code == 0, err
    s = json.loads(out)
    assert s["by_verdict"] == {"implausible": 0, "suspicious": 1, "insufficient": 0, "consistent": 5}
    assert (s["ranked"][0]["record_id"], s["ranked"][0]["verdict"]) == ("92", "suspicious")
