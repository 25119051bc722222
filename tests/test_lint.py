"""ruff and mypy over the source packages, the tests and the benchmarks, so CI keeps them clean
(STYLE.md: "ruff and mypy clean"; the tests and benchmarks count too). One mypy run covers them
all, to keep this test fast."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["checks", "extractors", "bot", "tests", "benchmarks"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_is_clean() -> None:
    done = _run("ruff", "check", *PACKAGES)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean() -> None:
    done = _run("mypy", *PACKAGES)
    assert done.returncode == 0, done.stdout + done.stderr
