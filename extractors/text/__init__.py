"""Read a speed claim out of plain text: a post, pasted notes, a launch command or a log.

`parse_text(doc, ref)` runs three readers over the sanitised text, in this order, and the first
value set for a field wins:
1. `launch` — launch and benchmark commands and env assignments ("launch_command", "env");
2. `logs` — engine log lines and benchmark printouts ("vllm_log", "sglang_log", "llama_log",
   "dflash_benchmark", "bench_one_batch");
3. `freetext` — prose ("free_text"), over the text left once commands, log lines and URLs are
   blanked out, so no statement is read twice.

`kind` is "log" when log lines were read and the prose quotes no tok/s figure of its own,
"config" when a command was found and the rest is at most a few words quoting no tok/s figure,
else "post". `numbers` lists every tok/s figure seen, prose first, for matching a post's
number to a record. Nothing here raises on input: a reader that fails is reported in `warnings`
and the others still run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal, TypeVar

from pydantic import BaseModel, Field

from checks.models import Claim
from checks.reference import Reference
from checks.text import sanitise
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.text.freetext import FreeTextReading, read_free_text
from extractors.text.launch import LaunchReading, plain_decode, read_launch
from extractors.text.lazyre import lazy
from extractors.text.logs import LogReading, read_logs
from extractors.text.rows import RowReading, read_rows

T = TypeVar("T")

__all__ = ["TextReading", "find_links", "parse_text"]

MAX_TEXT = 4_000_000  # characters; a pasted log larger than this is read in part
MAX_LINKS = 100
CONFIG_MAX_WORDS = 30  # prose around a pasted command before it counts as a post
Kind = Literal["log", "config", "post"]
_URL = lazy(r"https?://[^\s<>\"'`\[\]{}()|\\^]+", re.IGNORECASE)


class TextReading(BaseModel):
    """What one piece of text says: the claim, which readers matched, links and tok/s figures."""

    claim: Claim
    found: list[str] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    kind: Kind = "post"
    numbers: list[float] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    # the claim's table mates: the other decode rows of its pasted table on its machine, each the
    # claim with that row's own cells (`_table_mates`); its peers in the audit (build_evidence)
    table_rows: list[Claim] = Field(default_factory=list)


def find_links(text: str) -> list[str]:
    """http(s) URLs in order of appearance, trailing punctuation trimmed, duplicates dropped."""
    return _links(list(_URL.finditer(text)))


def _links(urls: list[re.Match[str]]) -> list[str]:
    out: list[str] = []
    for m in urls:
        url = m.group(0).rstrip(".,;:!?*_~'\"")
        if url not in out and len(url) > len("https://"):
            out.append(url)
        if len(out) >= MAX_LINKS:
            break
    return out


# Hyphens a word processor puts in names ("gpt‑oss‑120b" with U+2011 non-breaking hyphens) are the
# hyphen the tables spell; one character each, so every offset stays. The en dash stays a range's.
_HYPHENS = ("\u2010", "\u2011", "\u2012")


def _hyphens(text: str) -> str:
    for h in _HYPHENS:  # `in` and `replace` run in C; `translate` walks a 900 KB log in Python's mapping
        if h in text:
            text = text.replace(h, "-")
    return text


def parse_text(doc: RawDocument, ref: Reference) -> TextReading:
    """The claim a text makes, with provenance for every field; never raises on input."""
    warnings: list[str] = []
    try:
        raw = doc.text
    except Exception as exc:  # noqa: BLE001 - a document we cannot decode is an empty reading
        return TextReading(claim=Claim(), warnings=[f"text could not be decoded: {exc}"])
    if len(raw) > MAX_TEXT:
        warnings.append(f"text longer than {MAX_TEXT:,} characters; read the first part only")
    text = _hyphens(sanitise(raw[: MAX_TEXT + 1], limit=MAX_TEXT))
    b = ClaimBuilder(doc.source)
    urls = list(_URL.finditer(text))  # one pass: the links, and the spans the prose skips
    links: list[str] = _safely(lambda: _links(urls), [], "links", warnings)
    launch = _safely(lambda: read_launch(text, b, ref), LaunchReading(), "launch", warnings)
    logs = _safely(lambda: read_logs(text, b, ref), LogReading(), "logs", warnings)
    rest = _blank(text, [*launch.spans, *logs.spans, *((m.start(), m.end()) for m in urls)])
    rows = _safely(lambda: read_rows(rest, b, ref), RowReading(), "table rows", warnings)
    rest = _blank(rest, rows.spans)
    free = _safely(lambda: read_free_text(rest, b, ref), FreeTextReading(), "free text", warnings)
    if rows.model is not None:  # a tool's own "<arch> <size>" only when the prose named no model
        b.set("model", rows.model[0], field=rows.model[1], span=rows.model[2])
    if rows.weight_format is not None:
        b.set("weight_format", rows.weight_format[0], field=rows.weight_format[1],
              span=rows.weight_format[2])
    if launch.plain is not None:  # last: a method named in the prose or a log outranks it
        plain_decode(b, launch.plain[1], field=launch.plain[0])
    found = [*launch.found, *logs.found] + (["table_rows"] if rows.found else []) + (
        ["free_text"] if free.found else [])
    numbers = list(dict.fromkeys([*rows.numbers, *free.numbers, *logs.numbers]))
    if rows.others:  # one pasted table: one command's output on one machine (rows.py module doc)
        b.set("machine", f"the table pasted in {doc.source} at line {rows.line}", field="table rows",
              span=f"{len(rows.others) + 1} decode rows of one table")
    claim = _safely(b.build, Claim(), "claim", warnings)
    none: list[Claim] = []
    mates = _safely(lambda: _table_mates(claim, rows), none, "table rows", warnings)
    return TextReading(
        claim=claim, found=found, links=links, kind=_kind(launch, logs, free, rest),
        numbers=numbers, warnings=[*warnings, *launch.warnings, *logs.warnings], table_rows=mates,
    )


def _table_mates(claim: Claim, rows: RowReading) -> list[Claim]:
    """The claim as each other row of its table gives it: the row's own cells replace the chosen
    row's; a value the chosen row gave and this row lacks is dropped; what the rest of the text
    says (the model named in the prose, the card, the format) holds for every row. Each mate's
    `record_id` names its line."""
    own = rows.own
    if own is None:
        return []
    own_fields = own.model_fields_set - {"provenance"}
    out = []
    for line, row in rows.others:
        update: dict[str, object] = {}
        for name in own_fields | (row.model_fields_set - {"provenance"}):
            mine, theirs = getattr(own, name), getattr(row, name)
            if theirs == mine:
                continue  # as the chosen row: the claim's reading holds (a prose model outranks a cell)
            if name in row.model_fields_set:
                update[name] = theirs
            elif getattr(claim, name) == mine:
                update[name] = Claim.model_fields[name].get_default(call_default_factory=True)
        update["record_id"] = f"table row at line {line}"
        # where each value came from: the row's own cells, the rest as the claim's
        prov = {k: v for k, v in claim.provenance.items() if k not in update}
        prov.update({k: v for k, v in row.provenance.items() if k in update})
        out.append(claim.model_copy(update={**update, "provenance": prov}))
    return out


def _safely(fn: Callable[[], T], default: T, what: str, warnings: list[str]) -> T:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - one reader's bug must not cost the others
        warnings.append(f"the {what} reader failed on this text ({type(exc).__name__}); skipped")
        return default


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with each span replaced by spaces (newlines kept), so offsets stay valid."""
    # The spans merged, then each blanked as one slice: a log's consumed lines are most of it,
    # and blanking them character by character in Python cost more than reading them.
    merged: list[list[int]] = []
    for start, end in sorted((max(0, s), min(e, len(text))) for s, e in spans):
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    if not merged:
        return text
    out, pos = [], 0
    for start, end in merged:
        out.append(text[pos:start])
        out.append("\n".join(" " * len(part) for part in text[start:end].split("\n")))
        pos = end
    out.append(text[pos:])
    return "".join(out)



def _kind(launch: LaunchReading, logs: LogReading, free: FreeTextReading, rest: str) -> Kind:
    if logs.found and not free.numbers:
        return "log"
    if "launch_command" in launch.found and not free.numbers:
        words = re.findall(r"[A-Za-z]{2,}", re.sub(r"(?m)^[ \t]*(?:```|~~~).*$", "", rest))
        if len(words) <= CONFIG_MAX_WORDS:
            return "config"
    return "post"
