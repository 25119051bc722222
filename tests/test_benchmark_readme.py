"""The README's benchmark table is `python -m benchmarks`' output (benchmarks/results.json),
rendered by `python -m benchmarks.readme`, never typed by hand."""

from __future__ import annotations

import json

from benchmarks.readme import END, RESULTS, ROOT, START, section


def test_section_renders_the_run_with_its_date_and_machine() -> None:
    results = {"date": "2026-12-01 20:00 UTC",
               "machine": {"cores": 2, "python": "3.11.7", "platform": "Linux-x", "processor": "x86_64"},
               "rows": [{"bench": "sweep 10k", "figure": "records/s", "value": 2500.0, "unit": "rec/s",
                         "baseline": "json.load rows/s", "baseline_value": 100000.0,
                         "target": "≥ 2,000", "met": True, "note": "", "ratio": 0.025}]}
    block = section(results)
    assert block.startswith(START) and block.endswith(END)
    assert "Latest run — 2026-12-01 20:00 UTC · 2 cores · Python 3.11.7 · Linux-x" in block
    assert ("| sweep 10k | records/s | 2,500 rec/s | json.load rows/s | 100,000 rec/s | 0.025× | "
            "≥ 2,000 | yes |") in block


def test_readme_holds_the_last_run_as_rendered() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(START)
    end = readme.index(END) + len(END)
    assert readme[start:end] == section(json.loads(RESULTS.read_text(encoding="utf-8")))
