"""The watch pre-filter joined against the project's chat corpus: every claim the text reader
reads passes it (recall 100%), no chatter line does (0), and the figure grammar is one definition
shared with the text reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cogs.watch import prefilter
from extractors.text import freetext
from extractors.text.units import SPEED_FIGURE, SPEED_LABEL, states_speed

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _lines(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (CORPUS / name).read_text().splitlines() if line.strip()]


def test_every_corpus_claim_the_reader_reads_passes_the_prefilter() -> None:
    claims = [c for c in _lines("claims.jsonl")
              if isinstance(c["expect"], dict) and c["expect"]["tok_s"] is not None]
    missed = [c["text"] for c in claims
              if (got := prefilter(str(c["text"]))) is None or got.text is None]
    assert (len(claims), missed) == (238, [])


def test_no_chatter_line_is_taken_for_a_claim() -> None:
    chatter = _lines("chatter.jsonl")
    taken = [c["text"] for c in chatter
             if (got := prefilter(str(c["text"]))) is not None and got.text is not None]
    assert (len(chatter), taken) == (247, [])


def test_the_reader_and_the_prefilter_share_one_grammar() -> None:
    assert freetext._TOKS is SPEED_FIGURE and freetext._TOKS_LABEL is SPEED_LABEL


@pytest.mark.parametrize(("text", "stated"), [
    ("3800+ tokens/s", True), ("27 eval tok/sec", True), ("4.23 tokens/second", True),
    ("~17 tk/s", True), ("89.2 code TPS", True), ("(tok/s): 7.27", True), ("100+ tok/s", True),
    ("60 to 80+ tokens per second", True), ("120 tok/s per dollar", False), ("3 tok/s/W", False),
    ("I have 2 GPUs and 64 GB", False), ("the output is 36ts", False),
])
def test_states_speed_is_the_readers_figure_grammar(text: str, stated: bool) -> None:
    assert states_speed(text) is stated
