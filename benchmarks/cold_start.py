"""Cold start: a fresh interpreter running `claimcheck --help` and `claimcheck audit --example`,
against `python -c pass` (the interpreter alone), median of `REPEAT` runs each, after one run
that leaves the bytecode compiled, as an installed package has it.
Target (issue 8): `audit --example` cold in < 0.3 s.
"""

from __future__ import annotations

import sys

from benchmarks.measure import median_run, run_command
from benchmarks.table import Budget, Row

__all__ = ["REPEAT", "run"]

REPEAT = 7


def run(budget: Budget) -> list[Row]:
    run_command([sys.executable, "-m", "bot.cli", "audit", "--example"])  # writes the bytecode
    base = median_run([sys.executable, "-c", "pass"], REPEAT)
    helped = median_run([sys.executable, "-m", "bot.cli", "--help"], REPEAT)
    example = median_run([sys.executable, "-m", "bot.cli", "audit", "--example"], REPEAT)
    return [
        Row("cold start", "claimcheck --help", helped.seconds, "s", "python -c pass", base.seconds),
        Row("cold start", "claimcheck audit --example", example.seconds, "s", "python -c pass",
            base.seconds, target="< 0.3 s", met=example.code == 0 and example.seconds < 0.3),
    ]
