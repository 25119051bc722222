"""`python -m benchmarks`: every benchmark in one run (about 7 minutes on 2 cores: the sweeps
of 100k records with text take most of it), printed as a table and written to benchmarks/results.json. Each figure is a ratio against a baseline measured
in the same run, its absolute value beside it. A new benchmark is one more entry in `SUITES`.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import audit_latency, bot_latency, cold_start, sweep_scale, text_speed
from benchmarks.table import Budget, Row, machine, render_table

# Cheap ones first; the text reading and the bot after the sweeps: Linux keeps a process's peak
# RSS across fork and exec, so a sweep launched after a 900 KB text was read here, or after
# discord.py and simcord were imported, would report at least this process's size as its own.
SUITES = (cold_start, audit_latency, sweep_scale, text_speed, bot_latency)
BUDGET_S = 480.0
RESULTS = Path(__file__).with_name("results.json")


def main(argv: list[str] | None = None) -> int:
    """`python -m benchmarks [SUITE ...]`: every suite, or those named (`sweep_scale`, …)."""
    names = argv if argv is not None else sys.argv[1:]
    budget = Budget(BUDGET_S)
    rows = []
    for suite in SUITES:
        name = suite.__name__.rsplit(".", 1)[-1]
        if names and name not in names:
            continue
        try:
            rows += suite.run(budget)
        except Exception as exc:  # noqa: BLE001 - one suite's failure must not lose the others' rows
            rows.append(Row(name, "run", None, "", "", None, met=False,
                            note=f"failed: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}"))
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    box = machine()
    header = (f"{when} · {box['cores']} cores · Python {box['python']} · {box['platform']} · "
              f"run took {BUDGET_S - budget.left():.0f} s")
    print(header)
    print(render_table(rows))
    RESULTS.write_text(json.dumps({"date": when, "machine": box, "rows": [r.as_json() for r in rows]},
                                  indent=2) + "\n", encoding="utf-8")
    missed = [f"{r.bench} {r.figure}" for r in rows if r.met is False]
    if missed:
        print("targets missed: " + "; ".join(missed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
