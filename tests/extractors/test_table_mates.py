"""A pasted table's other decode rows are the claim's machine peers (extractors/text/rows.py
`RowReading.others`, extractors/text `_table_mates`, extractors/evidence.py `build_evidence`).

tests/fixtures/text/sweep_bench_gemma3_27b.md is the first nine rows of a llama-sweep-bench table
as ubergarm pasted it in its post's "Raw Data" block (ikawrakow/ik_llama.cpp@8337e4cd3
github-data/discussions/334, lines 190-201): Gemma 3 27B iq4_ks, decode at 33.29 tok/s at N_KV 0
down to 29.20 at N_KV 4096. The block names no hardware (the card is named far down the post),
so no ceiling can judge it; its own table can. The llama-bench table with a CUDA row and a CPU
row is from the same repository's discussion 18 (lines 46-51), one 99M TriLM model on both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import App, Request
from bot.settings import Settings
from checks.models import Evidence
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document

SWEEP = (Path(__file__).resolve().parents[1] / "fixtures" / "text" / "sweep_bench_gemma3_27b.md").read_text()
MACHINE = "the table pasted in text at line 4"
# the first row x10: 128 tokens in 0.385 s, so its own arithmetic holds and only its table can tell
PLANTED = SWEEP.replace("|    3.846 |    33.29 |", "|    0.385 |   332.90 |")

# llama-bench's Markdown output (the shape of tests/fixtures/text/llama_bench_table.md): one CPU
# box at 4 and at 16 threads, then a 1B at 16 threads
THREADS = """\
| model                          |       size |     params | backend    | threads |          test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | ------: | ------------: | -------------------: |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CPU        |       4 |         tg128 |          6.10 ± 0.02 |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CPU        |      16 |         tg128 |         11.85 ± 0.05 |
| llama 1B Q4_K - Medium         |   0.75 GiB |     1.24 B | CPU        |      16 |         tg128 |         61.20 ± 0.40 |
"""


def _evidence(text: str, ref: Reference) -> Evidence:
    return build_evidence([read_document(RawDocument(text.encode(), source="text"), ref)], ref)


def test_the_tables_other_rows_are_the_claims_machine_peers(ref: Reference) -> None:
    ev = _evidence(SWEEP, ref)
    assert (ev.claim.tok_s, ev.claim.kv_depth, ev.claim.machine) == (33.29, 0, MACHINE)
    assert ev.peers is not None
    mates = ev.peers.machine_figures
    assert [(f.record, f.tok_s) for f in mates] == [
        (f"table row at line {5 + k}", tok) for k, tok in
        enumerate([32.67, 32.09, 31.54, 31.10, 30.58, 30.11, 29.66, 29.20])]
    # each mate is the claim at its own row's depth: the model and format of the text hold
    assert mates[-1].ran == "Gemma 3 27B, iq4_ks, KV depth 4096"
    assert len(ev.peers.figures) == 8  # and its setup's peers: one unnamed machine, one model


@pytest.mark.parametrize(("text", "verdict", "status", "ratio"), [
    (SWEEP, "insufficient", "ok", 33.29 / 32.67),  # honest: the hardware is unnamed, nothing flags
    (PLANTED, "suspicious", "flag", 332.9 / 32.67),  # x10: 10.2x what the row at N_KV 512 allows
])
def test_a_planted_row_is_flagged_by_its_own_table(ref: Reference, text: str, verdict: str,
                                                   status: str, ratio: float) -> None:
    report = audit(_evidence(text, ref), ref)
    finding = report.finding("machine_outlier")
    assert (report.verdict, finding.status) == (verdict, status)
    assert finding.figures["bound_tok_s"] == 32.67
    assert finding.figures["ratio_to_bound"] == pytest.approx(ratio)
    assert finding.figures["machine_peers"] == 8
    assert report.finding("peer_outlier").status == status


async def test_the_app_audits_a_pasted_table_against_its_other_rows(ref: Reference, tmp_path: Path) -> None:
    async with App.open(Settings(db_path=tmp_path / "app.sqlite3"), ref=ref) as app:
        result = await app.audit(Request(docs=(RawDocument.from_text(PLANTED, source="text"),)))
    assert result.report.verdict == "suspicious"
    assert result.report.finding("machine_outlier").label == "10.2× what 8 other records of its machine allow"
    assert result.report.finding("machine_outlier").basis[1].source == "doc:peer table row at line 5"


def test_a_row_at_other_settings_is_no_table_mate(ref: Reference) -> None:
    ev = _evidence(THREADS, ref)
    # the claim is the 4-thread row; the 16-thread rows ran the box another way: no mates
    assert (ev.claim.tok_s, ev.claim.machine, ev.peers) == (6.10, None, None)
    assert audit(ev, ref).finding("machine_outlier").status == "n/a"


def test_a_row_of_another_model_at_the_same_settings_is_a_mate_with_its_own_model(ref: Reference) -> None:
    ev = _evidence("\n".join(THREADS.splitlines()[:2] + THREADS.splitlines()[3:]) + "\n", ref)
    assert (ev.claim.tok_s, ev.claim.model, ev.claim.machine) == (11.85, "Llama 3.1 8B", "the table pasted in text at line 3")
    assert ev.peers is not None
    [mate] = ev.peers.machine_figures
    assert (mate.record, mate.tok_s, mate.ran) == ("table row at line 4", 61.2, "Llama 1B, Q4_K_M")
    assert mate.gb_per_token == pytest.approx(0.805, abs=0.001)  # its own file: 0.75 GiB


def test_one_row_alone_names_no_machine(ref: Reference) -> None:
    one = "\n".join(SWEEP.splitlines()[:4]) + "\n"
    ev = _evidence(one, ref)
    assert (ev.claim.tok_s, ev.claim.machine, ev.peers) == (33.29, None, None)


def test_a_second_table_is_another_machine(ref: Reference) -> None:
    lines = SWEEP.splitlines()
    # the same header again further down: its rows are no mates of the first table's claim
    two = "\n".join([*lines[:5], "", "## another run", *lines[1:3], *lines[5:8]]) + "\n"
    ev = _evidence(two, ref)
    assert ev.peers is not None
    assert [f.tok_s for f in ev.peers.machine_figures] == [32.67]
