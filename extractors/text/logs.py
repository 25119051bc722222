"""Engine log lines pasted as text (benchmark printouts are read by `printouts.py`).

Shapes (checked against the printing code: vllm-project/vllm's spec-decode metrics logger
(`vllm/v1/spec_decode/metrics.py`), sgl-project/sglang's scheduler decode log, ggml-org/llama.cpp's
server timings log):
- vLLM `SpecDecoding metrics: Mean acceptance length: X, [Current speculative depth: D,] ...
  Accepted: N tokens, Drafted: M tokens, Per-position acceptance rate: ..., Avg Draft acceptance
  rate: P%` (older builds: `Draft acceptance rate: P%` first, no AL); the banner
  `vLLM API server version V` and `non-default args: {...}`; the periodic
  `Avg generation throughput: G tokens/s, Running: R reqs`.
- SGLang `Decode batch[,.] #running-req: R, #token: T, token usage: U, accept len: A,
  accept rate: P, cuda graph: True, gen throughput (token/s): G, #queue-req: Q` and the startup
  `server_args=ServerArgs(model_path='...', ...)` line.
- llama.cpp `eval time = X ms / N tokens (... ms per token, Y tokens per second)` (llama-cli says
  `runs`), `draft acceptance rate = R (A accepted / D generated)`, llama-speculative's
  `n_draft = N` / `n_drafted` / `n_accept` / `decoded N tokens in S seconds, speed: X t/s`, and
  the `build: 6123 (hash)` banner.

Rules: a log holds many interval lines; the claim takes the mean over them (acceptance length,
rate, throughput) or the sum (token counts), and the field names say which and over how many
lines. SGLang/vLLM throughput is "aggregate" when more than one request was running, else
"decode". A value that is not finite, an AL below 1 or a rate outside 0..1 is dropped.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from typing import Any

from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.text.flags import Flag, Program, apply_flags
from extractors.text.lazyre import folded, lazy, literals_of
from extractors.text.lines import (
    LINES_MIN,
    MAX_NUMBERS,
    LogReading,
    N,
    al_or_none,
    group_after,
    keep_tok_s,
    lines_matching,
    mark,
    mean,
    number_after,
    span_of,
    tidy,
)
from extractors.text.printouts import PRINTOUT_SHAPES, read_bench_one_batch, read_dflash_benchmark
from extractors.text.units import fraction, parse_int, parse_number, parse_positive

__all__ = ["LogReading", "read_logs"]


def read_logs(text: str, b: ClaimBuilder, ref: Reference | None = None) -> LogReading:
    """Fill `b` from every log or printout shape in text; first value wins."""
    out = LogReading()
    if len(text) < LINES_MIN and not _has_log_words(text):
        return out  # a post or a chat line: no shape can match, so none is asked
    for reader in (read_dflash_benchmark, read_bench_one_batch, _sglang, _vllm, _llama):
        reader(text, b, ref, out)
    out.numbers = list(dict.fromkeys(out.numbers))[:MAX_NUMBERS]
    return out


def _needles() -> tuple[re.Pattern[str], ...]:
    """Every line shape the readers below search for first (`_BUILD` only once a llama.cpp
    line was read): a text none of them matches gives no reading."""
    return (*PRINTOUT_SHAPES, _SERVER_ARGS, _DECODE, _VLLM_VERSION, _NON_DEFAULT, _SPEC, _GEN,
            _EVAL, _DECODED, _DRAFT, _SPECULATIVE)


@cache
def _log_words() -> tuple[str, ...] | None:
    """The words one of which each shape's lines hold (casefolded), all shapes together; None
    when some shape has none (then no text can be ruled out)."""
    words: set[str] = set()
    for needle in _needles():
        need = literals_of(needle)
        if need is None:
            return None
        words.update(need)
    return tuple(sorted(words))


def _has_log_words(text: str) -> bool:
    """Whether a short text holds a word some log shape needs: each shape's own `lines_matching`
    asks the same of its own words, so a text holding none of them gives every shape nothing."""
    words = _log_words()
    if words is None:
        return True
    low = folded(text)
    return any(w in low for w in words)


# ---- SGLang server log -------------------------------------------------------------------------

_DECODE = lazy(r"Decode batch[.,]")
_SERVER_ARGS = lazy(r"ServerArgs\((.*)")
_SGLANG_KEYS = {
    "model_path", "quantization", "kv_cache_dtype", "tp_size", "context_length",
    "speculative_algorithm", "speculative_draft_model_path", "speculative_num_steps",
    "speculative_eagle_topk", "speculative_num_draft_tokens", "speculative_dflash_block_size",
    "speculative_accept_threshold_single", "speculative_accept_threshold_acc",
    "disable_radix_cache",
}
_ARG = lazy(r"\b(\w+)=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^,()\[\]{}]+)")


def _sglang(text: str, b: ClaimBuilder, ref: Reference | None, out: LogReading) -> None:
    for line, m in lines_matching(text, _SERVER_ARGS):
        mark(out, "sglang_log", line)
        flags: list[Flag] = []
        for key, value in _ARG.findall(m.group(1)):
            value = value.strip()
            if key not in _SGLANG_KEYS or value in ("None", "False", "''", '""'):
                continue
            val = None if value == "True" else value.strip("'\"")
            flags.append((key, "--" + key.replace("_", "-"), val, f"{key}={value}"[:200]))
        out.warnings.extend(apply_flags(b, ref, Program("sglang"), flags))
        b.set("engine", "sglang", field="server_args", span="server_args=ServerArgs(...)")
        break
    rows = [(line, m) for line, m in lines_matching(text, _DECODE)]
    if not rows:
        return
    gens, als, rates, running = [], [], [], []
    for line, found in rows:
        mark(out, "sglang_log", line, found)
        g = keep_tok_s(out, number_after(r"gen throughput \(token/s\):\s*" + N, line.text))
        r = parse_int(group_after(r"#running-req:\s*(\d+)", line.text))
        if g:
            gens.append(g)
            if r:
                running.append(r)
        if (a := al_or_none(number_after(r"accept len(?:gth)?:\s*" + N, line.text))) is not None:
            als.append(a)
        p = fraction(number_after(r"accept rate:\s*" + N, line.text), percent=False)
        if p is not None:
            rates.append(p)
    first = span_of(rows[0][0].text)
    b.set("engine", "sglang", field="Decode batch", span=first)

    def where(values: list[float]) -> str:
        return f" (mean of {len(values)} Decode batch lines)" if len(values) > 1 else ""

    if gens:
        b.set("tok_s", mean(gens), field=f"gen throughput (token/s){where(gens)}", span=first)
        kind = "aggregate" if running and max(running) > 1 else "decode"
        b.set("tok_s_kind", kind, field="#running-req", span=first)
    if running:
        same = len(set(running)) == 1
        b.set("concurrency", max(running),
              field="#running-req" + ("" if same else f" (max over {len(running)} lines)"),
              span=first)
    if als:
        b.set("speculative", True, field="accept len", span=first)
        b.set("acceptance_length", mean(als), field=f"accept len{where(als)}", span=first)
    if rates:
        b.set("acceptance_rate", mean(rates), field=f"accept rate{where(rates)}", span=first)


# ---- vLLM server log ---------------------------------------------------------------------------

_SPEC = lazy(r"SpecDecoding metrics:\s*(.*)")
_VLLM_VERSION = lazy(r"(?:vLLM API server version|LLM engine \(v|vLLM version:?)\s*v?"
                           r"(\d+\.\d+[\w.+\-]*)")
_NON_DEFAULT = lazy(r"non-default args:\s*(\{.*\})\s*$")
_GEN = lazy(r"Avg generation throughput:\s*" + N + r"\s*tokens/s")
_VLLM_KEYS = {
    "model": "--model", "model_tag": "--model", "quantization": "--quantization",
    "kv_cache_dtype": "--kv-cache-dtype", "tensor_parallel_size": "--tensor-parallel-size",
    "max_model_len": "--max-model-len", "enable_prefix_caching": "--enable-prefix-caching",
    "speculative_config": "--speculative-config",
}


def _vllm(text: str, b: ClaimBuilder, ref: Reference | None, out: LogReading) -> None:
    for line, m in lines_matching(text, _VLLM_VERSION):
        mark(out, "vllm_log", line)
        b.set("engine", "vllm", field="vLLM version banner", span=span_of(line.text))
        b.set("engine_version", m.group(1).rstrip(".,)"), field="vLLM version banner",
              span=span_of(line.text))
        break
    for line, m in lines_matching(text, _NON_DEFAULT):
        mark(out, "vllm_log", line)
        out.warnings.extend(apply_flags(b, ref, Program("vllm"), _vllm_args(m.group(1))))
        break
    _spec_lines(text, b, out)
    rows = list(lines_matching(text, _GEN))
    gens, running = [], []
    for line, m in rows:
        r = parse_int(group_after(r"Running:\s*(\d+)\s*reqs", line.text))
        if r is None:
            continue  # the words without the log's running count ("Avg generation throughput: 180 tokens/s" retold): prose
        mark(out, "vllm_log", line, m)
        g = keep_tok_s(out, parse_number(m.group(1)))
        if g and r:  # idle intervals print 0.0 with Running: 0
            gens.append(g)
            running.append(r)
    if gens:
        first = span_of(rows[0][0].text)
        b.set("engine", "vllm", field="Avg generation throughput", span=first)
        where = f" (mean of {len(gens)} lines with a running request)" if len(gens) > 1 else ""
        b.set("tok_s", mean(gens), field=f"Avg generation throughput{where}",
              span=first)
        b.set("tok_s_kind", "aggregate" if max(running) > 1 else "decode", field="Running",
              span=first)
        b.set("concurrency", max(running), field="Running", span=first)


def _vllm_args(literal: str) -> list[Flag]:
    if len(literal) > 20000:
        return []
    try:
        args: Any = ast.literal_eval(literal)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return []
    if not isinstance(args, dict):
        return []
    flags: list[Flag] = []
    for key, flag in _VLLM_KEYS.items():
        value = args.get(key)
        if value is None or value is False and key != "enable_prefix_caching":
            continue
        if key == "enable_prefix_caching":
            flag = flag if value else "--no-enable-prefix-caching"
            flags.append((key, flag, None, f"{key}={value}"))
        elif isinstance(value, dict):
            try:
                flags.append((key, flag, json.dumps(value), f"{key}={value}"[:200]))
            except (TypeError, ValueError):
                continue
        else:
            flags.append((key, flag, str(value), f"{key}={value!r}"[:200]))
    return flags


def _spec_lines(text: str, b: ClaimBuilder, out: LogReading) -> None:
    rows = list(lines_matching(text, _SPEC))
    if not rows:
        return
    als, rates, pairs, depth = [], [], [], None
    for line, m in rows:
        mark(out, "vllm_log", line)
        body = m.group(1)
        a = al_or_none(number_after(r"(?:Mean acceptance length|Average acc\w* length):\s*" + N,
                                    body))
        if a:
            als.append(a)
        rate = number_after(r"(?<!Total )(?:Avg )?[Dd]raft acceptance rate:\s*" + N + "%", body)
        if (p := fraction(rate, percent=True)) is not None:
            rates.append(p)
        acc = parse_int(group_after(r"(?<!Total )Accepted:\s*(\d+)\s*tokens", body))
        dra = parse_int(group_after(r"(?<!Total )Drafted:\s*(\d+)\s*tokens", body))
        if acc is not None and dra:
            pairs.append((acc, dra))
        depth = depth or parse_int(group_after(r"Current speculative depth:\s*(\d+)", body))
    n, first = len(rows), span_of(rows[0][0].text)
    where = f" (mean of {n} lines)" if n > 1 else ""
    b.set("engine", "vllm", field="SpecDecoding metrics", span=first)
    b.set("speculative", True, field="SpecDecoding metrics", span=first)
    if als:
        b.set("acceptance_length", mean(als),
              field=f"SpecDecoding metrics: Mean acceptance length{where}", span=first)
    if rates:
        b.set("acceptance_rate", mean(rates),
              field=f"SpecDecoding metrics: Avg Draft acceptance rate{where}", span=first)
    if pairs:
        total = (sum(a for a, _ in pairs), sum(d for _, d in pairs))
        label = f" (sum of {len(pairs)} lines)" if len(pairs) > 1 else ""
        b.set("accepted_tokens", total[0], field=f"SpecDecoding metrics: Accepted{label}",
              span=first)
        b.set("drafted_tokens", total[1], field=f"SpecDecoding metrics: Drafted{label}",
              span=first)
        ratios = list(dict.fromkeys(pairs))[:100]
        if len(pairs) > 1 and total not in ratios:
            ratios.append(total)
        b.set("ratios", ratios, field="SpecDecoding metrics: Accepted/Drafted", span=first)
    if depth:
        conv = f"vLLM log 'Current speculative depth: {depth}' + 1 = window {depth + 1}"
        b.set("spec_window", depth + 1, field="Current speculative depth", span=first)
        b.set("spec_window_convention", conv, field="Current speculative depth", span=first)


# ---- llama.cpp ---------------------------------------------------------------------------------

_EVAL = lazy(r"(prompt eval|(?<!prompt )eval) time\s*=\s*" + N + r"\s*ms\s*/\s*(\d+)\s*"
                   r"(?:tokens|runs)\s*\(\s*" + N + r"\s*ms per token,\s*" + N +
                   r"\s*tokens per second\)")
_DRAFT = lazy(r"draft acceptance rate\s*=\s*" + N + r"\s*\(\s*(\d+)\s*accepted\s*/\s*"
                    r"(\d+)\s*generated\)")
_SPECULATIVE = lazy(r"^\s*(n_draft|n_drafted|n_accept|accept)\s*=\s*" + N + r"\s*%?\s*$")
_DECODED = lazy(r"decoded\s+(\d+)\s+tokens in\s+" + N + r"\s+seconds, speed:\s*" + N +
                      r"\s*t/s")
_BUILD = lazy(r"\bbuild(?::|\s*=)\s*(\d+)\s*\((\w+)\)")


# llama-speculative prints each model's timings under its name ("draft:" then "target:",
# ggml-org/llama.cpp examples/speculative/speculative.cpp): the draft model's eval rate is the
# small model's, never the run's.
_SECTION = lazy(r"(?im)^[ \t]*(draft|target):[ \t]*$")


def _draft_sections(text: str) -> list[tuple[int, int]]:
    """Where llama-speculative's "draft:" timings run: from the heading to the next heading or the end."""
    if "draft:" not in text:
        return []
    heads = [(m.start(), m.group(1).lower()) for m in _SECTION.finditer(text)]
    return [(at, heads[i + 1][0] if i + 1 < len(heads) else len(text))
            for i, (at, name) in enumerate(heads) if name == "draft"]


def _llama(text: str, b: ClaimBuilder, ref: Reference | None, out: LogReading) -> None:
    tokens, ms = 0, 0.0
    first = None
    drafts = _draft_sections(text)
    for line, m in lines_matching(text, _EVAL):
        mark(out, "llama_log", line)
        if any(lo <= line.start < hi for lo, hi in drafts):
            continue  # the draft model's own timings
        rate = keep_tok_s(out, parse_number(m.group(5)))
        n, t = parse_int(m.group(3)), parse_positive(m.group(2))
        if m.group(1) == "eval" and rate and n and t:
            tokens, ms = tokens + n, ms + t
            first = first or span_of(line.text)
    if first and tokens and ms:
        label = "eval time"
        b.set("engine", "llama.cpp", field=label, span=first)
        b.set("tok_s", tidy(tokens / (ms / 1000.0)), field=f"{label} (tokens / ms)",
              span=first)
        b.set("tok_s_kind", "decode", field=label, span=first)
        b.set("tokens_generated", tokens, field=label, span=first)
        b.set("wall_seconds", ms / 1000.0, field=label, span=first)
    for line, m in lines_matching(text, _DECODED):
        mark(out, "llama_log", line)
        y = keep_tok_s(out, parse_number(m.group(3)))
        span = span_of(line.text)
        b.set("tok_s", y, field="decoded ... speed", span=span)
        b.set("tok_s_kind", "decode" if y else None, field="decoded ... speed", span=span)
        b.set("tokens_generated", parse_int(m.group(1)), field="decoded N tokens", span=span)
        b.set("wall_seconds", parse_positive(m.group(2)), field="decoded in S seconds", span=span)
        break
    pairs = []
    for line, m in lines_matching(text, _DRAFT):
        mark(out, "llama_log", line)
        acc, gen = parse_int(m.group(2)), parse_int(m.group(3))
        if acc is not None and gen:
            pairs.append((acc, gen, span_of(line.text)))
    stats = {m.group(1): (m.group(2), line) for line, m in lines_matching(text, _SPECULATIVE)}
    if "n_drafted" in stats and "n_accept" in stats:
        for _, line in stats.values():
            mark(out, "llama_log", line)
        acc, gen = parse_int(stats["n_accept"][0]), parse_int(stats["n_drafted"][0])
        if acc is not None and gen:
            pairs.append((acc, gen, span_of(stats["n_accept"][1].text)))
        n_draft = parse_int(stats.get("n_draft", (None, None))[0])
        if n_draft:
            span = span_of(stats["n_draft"][1].text)
            b.set("spec_window", n_draft + 1, field="n_draft", span=span)
            b.set("spec_window_convention", f"llama.cpp n_draft {n_draft} + 1 = window "
                  f"{n_draft + 1}", field="n_draft", span=span)
    if pairs:
        acc, gen = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        span = pairs[0][2]
        b.set("engine", "llama.cpp", field="draft acceptance", span=span)
        b.set("speculative", True, field="draft acceptance", span=span)
        b.set("accepted_tokens", acc, field="accepted", span=span)
        b.set("drafted_tokens", gen, field="generated (drafted)", span=span)
        b.set("acceptance_rate", fraction(acc / gen, percent=False), field="accepted / drafted",
              span=span)
        b.set("ratios", list(dict.fromkeys((a, g) for a, g, _ in pairs))[:100],
              field="accepted / drafted", span=span)
    if "llama_log" in out.found:
        for line, m in lines_matching(text, _BUILD):
            mark(out, "llama_log", line)
            b.set("engine_version", f"b{m.group(1)}", field="build", span=span_of(line.text))
            break

