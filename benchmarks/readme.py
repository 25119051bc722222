"""`python -m benchmarks.readme`: the README's benchmark table rewritten from the last run's
benchmarks/results.json (what `python -m benchmarks` printed, with its date and machine), between
the benchmark-table markers, so the table in the README is the command's output, never typed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from benchmarks.table import Row, render_table

__all__ = ["END", "START", "main", "section"]

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results.json"
START = "<!-- benchmark table: python -m benchmarks, then python -m benchmarks.readme -->"
END = "<!-- /benchmark table -->"


def section(results: dict[str, Any]) -> str:
    """The README block for one run: its date and machine, then the table as printed."""
    box = results["machine"]
    rows = [Row(**{k: v for k, v in r.items() if k != "ratio"}) for r in results["rows"]]
    head = (f"Latest run — {results['date']} · {box['cores']} cores · Python {box['python']} · "
            f"{box['platform']} (`benchmarks/results.json`):")
    return f"{START}\n\n{head}\n\n{render_table(rows)}\n\n{END}"


def main(argv: list[str] | None = None) -> int:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        print(f"README.md has no {START!r} … {END!r} block", file=sys.stderr)
        return 2
    block = section(json.loads(RESULTS.read_text(encoding="utf-8")))
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    readme.write_text(before + block + after, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
