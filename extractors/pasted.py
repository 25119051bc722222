"""A chat message as the documents it holds: pasted tool output read like the file it came from.

Members paste a tool's output into chat — in a ``` code block or not — more often than they
attach its file. Each shape is turned back into the document its tool writes, so it is read by
the same format reader as the file would be, with the same provenance ("pasted <tool> output"):

- `llama-bench -o csv`: the same fields as `-o json` (ggml-org/llama.cpp
  `tools/llama-bench/README.md`, "Output formats"; `llama-bench.cpp` `csv_printer` writes
  `test::get_fields()`, the JSON printer the same fields), so the CSV rows become the JSON
  array the llama-bench format reads.
- `vllm bench serve`'s result block: the `--save-result` record
  (`extractors.image.printouts.vllm_serve_record`, shared with screenshots).
- A Markdown or aligned table whose header carries a unit (llama-bench's default `-o md`
  table, `| test | t/s |`): the table's rows as sentences with their units
  (`extractors.image.layout` tables + `extractors.web.post.table_sentences`, the same rebuild
  an OCR'd screenshot gets), appended to the message text.
- Log lines (llama.cpp's `eval time = … tokens per second`, SGLang's `gen throughput (token/s)`)
  are text the text reader reads already: they stay in the message text.

Everything is linear in the message: one pass over its lines per shape.
"""

from __future__ import annotations

import csv
import io
import json

from extractors.document import RawDocument
from extractors.image.layout import _tables
from extractors.image.printouts import vllm_serve_record
from extractors.web.post import table_sentences

__all__ = ["FENCE", "is_tool_output", "llama_bench_csv_record", "pasted_documents", "strip_fences"]

FENCE = "```"
MAX_CSV_ROWS = 500  # a pasted sweep; more is a file, not a message
_LLAMA_CSV_KEYS = ("avg_ts", "model_type")


def strip_fences(text: str) -> str:
    """The text with its code-fence lines removed (a fence's language tag with it): what is
    inside a code block is read like what is outside it."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(FENCE))


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


def _table_text(text: str) -> str:
    """The message text with each unit-headed table followed by one sentence per row."""
    lines = text.splitlines()
    blocks = _tables(lines)
    if not blocks:
        return text
    out: list[str] = []
    at = 0
    for block in blocks:
        out.extend(lines[at:block.last])
        out.append("")
        out.extend(table_sentences(block.rows))
        out.append("")
        at = block.last
    out.extend(lines[at:])
    return "\n".join(out)


def pasted_documents(text: str) -> list[RawDocument]:
    """The documents a message holds: a tool's record for each pasted output recognised, then
    the text itself (tables spelled out) unless a record already holds all of it."""
    plain = strip_fences(text)
    docs: list[RawDocument] = []
    if (bench := llama_bench_csv_record(plain)) is not None:
        docs.append(RawDocument(bench.encode(), source="pasted llama-bench output"))
    if (serve := vllm_serve_record(plain)) is not None:
        docs.append(RawDocument(serve.encode(), source="pasted vllm bench serve output"))
    if docs:
        return docs
    return [RawDocument.from_text(_table_text(plain))]


def is_tool_output(text: str) -> bool:
    """Does the text paste a tool's output (in a code block or not): a llama-bench CSV, a `vllm bench
    serve` block or a table whose header carries a unit?"""
    plain = strip_fences(text)
    if llama_bench_csv_record(plain) is not None or vllm_serve_record(plain) is not None:
        return True
    return "|" in plain and bool(_tables(plain.splitlines()))
