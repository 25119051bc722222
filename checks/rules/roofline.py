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
else the most generous host platform, the realistic ceiling the card class's; see
checks/physics/offload.py).

Which rate is judged against which ceiling:
- A per-request rate (`per_user_tok_s`, or a tok/s of kind `per_user` or `decode`: 1 / TPOT,
  inter-token latency, "interactivity") is judged against the batch-1 ceiling at any concurrency:
  every step of a batch reads the weights (a MoE at least its active experts) plus each sequence's
  KV, so one sequence gets at most one token (× AL) per step.
- An aggregate figure is judged against the batch-B bound when the batch is known; at an unknown
  batch against the serving roofline (below).
- When both are judged, the worse answer decides and the other is quoted. `ceiling_batch` names
  the ceiling the decisive ratio used; the headline says "batch-1" only when it was that one.

Statuses, plain decode stated (`speculative` False):
- `stop`: ratio > 1 (no run reads the weights faster than the memory delivers them).
- `ok`: otherwise; above 0.9 it is named near the ceiling, never flagged: speculation is ruled
  out, and the generous count overstates the bytes decode reads (the input-embedding table is
  read one row per token), so honest F16 decode reaches 0.93 (real decode mostly 0.55-0.85).
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
A tool that cannot speculate (llama-bench, LocalScore, llamafile, Ollama: `checks/engines.py`
PLAIN_DECODE_TOOLS) measures plain decode: judged as above, whatever else the record says.
Not known whether speculative decoding ran (nothing names a method, window or AL):
- `ok`: ratio <= 1, possible without it.
- `flag`: above the ceiling: only possible with speculative decoding at AL >= the ratio, which the
  post (or record) does not mention.
- `stop`: a figure known to be one stream (batch or concurrency 1, a per-request rate, or an
  unlabelled figure from one user's setup: one non-datacenter card or chip, no engine that
  batches, nothing counting streams) above ceiling × the best AL published for any method in the
  table: not even the best speculative method explains it; a figure whose stream count is not
  stated (it may be an unlabelled aggregate) above 3 × that.

An aggregate at an unknown batch (a serving benchmark at full load) is judged against the serving
roofline (checks/physics/serving.py): the memory bound at the largest batch whose KV cache fits
beside the weights, by the rules above (the ceiling named "serving"), and the compute bound
(dense peak × cards ÷ 2 × active params per token): above it is `stop`, speculative or not
(with the card count stated: more cards do more arithmetic). The
summary gives both bounds, the largest batch that fits and the batch the claim needs; with the KV
per sequence unknown, memory bounds nothing (the most generous reading) and compute alone
judges. Figures: `serving`, `memory_bound_tok_s`, `compute_bound_tok_s`, `compute_ratio`,
`max_batch`, `required_batch`. An aggregate is never judged against the batch-1 ceiling.
A server launched to decode N sequences at once (llama-server `-np N`, `Claim.server_slots`)
runs at most N: the serving bound is taken at the smaller of N and what fits (each slot holding
its share of `-c`), named "serving (N parallel slots)", figure `server_slots`. A figure nothing
calls one stream's from such a server, above one stream's ceiling but within N streams', is
`ok` as their sum (reason `slots_aggregate`, figure `one_stream_ratio`); above them it is judged
as one stream.
Nothing says whether the model is a MoE and the figure is above 0.9 of the dense reading: the most
generous plausible MoE reading (the dense ceiling ÷ the active share of the sparsest published MoE
of about its total, `checks.physics.moe_share`) judges it, and a `stop` or `flag` there stands:
the figure is beyond the plain-decode ceiling under every reading, so it is judged as a figure
above a known ceiling is. Short of that the architecture decides and the answer is
`unanswerable`, keeping the dense reading's figures as `dense_ratio`, `dense_ceiling_tok_s`,
`dense_realistic_ceiling_tok_s`.
A prefill (prompt-processing) figure is bounded by the compute roof, not by memory (one pass over
the weights serves every prompt token): prompt tok/s <= dense peak of the format's family (a
weight-only quantised format: the higher of bf16 and int8; unknown: the card's highest) × cards ÷
(2 × active params per token); see checks/physics/compute.py. `stop` above it, where the peak is
confirmed against a source and no offload is said (else `flag`, saying why); `flag` above 0.9;
`ok` otherwise. The card count unstated is one card where the weights fit on one, else
unanswerable; the architecture unknown, only a stop at the most generous MoE reading stands.
Figures: `compute_roof` (1), `compute_bound_tok_s`, `compute_ratio`, `peak_tflops`,
`required_tflops`, and `ratio`, `ceiling_tok_s` as for any roof.
Otherwise:
- `unanswerable`: no tok/s, no hardware (or a card not in the table), no model size, an
  input+output total, or an aggregate at unknown batch with neither serving bound computable.

Reference rows read: `hardware` (bandwidth, memory, kind), `models` (params, MoE, recipes, KV
geometry, state, layers), `formats` (nominal and effective bits), `methods` (published ALs).
Figures: `claimed_tok_s`, `ceiling_tok_s`, `realistic_ceiling_tok_s`, `ratio`, `ceiling_batch`,
`bandwidth_gbs`, `weights_gb`; with a per-user rate `per_user_tok_s`, `per_user_ratio`,
`per_user_ceiling_tok_s`; with an aggregate beside it `aggregate_ratio`,
`aggregate_ceiling_tok_s`; with offload `system_fraction`, `system_bandwidth_gbs`; with
speculative decoding (or above the ceiling with it unknown) `required_al`, `bound_tok_s`, and with
a method's official ALs `honest_low_tok_s`, `honest_high_tok_s`; judged at the MoE reading of an
unnamed architecture `moe_reading` (1) and the dense reading's `dense_ceiling_tok_s`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from checks.basis import answer, field, formula, note
from checks.engines import batches_by_default, cannot_speculate
from checks.models import Answer, Claim, Evidence, Status
from checks.physics import (
    Ceilings,
    Derived,
    Missing,
    aggregate_tok_s,
    batch_size,
    compute_roof,
    gb,
    judge_compute,
    model_is_moe,
    moe_share,
    num,
    parallel_slots,
    required_batch,
    roofline_ceilings,
    serving_bounds,
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


def _ans(status: Status, summary: str, **kw: Any) -> Answer:
    return answer(key="roofline", status=status, summary=summary, **kw)


def _per_user(ev: Evidence) -> Derived | None:
    """The per-request decode rate the record carries, if any (the larger, when there are two)."""
    c = ev.claim
    rates = []
    if c.per_user_tok_s is not None and c.per_user_tok_s > 0:
        rates.append(Derived(c.per_user_tok_s, "tok/s",
                             (field(c, "per_user_tok_s", f"= {c.per_user_tok_s:g} tok/s per request"),)))
    if c.tok_s is not None and c.tok_s_kind in ("per_user", "decode"):
        rates.append(Derived(c.tok_s, "tok/s", (field(c, "tok_s", f"= {c.tok_s:g} tok/s "
                                                          f"({c.tok_s_kind}, one request's rate)"),)))
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
        judged.append(("per_user", _judge(ev, ref, prior, per_user, ceil, label, one_stream=True)))
    if c.tok_s is not None:
        per_request = c.tok_s_kind in ("per_user", "decode")
        if c.tok_s_kind == "prefill":
            prefill = _prefill(ev, ref)
            if isinstance(prefill, Answer):
                unbounded.append(prefill)
            else:
                judged.append(("prefill", prefill))
        elif c.tok_s_kind == "total":
            unbounded.append(_ans("unanswerable", f"{c.tok_s:g} tok/s counts input and output tokens "
                                                  "together, and the decode roofline bounds output "
                                                  "tokens only.", missing=["output-only tok/s"],
                                  reason="total_tokens"))
        elif batch is None and c.tok_s_kind in ("aggregate", "per_gpu"):
            label = "the aggregate " if per_user is not None else ""
            served = _serving(ev, ref, prior, label)
            if isinstance(served, Answer):
                if served.missing and served.missing[0].startswith("reference row"):
                    return served
                unbounded.append(served)
            else:
                judged.append(("aggregate", served))
        elif not per_request or (batch is not None and batch > 1):
            ceil = roofline_ceilings(c, ref, batch=batch or 1)
            if isinstance(ceil, Missing):
                return _missing(c.tok_s, ceil)
            claimed = aggregate_tok_s(c)
            assert not isinstance(claimed, Missing)
            label = "the aggregate " if per_user is not None else ""
            j = _judge(ev, ref, prior, claimed, ceil, label, one_stream=batch == 1 or _one_users(c, ref))
            if _may_count_streams(c, ref) and (j.status == "stop" or j.reason == "needs_unstated_speculation"):
                j = _as_possible_aggregate(ev, ref, prior, j, label)
            judged.append(("aggregate", j))
    if not judged:
        return unbounded[0]
    return _unjudged(_combine(judged, unbounded))


def _unjudged(a: Answer) -> Answer:
    """A Q7 that could not judge the claim keeps the dense reading's figures under their own
    names (`dense_ratio`, `dense_ceiling_tok_s`): nothing downstream may show them as a verdict."""
    if a.status != "unanswerable" or "ratio" not in a.figures:
        return a
    figures = {("dense_" + k if k in ("ratio", "ceiling_tok_s", "realistic_ceiling_tok_s") else k): v
               for k, v in a.figures.items()}
    return a.model_copy(update={"figures": figures})


def _may_count_streams(c: Claim, ref: Reference) -> bool:
    """A figure nothing says is one stream or many (no kind, batch or concurrency) from a setup
    that batches as a rule: a serving engine whose scheduler batches every request it holds, or a
    datacenter card (served, not run for one user). "900 tok/s on 70B with one 4090" is one
    user's figure; "Llama 3 8B on one H100 at 20000 tok/s with vLLM" may be a batch. A tool that
    measures one stream (llama-bench, LocalScore) never counts several."""
    if c.tok_s_kind is not None or c.batch is not None or c.concurrency is not None or c.serving_claim:
        return False
    if parallel_slots(c) is not None:
        return True  # launched to decode that many at once (llama-server -np): it may sum them
    said = c.provenance.get("speculative")  # "llama-bench" named: its tool measured one stream
    if cannot_speculate(c.engine) is not None or (said is not None and cannot_speculate(said.field)):
        return False
    hw = ref.gpu(c.hardware)
    return batches_by_default(c.engine) is not None or (hw is not None and hw.kind == "datacenter")


def _one_users(c: Claim, ref: Reference) -> bool:
    """A figure from a setup that serves one user: one card or chip of a user's own (a consumer or
    workstation card, a Mac, a CPU, a board), no engine that batches, and nothing that counts
    streams (no batch, concurrency, slots or serving words). It is one stream's: its stop bound is
    the ceiling × the best published AL, with no room kept for an unlabelled aggregate ("900 tok/s
    on 70B with one 4090", "TinyLlama at 300 tok/s on a Raspberry Pi 5")."""
    if (c.batch is not None or c.concurrency is not None or c.serving_claim or (c.hardware_count or 1) > 1
            or parallel_slots(c) is not None or c.tok_s_kind not in (None, "decode", "output")):
        return False
    hw = ref.gpu(c.hardware)
    return hw is not None and hw.kind != "datacenter" and batches_by_default(c.engine) is None


def _as_possible_aggregate(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], j: Judged,
                           label: str) -> Judged:
    """A figure above every one-stream bound whose stream count nothing states may be a serving
    aggregate ("Llama 3 8B on one H100 at 20000 tok/s with vLLM"): it is condemned only above the
    serving roofline too (the largest batch that fits, and the cards' arithmetic); below it, which
    cell the number reports (Q3) is the question, and the answer is a flag, not a stop."""
    served = _serving(ev, ref, prior, label)
    if not isinstance(served, Judged) or served.status == "stop":
        return j
    j.figures.update({k: v for k, v in served.figures.items() if k not in j.figures})
    j.figures["aggregate_possible"] = True
    j.basis += [b for b in served.basis if b not in j.basis]
    first = served.summary[0].lower() + served.summary[1:]
    # The one-stream judgement is kept whole and the aggregate reading said after it.
    one_stream = j.summary.rstrip(".")
    slots = parallel_slots(ev.claim)
    if slots is not None and served.status == "ok":
        # The server was launched to decode that many sequences at once: their sum is the reading
        # the launch gives, judged at that batch (`serving_bounds` caps the batch at the slots).
        served.figures["one_stream_ratio"] = j.figures["ratio"]
        served.basis = [*j.basis, *(b for b in served.basis if b not in j.basis)]
        return set_status(served, "ok", (
            f"{one_stream}, but the server was launched to decode {slots} sequences at once, and "
            f"as their sum it is possible: {first}"), "slots_aggregate")
    if j.status == "flag":
        # Above one stream's ceiling but within its speculative bound: many streams explain it
        # as well as speculative decoding does, and the record names neither.
        return set_status(j, "flag", (
            f"{one_stream}; many streams would reach it without speculative decoding, and as a serving "
            f"aggregate it is possible: {first} Which cell the number reports decides (Q3)."),
            "unlabelled_above_one_stream")
    return set_status(j, "flag", (
        f"{one_stream}. That holds for one stream, and nothing says the figure is one: as a serving "
        f"aggregate it is possible: {first} Which cell the number reports decides (Q3)."),
        "unlabelled_aggregate")


def _serving(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], label: str) -> Judged | Answer:
    """An aggregate at an unknown batch against the serving roofline (checks/physics/serving.py):
    the memory bound at the largest batch that fits, judged like any ceiling (speculative
    decoding can lift it by its AL), and the compute bound, which nothing lifts."""
    c = ev.claim
    claimed = aggregate_tok_s(c)
    assert not isinstance(claimed, Missing)
    bounds = serving_bounds(c, ref)
    if isinstance(bounds, Missing):
        return _missing(claimed.value, bounds)
    notes = "; ".join(bounds.notes)
    if bounds.memory is None and bounds.compute is None:
        return _ans("unanswerable", f"{tok(claimed.value)} tok/s is an aggregate over an unknown number "
                                    f"of streams, and neither serving bound applies ({notes}).",
                    missing=["batch size", "KV geometry or context length", "dense peak TFLOPS"])
    compute = bounds.compute
    model = ref.model(c.model)
    share = moe_share(c, model, ref) if compute is not None and model_is_moe(c, model, ref) is None else None
    if compute is not None and share is not None:
        # Read as dense, the compute bound could condemn a MoE: use its most generous MoE reading.
        compute = Derived(compute.value / share[0], "tok/s", (
            *compute.basis, share[1],
            formula(f"not stated whether the model is a MoE: {num(compute.value)} ÷ {share[0]:.3f} (the "
                    f"sparsest published MoE of its size) = {num(compute.value / share[0])} tok/s")))
    extra: dict[str, float] = {"serving": True}
    if compute is not None:
        extra["compute_bound_tok_s"] = compute.value
    if bounds.ceilings is not None and bounds.memory is not None and bounds.max_batch is not None:
        ceil = bounds.ceilings
        j = _judge(ev, ref, prior, claimed, ceil, label, serving=True,
                   slots=bounds.max_batch if bounds.slots else None)
        extra["memory_bound_tok_s"] = bounds.memory.value
        extra["max_batch"] = bounds.max_batch
        if bounds.slots:
            extra["server_slots"] = bounds.max_batch
        need = required_batch(claimed.value, ceil.weights_gb.value, ceil.bandwidth.value, ceil.kv_gb)
        if need is not None:
            extra["required_batch"] = need
        j.basis[len(claimed.basis):len(claimed.basis)] = [
            b for b in bounds.memory.basis if b not in ceil.generous.basis]
        j.figures.update(extra)
        needs = (f"it needs a batch of at least {need}" if need is not None
                 else "no batch reaches it (each sequence's own KV read caps the rate)")
        most = (f"the server runs at most {bounds.max_batch} at once" if bounds.slots
                else f"at most {bounds.max_batch} fit")
        j.summary = j.summary.rstrip(".") + f"; {needs}, and {most}."
    else:
        assert compute is not None
        ratio = claimed.value / compute.value
        j = Judged("ok", "", {"claimed_tok_s": claimed.value, "ceiling_tok_s": compute.value,
                              "ratio": ratio, **extra},
                   [*claimed.basis, *compute.basis, formula(f"ratio = {tok(claimed.value)} ÷ "
                                                             f"{num(compute.value)} = {ratio:.2f}")], batch=0)
        lead = (f"{label}{tok(claimed.value)} tok/s is {times(ratio)} the compute bound of "
                f"{num(compute.value)} tok/s at any batch ({notes})")
        lead = lead[0].upper() + lead[1:]
        set_status(j, "ok", f"{lead}.")
    if compute is not None:
        c_ratio = claimed.value / compute.value
        j.figures["compute_ratio"] = c_ratio
        for b in compute.basis:
            if b not in j.basis:
                j.basis.append(b)
        if c_ratio > STOP_RATIO and c.hardware_count is None:
            j.summary = j.summary.rstrip(".") + (f"; {times(c_ratio)} one card's compute bound of "
                                                 f"{num(compute.value)} tok/s, and the record does not "
                                                 "say how many cards ran it.")
        elif c_ratio > STOP_RATIO:
            j.status, j.reason = "stop", "above_compute"
            j.summary = (f"{label}{tok(claimed.value)} tok/s is {times(c_ratio)} the compute bound of "
                         f"{num(compute.value)} tok/s at any batch: more arithmetic per second than the "
                         f"cards can do, speculative decoding or not. " + j.summary)
            j.summary = j.summary[0].upper() + j.summary[1:]
    elif bounds.notes:
        j.summary = j.summary.rstrip(".") + f" ({notes})."
    return j


def _prefill(ev: Evidence, ref: Reference) -> Judged | Answer:
    """A prompt-processing figure against the compute roof (checks/physics/compute.py): one pass
    over the weights serves every prompt token, so arithmetic, not bandwidth, bounds it."""
    c = ev.claim
    claimed = aggregate_tok_s(c)
    assert not isinstance(claimed, Missing)
    roof = compute_roof(c, ref)
    if isinstance(roof, Missing):
        return _ans("unanswerable", f"No compute roof for {tok(claimed.value)} tok/s of prompt "
                                    f"processing: the record and the reference lack "
                                    f"{', '.join(roof.what)}.", missing=list(roof.what))
    v = judge_compute(claimed, roof, "prompt processing at ", FLAG_RATIO)
    reason = {"stop": "prefill_above_compute", "flag": "prefill_near_compute"}.get(v.status, "")
    return Judged(v.status, v.summary, dict(v.figures), list(v.basis), list(roof.bound.assumptions),
                  list(v.missing), batch=0, reason=reason)


def _missing(value: float, ceil: Missing) -> Answer:
    return _ans("unanswerable", f"No ceiling for {value:g} tok/s: the record and the reference "
                                f"lack {', '.join(ceil.what)}.", missing=list(ceil.what))


def _combine(judged: list[tuple[str, Judged]], unbounded: list[Answer]) -> Answer:
    """The worse of the judged rates decides (the higher ratio on a tie); the others are quoted."""
    name, top = max(judged, key=lambda p: (_SEVERITY[p[1].status], p[1].figures["ratio"]))
    figures = dict(top.figures)
    figures["ceiling_batch"] = top.batch
    summary = top.summary
    for other_name, other in judged:
        figures[f"{other_name}_ratio"] = other.figures["ratio"]
        figures[f"{other_name}_ceiling_tok_s"] = other.figures["ceiling_tok_s"]
        if other_name == "per_user":
            figures["per_user_tok_s"] = other.figures["claimed_tok_s"]
        if other is not top:
            summary += f" Also: {other.summary[0].lower()}{other.summary[1:]}"
    basis = list(top.basis)
    assumptions = list(top.assumptions)
    if len(judged) > 1:  # one judged rate (most claims) is the top one: nothing to merge
        seen = set(basis)  # entries hash by what they state: a set, not a list scan per entry
        for _, other in judged:
            for b in other.basis:
                if b not in seen:
                    seen.add(b)
                    basis.append(b)
        for _, other in judged:
            assumptions += [a for a in other.assumptions if a not in assumptions]
    for a in unbounded:
        summary += f" Also: {a.summary[0].lower()}{a.summary[1:]}"
    return _ans(top.status, summary, figures=figures, basis=basis, assumptions=assumptions,
                missing=top.missing, reason=top.reason)


def _kv_note(note: str) -> bool:
    """KV caveats belong to the realistic ceiling's basis, not the summary."""
    return "KV reads not counted" in note


def _how(ceil: Ceilings) -> str:
    """'1792 GB/s ÷ 13.9 GB of NVFP4 weights', with the card count, batch and offload when they apply."""
    if ceil.layer_split:  # the bandwidth is one card's already: the cards take turns
        bw = f"one card's {num(ceil.bandwidth.value)} GB/s, the {ceil.cards} cards taking turns,"
    else:
        per_card = ceil.bandwidth.value / ceil.cards
        bw = f"{ceil.cards} × {num(per_card)} GB/s" if ceil.cards > 1 else f"{num(per_card)} GB/s"
    weights = f"{num(ceil.weights_gb.value)} GB of {ceil.fmt.name} weights"
    if ceil.offload is not None:
        off = ceil.offload
        weights += (f", {num(off.system_fraction)} of them offloaded to system memory at "
                    f"{num(off.system_bandwidth.value)} GB/s")
    if ceil.batch == 1:
        return f"{bw} ÷ ({weights} + {gb(ceil.kv_gb)} KV at the stated depth)" if ceil.kv_gb else f"{bw} ÷ {weights}"
    kv = f" + {ceil.batch} × {gb(ceil.kv_gb)} KV" if ceil.kv_gb else ""
    return f"{ceil.batch} × {bw} ÷ ({weights}{kv})"


def _judge(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], claimed: Derived,
           ceil: Ceilings, label: str, *, serving: bool = False, one_stream: bool = False,
           slots: int | None = None) -> Judged:
    c = ev.claim
    g = ceil.generous.value
    ratio = claimed.value / g
    figures = {
        "claimed_tok_s": claimed.value, "ceiling_tok_s": g,
        "realistic_ceiling_tok_s": ceil.realistic.value, "ratio": ratio,
        "bandwidth_gbs": ceil.bandwidth.value, "weights_gb": ceil.weights_gb.value,
    }
    if ceil.layer_split:
        figures["layer_split"] = True
    if ceil.offload is not None:
        figures["system_fraction"] = ceil.offload.system_fraction
        figures["system_bandwidth_gbs"] = ceil.offload.system_bandwidth.value
    generous = set(ceil.generous.basis)  # entries hash by their fields: no __eq__ scan per entry
    basis = [*claimed.basis, *ceil.generous.basis,
             *[b for b in ceil.realistic.basis if b not in generous],
             *[note(f"realistic: {n}") for n in ceil.realistic.notes if _kv_note(n)],
             formula(f"ratio = {tok(claimed.value)} ÷ {num(g)} = {ratio:.2f}")]
    assumptions = [*ceil.generous.assumptions,
                   *[a for a in ceil.realistic.assumptions if a not in ceil.generous.assumptions]]
    notes = list(dict.fromkeys(n for n in (*ceil.generous.notes, *ceil.realistic.notes)
                               if not _kv_note(n)))
    if batch_size(c) is None and ceil.batch == 1 and c.tok_s_kind not in ("per_user", "decode"):
        notes.append("batch not stated: the batch-1 ceiling bounds any single stream")
    cell = (f"serving ({slots} parallel slots)" if serving and slots else
            "serving (largest batch that fits)" if serving else
            "batch-1" if ceil.batch == 1 else f"batch-{ceil.batch} aggregate")
    lead = (f"{label}{tok(claimed.value)} tok/s is "
            f"{times(ratio)} the generous {cell} ceiling of {num(g)} tok/s "
            f"({_how(ceil)}; realistic {num(ceil.realistic.value)} tok/s)")
    lead = lead[0].upper() + lead[1:]
    j = Judged("ok", "", figures, basis, assumptions, batch=ceil.batch)
    if ratio > FLAG_RATIO and model_is_moe(c, ceil.model, ref) is None:
        # Reading an unnamed architecture as dense is the one assumption here that works against
        # the claim: a MoE of that size reads only its active experts ("30B" may be 30B-A3B). The
        # most generous plausible MoE reading (the sparsest published MoE of about its total)
        # still bounds it: a figure beyond even that is judged there, never excused.
        share = moe_share(c, ceil.model, ref)
        cannot = Judged("unanswerable", f"{lead}, read as dense; nothing says whether the model is a "
                        "MoE, which would read only its active experts, so the claim cannot be judged "
                        "against it.", dict(figures), list(basis), list(assumptions),
                        ["whether the model is a MoE, and its active params"], batch=ceil.batch)
        if share is None or claimed.value <= g / share[0]:
            return cannot
        fraction, share_row = share
        g = g / fraction
        ratio = claimed.value / g
        moe = formula(f"most generous MoE reading: {num(ceil.generous.value)} ÷ {fraction:.3f} (the "
                      f"sparsest published MoE of its size) = {num(g)} tok/s")
        ceil = replace(ceil, generous=Derived(g, "tok/s", (*ceil.generous.basis, share_row, moe),
                                              ceil.generous.assumptions, ceil.generous.notes))
        j.figures.update(ceiling_tok_s=g, ratio=ratio, dense_ceiling_tok_s=g * fraction, moe_reading=True)
        j.basis += [share_row, moe, formula(f"ratio = {tok(claimed.value)} ÷ {num(g)} = {ratio:.2f}")]
        share_name = share_row.source.removeprefix("models/") if share_row.source else "the table"
        notes.append(f"not stated whether the model is a MoE: judged at the most generous MoE reading "
                     f"({num(g)} tok/s, active share {fraction:.3f} as in {share_name})")
        lead = (f"{label}{tok(claimed.value)} tok/s is {times(ratio)} the generous {cell} ceiling of "
                f"{num(g)} tok/s even if the model were a MoE as sparse as any published of its size "
                f"({_how(ceil)} read as dense: {num(g * fraction)} tok/s)")
        lead = lead[0].upper() + lead[1:]
        # Above the ceiling under every reading: judged as a figure above a known ceiling is (a
        # stop, or a flag where only speculative decoding could reach it). An `ok` here (within
        # a stated AL at the MoE reading) would still be a flag read as dense: the architecture
        # decides, and the answer says so.
        moe_judged = _decide(ev, ref, prior, ceil, j, lead, notes, one_stream)
        return moe_judged if moe_judged.status in ("stop", "flag") else cannot
    return _decide(ev, ref, prior, ceil, j, lead, notes, one_stream)


def _decide(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], ceil: Ceilings, j: Judged,
            lead: str, notes: list[str], one_stream: bool) -> Judged:
    """The status of one rate against one ceiling: plain decode, speculative stated, or unstated."""
    c = ev.claim
    ratio = j.figures["ratio"]
    plain_tool = cannot_speculate(c.engine) if c.speculative is None else None
    if plain_tool is not None:
        notes.insert(0, f"plain decode: {plain_tool}")
    if c.speculative is False or plain_tool is not None:
        tail = f" ({'; '.join(notes)})" if notes else ""
        if ratio > STOP_RATIO:
            return set_status(j, "stop", f"{lead}: without speculative decoding no run reads the weights "
                                   f"faster than the memory delivers them{tail}.", "above_ceiling")
        # Near the ceiling is no flag for plain decode: with speculation ruled out, what is left
        # is our own byte count, and that overcounts (the file's input-embedding table is read one
        # row per token). Honest llama.cpp F16 decode of Llama 3 8B reaches 0.93 of it
        # (XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec README: RTX 4000 Ada 20.92 tok/s
        # at 360 GB/s over 16.06 GB); only the physics, above 1, condemns.
        where = ("near the generous ceiling (above "
                 f"{FLAG_RATIO}): possible, the ceiling counts every byte of the weights, the input "
                 "embedding table too, of which decode reads one row per token" if ratio > FLAG_RATIO
                 else "where real decode lands (0.55–0.85)" if ratio >= 0.55
                 else "below where real decode lands (0.55–0.85): possible")
        return set_status(j, "ok", f"{lead}, {where}{tail}.")
    al = c.acceptance_length if c.acceptance_length is not None else c.acceptance_length_high
    if c.speculative is True or c.spec_method or c.spec_window or al is not None:
        return judge_speculative(ev, ref, prior, ceil, j, lead, notes, al)
    return judge_unstated(ev, ref, j, lead, notes, one_stream=one_stream)


