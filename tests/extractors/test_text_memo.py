"""Each distinct record text read once (extractors/formats/record_text.py `TextMemo`, the sweep's
spool in bot/sweep.py): the memoised reading gives the same Claim as reading afresh."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from bot.sweep import _decode, _encode, _read_entry
from checks.models import Claim
from checks.reference import Reference, load_reference
from extractors.builder import ClaimBuilder
from extractors.formats.generic_board import read_board_row
from extractors.formats.record_text import TextMemo, current_memo, read_record_text, text_memo
from tests.seed_claims import LAUNCH, NOTES

BOARD = Path(__file__).resolve().parents[1] / "fixtures" / "generic_board" / "community_board.json"
PLAIN = "vllm serve Qwen/Qwen3.6-27B --quantization fp8 --max-model-len 8192 --max-num-seqs 1"


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(BOARD.read_text(encoding="utf-8"), strict=False)["records"]
    return records


def _read(rows: list[dict[str, Any]], offset: int = 0) -> list[Claim]:
    return [read_board_row("board.json", r, f"records[{offset + i}]", []) for i, r in enumerate(rows)]


def test_a_memoised_board_reads_to_the_same_claims_as_a_fresh_one(rows: list[dict[str, Any]]) -> None:
    fresh = _read(rows)
    with text_memo(TextMemo()) as memo:
        first = _read(rows)
        # The same records at other paths (the next copy of a board): every text is found again.
        again = _read(rows, offset=len(rows))
    assert first == fresh
    assert again == _read(rows, offset=len(rows))
    assert memo.hits >= len(rows) and memo.misses < len(rows)


def test_the_path_of_a_memoised_text_stays_the_records_own(rows: list[dict[str, Any]]) -> None:
    row = {"gpu": "RTX 5090", "model": "Qwen3.6-27B", "tok_s": 60.0, "launch_command": PLAIN}
    with text_memo(TextMemo()):
        a = read_board_row("board.json", row, "records[0]", [])
        b = read_board_row("board.json", row, "records[7]", [])
    assert a.speculative is False and b.speculative is False
    assert a.provenance["speculative"].field == "records[0].launch_command (records[0].launch_command)"
    assert b.provenance["speculative"].field == "records[7].launch_command (records[7].launch_command)"
    assert b == read_board_row("board.json", row, "records[7]", [])


def test_a_list_handed_out_from_the_memo_is_the_callers_own() -> None:
    memo = TextMemo()
    texts = [("launch_command", LAUNCH), ("notes", NOTES)]
    b1, b2 = ClaimBuilder("post"), ClaimBuilder("post")
    read_record_text(b1, texts, memo=memo)
    for value in b1.values.values():
        if isinstance(value, (list, dict)):
            value.clear()
    read_record_text(b2, texts, memo=memo)
    fresh = ClaimBuilder("post")
    read_record_text(fresh, texts)
    assert (memo.hits, memo.misses) == (1, 1)
    assert b2.build() == fresh.build()


def test_the_memo_is_bounded_least_recently_used_out() -> None:
    memo = TextMemo(size=2)
    for note in ("ctx 8k", "ctx 16k", "ctx 8k", "ctx 32k", "ctx 16k"):
        read_record_text(ClaimBuilder("b"), [("notes", note)], memo=memo)
    # 8k, 16k read; 8k found; 32k read (16k out); 16k read again.
    assert (memo.hits, memo.misses) == (1, 4)


def test_the_memo_is_bounded_in_characters_too() -> None:
    memo = TextMemo(max_chars=25)
    for note in ("ctx 8k, flash attention on", "ctx 8k", "ctx 16k", "ctx 8k", "ctx 32k, fa", "ctx 8k"):
        read_record_text(ClaimBuilder("b"), [("notes", note)], memo=memo)
    # The 26-character note is never kept; 8k (6) and 16k (7) are; 32k (11) fits beside them
    # (24 characters); 8k is found each time it comes back.
    assert (memo.hits, memo.misses) == (2, 4)


def test_a_memo_serves_one_reference_only() -> None:
    memo = TextMemo()
    other = load_reference()
    read_record_text(ClaimBuilder("b"), [("notes", NOTES)], memo=memo)
    read_record_text(ClaimBuilder("b"), [("notes", NOTES)], memo=memo, ref=other)
    assert (memo.hits, memo.misses) == (0, 1)


def test_the_memo_lives_only_inside_its_block() -> None:
    assert current_memo() is None
    with text_memo(TextMemo()) as memo:
        assert current_memo() is memo
    assert current_memo() is None


@pytest.mark.parametrize("claim", [
    Claim(tok_s=2103.6, hardware="RTX 5090", ratios=[(3, 4)], env={"A": "1"}),
    Claim(tok_s=math.inf, notes="a line\nand another"),
])
def test_a_spooled_claim_reads_back_equal(claim: Claim, ref: Reference) -> None:
    entry = io.BytesIO(_encode(claim))
    assert _decode(_read_entry(entry)) == claim
    assert entry.read() == b""  # the entry's length prefix covers it exactly
