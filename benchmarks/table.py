"""The benchmark table: one row per figure, each beside the baseline it is divided by.

A benchmark module exposes `run(budget) -> list[Row]`; `benchmarks/__main__.py` lists the modules,
prints the rows as a table and writes them to `benchmarks/results.json`. A new benchmark is one
more module in that list.
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["Budget", "Row", "machine", "render_table"]


@dataclass(frozen=True)
class Row:
    """One figure: its absolute value, the baseline measured in the same run, their ratio, and
    the target when there is one (`met` None: no target, or not measured)."""

    bench: str  # "sweep 10k", "audit text claim", "cold start"
    figure: str  # "records/s", "p50", "peak RSS"
    value: float | None
    unit: str
    baseline: str  # what the value is divided by: "json.load of the same bytes"
    baseline_value: float | None
    target: str = ""
    met: bool | None = None
    note: str = ""  # why a figure is missing or a target missed

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.baseline_value:
            return None
        return self.value / self.baseline_value

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio}


class Budget:
    """The wall-clock allowance of the whole run (3 minutes on 2 cores): a benchmark that would
    overrun it says so and is not run, rather than measuring less."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._start = time.perf_counter()

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self._start)


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "processor": platform.machine(),
    }


def _fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "—"
    text = f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"
    return f"{text} {unit}".strip()


def render_table(rows: list[Row]) -> str:
    """A Markdown table (it goes into the README as printed)."""
    out = ["| benchmark | figure | value | baseline | baseline value | ratio | target | met |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = "—" if r.ratio is None else f"{r.ratio:.3g}×"
        met = {True: "yes", False: "**no**", None: ""}[r.met]
        note = f" ({r.note})" if r.note else ""
        out.append(f"| {r.bench} | {r.figure} | {_fmt(r.value, r.unit)}{note} | {r.baseline} | "
                   f"{_fmt(r.baseline_value, r.unit)} | {ratio} | {r.target} | {met} |")
    return "\n".join(out)
