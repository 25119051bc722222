"""Cold start: a fresh interpreter running `claimcheck --help` and `claimcheck audit --example`,
against `python -c pass` (the interpreter alone), median of `REPEAT` runs each, after one run
that leaves the bytecode compiled, as an installed package has it, and the CLI's compiled
patterns and loaded reference kept (`extractors.text.compiled`, `bot.reference_cache`: the
user cache dir, as every run after a user's first finds them).
Target (issue 8): `audit --example` cold in < 0.3 s.

A third row runs it with nothing kept (PYTHONDONTWRITEBYTECODE=1: the bytecode is still read,
the CLI neither reads nor writes its patterns and reference), what a user's first run costs.
"""

from __future__ import annotations

import sys

from benchmarks.measure import median_run, run_command
from benchmarks.table import Budget, Row

__all__ = ["REPEAT", "run"]

REPEAT = 9


def run(budget: Budget) -> list[Row]:
    example = [sys.executable, "-m", "bot.cli", "audit", "--example"]
    run_command(example)  # writes the bytecode, the patterns and the reference
    base = median_run([sys.executable, "-c", "pass"], REPEAT)
    helped = median_run([sys.executable, "-m", "bot.cli", "--help"], REPEAT)
    kept = median_run(example, REPEAT)
    # `run_command` drops PYTHONDONTWRITEBYTECODE from the environment; `env` puts it back.
    first = median_run(["env", "PYTHONDONTWRITEBYTECODE=1", *example], REPEAT)
    return [
        Row("cold start", "claimcheck --help", helped.seconds, "s", "python -c pass", base.seconds),
        Row("cold start", "claimcheck audit --example", kept.seconds, "s", "python -c pass",
            base.seconds, target="< 0.3 s", met=kept.code == 0 and kept.seconds < 0.3),
        Row("cold start", "audit --example, nothing kept", first.seconds, "s", "python -c pass",
            base.seconds, note="" if first.code == 0 else f"exit {first.code}"),
    ]
