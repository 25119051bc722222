"""Q7 roofline: claimed tok/s over the memory-bandwidth ceiling.

Seed §4: "batch-1 generation ceiling = memory bandwidth ÷ weight footprint. This isn't a rule of
thumb. It's a division."

The ceiling is generous on purpose: theoretical bandwidth ÷ (the record's file size, else params ×
nominal bits / 8; dense reads every weight, MoE its active ones), no KV reads. A realistic ceiling
(achievable bandwidth, published mixed-precision recipe or effective bits, recurrent state, KV at
the stated context) is reported beside it. `ratio = claimed ÷ generous ceiling`. Tensor parallel:
bandwidth × card count. Batch B > 1: bound = B × bandwidth ÷ (weights + B × KV per sequence),
compared with aggregate tok/s (per user × B). Offload stated and the weights do not fit the card:
time per token = the card's share ÷ its bandwidth + the rest ÷ system-memory bandwidth (stated,
else the platform's best; see checks/physics/offload.py).

Which rate is judged against which ceiling:
- A per-request rate (`per_user_tok_s`, or a tok/s of kind `per_user` or `decode`: 1 / TPOT,
  inter-token latency, "interactivity") is judged against the batch-1 ceiling at any concurrency:
  every step of a batch reads the weights (a MoE at least its active experts) plus each sequence's
  KV, so one sequence gets at most one token (× AL) per step.
- An aggregate figure is judged against the batch-B bound when the batch is known; at an unknown
  batch nothing bounds it, and the summary says so.
- When both are judged, the worse answer decides and the other is quoted. `ceiling_batch` names
  the ceiling the decisive ratio used; the headline says "batch-1" only when it was that one.

Statuses, plain decode stated (`speculative` False):
- `stop`: ratio > 1 (no run reads the weights faster than the memory delivers them).
- `flag`: ratio > 0.9 (real decode lands at 0.55-0.85 of the ceiling).
- `ok`: otherwise.
Speculative decoding stated (each verify pass still reads the weights once, so tok/s <= ceiling ×
AL):
- `stop`: a claim above ceiling × the AL its own record reports, whatever Q5 made of that AL (an
  AL can always condemn); a claim needing more than the window per pass; a claimed speedup above
  the AL (or the window); with no credible AL, a claim above 3 × ceiling × the highest AL anyone
  has published for the method.
- `flag`: no AL Q5 accepted, and a claim above the honest range's high end (ceiling × the highest
  official AL for the method). An AL Q5 did not accept (forced, fed in) never excuses a claim.
- `ok`: within ceiling × an AL Q5 accepted, or inside the honest range (ceiling × 0.6 × lowest
  official AL to ceiling × highest official AL); the AL the claim would need is reported.
Not known whether speculative decoding ran (nothing names a method, window or AL):
- `ok`: ratio <= 1, possible without it.
- `flag`: above the ceiling: only possible with speculative decoding at AL >= the ratio, which the
  post (or record) does not mention.
- `stop`: above 3 × ceiling × the best AL published for any method in the table.
Otherwise:
- `n/a`: a prefill (prompt-processing) figure: compute-bound, see compute_ceiling.
- `unanswerable`: no tok/s, no hardware (or a card not in the table), no model size, an
  input+output total, or an aggregate figure with no batch size (and no per-user rate beside it).

Reference rows read: `hardware` (bandwidth, memory, kind), `models` (params, MoE, recipes, KV
geometry, state, layers), `formats` (nominal and effective bits), `methods` (published ALs).
Figures: `claimed_tok_s`, `ceiling_tok_s`, `realistic_ceiling_tok_s`, `ratio`, `ceiling_batch`,
`bandwidth_gbs`, `weights_gb`; with a per-user rate `per_user_tok_s`, `per_user_ratio`,
`per_user_ceiling_tok_s`; with an aggregate beside it `aggregate_ratio`,
`aggregate_ceiling_tok_s`; with offload `system_fraction`, `system_bandwidth_gbs`; with
speculative decoding (or above the ceiling with it unknown) `required_al`, `bound_tok_s`, and with
a method's official ALs `honest_low_tok_s`, `honest_high_tok_s`.
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.models import Answer, Evidence, Status
from checks.physics import (
    Ceilings,
    Derived,
    Missing,
    aggregate_tok_s,
    batch_size,
    model_is_moe,
    num,
    roofline_ceilings,
)
from checks.reference import Reference
from checks.rules.speculative_bound import (
    STOP_RATIO,
    Judged,
    judge_speculative,
    judge_unstated,
    set_status,
    times,
    tok,
)

__all__ = ["roofline"]

# Real decode lands at 0.55-0.85 of the ceiling; > 0.9 suspicious; > 1 impossible. Calibration
# points: SGLang Llama-3.1-8B BF16 on H100 158.3 tok/s = 0.71 (docs.sglang.io
# advanced_features/speculative_decoding); llama.cpp on consumer cards 0.55-0.70 (AlexsJones/llmfit
# PR #137; dmatora/LLM-inference-speed-benchmarks #10).
FLAG_RATIO = 0.9
_SEVERITY: dict[str, int] = {"stop": 4, "flag": 3, "ok": 2, "unanswerable": 1, "n/a": 0}


def _ans(status: Status, summary: str, **kw: object) -> Answer:
    return Answer(key="roofline", status=status, summary=summary, **kw)


def _per_user(ev: Evidence) -> Derived | None:
    """The per-request decode rate the record carries, if any (the larger, when there are two)."""
    c = ev.claim
    rates = []
    if c.per_user_tok_s is not None and c.per_user_tok_s > 0:
        rates.append(Derived(c.per_user_tok_s, "tok/s",
                             (f"{c.source_of('per_user_tok_s')} = {c.per_user_tok_s:g} tok/s per request",)))
    if c.tok_s is not None and c.tok_s_kind in ("per_user", "decode"):
        rates.append(Derived(c.tok_s, "tok/s", (f"{c.source_of('tok_s')} = {c.tok_s:g} tok/s "
                                                f"({c.tok_s_kind}, one request's rate)",)))
    return max(rates, key=lambda d: d.value, default=None)


def roofline(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q7 roofline: claimed tok/s over the memory-bandwidth ceiling."""
    c = ev.claim
    per_user = _per_user(ev)
    if c.tok_s is None and per_user is None:
        return _ans("unanswerable", "No tok/s figure to set against the ceiling.", missing=["tok/s"])
    judged: list[tuple[str, Judged]] = []
    unbounded: list[Answer] = []  # figures no ceiling applies to, said
    batch = batch_size(c)
    if per_user is not None:
        ceil = roofline_ceilings(c, ref, batch=1)
        if isinstance(ceil, Missing):
            return _missing(per_user.value, ceil)
        label = "" if c.tok_s_kind in ("per_user", "decode") and per_user.value == c.tok_s else \
            "the per-request rate "
        judged.append(("per_user", _judge(ev, ref, prior, per_user, ceil, label)))
    if c.tok_s is not None:
        per_request = c.tok_s_kind in ("per_user", "decode")
        if c.tok_s_kind == "prefill":
            unbounded.append(_ans("n/a", f"{c.tok_s:g} tok/s is prompt processing, which is "
                                         "compute-bound: the decode roofline does not apply "
                                         "(see compute_ceiling)."))
        elif c.tok_s_kind == "total":
            unbounded.append(_ans("unanswerable", f"{c.tok_s:g} tok/s counts input and output tokens "
                                                  "together, and the decode roofline bounds output "
                                                  "tokens only.", missing=["output-only tok/s"]))
        elif batch is None and c.tok_s_kind in ("aggregate", "per_gpu"):
            unbounded.append(_ans("unanswerable", f"{c.tok_s:g} tok/s is an aggregate over an unknown "
                                                  "number of streams, so no bandwidth ceiling bounds "
                                                  "it.", missing=["batch size"]))
        elif not per_request or (batch is not None and batch > 1):
            ceil = roofline_ceilings(c, ref, batch=batch or 1)
            if isinstance(ceil, Missing):
                return _missing(c.tok_s, ceil)
            claimed = aggregate_tok_s(c)
            assert not isinstance(claimed, Missing)
            label = "the aggregate " if per_user is not None else ""
            judged.append(("aggregate", _judge(ev, ref, prior, claimed, ceil, label)))
    if not judged:
        return unbounded[0]
    return _combine(judged, unbounded)


def _missing(value: float, ceil: Missing) -> Answer:
    return _ans("unanswerable", f"No ceiling for {value:g} tok/s: the record and the reference "
                                f"lack {', '.join(ceil.what)}.", missing=list(ceil.what))


def _combine(judged: list[tuple[str, Judged]], unbounded: list[Answer]) -> Answer:
    """The worse of the judged rates decides (the higher ratio on a tie); the others are quoted."""
    name, top = max(judged, key=lambda p: (_SEVERITY[p[1].status], p[1].figures["ratio"]))
    figures = dict(top.figures)
    figures["ceiling_batch"] = float(top.batch)
    summary = top.summary
    for other_name, other in judged:
        figures[f"{other_name}_ratio"] = other.figures["ratio"]
        figures[f"{other_name}_ceiling_tok_s"] = other.figures["ceiling_tok_s"]
        if other_name == "per_user":
            figures["per_user_tok_s"] = other.figures["claimed_tok_s"]
        if other is not top:
            summary += f" Also: {other.summary[0].lower()}{other.summary[1:]}"
    basis = list(top.basis)
    for _, other in judged:
        basis += [b for b in other.basis if b not in basis]
    for a in unbounded:
        summary += f" Also: {a.summary[0].lower()}{a.summary[1:]}"
    assumptions = list(top.assumptions)
    for _, other in judged:
        assumptions += [a for a in other.assumptions if a not in assumptions]
    return _ans(top.status, summary, figures=figures, basis=basis, assumptions=assumptions,
                missing=top.missing)


def _kv_note(note: str) -> bool:
    """KV caveats belong to the realistic ceiling's basis, not the summary."""
    return "KV reads not counted" in note


def _how(ceil: Ceilings) -> str:
    """'1792 GB/s ÷ 13.9 GB of NVFP4 weights', with the card count, batch and offload when they apply."""
    per_card = ceil.bandwidth.value / ceil.cards
    bw = f"{ceil.cards} × {num(per_card)} GB/s" if ceil.cards > 1 else f"{num(per_card)} GB/s"
    weights = f"{num(ceil.weights_gb.value)} GB of {ceil.fmt.name} weights"
    if ceil.offload is not None:
        off = ceil.offload
        weights += (f", {num(off.system_fraction)} of them offloaded to system memory at "
                    f"{num(off.system_bandwidth.value)} GB/s")
    if ceil.batch == 1:
        return f"{bw} ÷ {weights}"
    kv = f" + {ceil.batch} × {num(ceil.kv_gb)} GB KV" if ceil.kv_gb else ""
    return f"{ceil.batch} × {bw} ÷ ({weights}{kv})"


def _judge(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], claimed: Derived,
           ceil: Ceilings, label: str) -> Judged:
    c = ev.claim
    g = ceil.generous.value
    ratio = claimed.value / g
    figures = {
        "claimed_tok_s": claimed.value, "ceiling_tok_s": g,
        "realistic_ceiling_tok_s": ceil.realistic.value, "ratio": ratio,
        "bandwidth_gbs": ceil.bandwidth.value, "weights_gb": ceil.weights_gb.value,
    }
    if ceil.offload is not None:
        figures["system_fraction"] = ceil.offload.system_fraction
        figures["system_bandwidth_gbs"] = ceil.offload.system_bandwidth.value
    basis = [*claimed.basis, *ceil.generous.basis,
             *[b for b in ceil.realistic.basis if b not in ceil.generous.basis],
             *[f"realistic: {n}" for n in ceil.realistic.notes if _kv_note(n)],
             f"ratio = {tok(claimed.value)} ÷ {num(g)} = {ratio:.2f}"]
    assumptions = [*ceil.generous.assumptions,
                   *[a for a in ceil.realistic.assumptions if a not in ceil.generous.assumptions]]
    notes = list(dict.fromkeys(n for n in (*ceil.generous.notes, *ceil.realistic.notes)
                               if not _kv_note(n)))
    if batch_size(c) is None and ceil.batch == 1 and c.tok_s_kind not in ("per_user", "decode"):
        notes.append("batch not stated: the batch-1 ceiling bounds any single stream")
    cell = "batch-1" if ceil.batch == 1 else f"batch-{ceil.batch} aggregate"
    lead = (f"{label}{tok(claimed.value)} tok/s is "
            f"{times(ratio)} the generous {cell} ceiling of {num(g)} tok/s "
            f"({_how(ceil)}; realistic {num(ceil.realistic.value)} tok/s)")
    lead = lead[0].upper() + lead[1:]
    j = Judged("ok", "", figures, basis, assumptions, batch=ceil.batch)
    if ratio > FLAG_RATIO and model_is_moe(c, ceil.model, ref) is None:
        # Reading an unnamed architecture as dense is the one assumption here that works against
        # the claim: a MoE of that size reads only its active experts ("30B" may be 30B-A3B).
        j.missing = ["whether the model is a MoE, and its active params"]
        return set_status(j, "unanswerable", f"{lead}, read as dense; nothing says whether the "
                          "model is a MoE, which would read only its active experts, so the "
                          "claim cannot be judged against it.")

    if c.speculative is False:
        tail = f" ({'; '.join(notes)})" if notes else ""
        if ratio > STOP_RATIO:
            return set_status(j, "stop", f"{lead}: without speculative decoding no run reads the weights "
                                   f"faster than the memory delivers them{tail}.")
        if ratio > FLAG_RATIO:
            return set_status(j, "flag", f"{lead}: real decode lands at 0.55–0.85 of it, so above "
                                   f"{FLAG_RATIO} suggests miscounted bytes or an unstated speculative "
                                   f"method{tail}.")
        where = ("where real decode lands (0.55–0.85)" if ratio >= 0.55
                 else "below where real decode lands (0.55–0.85): possible")
        return set_status(j, "ok", f"{lead}, {where}{tail}.")
    al = c.acceptance_length if c.acceptance_length is not None else c.acceptance_length_high
    if c.speculative is True or c.spec_method or c.spec_window or al is not None:
        return judge_speculative(ev, ref, prior, ceil, j, lead, notes, al)
    return judge_unstated(ev, ref, j, lead, notes)


