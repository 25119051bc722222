"""Q3 cell: the check for which cell a number reports (documented on `cell`)."""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field
from checks.models import Answer, Evidence
from checks.physics import parallel_slots
from checks.reference import Reference

__all__ = ["cell"]

# How each tok/s kind (models.TokSKind) is named in a summary.
KIND_LABELS = {
    "decode": "decode",
    "output": "end-to-end output (prefill included)",
    "total": "input+output total",
    "per_user": "per user",
    "per_gpu": "per GPU",
    "aggregate": "aggregate over all streams",
    "prefill": "prefill (prompt processing)",
}
FLIP_WARNING = (  # seed §8, question three
    "the same draft model can flip from speedup to net loss under high concurrency"
)


def _context(ev: Evidence) -> str | None:
    c = ev.claim
    if c.input_tokens is not None or c.output_tokens is not None:
        ins = f"{c.input_tokens} in" if c.input_tokens is not None else "? in"
        outs = f"{c.output_tokens} out" if c.output_tokens is not None else "? out"
        return f"{ins} / {outs} tokens"
    if c.context_length is not None:
        return f"context {c.context_length}"
    if c.tokens_generated is not None:
        return f"{c.tokens_generated} tokens generated"
    return None


def cell(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q3 cell: which cell is it reporting?

    Seed, section 8: "Three, which cell is it reporting. A batch-1 single-stream number cannot
    support a conclusion about multi-user serving. The same draft model can flip from speedup to net
    loss under high concurrency."

    The cell is batch size / concurrency, context length (input and output tokens) and which tok/s
    (decode-only, end-to-end output, input+output total, per user, per GPU, aggregate, prefill).

    - `unanswerable`: neither batch size nor concurrency is known (an aggregate is named as one:
      a loaded server's figure at an unstated batch, which Q7 bounds with the serving roofline).
    - `flag`: a single-stream number (batch 1 or concurrency 1) offered as evidence about multi-user
      serving (`serving_claim` True); or an aggregate over N > 1 streams offered as one user's speed.
      Rule for the second: `tok_s_kind == "aggregate"`, N > 1 and `serving_claim` False (the claim is
      explicitly *not* about serving, so it is about what one user sees). With `serving_claim` unknown
      the aggregate is stated with its per-stream share and the answer stays `ok`.
    - `ok`: the cell, stated ("batch 1, single stream, decode; says nothing about serving").
      Input+output "total" tok/s is only stated here; calling it generation speed is token_accounting's.

    Reads no reference rows.
    """
    c = ev.claim
    fields = (
        "batch",
        "concurrency",
        "input_tokens",
        "output_tokens",
        "context_length",
        "tok_s_kind",
        "serving_claim",
        "server_slots",
    )
    basis = [field(c, f, f"= {getattr(c, f)}") for f in fields if getattr(c, f) is not None]
    figures: dict[str, float] = {
        f: getattr(c, f)
        for f in ("batch", "concurrency", "server_slots", "input_tokens", "output_tokens", "context_length")
        if getattr(c, f) is not None
    }
    known = [n for n in (c.batch, c.concurrency) if n is not None]
    if not known:
        serving = c.tok_s_kind in ("aggregate", "per_gpu")
        context = _context(ev)
        slots = parallel_slots(c)
        what = (f"an aggregate over every stream of a loaded server{f' ({context})' if context else ''}, "
                "at a batch the record does not state: Q7 bounds it at the largest batch that fits."
                if serving else
                f"and the server decodes up to {slots} sequences at once: the figure may be one stream's "
                f"or the sum of up to {slots}." if slots else "so the cell the number reports is unknown.")
        return answer(
            key="cell",
            status="unanswerable",
            summary=f"neither batch size nor concurrency is stated, {what}",
            figures=figures,
            missing=["batch size or concurrency"]
            + ([] if c.tok_s_kind else ["which tok/s (decode, end-to-end, total)"]),
            basis=basis,
        )
    streams = max(known)
    parts = []
    if c.batch is not None:
        parts.append(f"batch {c.batch}")
    if c.concurrency is not None and c.concurrency != c.batch:
        parts.append(f"concurrency {c.concurrency}")
    if streams == 1:
        parts.append("single stream")
    context = _context(ev)
    if context:
        parts.append(context)
    parts.append(KIND_LABELS[c.tok_s_kind] if c.tok_s_kind else "tok/s kind not stated")
    stated = ", ".join(parts)
    missing = [] if c.tok_s_kind else ["which tok/s (decode, end-to-end, total)"]

    if streams == 1 and c.serving_claim:
        return answer(
            key="cell",
            status="flag",
            reason="batch_1_as_serving",
            label="a batch-1 single-stream number offered as evidence about serving",
            summary=f"{stated}, offered as evidence about serving: a batch-1 single-stream number cannot "
            f"support a conclusion about multi-user serving; {FLIP_WARNING}.",
            figures=figures,
            missing=missing,
            basis=basis,
        )
    per_stream = c.tok_s / streams if c.tok_s is not None and streams > 1 else None
    if c.tok_s_kind == "aggregate" and streams > 1 and c.serving_claim is False:
        share = f"; one user sees about {per_stream:.1f} tok/s" if per_stream is not None else ""
        if per_stream is not None:
            figures["per_stream_tok_s"] = round(per_stream, 2)
        return answer(
            key="cell",
            status="flag",
            reason="aggregate_as_one_user",
            label=f"an aggregate over {streams} streams offered as one user's speed",
            summary=f"{stated}: an aggregate over {streams} streams offered as one user's speed{share}.",
            figures=figures,
            missing=missing,
            basis=basis,
        )
    if streams == 1:
        tail = "; says nothing about serving"
    else:
        tail = f"; speaks for {streams} concurrent streams only ({FLIP_WARNING})"
        if c.tok_s_kind == "aggregate" and per_stream is not None:
            figures["per_stream_tok_s"] = round(per_stream, 2)
            tail = f" (about {per_stream:.1f} tok/s per stream)" + tail
    return answer(
        key="cell",
        status="ok",
        summary=f"{stated}{tail}.",
        figures=figures,
        missing=missing,
        basis=basis,
    )
