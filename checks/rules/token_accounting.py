"""token_accounting: "throughput" that counts input + output, quoted as generation speed.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from checks.basis import answer, field, formula, note
from checks.models import Answer, Basis, Claim, Evidence
from checks.reference import Reference

# Same margin as the arithmetic check (a mismatch above 1% is a flag).
MATCH_PCT = 1.0
# llama-bench's `-pg` test is named for both halves ("pp4096+tg128": a prompt of 4096 then 128
# generated, timed together; ggml-org/llama.cpp tools/llama-bench/README.md): its label says total.
_TOTAL_LABEL = re.compile(
    r"\btotal\b|input\s*\+\s*output|in\s*\+\s*out|prompt\s*\+\s*(?:gen\w*|output|completion)"
    r"|includ\w*\s+(?:the\s+)?(?:prompt|input)|(?<![a-z])pp\s?\d+\s*\+\s*tg\s?\d+",
    re.IGNORECASE,
)
_GENERATION_KINDS = ("decode", "output", "per_user", "per_gpu", "aggregate")


def _within(a: float, b: float) -> bool:
    return b != 0 and abs(a - b) / abs(b) * 100 <= MATCH_PCT


def _labelled_total(ev: Evidence) -> str | None:
    """Where the number is called total, if anywhere it is quoted."""
    if ev.post is not None and ev.post.text and (m := _TOTAL_LABEL.search(ev.post.text)):
        return f'the post says "{m.group(0)}"'
    p = ev.claim.provenance.get("tok_s_kind") or ev.claim.provenance.get("tok_s")
    for text in (p.field, p.span) if p is not None else ():
        if text and _TOTAL_LABEL.search(text.replace("_", " ")):
            return f"the record field is {text}"
    return None


def _totals(c: Claim) -> tuple[float, float, list[Basis]] | None:
    """(output tokens, input tokens, how each was counted) over the same span as `wall_seconds`.

    `tokens_generated` is what `wall_seconds` timed (a run's total output, or one request's);
    `input_tokens` and `output_tokens` are per request. A run total over per-request counts is
    that many requests, so its input is the per-request input × requests: like with like."""
    if c.tokens_generated is not None:
        out = float(c.tokens_generated)
        how = [field(c, "tokens_generated", f"= {c.tokens_generated} (output)")]
        if c.input_tokens is None:
            return None
        if c.output_tokens:
            requests = c.tokens_generated / c.output_tokens
            inp = c.input_tokens * requests
            how += [field(c, "input_tokens", f"= {c.input_tokens} per request"),
                    field(c, "output_tokens", f"= {c.output_tokens} per request"),
                    formula(f"input = {c.input_tokens} per request × {c.tokens_generated} ÷ "
                            f"{c.output_tokens} = {requests:g} requests = {inp:g}")]
        else:
            inp = float(c.input_tokens)
            how.append(field(c, "input_tokens", f"= {c.input_tokens} (input, one request assumed)"))
        return out, inp, how
    if c.output_tokens is not None and c.input_tokens is not None:
        return (float(c.output_tokens), float(c.input_tokens),
                [field(c, "output_tokens", f"= {c.output_tokens} (output)"),
                 field(c, "input_tokens", f"= {c.input_tokens} (input)")])
    return None


def _recompute(c: Claim, figures: dict[str, float], basis: list[Basis]) -> str | None:
    """'total', 'output', 'both' or 'neither'; None when the counts are not all known."""
    totals = _totals(c)
    if totals is None or not c.wall_seconds or c.tok_s is None:
        return None
    out, inp, how = totals
    output_rate = out / c.wall_seconds
    total_rate = (inp + out) / c.wall_seconds
    figures.update(output_tok_s=round(output_rate, 2), total_tok_s=round(total_rate, 2))
    basis += [*how, field(c, "wall_seconds", f"= {c.wall_seconds:g} s"),
              formula(f"{out:g} ÷ {c.wall_seconds:g} s = {output_rate:.1f} tok/s (output)"),
              formula(f"({inp:g} + {out:g}) ÷ {c.wall_seconds:g} = {total_rate:.1f} tok/s (input + output)"),
              field(c, "tok_s", f"= {c.tok_s:g} tok/s; a match is within {MATCH_PCT:g}%")]
    is_out, is_total = _within(output_rate, c.tok_s), _within(total_rate, c.tok_s)
    if is_out and is_total:
        return "both"
    return "output" if is_out else "total" if is_total else "neither"


def token_accounting(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """token_accounting: "throughput" that counts input + output, quoted as generation speed.

    Seed, section 8: "Three, which cell is it reporting". vLLM's `bench serve` writes both
    `output_throughput` and `total_token_throughput` (input + output over the run's duration,
    vllm-project/vllm `vllm/benchmarks/serve.py`); the second can be many times the first on long
    prompts, and a post that quotes it as "tok/s" reads as generation speed.

    Both readings are recomputed over the span `wall_seconds` timed, like with like: output ÷ time
    and (input + output) ÷ time, where the output is `tokens_generated` (the run's total, or one
    request's) and the input is the per-request input × the requests that total holds
    (`tokens_generated` ÷ per-request `output_tokens`); with no total, one request's input and
    output. The summary says which the number matches (within 1%).

    Statuses:
    - `flag`: the number counts input + output (`tok_s_kind` = total, or it matches
      (in + out) ÷ time and not out ÷ time) and is not labelled as total where it is quoted
      (the post text, else the record field it came from: "total", "input+output",
      "including prompt").
    - `ok`: the number is a generation figure (decode, output, per user, per GPU, aggregate) and
      the arithmetic, when possible, agrees; or it is total and labelled so.
    - `n/a`: the number is a prefill (prompt-processing) speed, not a generation figure.
    - `unanswerable`: the kind of tok/s is unknown and the token counts cannot settle it.

    Reference rows: none; only the record's own fields.
    """
    c = ev.claim
    figures: dict[str, float] = {}
    basis: list[Basis] = []
    kind = c.tok_s_kind
    if kind is not None:
        basis.insert(0, field(c, "tok_s_kind", f"= {kind}"))
    number = f"{c.tok_s:g} tok/s" if c.tok_s is not None else "the claimed tok/s"
    if kind == "prefill":
        return answer(
            key="token_accounting",
            status="n/a",
            basis=basis,
            summary=f"{number} is a prefill (prompt-processing) speed, not a generation figure",
        )
    match = _recompute(c, figures, basis)
    rates = ""
    if match is not None:
        rates = (
            f" (output ÷ time = {figures['output_tok_s']:g}, input + output ÷ time = "
            f"{figures['total_tok_s']:g})"
        )
    if match == "both":
        return answer(
            key="token_accounting",
            status="ok",
            figures=figures,
            basis=basis,
            summary=f"{number} matches both readings{rates}: the input is too small to "
            "change the figure",
        )
    counts_total = match == "total" or (kind == "total" and match != "output")
    if counts_total:
        label = _labelled_total(ev)
        if label:
            basis.append(note(label))
            return answer(
                key="token_accounting",
                status="ok",
                figures=figures,
                basis=basis,
                summary=f"{number} counts input + output tokens and is labelled so "
                f"({label}){rates}",
            )
        why = "matches input + output ÷ time" if match == "total" else "is a total-token throughput"
        return answer(
            key="token_accounting",
            status="flag",
            figures=figures,
            basis=basis,
            reason="counts_prompt",
            label=f"{number} counts the prompt tokens too, quoted as generation speed",
            summary=f"{number} {why}{rates} but is quoted as generation speed: it counts the "
            "prompt tokens too",
        )
    if match == "output":
        return answer(
            key="token_accounting",
            status="ok",
            figures=figures,
            basis=basis,
            summary=f"{number} matches output tokens ÷ time{rates}: a generation figure",
        )
    if kind in _GENERATION_KINDS:
        tail = ""
        if match == "neither":
            tail = (
                "; neither recomputed reading matches it "
                "(decode-only figures exclude the first token)"
            )
        return answer(
            key="token_accounting",
            status="ok",
            figures=figures,
            basis=basis,
            summary=f"{number} is labelled {kind.replace('_', ' ')}: generated tokens only"
            f"{rates}{tail}",
        )
    missing = ["tok_s_kind"] + [
        n for n in ("input_tokens", "wall_seconds") if getattr(c, n) is None
    ]
    if c.output_tokens is None and c.tokens_generated is None:
        missing.append("output_tokens")
    if match == "neither":
        missing = ["tok_s_kind"]
    return answer(
        key="token_accounting",
        status="unanswerable",
        figures=figures,
        basis=basis,
        missing=missing,
        summary=f"not known whether {number} counts output tokens only or input + output{rates}",
    )
