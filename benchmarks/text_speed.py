"""Text reading speed: `parse_text` (launch, log and free-text readers) over a pasted log of claim
lines and over a paste of board notes and launch commands, in MB of text a second.

The texts are built from the project's fixtures: the engine logs of tests/fixtures/text
(vLLM, SGLang, llama.cpp server logs, benchmark printouts) interleaved with the claim lines of the
chat corpus (tests/corpus/claims.jsonl) up to `LOG_BYTES`; and the launch commands and notes of
the community board fixture up to `NOTES_BYTES`. Baseline in the same run: one compiled-regex
scan of the same text for numbers (the least any reader must do). Target (issue 14): ≥ 1 MB/s.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

from benchmarks.dumps import COMMUNITY_BOARD
from benchmarks.measure import ROOT
from benchmarks.table import Budget, Row
from checks.reference import load_reference
from extractors.document import RawDocument
from extractors.text import parse_text

__all__ = ["LOG_BYTES", "NOTES_BYTES", "board_notes", "claim_log", "run"]

LOG_BYTES = 900_000
NOTES_BYTES = 300_000
_NUMBERS = re.compile(r"\d+(?:\.\d+)?")
_TARGET = 1.0  # MB/s
_LOGS = ("vllm_server.log", "sglang_server.log", "llama_server.log", "bench_one_batch.txt",
         "dflash_benchmark.txt")


def _fill(pieces: list[str], size: int) -> str:
    out: list[str] = []
    total = k = 0
    while total < size:
        piece = pieces[k % len(pieces)]
        out.append(piece)
        total += len(piece) + 1
        k += 1
    return "\n".join(out)[:size]


def claim_log(size: int = LOG_BYTES) -> str:
    """Engine log lines and claim lines, one fixture after another, to `size` characters."""
    text_dir = ROOT / "tests" / "fixtures" / "text"
    logs = [(text_dir / name).read_text(encoding="utf-8") for name in _LOGS]
    claims = [json.loads(line)["text"] for line in
              (ROOT / "tests" / "corpus" / "claims.jsonl").read_text(encoding="utf-8").splitlines()
              if line.strip()]
    pieces = [p for k, log in enumerate(logs) for p in (log, *claims[k::len(logs)][:40])]
    return _fill(pieces, size)


def board_notes(size: int = NOTES_BYTES) -> str:
    """The community board's launch commands and notes, one record after another."""
    board = json.loads(COMMUNITY_BOARD.read_text(encoding="utf-8"), strict=False)
    pieces = [f"{r.get('launch_command') or ''}\n{r.get('notes') or ''}" for r in board["records"]]
    return _fill(pieces, size)


def _seconds(fn: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def run(budget: Budget) -> list[Row]:
    ref = load_reference()
    rows = []
    for name, text in (("read a pasted log of claim lines", claim_log()),
                       ("read pasted board notes", board_notes())):
        mb = len(text.encode()) / 1e6
        doc = RawDocument.from_text(text)
        took = _seconds(parse_text, doc, ref)
        base = _seconds(_NUMBERS.findall, text)
        rows.append(Row(f"{name} ({mb * 1000:,.0f} KB)", "MB/s", mb / took, "MB/s",
                        "regex scan of the same text", mb / base, target=f"≥ {_TARGET:g} MB/s",
                        met=mb / took >= _TARGET))
    return rows
