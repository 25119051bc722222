"""A chat message as the documents it holds: pasted tool output read like the file it came from.

Members paste a tool's output into chat — in a ``` code block or not — more often than they
attach its file. Each shape is turned back into the document its tool writes, so it is read by
the same format reader as the file would be, with the same provenance ("pasted <tool> output"):

- `llama-bench -o csv` and `vllm bench serve`'s result block: the records their tools save
  (`extractors.printed`, which every door reads a text through).
- A Markdown or aligned table whose header carries a unit (llama-bench's default `-o md`
  table, `| test | t/s |`): the table's rows as sentences with their units
  (`extractors.image.layout` tables + `extractors.web.post.table_sentences`, the same rebuild
  an OCR'd screenshot gets), appended to the message text (`spell_tables`; every other door
  reads a text's tables so when the text alone gives no figure: `extractors.evidence`).
- Log lines (llama.cpp's `eval time = … tokens per second`, SGLang's `gen throughput (token/s)`)
  are text the text reader reads already: they stay in the message text.

Everything is linear in the message: one pass over its lines per shape.
"""

from __future__ import annotations

from extractors.document import RawDocument
from extractors.image.layout import _tables
from extractors.printed import printout_record
from extractors.web.post import table_sentences

__all__ = ["FENCE", "is_tool_output", "pasted_documents", "spell_tables", "strip_fences"]

FENCE = "```"


def strip_fences(text: str) -> str:
    """The text with its code-fence lines removed (a fence's language tag with it): what is
    inside a code block is read like what is outside it."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(FENCE))


def spell_tables(text: str) -> str:
    """The text with each unit-headed table followed by one sentence per row."""
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
    docs = [RawDocument(p.record.encode(), source=f"pasted {p.tool} output") for p in printout_record(plain)]
    if docs:
        return docs
    return [RawDocument.from_text(spell_tables(plain))]


def is_tool_output(text: str) -> bool:
    """Does the text paste a tool's output (in a code block or not): a llama-bench CSV, a `vllm bench
    serve` block or a table whose header carries a unit?"""
    plain = strip_fences(text)
    if printout_record(plain):
        return True
    return "|" in plain and bool(_tables(plain.splitlines()))
