"""Picking the record a claim is about, and the submitter's other runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim
from checks.reference import normalise_name
from extractors.document import RawDocument
from extractors.formats import detect
from extractors.formats.generic_board import GenericBoard
from extractors.select import (
    SiblingIndex,
    pick_primary,
    same_setup,
    setup_key,
    siblings_by_record,
    siblings_of,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BOARD = FIXTURES / "generic_board" / "community_board.json"


def _c(**kw: object) -> Claim:
    return Claim(**kw)


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


def _old_same(a: str | None, b: str | None) -> bool | None:
    if a is None or b is None:
        return None
    return normalise_name(a) == normalise_name(b)


def _old_same_setup(a: Claim, b: Claim) -> bool:
    """The pairwise definition the sweep used before it grouped records: the reference."""
    if _old_same(a.submitter, b.submitter) is False:
        return False
    for left, right in ((a.hardware, b.hardware), (a.model, b.model)):
        if _old_same(left, right) is not True:
            return False
    if a.submitter is None or b.submitter is None:
        return bool(_old_same(a.engine_version, b.engine_version)) and bool(
            _old_same(a.weight_format, b.weight_format)
        )
    return True


def _old_siblings(claims: list[Claim]) -> list[list[int]]:
    return [[j for j, other in enumerate(claims) if j != i and _old_same_setup(c, other)]
            for i, c in enumerate(claims)]


def _board(name: str) -> list[Claim]:
    path = FIXTURES / name
    doc = RawDocument(path.read_bytes(), source=str(path))
    fmt = detect(doc)
    assert fmt is not None, name
    return fmt.parse(doc)


# A run without a submitter pairs with two runs by different submitters, who do not pair with
# each other: the case a single group key would get wrong.
_MIXED = [
    dict(submitter="ann", hardware="RTX 5090", model="Qwen3-8B", engine_version="0.11", weight_format="FP8"),
    dict(hardware="NVIDIA RTX-5090", model="qwen3-8b", engine_version="0.11", weight_format="fp8"),
    dict(submitter="bob", hardware="RTX 5090", model="Qwen3-8B", engine_version="0.11", weight_format="FP8"),
    dict(submitter="Ann", hardware="RTX 5090", model="Qwen3-8B"),
    dict(hardware="RTX 5090", model="Qwen3-8B", engine_version="0.11"),
    dict(hardware="RTX 5090", model="Qwen3-8B", engine_version="0.11", weight_format="FP8"),
    dict(submitter="ann", hardware="", model="Qwen3-8B"),
    dict(submitter="ann", hardware="", model="Qwen3-8B"),
    dict(submitter="ann", model="Qwen3-8B"),
]


@pytest.mark.parametrize("board", [
    "generic_board/community_board.json", "generic_board/tokenarena_dump.json",
    "inferencex/benchmarks_h200.json", "inferencex/agg_bmk.json",
    "localscore/results_list.json", "accelmark/result_a100_sglang.json",
    "llama_bench/rtx3090_qwen3moe_30b_a3b.jsonl", "sglang_bench_serving/llama31_8b_eagle3_two_runs.jsonl",
    "mixed",
])
def test_grouped_siblings_equal_the_pairwise_definition(board: str) -> None:
    claims = [_c(tok_s=1.0, **kw) for kw in _MIXED] if board == "mixed" else _board(board)
    want = _old_siblings(claims)
    index = SiblingIndex()
    for i, c in enumerate(claims):
        index.add(i, setup_key(c))
    assert [index.siblings(i) for i in range(len(claims))] == want
    assert siblings_by_record(claims) == [[claims[j] for j in w] for w in want]
    by_id = {id(c): j for j, c in enumerate(claims)}
    assert [[by_id[id(o)] for o in siblings_of(c, claims)] for c in claims] == want


def test_the_mixed_board_pairs_an_unsigned_run_with_two_authors() -> None:
    claims = [_c(tok_s=1.0, **kw) for kw in _MIXED]
    assert siblings_by_record(claims)[1] == [claims[0], claims[2], claims[5]]
    assert siblings_by_record(claims)[0] == [claims[1], claims[3], claims[5]]
    assert siblings_by_record(claims)[6] == [claims[7]]


def test_the_window_batch_of_the_community_board_are_siblings() -> None:
    claims = GenericBoard().parse(RawDocument(BOARD.read_bytes(), source=str(BOARD)))
    grouped = siblings_by_record(claims)
    r56 = next(i for i, c in enumerate(claims) if c.record_id == "r-56")
    assert {c.record_id for c in grouped[r56]} == {"r-512", "r-256", "r-24"}
