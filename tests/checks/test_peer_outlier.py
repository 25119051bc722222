"""peer_outlier: a figure far above every other record of its setup is suspicious, never condemned.

The records are LocalScore rows as the localscore reader gives them (tests/fixtures/localscore/
localscore_export.tsv's columns): an RTX 4090 running Llama 3.2 1B Q4_K_M far under its
ceiling, the way CPU-bound runs of a small model on a big card do.
"""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence
from checks.peers import PeerIndex, peer_key
from checks.reference import Reference
from checks.rules.peer_outlier import FEW_PEERS_FACTOR, OUTLIER_FACTOR, peer_outlier
from checks.runner import audit


def _row(tok_s: float, record_id: str, **kw: object) -> Claim:
    base: dict[str, object] = {"model": "Llama 3.2 1B Instruct", "weight_format": "Q4_K - Medium",
                               "hardware": "NVIDIA GeForce RTX 4090", "tok_s": tok_s,
                               "tok_s_kind": "decode", "speculative": False,
                               "engine": "llamafile", "record_id": record_id,
                               "source_url": f"https://example.invalid/localscore_results.tsv#L{record_id}"}
    base.update(kw)
    return Claim(**base)


PEERS = [_row(41.0, "1"), _row(44.5, "2"), _row(38.0, "3")]


def _answer(ref: Reference, claim: Claim, peers: list[Claim], own_id: str = "me") -> Answer:
    index = PeerIndex.build(((c.record_id or "", c) for c in peers), ref)
    group = index.peers_of(own_id, claim, ref)
    return peer_outlier(Evidence(claim=claim, peers=group), ref, {})


@pytest.mark.parametrize(("tok_s", "status", "ratio"), [
    (445.0, "flag", 10.0),  # a x10 fake of the best peer: far under the 4090's ceiling
    (112.0, "flag", 112.0 / 44.5),  # just above 2.5x
    (110.0, "ok", 110.0 / 44.5),  # just under
    (43.0, "ok", 43.0 / 44.5),  # an honest run among its peers
])
def test_a_figure_above_k_times_the_best_of_three_peers_is_flag(
        ref: Reference, tok_s: float, status: str, ratio: float) -> None:
    a = _answer(ref, _row(tok_s, "me"), PEERS)
    assert a.status == status
    assert a.figures["peers"] == 3.0
    assert a.figures["peer_highest_tok_s"] == 44.5
    assert a.figures["peer_median_tok_s"] == 41.0
    assert a.figures["ratio_to_highest"] == pytest.approx(ratio)
    assert a.figures["outlier_factor"] == OUTLIER_FACTOR == 2.5


def test_an_even_count_of_peers_has_the_mean_of_its_middle_two_for_median_and_ties_keep_their_order(
        ref: Reference) -> None:
    peers = [_row(41.0, "1"), _row(44.5, "2"), _row(38.0, "3"), _row(44.5, "4")]
    a = _answer(ref, _row(43.0, "me"), peers)
    assert a.figures["peers"] == 4.0
    assert a.figures["peer_median_tok_s"] == (41.0 + 44.5) / 2 == 42.75
    assert [line.split(": ")[1] for line in a.lines()[1:5]] == [
        "peer 2 reports 44.5 tok/s", "peer 4 reports 44.5 tok/s", "peer 1 reports 41.0 tok/s",
        "peer 3 reports 38.0 tok/s"]


def test_the_finding_names_its_peers_highest_first(ref: Reference) -> None:
    a = _answer(ref, _row(445.0, "me"), PEERS)
    assert a.lines()[0] == "setup: RTX 4090 ×1, Llama 3.2 1B, Q4_K_M, decode"
    assert a.lines()[1:4] == [
        "https://example.invalid/localscore_results.tsv#L2: peer 2 reports 44.5 tok/s",
        "https://example.invalid/localscore_results.tsv#L1: peer 1 reports 41.0 tok/s",
        "https://example.invalid/localscore_results.tsv#L3: peer 3 reports 38.0 tok/s"]
    # each peer is a source of its own, cited by id
    assert [b.kind for b in a.basis[1:4]] == ["document"] * 3
    assert a.basis[1].source == "doc:https://example.invalid/localscore_results.tsv#L2"
    assert a.lines()[-1] == "ratio = 445.0 ÷ 44.5 = 10.00"
    assert a.reason == "outlier"
    assert a.summary.startswith("445.0 tok/s is 10.0× the highest of 3 other records of this setup "
                                "(44.5 tok/s; median 41.0)")


@pytest.mark.parametrize("peers", [PEERS[:1], []])
def test_fewer_than_two_peers_are_not_judged(ref: Reference, peers: list[Claim]) -> None:
    a = _answer(ref, _row(445.0, "me"), peers)
    assert a.status == "n/a"
    assert a.figures == {"peers": float(len(peers))}


@pytest.mark.parametrize(("tok_s", "status"), [
    (445.0, "flag"),  # a x10 fake: 10x the better of two
    (178.5, "flag"),  # just above 4x 44.5
    (177.5, "ok"),  # just under: two runs say less than three, so the margin is wider
    (110.0, "ok"),  # 2.5x: an outlier among three peers, not among two
])
def test_two_peers_judge_above_a_wider_factor(ref: Reference, tok_s: float, status: str) -> None:
    a = _answer(ref, _row(tok_s, "me"), PEERS[:2])
    assert a.status == status
    assert a.figures["peers"] == 2.0
    assert a.figures["peer_highest_tok_s"] == 44.5
    assert a.figures["ratio_to_highest"] == pytest.approx(tok_s / 44.5)
    assert a.figures["outlier_factor"] == FEW_PEERS_FACTOR == 4.0


def test_no_peers_given_is_n_a(ref: Reference) -> None:
    a = peer_outlier(Evidence(claim=_row(445.0, "me")), ref, {})
    assert (a.status, a.figures) == ("n/a", {})


def test_the_record_is_never_its_own_peer(ref: Reference) -> None:
    """The fake's own honest figure is in the index under its id: left out, 3 peers remain."""
    index = PeerIndex.build([("me", _row(44.0, "me")), *(((c.record_id or ""), c) for c in PEERS)], ref)
    group = index.peers_of("me", _row(440.0, "me"), ref)
    assert group is not None
    assert [f.record for f in group.figures] == ["1", "2", "3"]
    assert len(index.groups[next(iter(index.groups))]) == 4


@pytest.mark.parametrize(("other", "same"), [
    ({"weight_format": "Q8_0"}, False),  # another format
    ({"hardware": "NVIDIA GeForce RTX 3090"}, False),  # another card
    ({"hardware_count": 2}, False),  # two cards
    ({"model": "Qwen2.5 14B Instruct"}, False),  # another model
    ({"tok_s_kind": "prefill"}, False),  # prompt processing is another figure
    ({"batch": 8}, False),  # a stated batch is another setup
    ({"cell": "online at 5 QPS"}, False),  # another load
    ({"hardware": "RTX 4090"}, True),  # the same card, spelled by its row
    ({"model": "Llama-3.2-1B-Instruct", "source_url": "elsewhere"}, True),
])
def test_the_setup_key_separates_what_changes_the_figure(ref: Reference, other: dict[str, object],
                                                          same: bool) -> None:
    assert (peer_key(_row(40.0, "a", **other), ref) == peer_key(_row(40.0, "a"), ref)) is same


def test_cpu_parts_of_one_platform_row_are_not_peers(ref: Reference) -> None:
    """A platform row spans 8 to 64 cores: the record's own name keeps the parts apart."""
    a = peer_key(_row(9.5, "a", hardware="AMD EPYC 7352 24-Core Processor (znver2)"), ref)
    b = peer_key(_row(9.5, "a", hardware="AMD EPYC 7763 64-Core Processor (znver3)"), ref)
    assert a is not None and b is not None and a != b


def test_no_hardware_row_or_no_model_is_no_key(ref: Reference) -> None:
    assert peer_key(_row(40.0, "a", hardware=None), ref) is None
    assert peer_key(_row(40.0, "a", model=None, params_total_b=None), ref) is None
    assert peer_key(_row(40.0, "a", model="a private fine-tune", params_total_b=1.24), ref) is not None


@pytest.mark.parametrize(("tok_s", "verdict"), [(445.0, "suspicious"), (43.0, "consistent")])
def test_an_outlier_below_the_ceiling_makes_the_report_suspicious_never_implausible(
        ref: Reference, tok_s: float, verdict: str) -> None:
    index = PeerIndex.build(((c.record_id or "", c) for c in PEERS), ref)
    claim = _row(tok_s, "me")
    report = audit(Evidence(claim=claim), ref, peers=index.peers_of("me", claim, ref))
    assert report.verdict == verdict
    assert report.question("roofline").status == "ok"  # below the ceiling: only the peers catch it
    assert report.finding("peer_outlier").status == ("flag" if verdict == "suspicious" else "ok")


def _unnamed(tok_s: float, record_id: str, **kw: object) -> Claim:
    """A sweep-bench decode row of an ik_llama.cpp discussion that names no hardware."""
    base: dict[str, object] = {"model": "Qwen3 235B-A22B", "weight_format": "IQ4_XS",
                               "tok_s": tok_s, "tok_s_kind": "decode", "batch": 1,
                               "engine": "ik_llama.cpp", "record_id": record_id,
                               "machine": "491.md | sweep-bench | from line 10"}
    base.update(kw)
    return Claim(**base)


@pytest.mark.parametrize(("other", "same"), [
    ({}, True),
    ({"machine": "491.md | sweep-bench | from line 20"}, False),  # another table: another machine
    ({"tok_s_kind": "prefill"}, False),
])
def test_rows_of_one_unnamed_machine_are_peers(ref: Reference, other: dict[str, object],
                                               same: bool) -> None:
    key = peer_key(_unnamed(18.4, "a"), ref)
    assert key is not None and key.hardware == "the unnamed machine of 491.md | sweep-bench | from line 10"
    assert (peer_key(_unnamed(18.4, "b", **other), ref) == key) is same


@pytest.mark.parametrize("kw", [
    {"machine": None},  # no machine known: no key, as before
    {"tok_s_kind": None},  # an unstated kind may be a prompt-processing rate beside the decode
])
def test_an_unnamed_machine_needs_its_id_and_a_stated_kind(ref: Reference, kw: dict[str, object]) -> None:
    assert peer_key(_unnamed(18.4, "a", **kw), ref) is None


def test_a_named_card_keeps_its_own_key_whatever_the_machine(ref: Reference) -> None:
    """`machine` only stands in for hardware nobody named; a named card keys by its row."""
    assert peer_key(_row(40.0, "a", machine="t1"), ref) == peer_key(_row(40.0, "a"), ref)


@pytest.mark.parametrize(("tok_s", "status"), [(184.5, "flag"), (18.9, "ok")])
def test_an_outlier_of_an_unnamed_machine_is_flagged_never_stopped(ref: Reference, tok_s: float,
                                                                   status: str) -> None:
    peers = [_unnamed(18.20, "1"), _unnamed(17.66, "2"), _unnamed(17.47, "3")]
    claim = _unnamed(tok_s, "me")
    index = PeerIndex.build(((c.record_id or "", c) for c in peers), ref)
    report = audit(Evidence(claim=claim), ref, peers=index.peers_of("me", claim, ref))
    assert report.finding("peer_outlier").status == status
    assert report.verdict == ("suspicious" if status == "flag" else "insufficient")
