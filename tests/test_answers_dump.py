"""benchmarks.answers_dump: what must not change between two versions of the checks, and its diff."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from benchmarks.answers_dump import diff, dump, summary_of
from checks.reference import Reference
from checks.runner import audit
from tests.seed_claims import headline_evidence


def test_a_summary_holds_the_verdict_every_status_and_every_figure_by_value(ref: Reference) -> None:
    got = summary_of(audit(headline_evidence(), ref))
    assert got["verdict"] == "implausible" and got["status"]["acceptance"] == "stop"
    assert got["figures"]["cell"]["batch"] == 1.0 and got["figures"]["window_curve"]["rigorous_is_slowest"] == 1.0
    assert round(got["figures"]["roofline"]["ceiling_tok_s"], 1) == 128.9


def _write(path: Path, *lines: Mapping[str, object]) -> Path:
    path.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines), encoding="utf-8")
    return path


def test_the_diff_names_each_changed_verdict_status_and_figure(tmp_path: Path) -> None:
    a = {"verdict": "consistent", "status": {"power": "ok"}, "figures": {"power": {"ratio": 0.5}}}
    b = {"verdict": "suspicious", "status": {"power": "flag"}, "figures": {"power": {"ratio": 0.3}}}
    left, right = _write(tmp_path / "a.jsonl", a, a), _write(tmp_path / "b.jsonl", a, b)
    assert diff(left, left) == []
    assert diff(left, right) == ["#1 verdict: consistent -> suspicious", "#1 power status: ok -> flag",
                                 "#1 power.ratio: 0.5 -> 0.3"]
    assert diff(left, _write(tmp_path / "c.jsonl", a)) == ["audits: 2 vs 1"]


def test_the_dump_records_the_audits_calibrate_makes_with_their_peers(tmp_path: Path) -> None:
    # Four LocalScore rows of one setup far below their ceiling: only peers catch a planted x10,
    # so a dump that dropped calibrate's peers would record "consistent" for the fakes.
    head = ("id\tgen_tps\tprompt_tps\tttft_ms\tmodel_name\tmodel_params\tmodel_params_unit\t"
            "model_quant\taccel_name\taccel_type\taccel_ram\taccel_ram_unit\n")
    rows = "".join(f"{i}\t{tok}\t21876.4\t61.2\tLlama 3.2 1B Instruct\t1200\tM\tQ4_K - Medium\t"
                   "NVIDIA GeForce RTX 4090\tGPU\t23.99\tGB\n"
                   for i, tok in ((1, 41.0), (2, 44.5), (3, 38.0), (4, 43.0)))
    board = tmp_path / "board"
    board.mkdir()
    (board / "export.tsv").write_text(head + rows)
    out = tmp_path / "dump.jsonl"
    assert dump(board, out) == 12  # four honest audits, then a x3 and a x10 of each
    verdicts = [json.loads(line)["verdict"] for line in out.read_text().splitlines()]
    assert verdicts.count("consistent") == 4 and verdicts.count("suspicious") == 8
