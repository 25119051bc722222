"""benchmarks.answers_dump: what must not change between two versions of the checks, and its diff."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from benchmarks.answers_dump import diff, summary_of
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
