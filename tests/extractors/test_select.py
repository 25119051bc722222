"""Picking the record a claim is about, and the submitter's other runs."""

from __future__ import annotations

from pathlib import Path

from checks.models import Claim
from extractors.document import RawDocument
from extractors.formats.generic_board import GenericBoard
from extractors.select import pick_primary, same_setup, siblings_by_record, siblings_of

BOARD = Path(__file__).resolve().parents[1] / "fixtures" / "generic_board" / "community_board.json"


def _c(**kw: object) -> Claim:
    return Claim(**kw)  # type: ignore[arg-type]


def test_the_record_matching_the_posts_number_within_half_a_percent_is_primary() -> None:
    claims = [_c(tok_s=4691.0), _c(tok_s=2103.6), _c(tok_s=1074.0)]
    assert pick_primary(claims, [2110.0]) == 1  # 0.3% away
    assert pick_primary(claims, [2120.0]) == 0  # 0.8% away: no match, first decode row


def test_a_decode_row_is_preferred_over_a_prefill_row() -> None:
    claims = [_c(tok_s=7100.0, tok_s_kind="prefill"), _c(tok_s=141.9, tok_s_kind="decode")]
    assert pick_primary(claims) == 1


def test_siblings_share_submitter_hardware_and_model() -> None:
    a = _c(submitter="s", hardware="RTX 5090", model="Qwen3.6-27B", tok_s=1.0)
    b = _c(submitter="s", hardware="NVIDIA GeForce RTX-5090", model="qwen3.6-27b", tok_s=2.0)
    other_user = _c(submitter="t", hardware="RTX 5090", model="Qwen3.6-27B", tok_s=3.0)
    other_card = _c(submitter="s", hardware="RTX 4090", model="Qwen3.6-27B", tok_s=4.0)
    assert same_setup(a, b)
    assert siblings_of(a, [b, other_user, other_card]) == [b]


def test_without_a_submitter_only_a_fully_matching_setup_counts() -> None:
    a = _c(hardware="RTX 5090", model="Qwen3.6-27B", engine_version="0.5.4", weight_format="NVFP4")
    b = _c(hardware="RTX 5090", model="Qwen3.6-27B", engine_version="0.5.4", weight_format="NVFP4")
    c = _c(hardware="RTX 5090", model="Qwen3.6-27B", engine_version="0.5.5", weight_format="NVFP4")
    assert same_setup(a, b) and not same_setup(a, c)


def test_grouped_siblings_equal_the_pairwise_rule_on_a_real_dump() -> None:
    claims = GenericBoard().parse(RawDocument(BOARD.read_bytes(), source=str(BOARD)))
    grouped = siblings_by_record(claims)
    for i, claim in enumerate(claims):
        others = claims[:i] + claims[i + 1:]
        assert grouped[i] == siblings_of(claim, others), claim.record_id
    r56 = next(i for i, c in enumerate(claims) if c.record_id == "r-56")
    assert {c.record_id for c in grouped[r56]} >= {"r-512", "r-256", "r-24"}
