"""The TensorRT-LLM performance overview's rows as claims (tests/fixtures/trtllm/perf_overview.md).

Each table cell is one trtllm-bench `throughput` run at maximum load: an aggregate over every
stream at an unstated batch, on the cards its column names (TP × PP GPUs).
"""

from __future__ import annotations

import re
from pathlib import Path

from checks.models import Claim, Provenance

__all__ = ["PERF_OVERVIEW", "perf_overview_rows"]

PERF_OVERVIEW = Path(__file__).parent / "fixtures" / "trtllm" / "perf_overview.md"
_SOURCE = ("NVIDIA/TensorRT-LLM@00f37686aa854010d68bcbd0f4ab000221541ca6 "
           "docs/source/performance/perf-overview.md")
_RTX = "RTX PRO 6000 Blackwell"
_COLUMN = re.compile(r"(?:\*\*(?P<n>\d+) GPUs\*\*|(?P<gpu>[A-Z0-9]+))<br/>TP(?P<tp>\d+)(?:,PP(?P<pp>\d+))?"
                     r" \((?P<fmt>FP\d)\)")


def _columns(header: str, rtx: bool) -> list[tuple[str, int, str]]:
    out = []
    for cell in header.strip().strip("|").split("|")[1:]:
        m = _COLUMN.search(cell)
        assert m is not None, cell
        count = int(m.group("n")) if m.group("n") else int(m.group("tp")) * int(m.group("pp") or 1)
        gpu = _RTX if rtx else {"H200": "H200 SXM", "H100": "H100 SXM"}.get(m.group("gpu"), m.group("gpu"))
        out.append((gpu, count, m.group("fmt")))
    return out


def perf_overview_rows() -> list[Claim]:
    """Every filled cell of every table, as the claim a careful reader makes of it."""
    claims: list[Claim] = []
    model, rtx = "", False
    columns: list[tuple[str, int, str]] = []
    for line in PERF_OVERVIEW.read_text(encoding="utf-8").splitlines():
        if line.startswith("#### "):
            model, rtx = line[5:].strip(), False
        elif line.startswith("RTX 6000 Pro"):
            rtx = True
        elif line.startswith("| Sequence Length"):
            columns = _columns(line, rtx)
        elif re.match(r"\| \d+/\d+ \|", line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            isl, osl = (int(x) for x in cells[0].split("/"))
            for (gpu, count, fmt), cell in zip(columns, cells[1:], strict=True):
                if not cell:
                    continue
                tok_s = float(cell.replace(",", ""))
                where = Provenance(source=_SOURCE, field=f"{model} {cells[0]} {gpu} ×{count} {fmt}")
                claims.append(Claim(
                    model=model, weight_format=fmt, hardware=gpu, hardware_count=count,
                    input_tokens=isl, output_tokens=osl, tok_s=tok_s, tok_s_kind="aggregate",
                    engine="TensorRT-LLM", record_id=f"{model} {cells[0]} {gpu} ×{count}",
                    provenance={"tok_s": where, "hardware": where}))
    return claims
