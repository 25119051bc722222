"""Rebuilding a screenshot's lines and tables from OCR's character boxes.

OCR answers with runs of text and a box per character, not with lines: a terminal's columns
(llama-bench's Markdown table, `vllm bench serve`'s `label:   value` rows, nvidia-smi) are
only in the positions. So:

1. **Rows**: runs are grouped into rows by vertical overlap (a run joins a row when they share
   at least half the smaller height), rows ordered top to bottom, runs left to right.
2. **Columns**: terminals draw on a character grid, so every character is put back on it:
   the cell width is the median step between neighbouring characters of a run, and a character's
   column is its left edge over that width, counted from the leftmost character of the image.
   The gaps between runs come back as runs of spaces, and a space the recogniser dropped inside a
   run (a step of 1.6 cells or more) comes back too, and a number read with a letter o for a
   zero ("309o") gets its zero back. A proportional font (a blog's screenshot)
   is placed on the same grid approximately, which keeps its words and its column gaps.
3. **Tables**: a block of rows with three or more cells (cells split at runs of two or more
   spaces, or at a pipe, which OCR often reads as `l`, `I` or `!` when it stands alone) whose
   first row is a header naming a unit (`t/s`, `tok/s`, `ms`, ...) is written back as a
   Markdown table, each row's cells assigned to the header's columns by position (so a cell OCR
   missed leaves its column empty instead of shifting the others), then as one sentence per row
   with the unit carried into the value (`extractors.web.post.table_sentences`), which is how
   the text readers read tables from pages.

Every step is linear in the number of characters (sorting aside); no pattern runs on OCR text.
"""

from __future__ import annotations

import statistics
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from extractors.image.ocr import Glyph, Segment
from extractors.web.post import header_unit, table_sentences

__all__ = ["TableBlock", "grid_lines", "rebuild_text", "split_cells"]

PIPES = frozenset("|lI!¦")  # what OCR reads a table's vertical rule as, when it stands alone
# ... and, inside a table row, when it hugs a cell ("99 1 |", "8.03 B 1 CUDA"): a table cell
# is written one space from its rule, a value of its own stands two or more spaces from text.
ROW_PIPES = PIPES | frozenset("1ij")
RULE_CHARS = frozenset("-:=|+_ ")
MIN_TABLE_CELLS = 3
SPACE_STEP = 1.6  # a step of this many cells between two characters of a run is a lost space


@dataclass
class _Row:
    y0: float
    y1: float
    segments: list[Segment]


def _span(seg: Segment) -> tuple[float, float, float, float]:
    return (min(g.x0 for g in seg.glyphs), min(g.y0 for g in seg.glyphs),
            max(g.x1 for g in seg.glyphs), max(g.y1 for g in seg.glyphs))


def _rows(segments: Sequence[Segment]) -> list[_Row]:
    rows: list[_Row] = []
    for seg in sorted(segments, key=lambda s: (_span(s)[1] + _span(s)[3]) / 2):
        _, y0, _, y1 = _span(seg)
        if rows:
            row = rows[-1]
            overlap = min(row.y1, y1) - max(row.y0, y0)
            if overlap >= 0.5 * min(row.y1 - row.y0, y1 - y0):
                row.segments.append(seg)
                row.y0, row.y1 = min(row.y0, y0), max(row.y1, y1)
                continue
        rows.append(_Row(y0, y1, [seg]))
    for row in rows:
        row.segments.sort(key=lambda s: _span(s)[0])
    return rows


def _cell_width(segments: Sequence[Segment]) -> float:
    steps = [b.x0 - a.x0 for s in segments for a, b in zip(s.glyphs, s.glyphs[1:], strict=False)
             if not a.char.isspace() and not b.char.isspace() and b.x0 > a.x0]
    if steps:
        return max(1.0, statistics.median(steps))
    widths = [g.x1 - g.x0 for s in segments for g in s.glyphs if g.x1 > g.x0]
    return max(1.0, statistics.median(widths)) if widths else 8.0


def _normal(ch: str) -> str:
    """Full-width punctuation (the recogniser's dictionary is Chinese and English) as ASCII."""
    return unicodedata.normalize("NFKC", ch) if ord(ch) > 127 else ch


def grid_lines(segments: Sequence[Segment]) -> list[str]:
    """The text of the image as lines, each character on its column of the character grid."""
    if not segments:
        return []
    cell = _cell_width(segments)
    origin = min(g.x0 for s in segments for g in s.glyphs)
    lines = []
    for row in _rows(segments):
        out: list[str] = []
        for seg in row.segments:
            prev: Glyph | None = None
            pending_space = False
            for g in seg.glyphs:
                if g.char.isspace():
                    pending_space = True
                    continue
                if prev is None:  # a run starts on its grid column, a space after the last
                    col = round((g.x0 - origin) / cell)
                    col = max(col, len(out) + 1 if out else 0)
                else:  # inside a run: spaces from the step to the previous character
                    cells = round((g.x0 - prev.x0) / cell)
                    lost = (cells >= 2 and (g.x0 - prev.x0) / cell >= SPACE_STEP
                            and prev.char.isalnum() and g.char.isalnum())
                    spaces = max(1 if pending_space or lost else 0, cells - 1 if lost else 0)
                    col = len(out) + (min(spaces, 1) if pending_space and not lost else spaces)
                out.extend(" " * (col - len(out)))
                out.append(_normal(g.char))
                prev, pending_space = g, False
        lines.append(" ".join(_digits(w) for w in "".join(out).rstrip().split(" ")))
    return lines


def _digits(word: str) -> str:
    """A number OCR read with a letter o for a zero ("309o", "1O24") written with the zero: a
    word of digits and o/O only, with at least two digits."""
    core = word.rstrip(",.;:)")
    if (len(core) >= 3 and sum(ch.isdigit() for ch in core) >= 2
            and all(ch.isdigit() or ch in "oO" for ch in core)):
        return core.replace("o", "0").replace("O", "0") + word[len(core):]
    return word


def _hugs(line: str, i: int) -> bool:
    """The character at i stands alone with text one space away on a side."""
    before = i >= 2 and line[i - 1] == " " and line[i - 2] not in " |"
    after = i + 2 < len(line) and line[i + 1] == " " and line[i + 2] not in " |"
    return before or after


def split_cells(line: str, *, in_table: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, text) of each cell of a line: cells end at two or more spaces, or at a pipe
    (or what OCR reads a lone pipe as) standing between spaces; in a table's row also at a lone
    `1`, `i` or `j` that hugs a cell (see ROW_PIPES)."""
    cells: list[tuple[int, int, str]] = []
    start: int | None = None
    end = 0
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        lone = (i == 0 or line[i - 1] == " ") and (i + 1 == n or line[i + 1] == " ")
        alone = lone and (ch in PIPES or (in_table and ch in ROW_PIPES and _hugs(line, i)))
        if ch == "|" or alone:
            if start is not None:
                cells.append((start, end, line[start:end]))
                start = None
            i += 1
            continue
        if ch == " ":
            if start is not None and i + 1 < n and line[i + 1] == " ":
                cells.append((start, end, line[start:end]))
                start = None
            i += 1
            continue
        if start is None:
            start = i
        end = i + 1
        i += 1
    if start is not None:
        cells.append((start, end, line[start:end]))
    return cells


def _is_rule(line: str) -> bool:
    return bool(line.strip()) and all(ch in RULE_CHARS for ch in line)


@dataclass
class TableBlock:
    """A table found among the lines: where it starts and ends, and its cells by column."""

    first: int
    last: int  # exclusive
    rows: list[list[str]]


def _assign(header: list[tuple[int, int, str]], cells: list[tuple[int, int, str]]) -> list[str]:
    """A row's cells in the header's columns, by position: a column's region runs from the
    midpoint after the previous header cell to the midpoint before the next."""
    bounds = [(header[i][1] + header[i + 1][0]) / 2 for i in range(len(header) - 1)]
    out = [""] * len(header)
    for start, end, text in cells:
        centre = (start + end) / 2
        col = sum(1 for b in bounds if centre > b)
        out[col] = f"{out[col]} {text}".strip()
    return out


def _pipe_cells(line: str) -> list[str] | None:
    """A Markdown table row's cells, split at its pipes ("| RTX 3090 | Llama 3 8B | 112 |", outer
    pipes optional); None for a line with no pipe."""
    body = line.strip()
    if "|" not in body:
        return None
    return [c.strip() for c in body.removeprefix("|").removesuffix("|").split("|")]


def _tables(lines: list[str]) -> list[TableBlock]:
    blocks: list[TableBlock] = []
    i = 0
    while i < len(lines):
        header = split_cells(lines[i])
        if len(header) < MIN_TABLE_CELLS or _is_rule(lines[i]) or not any(
                header_unit(text) for _, _, text in header):
            i += 1
            continue
        rows = [[text for _, _, text in header]]
        piped_header = _pipe_cells(lines[i]) is not None
        j = i + 1
        while j < len(lines):
            if _is_rule(lines[j]):
                j += 1
                continue
            cells = split_cells(lines[j], in_table=True)
            if len(cells) < MIN_TABLE_CELLS - 1:
                break
            piped = _pipe_cells(lines[j])
            # A Markdown row names its columns by its pipes, whatever their widths; a row of an
            # aligned table (llama-bench's padded one, an OCR'd screenshot) by where its cells sit.
            rows.append(piped if piped_header and piped is not None and len(piped) == len(header)
                        else _assign(header, cells))
            j += 1
        if len(rows) >= 2:
            blocks.append(TableBlock(i, j, rows))
            i = j
        else:
            i += 1
    return blocks


def rebuild_text(segments: Sequence[Segment]) -> str:
    """The screenshot as text: its lines on the character grid, each table with a unit in its
    header as a Markdown table followed by one sentence per row."""
    lines = grid_lines(segments)
    out: list[str] = []
    at = 0
    for block in _tables(lines):
        out.extend(lines[at:block.first])
        header, *body = block.rows
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "|".join("---" for _ in header) + "|")
        out.extend("| " + " | ".join(row) + " |" for row in body)
        out.append("")
        out.extend(table_sentences(block.rows))
        out.append("")
        at = block.last
    out.extend(lines[at:])
    return "\n".join(out).strip("\n") + "\n" if out else ""
