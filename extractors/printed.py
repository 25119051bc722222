"""A tool's printout inside a text, read back into the record the tool saves.

Members paste, attach or screenshot a tool's output more often than its JSON file; each shape
found is turned back into that file, so the tool's own format reader reads it, whichever door
the text came in by (a chat message, `/audit`, the command line, a text file, a screenshot):

- `llama-bench -o csv`: the same fields as `-o json` (ggml-org/llama.cpp
  `tools/llama-bench/README.md`, "Output formats"; `llama-bench.cpp` `csv_printer` writes
  `test::get_fields()`, the JSON printer the same fields), so the CSV rows become the JSON
  array the llama-bench format reads.
- `vllm bench serve`'s result block: the `--save-result` record, the lines around the block as
  its notes (`extractors.image.printouts.vllm_serve_record`).

Each shape is looked for only when a cheap test of the text finds its marker, so a text that
pastes neither costs two substring searches.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass

from extractors.image.printouts import vllm_serve_record

__all__ = ["Printout", "llama_bench_csv_record", "printout_record"]


@dataclass(frozen=True)
class Printout:
    """One printout found: the JSON its tool would have saved, and the tool's name."""

    record: str
    tool: str


MAX_CSV_ROWS = 500  # a pasted sweep; more is a file, not a message
_LLAMA_CSV_KEYS = ("avg_ts", "model_type")


def _value(cell: str) -> int | float | str:
    """A CSV cell as the JSON printer writes it: numbers as numbers, the rest as strings."""
    try:
        return int(cell)
    except ValueError:
        pass
    try:
        number = float(cell)
    except ValueError:
        return cell
    return number if number == number and abs(number) != float("inf") else cell


def llama_bench_csv_record(text: str) -> str | None:
    """The `-o json` array of a pasted `llama-bench -o csv` output, or None if the text holds
    none. The header line is found anywhere in the text (a prompt line may precede it)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if all(key in line for key in _LLAMA_CSV_KEYS) and line.count(",") >= 5:
            body = [line]
            for row in lines[i + 1:i + 1 + MAX_CSV_ROWS]:
                if row.count(",") < 5:
                    break
                body.append(row)
            rows = [{k: _value(v) for k, v in r.items() if k and v is not None}
                    for r in csv.DictReader(io.StringIO("\n".join(body)))]
            rows = [r for r in rows if "avg_ts" in r]
            return json.dumps(rows) if rows else None
    return None


# The vLLM block's banner as printed; a screenshot's OCR text goes to `vllm_serve_record`
# itself, which tolerates OCR's slips.
_VLLM_MARK = re.compile(r"(?i)benchmark\s*result")


def printout_record(text: str) -> list[Printout]:
    """Every tool printout the text holds, as the records their tools save (none: an empty list)."""
    found: list[Printout] = []
    if "avg_ts" in text and (bench := llama_bench_csv_record(text)) is not None:
        found.append(Printout(bench, "llama-bench"))
    if _VLLM_MARK.search(text) and (serve := vllm_serve_record(text)) is not None:
        found.append(Printout(serve, "vllm bench serve"))
    return found
