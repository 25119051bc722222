"""Table rows pasted as text: `header: value; header: value` lines and Markdown pipe tables.

A row of a benchmark table names each figure by its column header, so the header says what the
figure is. Two shapes are read:
- a line of `header: value` cells joined by "; " (how a table row reads when copied out of a
  rendered page or a spreadsheet, and how the calibration corpus writes Markdown rows); text
  before the first cell is the row's context and is left for the prose readers;
- a Markdown pipe table (`| model | size | ... |` over a `|---|` rule), in or out of a code
  block, in a tool's own shape (llama-bench, llama-sweep-bench, llama-batched-bench): each body
  row is read against the header. Other tables in a post (an essay's "| Window | AL | tok/s |"
  comparison) are left to the prose readers, which weigh baselines and controls.

What the headers mean, each with its reason:
- llama.cpp `llama-bench` (ggml-org/llama.cpp `tools/llama-bench/README.md`, its Markdown
  output): `model` is "<arch> <size label> <file type>" ("llama 8B Q8_K_R8", "deepseek2 671B
  Q8_0"), `size` the GGUF file's size (the weight footprint), `params` the parameter count
  ("8.03 B"), `backend`, `ngl` the layers on the GPU, `test` "tgN" (decode of N tokens) or "ppN"
  (prompt processing of N tokens) or "ppN+tgM" (both, timed together), `t/s` "mean ± sd".
  llama-bench has no speculative decoding (no draft-model option in that README), so a tg row is
  plain decode.
- `llama-sweep-bench` (ikawrakow/ik_llama.cpp `examples/sweep-bench/README.md`): `PP`, `TG`,
  `N_KV`, `T_PP s`, `S_PP t/s`, `T_TG s`, `S_TG t/s`: S_TG is the decode rate of TG tokens over
  T_TG seconds, S_PP the prompt-processing rate. Plain decode too (no draft option). `N_KV` is
  the tokens already in the KV cache when the PP/TG step runs (`kv_depth`), as is llama-bench's
  "tg128 @ d4096" (`-d 4096`).
- `llama-batched-bench` (ggml-org/llama.cpp `tools/batched-bench/README.md`) adds `B`, the
  number of sequences decoded at once, and `T s` / `S t/s`: its S_TG is B × TG / T_TG, every
  sequence counted, so with B > 1 the figure is an aggregate at batch B.
- Any other header holding a rate unit ("prompt eval t/s", "tok/s", "tokens/s") with a bare number
  is a tok/s figure (a unit in brackets, "Speed (T/s)", "Throughput (out tok/s/GPU)", is left to
  the prose reader's label rule, which reads per-GPU, output and total qualifiers); words in the header say which rate it is: "prompt eval", "pp", "prefill",
  "S_PP" prefill, never judged against the decode ceiling; "eval", "tg", "S_TG", "generation"
  decode (with both, the first: "generation speed … with a prompt of 1024 tokens" is decode);
  "output" alone an output figure ("Output tok/s" of a serving run counts every request's
  tokens). A header with no such word leaves the kind to the prose around it.
- A size column in billions ("Size (B): 12") is the parameter count; "B" there cannot be bytes
  (a 12-byte model holds nothing). "30 - A3" there is a MoE's total and active count (the
  Qwen3-30B-A3B spelling).
- "Type: MLX; Quant: 4" is MLX's 4-bit format (mlx-lm's `--q-bits`).
- A speculative-decoding column ("Spec Dec (B): 1.5") holding a value means a drafter was used;
  "-", "none", "no" or an empty cell mean it was not.

Among several rate rows (a pasted table) the claim is the first decode row: llama-bench prints
pp before tg for each model, and one claim is read per text. Every cell read is blanked for the
prose readers, so "t/s: 18.10" is not read twice; the row's context is not.

The chosen row's table mates (`RowReading.others`): the other decode rows of the same tool's
table with the same settings cells (backend, ngl, threads, …: every cell but the figures and what
ran — model, size, params, test, PP, TG, N_KV, B and the timings), each as the Claim of its own
cells. One pasted table is one command's output on one machine (the rule extractors/post_rig.py
applies to a post), so the text reader gives them one `Claim.machine` and the audit bounds the
claim by them (checks/peers.py). A row of another backend or thread count is another setup of
the machine, never its peer. A table is the rows under one header (pipe tables) or consecutive
`header: value` lines with the same headers at most `_ROW_GAP` lines apart.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from checks.models import Claim
from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.text.lazyre import lazy
from extractors.text.lines import MAX_NUMBERS
from extractors.text.models import spell_model
from extractors.text.quants import size_in_bytes, spell_format
from extractors.text.units import parse_int, parse_positive

__all__ = ["RowReading", "read_rows"]

# Cells that say what ran or what was measured, not how the machine was set up: rows differing
# only in these are one machine's runs (see the module doc).
_WHAT_RAN = frozenset({"model", "size", "params", "test", "pp", "tg", "n_kv", "b", "t_pp s",
                       "t_tg s", "t s"})
_ROW_GAP = 2  # lines between two `header: value` rows of one table (a blank line between them)

MAX_ROWS = 2000  # rows looked at per text; a pasted table longer than this is read in part
MAX_LINE = 4000  # characters of one line examined for cells
_RATE_UNIT = lazy(r"(?i)(?<![A-Za-z])(?:t|tok|toks|tokens?)\s?/\s?s(?:ec)?(?![A-Za-z])|"
                        r"(?<![A-Za-z])tps(?![A-Za-z])")
_MEAN = lazy(r"^\s*+(?P<v>\d[\d,]*+(?:\.\d++)?+)(?:\s*+(?:±|\+/-|\+-)\s*+\d[\d,]*+(?:\.\d++)?+)?+"
                   r"\s*+$")
# llama-bench's test names; builds before mid-2024 printed them with a space ("pp 512", "tg 128").
_TEST = lazy(r"(?i)^\s*(?:(?P<pp>pp)\s?(?P<np>\d{1,7})(?:\s*\+\s*tg\s?(?P<ng2>\d{1,7}))?|"
                   r"(?P<tg>tg)\s?(?P<ng>\d{1,7}))(?:\s*@\s*d(?P<d>\d{1,7}))?\s*$")
_PREFILL_WORDS = lazy(r"(?i)\bprompt\b|\bpre-?fill\b|(?<![A-Za-z])(?:S_)?pp(?:\d+)?(?![A-Za-z])|"
                            r"\binput\b")
_DECODE_WORDS = lazy(r"(?i)\beval\b|(?<![A-Za-z])(?:S_)?tg(?:\d+)?(?![A-Za-z])|\bgen(?:eration)?\b|"
                           r"\bdecod(?:e|ing)\b")
_OUTPUT_WORDS = lazy(r"(?i)\boutput\b")
_PARAMS = lazy(r"(?i)^\s*+(?P<v>\d{1,6}+(?:\.\d++)?+)\s*+(?P<u>[KMBT])?+\s*+$")
_TOTAL_ACTIVE = lazy(r"^\s*+(?P<t>\d{1,4}+(?:\.\d{1,2}+)?+)(?:\s*+[-,/]?\s*+A(?P<a>\d{1,4}+(?:\.\d{1,2}+)?+)B?)?+"
                           r"\s*+$", re.IGNORECASE)
_PARAM_UNITS = {"k": 1e-6, "m": 1e-3, "b": 1.0, "t": 1e3}
_BILLIONS = lazy(r"(?i)^(?:model\s+)?(?:size|params?|parameters)\s*\(\s*B\s*\)$")
_SPEC_COL = lazy(r"(?i)^(?:spec(?:ulative)?[\s_-]?(?:dec(?:oding)?|draft)|draft(?:er)?(?:\s+model)?)"
                       r"(?:\s*\(\s*B\s*\))?$")
_NONE = {"", "-", "--", "—", "–", "n/a", "na", "none", "no", "off", "false", "0"}
_MODEL_TYPE = lazy(r"^(?P<arch>[A-Za-z][\w.-]{0,40})\s+(?P<size>\d{1,4}(?:\.\d{1,2})?[BM]"
                         r"(?:[.-]?A\d{1,3}(?:\.\d{1,2})?B)?|\d{1,3}x\d{1,4}(?:\.\d{1,2})?B)\s+"
                         r"(?P<ftype>\S.{0,60})$")
_BRACKETED = lazy(r"[(\[][^()\[\]]{0,40}(?:/\s?s|tps)[^()\[\]]{0,20}[)\]]", re.IGNORECASE)
_RULE = lazy(r"^\s*+\|?+\s*+:?+-{2,}+:?+\s*+(?:\|\s*+:?+-++:?+\s*+)*+\|?+\s*+$")


@dataclass
class _Cell:
    key: str  # the header, as written
    value: str
    start: int  # where the cell's text (header and value) starts in the whole text
    end: int


@dataclass
class RowReading:
    found: bool = False
    # llama-bench's "<arch> <size>" ("llama 8B"): the model only when the prose names none more
    # precisely ("Llama 3.1 8B" in a caption), so it is set after the prose readers
    model: tuple[str, str, str] | None = None  # (name, header, span)
    weight_format: tuple[str, str, str] | None = None  # its file type, the same way
    spans: list[tuple[int, int]] = field(default_factory=list)  # cells read (blanked for prose)
    numbers: list[float] = field(default_factory=list)
    # the chosen row's own cells as a Claim, and its table mates' (their line, their Claim): the
    # other decode rows of its table at the same settings (module doc); empty: none
    own: Claim | None = None
    others: list[tuple[int, Claim]] = field(default_factory=list)
    line: int = 0  # the chosen row's line in the text (1-based)


@dataclass
class _Rate:
    value: float
    kind: str | None
    cell: _Cell
    row: list[_Cell]
    tool: str | None  # "llama-bench" / "llama-sweep-bench" when the row has that tool's shape
    own: bool = True  # False: the figure is left to the prose reader, the other cells read here


def read_rows(text: str, b: ClaimBuilder, ref: Reference | None = None) -> RowReading:
    """Fill `b` from the table rows in text; first value wins, as everywhere."""
    out = RowReading()
    tables: list[int] = []
    rows = list(_rows(text, tables))
    rates = [r for row in rows for r in _rates(row)]
    if not rates:
        return out
    out.numbers = [r.value for r in rates if r.own][:MAX_NUMBERS]
    chosen = next((r for r in rates if r.kind == "decode"), None) or next(
        (r for r in rates if r.kind != "prefill"), rates[0])
    _fill(b, chosen)
    out.found = True
    if chosen.tool == "llama-bench":
        cell = next((c for c in chosen.row if _key(c.key) == "model"), None)
        if cell is not None and (m := _MODEL_TYPE.match(cell.value.strip())):
            raw = f"{m.group('arch')} {m.group('size')}"
            span = f"{cell.key}: {cell.value}"[:200]
            out.model = (spell_model(raw, ref) or raw, cell.key, span)
            ftype = m.group("ftype").strip()
            row = ref.format(ftype) if ref is not None else None
            out.weight_format = (row.name if row else spell_format(ftype), cell.key, span)
    for r in rates:  # every rate cell read here is blanked, whichever was chosen
        if r.own:
            out.spans.append((r.cell.start, r.cell.end))
    for cell in chosen.row if chosen.tool else []:  # the tool's own cells, read here in full
        if _key(cell.key) in ("size", "params", "test", "ngl"):  # "backend: M2-Max CPU" names the device
            out.spans.append((cell.start, cell.end))
    if chosen.kind == "decode" and chosen.tool is not None and chosen.own:
        table_of = {id(row): t for row, t in zip(rows, tables, strict=True)}
        here = _setup(chosen, table_of)
        mates = [r for r in rates if r is not chosen and r.kind == "decode" and r.own
                 and r.tool == chosen.tool and _setup(r, table_of) == here]
        if mates:
            # a row's line by bisection over the text's newlines: one pass, however many rows
            breaks = [m.start() for m in re.finditer("\n", text)]
            out.own = _row_claim(b.source, chosen, ref)
            out.others = [(bisect_left(breaks, r.cell.start) + 1, _row_claim(b.source, r, ref))
                          for r in mates]
            out.line = bisect_left(breaks, chosen.cell.start) + 1
    return out


def _setup(r: _Rate, table_of: dict[int, int]) -> tuple[int, tuple[tuple[str, str], ...]]:
    """A row's table and its settings cells: rows equal in both ran on one machine one way."""
    cells = tuple((_key(c.key), " ".join(c.value.split())) for c in r.row
                  if _key(c.key) not in _WHAT_RAN and _RATE_UNIT.search(c.key) is None)
    return table_of.get(id(r.row), -1), cells


def _row_claim(source: str, r: _Rate, ref: Reference | None) -> Claim:
    """One row's own cells as a Claim (what `_fill` reads, and a llama-bench row's model)."""
    b = ClaimBuilder(source)
    _fill(b, r)
    cell = next((c for c in r.row if _key(c.key) == "model"), None) if r.tool == "llama-bench" else None
    if cell is not None and (m := _MODEL_TYPE.match(cell.value.strip())):
        raw, ftype = f"{m.group('arch')} {m.group('size')}", m.group("ftype").strip()
        b.set("model", spell_model(raw, ref) or raw, field=cell.key, span=f"{cell.key}: {cell.value}"[:200])
        row = ref.format(ftype) if ref is not None else None
        b.set("weight_format", row.name if row else spell_format(ftype), field=cell.key,
              span=f"{cell.key}: {cell.value}"[:200])
    return b.build()


def _key(header: str) -> str:
    return " ".join(header.lower().split())


def _rows(text: str, tables: list[int] | None = None) -> list[list[_Cell]]:
    """The rows of the text's tables; `tables` gets each row's table number (module doc)."""
    out: list[list[_Cell]] = []
    header: list[str] | None = None
    pending: tuple[list[str], int] | None = None
    pos = 0
    table = -1
    last_pair: tuple[list[str], int] | None = None  # the last `header: value` row's headers, line
    for n, raw in enumerate(text.split("\n")):
        line = raw[:MAX_LINE]
        stripped = line.strip()
        if stripped.startswith("|") and stripped.count("|") >= 3:
            if _RULE.match(stripped) and pending is not None:
                header = pending[0]
                table += 1
            elif header is not None:
                row = _pipe_row(header, line, pos)
                if _tool(row) is not None:  # other tables in a post are the prose readers' to weigh
                    out.append(row)
                    if tables is not None:
                        tables.append(table)
            else:
                pending = (_pipe_cells(line), pos)
        else:
            header, pending = None, None
            if "; " in line and ": " in line:
                row = _pair_row(line, pos)
                if len(row) >= 2:
                    keys = [c.key for c in row]
                    if last_pair is None or last_pair[0] != keys or n - last_pair[1] > _ROW_GAP:
                        table += 1
                    last_pair = (keys, n)
                    out.append(row)
                    if tables is not None:
                        tables.append(table)
        pos += len(raw) + 1
        if len(out) >= MAX_ROWS:
            break
    return out


def _pipe_cells(line: str) -> list[str]:
    return [c.strip() for c in _pipe_segments(line)[1]]


def _pipe_row(header: list[str], line: str, pos: int) -> list[_Cell]:
    """A Markdown row's cells, each with its own place in the text: blanking the figure's cell
    leaves the others (a `hardware` column's card, a `model` column's name) to the prose readers."""
    out: list[_Cell] = []
    at, segments = _pipe_segments(line)
    for h, raw in zip(header, segments, strict=False):
        lead = len(raw) - len(raw.lstrip())
        start = pos + at + lead
        if h:
            out.append(_Cell(h, raw.strip(), start, start + len(raw.strip())))
        at += len(raw) + 1
    return out


def _pipe_segments(line: str) -> tuple[int, list[str]]:
    """Where a Markdown row's first cell starts in the line (past its opening pipe), and the raw
    text between its pipes."""
    body = line.rstrip()
    lead = body.find("|") + 1 if body.lstrip().startswith("|") else len(body) - len(body.lstrip())
    body = body[lead:]
    return lead, (body[:-1] if body.endswith("|") else body).split("|")


def _pair_row(line: str, pos: int) -> list[_Cell]:
    """`context: k: v; k: v` -> cells; the context (before the first cell's header) is not a cell."""
    cells: list[_Cell] = []
    at = 0
    for i, seg in enumerate(line.split("; ")):
        seg_start = at
        at += len(seg) + 2
        if i == 0:
            head, sep, value = seg.rpartition(": ")
            if not sep:
                return []
            ctx, sep2, key = head.rpartition(": ")
            key_start = seg_start + (len(ctx) + len(sep2) if sep2 else 0)
            if not sep2:  # "k: v" with no context: the whole first segment is the cell
                key_start = seg_start
            key = key if sep2 else head
            if "," in key and not sep2:  # "context, more context, k: v": the key is the last part
                lead, _, key = key.rpartition(", ")
                key_start = seg_start + len(lead) + 2
        else:
            key, sep, value = seg.partition(": ")
            key_start = seg_start
            if not sep:
                continue
        if 0 < len(key.strip()) <= 60:
            cells.append(_Cell(key.strip(), value.strip(), pos + key_start, pos + seg_start + len(seg)))
    return cells


def _rate_value(value: str) -> float | None:
    m = _MEAN.match(value)
    return parse_positive(m.group("v")) if m else None


def _tool(row: list[_Cell]) -> str | None:
    keys = {_key(c.key) for c in row}
    # "S_TG t/s (llama.cpp)" beside "S_TG t/s (ik_llama.cpp)": the same batched/sweep-bench run
    # by two builds, as llama-bench's "t/s (…)" comparisons below.
    bare = {k.split(" (", 1)[0] for k in keys}
    if "s_tg t/s" in bare or "s_pp t/s" in bare:
        return "llama-batched-bench" if "b" in keys else "llama-sweep-bench"
    # llama-bench's columns, or a comparison built on them: "t/s (llama.cpp)" and "t/s
    # (ik_llama.cpp)" beside its `test` column are the same test run by two builds.
    if "test" in keys and any(k == "t/s" or k.startswith("t/s (") for k in keys):
        return "llama-bench"
    return None


def _rates(row: list[_Cell]) -> list[_Rate]:
    tool = _tool(row)
    test = next((_TEST.match(c.value) for c in row if _key(c.key) == "test"), None)
    out = []
    for cell in row:
        unit = _RATE_UNIT.search(cell.key)
        if unit is None:
            continue
        value = _rate_value(cell.value)
        if value is None:
            continue
        # "Speed (T/s): 36", "Throughput (out tok/s/GPU): 3,214": the figure is the prose label
        # reader's (it reads per-GPU, output and total qualifiers); the row's other cells are ours.
        own = tool is not None or not _BRACKETED.search(cell.key)
        kind = _header_kind(cell.key)
        if kind is None and tool == "llama-bench" and test is not None:
            kind = "decode" if test.group("tg") else "total" if test.group("ng2") else "prefill"
        out.append(_Rate(value, kind, cell, row, tool, own))
    return out


def _header_kind(header: str) -> str | None:
    """The rate a header names, by its words (see the module doc); None when it names none."""
    words = _RATE_UNIT.sub(" ", header)
    prefill, decode = _PREFILL_WORDS.search(words), _DECODE_WORDS.search(words)
    if prefill and decode:
        # The rate's own noun comes first; a later word describes the cell: "generation speed
        # for 10 requests with a prompt of 1024 tokens" is decode, "prompt eval rate" prefill.
        return "prefill" if prefill.start() <= decode.start() else "decode"
    if prefill:
        return "prefill"
    if decode:
        return "decode"
    # "Output tok/s" beside a concurrency is every request's output tokens per second (vLLM's
    # `output_throughput`), not one request's rate: an output figure, counted as it stands.
    return "output" if _OUTPUT_WORDS.search(words) else None


def _fill(b: ClaimBuilder, r: _Rate) -> None:
    span = f"{r.cell.key}: {r.cell.value}"
    if r.own:
        b.set("tok_s", r.value, field=r.cell.key, span=span)
    cells = {_key(c.key): c for c in r.row}
    if r.own and r.kind is not None:
        test = cells.get("test") if r.tool == "llama-bench" and _header_kind(r.cell.key) is None else None
        # A kind the llama-bench test gave is said by the test ("test: pp4096+tg128" is a total).
        b.set("tok_s_kind", r.kind, field="test" if test else r.cell.key,
              span=f"{test.key}: {test.value}" if test else span)
    if r.tool is not None:
        b.set("engine", "llama.cpp" if r.tool == "llama-bench" else None, field="row shape",
              span=f"{r.tool} columns")
        if r.kind == "decode":
            b.set("speculative", False, field="row shape",
                  span=f"{r.tool} row: the tool has no speculative decoding")
            if r.tool != "llama-batched-bench":
                b.set("batch", 1, field="row shape", span=f"{r.tool} decodes one sequence")
    if (r.tool == "llama-bench" and (test := cells.get("test")) and (m := _TEST.match(test.value))
            and m.group("ng")):
        b.set("tokens_generated", parse_int(m.group("ng")), field="test", span=test.value)
        if m.group("d"):  # "tg128 @ d4096": decoded after 4096 tokens of context (llama-bench -d)
            b.set("kv_depth", parse_int(m.group("d")), field="test", span=test.value)
    if r.tool == "llama-sweep-bench" and r.kind == "decode" and (n_kv := cells.get("n_kv")) is not None:
        # N_KV: the tokens in the KV cache before the TG tokens are decoded (sweep-bench README)
        b.set("kv_depth", parse_int(n_kv.value), field=n_kv.key, span=f"{n_kv.key}: {n_kv.value}")
    if r.tool in ("llama-sweep-bench", "llama-batched-bench") and r.kind == "decode":
        tg, secs, batch = cells.get("tg"), cells.get("t_tg s"), cells.get("b")
        streams = parse_int(batch.value) if batch else 1
        tokens = parse_int(tg.value) if tg else None
        wall = _rate_value(secs.value) if secs else None
        if batch is not None and streams:
            # llama-batched-bench decodes B sequences at once: S_TG = B × TG / T_TG counts them all
            b.set("batch", streams, field="B", span=f"B: {batch.value}")
            if streams > 1:
                b.set("tok_s_kind", "aggregate", field="B", span=f"B: {batch.value} sequences at once",
                      overwrite=True)
        if tokens and wall and streams:
            b.set("tokens_generated", tokens * streams, field="TG", span=f"TG: {tg.value if tg else ''}"
                  + (f" × B: {streams}" if streams > 1 else ""))
            b.set("wall_seconds", wall, field="T_TG s", span=f"T_TG s: {secs.value if secs else ''}")
    for key, cell in cells.items():
        _fill_cell(b, key, cell, cells)


def _fill_cell(b: ClaimBuilder, key: str, cell: _Cell, cells: dict[str, _Cell]) -> None:
    span = f"{cell.key}: {cell.value}"[:200]
    value = cell.value.strip()
    if key == "model" and (m := _MODEL_TYPE.match(value)):
        # the file type ("Q4_K - Medium") is left in the text for the format reader to spell
        if re.search(r"(?i)moe$", m.group("arch")) or re.search(r"(?i)A\d|x\d", m.group("size")):
            b.set("is_moe", True, field=cell.key, span=span)
    elif key == "size" and (size := size_in_bytes(value)) is not None:
        b.set("model_size_bytes", size, field=cell.key, span=span)
    elif key == "params" and (m := _PARAMS.match(value)):
        number = parse_positive(m.group("v"))
        unit = (m.group("u") or "").lower()
        if number is not None and unit:
            b.set("params_total_b", number * _PARAM_UNITS[unit], field=cell.key, span=span)
    elif _BILLIONS.match(key) and (m := _TOTAL_ACTIVE.match(value)):
        total, active = parse_positive(m.group("t")), parse_positive(m.group("a"))
        if total is not None and total < 5000:
            b.set("params_total_b", total, field=cell.key, span=span)
            if active is not None and active < total:  # "30 - A3": 30B total, 3B active, a MoE
                b.set("params_active_b", active, field=cell.key, span=span)
                b.set("is_moe", True, field=cell.key, span=span)
    elif key == "quant" and (bits := parse_int(value)) is not None and 2 <= bits <= 8:
        kind = cells.get("type")
        if kind is not None and kind.value.strip().upper() == "MLX":  # "Type: MLX; Quant: 4"
            b.set("weight_format", f"MLX {bits}-bit", field=cell.key,
                  span=f"{kind.key}: {kind.value}; {span}")
    elif key == "ngl" and (layers := parse_int(value)) is not None:
        b.set("gpu_layers", layers, field=cell.key, span=span)
    elif _SPEC_COL.match(key):
        if value.lower() in _NONE:
            b.set("speculative", False, field=cell.key, span=span)
        else:
            b.set("speculative", True, field=cell.key, span=span)
