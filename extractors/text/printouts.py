"""Benchmark printouts pasted as text: z-lab `dflash.benchmark` and SGLang `bench_one_batch`.

Shapes (checked against the printing code: the z-lab/dflash repository's `dflash.benchmark`
module, sgl-project/sglang `python/sglang/bench_one_batch.py`):
- `dflash.benchmark`: `Baseline throughput: X tok/s`, `DFlash throughput: Y tok/s`,
  `Decoding speedup: Z`, `Average Acceptance length: A` (Y is the mean of 1/TPOT: decode speed);
  server mode `Backend:`, `Concurrency:`, `Latency: Ls`, `Output tokens: N`, `Throughput: X tok/s`
  (thousands separators; completion tokens over wall time, so end to end), `Accept length:`.
- `bench_one_batch`: `Decode 0. Batch size: B, latency: ...`, `Decode.  median latency: X s,
  median throughput: Y token/s` (Y = B / latency: all streams), `Prefill. latency: X s,
  throughput: Y token/s`. The warm-up run prints the same lines; the run after `Benchmark ...`
  is the one read.
"""

from __future__ import annotations

import re

from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.text.flags import canonical_method
from extractors.text.lazyre import lazy
from extractors.text.lines import (
    LogReading,
    N,
    al_or_none,
    group_after,
    keep_tok_s,
    lines_matching,
    mark,
    number_after,
    span_of,
)
from extractors.text.units import parse_int, parse_number

__all__ = ["PRINTOUT_SHAPES", "read_bench_one_batch", "read_dflash_benchmark"]

# ---- z-lab dflash.benchmark --------------------------------------------------------------------

_DFLASH = lazy(r"^\s*(Baseline throughput|DFlash throughput|Decoding speedup|Average "
                     r"Acceptance length|Acceptance length histogram|Backend|Dataset|Num prompts|"
                     r"Concurrency|Latency|Output tokens|Throughput|Accept length|Spec verify ct)"
                     r":\s*(.*)$")


def read_dflash_benchmark(text: str, b: ClaimBuilder, ref: Reference | None,
                          out: LogReading) -> None:
    rows = {m.group(1): (line, m.group(2)) for line, m in lines_matching(text, _DFLASH)}
    local = "DFlash throughput" in rows or "Average Acceptance length" in rows
    server = "Backend" in rows and "Throughput" in rows and "tok/s" in rows["Throughput"][1]
    if not (local or server):
        return
    for line, _ in rows.values():
        mark(out, "dflash_benchmark", line)

    def get(key: str) -> tuple[float | None, str]:
        if key not in rows:
            return None, ""
        line, rest = rows[key]
        m = re.match(r"\s*" + N, rest)
        return (parse_number(m.group(1)) if m else None), span_of(line.text)

    if local:
        b.set("speculative", True, field="dflash.benchmark", span="DFlash throughput")
        b.set("spec_method", canonical_method("DFlash", ref), field="dflash.benchmark",
              span="DFlash throughput")
        y, span = get("DFlash throughput")
        if keep_tok_s(out, y):  # mean of 1/TPOT: decode speed, first token excluded
            b.set("tok_s", y, field="DFlash throughput", span=span)
            b.set("tok_s_kind", "decode", field="DFlash throughput", span=span)
        x, span = get("Baseline throughput")
        if keep_tok_s(out, x):
            b.set("baseline_tok_s", x, field="Baseline throughput", span=span)
        z, span = get("Decoding speedup")
        b.set("speedup", z if z and z > 0 else None, field="Decoding speedup", span=span)
        a, span = get("Average Acceptance length")
        b.set("acceptance_length", al_or_none(a), field="Average Acceptance length", span=span)
    if server:
        conc, c_span = get("Concurrency")
        conc_i = int(conc) if conc and conc >= 1 and conc == int(conc) and conc < 1e9 else None
        tput, span = get("Throughput")
        if keep_tok_s(out, tput):  # completion tokens over wall time: end to end, all streams
            b.set("tok_s", tput, field="Throughput", span=span)
            kind = "aggregate" if conc_i and conc_i > 1 else "output"
            b.set("tok_s_kind", kind, field="Throughput", span=span)
        b.set("concurrency", conc_i, field="Concurrency", span=c_span)
        tokens, span = get("Output tokens")
        # A token count is whole; a fractional one is a garbled line, not something to round.
        whole = tokens is not None and tokens >= 1 and float(tokens).is_integer()
        b.set("tokens_generated", int(tokens) if whole and tokens is not None else None,
              field="Output tokens", span=span)
        latency, span = get("Latency")
        b.set("wall_seconds", latency if latency and latency > 0 else None, field="Latency",
              span=span)
        a, span = get("Accept length")
        if al_or_none(a):
            b.set("speculative", True, field="Accept length", span=span)
            b.set("acceptance_length", a, field="Accept length", span=span)
        backend = rows.get("Backend", (None, ""))[1].strip().lower()
        if backend in ("sglang", "vllm"):
            b.set("engine", backend, field="Backend", span=span_of(rows["Backend"][0].text))


# ---- SGLang bench_one_batch --------------------------------------------------------------------

_ONE_BATCH = lazy(r"^\s*(Decode\.\s+median latency|Decode \d+\. Batch size|Prefill\. "
                        r"latency|Total\. latency|Benchmark \.\.\.|Warmup \.\.\.)")


# The line shapes the two readers search for: a text none of them matches gives no reading.
PRINTOUT_SHAPES = (_DFLASH, _ONE_BATCH)


def read_bench_one_batch(text: str, b: ClaimBuilder, ref: Reference | None,
                         out: LogReading) -> None:
    rows = list(lines_matching(text, _ONE_BATCH))
    if not any(m.group(1).startswith("Decode.") for _, m in rows):
        return
    start = next((i for i, (_, m) in enumerate(rows) if m.group(1) == "Benchmark ..."), 0)
    batch = None
    chosen = None
    for i, (line, m) in enumerate(rows):
        mark(out, "bench_one_batch", line)
        key = m.group(1)
        if key.startswith("Decode ") and i >= start and chosen is None:
            batch = parse_int(group_after(r"Batch size:\s*(\d+)", line.text)) or batch
        if key.startswith(("Prefill.", "Total.")):
            keep_tok_s(out, number_after(r"throughput:\s*" + N, line.text))
        if key.startswith("Decode."):
            y = keep_tok_s(out, number_after(r"median throughput:\s*" + N, line.text))
            if i >= start and chosen is None and y:
                chosen = (line, y)
    if chosen is None:
        return
    line, y = chosen
    span = span_of(line.text)
    b.set("engine", "sglang", field="bench_one_batch", span=span)
    b.set("tok_s", y, field="Decode. median throughput", span=span)
    b.set("tok_s_kind", "aggregate" if batch and batch > 1 else "decode",
          field="Decode. median throughput", span=span)
    if batch:
        b.set("batch", batch, field="Decode N. Batch size", span=f"Batch size: {batch}")


