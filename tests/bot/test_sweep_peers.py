"""A board's records are each other's peers in `sweep` (bot/sweep.py, checks/peers.py).

tests/fixtures/sweep/slow_board_planted.tsv is a LocalScore export (the columns of
tests/fixtures/localscore/localscore_export.tsv): four CPU-bound runs of Llama 3.2 1B Q4_K_M on an
RTX 4090 at 38-44.5 tok/s, a planted fifth at 430 tok/s (x10, still a third of the card's
ceiling, so the physics passes it), and one RTX 3090 row with no peers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sweep import sweep_source
from checks.reference import Reference

BOARD = Path(__file__).resolve().parents[1] / "fixtures" / "sweep" / "slow_board_planted.tsv"


@pytest.mark.parametrize(("record_id", "verdict", "peer_status", "peers", "highest"), [
    ("2104", "suspicious", "flag", 4.0, 44.5),  # the planted row: 9.7x its best peer
    ("2102", "consistent", "ok", 4.0, 430.0),  # an honest row: the plant is its peer, not a judge
    ("2101", "consistent", "ok", 4.0, 430.0),
    ("2106", "consistent", "n/a", 0.0, None),  # the RTX 3090 row has no peers
])
def test_a_planted_row_is_flagged_by_the_other_rows_of_its_setup(
        ref: Reference, record_id: str, verdict: str, peer_status: str, peers: float,
        highest: float | None) -> None:
    result = sweep_source(str(BOARD), ref)
    report = next(r for r in result.reports if r.claim.record_id == record_id)
    finding = report.finding("peer_outlier")
    assert (report.verdict, finding.status) == (verdict, peer_status)
    assert finding.figures.get("peers") == peers
    assert finding.figures.get("peer_highest_tok_s") == highest
    assert report.question("roofline").status == "ok"


def test_the_planted_row_names_its_peers_by_position_and_id(ref: Reference) -> None:
    result = sweep_source(str(BOARD), ref)
    report = next(r for r in result.reports if r.claim.record_id == "2104")
    finding = report.finding("peer_outlier")
    assert finding.figures["ratio_to_highest"] == pytest.approx(430.0 / 44.5)
    # the peer is a source of its own, printed once in the report's references
    assert finding.basis[1].states == "reports 44.5 tok/s"
    assert finding.basis[1].source == "doc:peer record 1 (2102)"
    assert result.by_verdict == {"implausible": 0, "suspicious": 1, "insufficient": 0, "consistent": 5}
    assert report.headline.startswith("suspicious — 430.0 tok/s: 9.7× the highest of 4 other "
                                      "records of its setup")
