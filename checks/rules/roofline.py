"""Q7 roofline: claimed tok/s over the memory-bandwidth ceiling.

Seed §4: "batch-1 generation ceiling = memory bandwidth ÷ weight footprint. This isn't a rule of
thumb. It's a division."

The ceiling is generous on purpose: theoretical bandwidth ÷ (the record's file size, else params ×
nominal bits / 8; dense reads every weight, MoE its active ones), no KV reads. A realistic ceiling
(achievable bandwidth, published mixed-precision recipe or effective bits, recurrent state, KV at
the stated context) is reported beside it. `ratio = claimed ÷ generous ceiling`. Tensor parallel:
bandwidth × card count. Batch B > 1: bound = B × bandwidth ÷ (weights + B × KV per sequence),
compared with aggregate tok/s (per user × B).

Statuses, no speculative decoding:
- `stop`: ratio > 1 (no run reads the weights faster than the memory delivers them).
- `flag`: ratio > 0.9 (real decode lands at 0.55-0.85 of the ceiling).
- `ok`: otherwise.
Speculative decoding (each verify pass still reads the weights once, so tok/s <= ceiling × AL):
- `stop`: an AL that Q5 accepted (`ok`) and a claim above ceiling × AL; a claim needing more than
  the window per pass; a claimed speedup above the AL (or the window); with no credible AL, a claim
  above 3 × ceiling × the highest AL anyone has published for the method.
- `flag`: no credible AL and a claim above the honest range's high end (ceiling × the highest
  official AL for the method).
- `ok`: otherwise; the honest range (ceiling × 0.6 × lowest official AL to ceiling × highest
  official AL) and the AL the claim would need are reported.
Not known whether speculative decoding ran: ratio <= 1 is fine; above it, judged as speculative
with the best method in the table, said.
- `n/a`: a prefill (prompt-processing) figure: compute-bound, see compute_ceiling.
- `unanswerable`: no tok/s, no hardware (or a card not in the table), no model size, an
  input+output total, or an aggregate figure with no batch size.

Reference rows read: `hardware` (bandwidth), `models` (params, MoE, recipes, KV geometry, state),
`formats` (nominal and effective bits), `methods` (published ALs). Figures: `claimed_tok_s`,
`ceiling_tok_s`, `realistic_ceiling_tok_s`, `ratio`, `bandwidth_gbs`, `weights_gb`; with speculative
decoding `required_al`, `bound_tok_s` (the bound judged against: ceiling × AL, or the 3 × best-AL
stop bound), `honest_low_tok_s`, `honest_high_tok_s`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checks.models import Answer, Assumption, Evidence, Status
from checks.physics import Ceilings, Missing, aggregate_tok_s, batch_size, num, roofline_ceilings
from checks.reference import MethodRow, Reference
from checks.rules.acceptance import acceptance

__all__ = ["roofline"]

# SPEC §4 Q7 / reference-data.md §2.3: real decode lands at 0.55-0.85; > 0.9 suspicious; > 1 impossible.
FLAG_RATIO = 0.9
STOP_RATIO = 1.0
# SPEC §7: honest low = ceiling × typical attainment × lowest official AL. 0.6 sits in the
# llama.cpp / consumer band 0.55-0.70 of reference-data.md §0.4.
TYPICAL_ATTAINMENT = 0.6
# SPEC §4 Q7: stop above 3 × ceiling × the highest AL anyone has published for the method.
STOP_MULTIPLE = 3.0

_A_ATTAIN = Assumption(name="typical decode attainment", value=TYPICAL_ATTAINMENT, unit="of ceiling",
                       source="SPEC §7; reference-data.md §0.4 (llama.cpp / consumer cards 0.55-0.70)")
_A_STOP = Assumption(name="speculative stop multiple", value=STOP_MULTIPLE, unit="× ceiling × best AL",
                     source="SPEC §4 Q7")


def _best_method(ref: Reference) -> MethodRow | None:
    rows = [m for m in ref.methods if m.published_als]
    return max(rows, key=lambda m: max(p.al for p in m.published_als), default=None)


def _ans(status: Status, summary: str, **kw: Any) -> Answer:
    return Answer(key="roofline", status=status, summary=summary, **kw)


def roofline(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q7 roofline: claimed tok/s over the memory-bandwidth ceiling."""
    c = ev.claim
    if c.tok_s is None:
        return _ans("unanswerable", "No tok/s figure to set against the ceiling.", missing=["tok/s"])
    if c.tok_s_kind == "prefill":
        return _ans("n/a", f"{c.tok_s:g} tok/s is prompt processing, which is compute-bound: the "
                           "decode roofline does not apply (see compute_ceiling).")
    if c.tok_s_kind == "total":
        return _ans("unanswerable", f"{c.tok_s:g} tok/s counts input and output tokens together, and "
                                    "the decode roofline bounds output tokens only.",
                    missing=["output-only tok/s"])
    batch = batch_size(c)
    if batch is None and c.tok_s_kind in ("aggregate", "per_gpu"):
        return _ans("unanswerable", f"{c.tok_s:g} tok/s is an aggregate over an unknown number of "
                                    "streams, so no bandwidth ceiling bounds it.", missing=["batch size"])
    ceil = roofline_ceilings(c, ref, batch=batch or 1)
    if isinstance(ceil, Missing):
        return _ans("unanswerable", f"No ceiling for {c.tok_s:g} tok/s: the record and the reference "
                                    f"lack {', '.join(ceil.what)}.", missing=list(ceil.what))
    claimed = aggregate_tok_s(c)
    assert not isinstance(claimed, Missing)
    g = ceil.generous.value
    ratio = claimed.value / g
    figures = {
        "claimed_tok_s": claimed.value, "ceiling_tok_s": g,
        "realistic_ceiling_tok_s": ceil.realistic.value, "ratio": ratio,
        "bandwidth_gbs": ceil.bandwidth.value, "weights_gb": ceil.weights_gb.value,
    }
    basis = [*claimed.basis, *ceil.generous.basis,
             *[b for b in ceil.realistic.basis if b not in ceil.generous.basis],
             *[f"realistic: {n}" for n in ceil.realistic.notes if _kv_note(n)],
             f"ratio = {_t(claimed.value)} ÷ {num(g)} = {ratio:.2f}"]
    assumptions = [*ceil.generous.assumptions,
                   *[a for a in ceil.realistic.assumptions if a not in ceil.generous.assumptions]]
    notes = list(dict.fromkeys(n for n in (*ceil.generous.notes, *ceil.realistic.notes)
                               if not _kv_note(n)))
    if batch is None:
        notes.append("batch not stated: the batch-1 ceiling bounds any single stream")
    tail = f" ({'; '.join(notes)})" if notes else ""
    cell = "batch-1" if ceil.batch == 1 else f"batch-{ceil.batch} aggregate"
    lead = (f"{_t(claimed.value)} tok/s is "
            f"{_times(ratio)} the generous {cell} ceiling of {num(g)} tok/s "
            f"({_how(ceil)}; realistic {num(ceil.realistic.value)} tok/s)")
    kw: dict[str, Any] = {"figures": figures, "basis": basis, "assumptions": assumptions}

    if c.speculative is False:
        if ratio > STOP_RATIO:
            return _ans("stop", f"{lead}: without speculative decoding no run reads the weights "
                                f"faster than the memory delivers them{tail}.", **kw)
        if ratio > FLAG_RATIO:
            return _ans("flag", f"{lead}: real decode lands at 0.55–0.85 of it, so above "
                                f"{FLAG_RATIO} suggests miscounted bytes or an unstated speculative "
                                f"method{tail}.", **kw)
        return _ans("ok", f"{lead}, where real decode lands (0.55–0.85){tail}.", **kw)
    return _speculative(ev, ref, prior, ceil, ratio, lead, notes, kw)


def _kv_note(note: str) -> bool:
    """KV caveats belong to the realistic ceiling's basis, not the summary."""
    return "KV reads not counted" in note


def _t(x: float) -> str:
    """A claimed figure as the record gives it (2103.6, 4691), not rounded like a derived one."""
    return f"{round(x, 1):g}"


def _times(ratio: float) -> str:
    return f"{ratio:.1f}×" if ratio >= 2 else f"{ratio:.2f}×" if ratio >= 1 else f"{ratio:.2f} of"


def _how(ceil: Ceilings) -> str:
    """'1792 GB/s ÷ 13.9 GB of NVFP4 weights', with the card count and the batch when they apply."""
    per_card = ceil.bandwidth.value / ceil.cards
    bw = f"{ceil.cards} × {num(per_card)} GB/s" if ceil.cards > 1 else f"{num(per_card)} GB/s"
    weights = f"{num(ceil.weights_gb.value)} GB of {ceil.fmt.name} weights"
    if ceil.batch == 1:
        return f"{bw} ÷ {weights}"
    kv = f" + {ceil.batch} × {num(ceil.kv_gb)} GB KV" if ceil.kv_gb else ""
    return f"{ceil.batch} × {bw} ÷ ({weights}{kv})"


def _speculative(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], ceil: Ceilings,
                 ratio: float, lead: str, notes: list[str], kw: dict[str, Any]) -> Answer:
    c = ev.claim
    g = ceil.generous.value
    figures, basis, assumptions = kw["figures"], kw["basis"], kw["assumptions"]
    figures["required_al"] = ratio
    basis.append(f"required AL = {_t(figures['claimed_tok_s'])} ÷ {num(g)} = {ratio:.1f}")
    al = c.acceptance_length if c.acceptance_length is not None else c.acceptance_length_high
    known = c.speculative is True or bool(c.spec_method or c.spec_window or al)

    if not known and ratio <= STOP_RATIO:
        notes.insert(0, "not stated whether speculative decoding was used")
        return _ans("ok", f"{lead}, possible even without speculative decoding ({'; '.join(notes)}).",
                    **kw)
    method = ref.method(c.spec_method) if known else None
    if method is None or not method.published_als:
        method = _best_method(ref)
        if method is not None:
            why = (f"speculative method '{c.spec_method}' has no published AL in the reference"
                   if c.spec_method and known else "speculative method not named" if known
                   else "not stated whether speculative decoding was used")
            notes.append(f"{why}: judged with {method.name}, the best method in the table")
    tail = f" ({'; '.join(notes)})" if notes else ""
    need = f"it would need an AL of {ratio:.1f}"
    window = c.spec_window
    cap = al if al is not None else window
    if c.speedup is not None and cap is not None and c.speedup > cap:
        what = f"the AL of {cap:g}" if al is not None else f"the {window}-token window"
        basis.append(f"{c.source_of('speedup')} = {c.speedup:g}× > {what}")
        return _ans("stop", f"The claimed {c.speedup:g}× speedup is above {what}: a speculative run "
                            f"cannot gain more than the tokens it emits per pass.", **kw)
    if window and ratio > window:
        basis.append(f"required AL {ratio:.1f} > window {window}")
        return _ans("stop", f"{lead}; {need}, more than the {window}-token window can emit per pass "
                            f"even if the draft never missed{tail}.", **kw)

    official = method.official_als() if method is not None else []
    best = method.best_published_al() if method is not None else None
    honest = ""
    if method is not None and official:
        lo, hi = g * TYPICAL_ATTAINMENT * min(official), g * max(official)
        figures["honest_low_tok_s"], figures["honest_high_tok_s"] = lo, hi
        assumptions.append(_A_ATTAIN)
        basis.append(f"{method.cite()}: official ALs {min(official):g}–{max(official):g}")
        basis.append(f"honest range = {num(g)} × {TYPICAL_ATTAINMENT} × {min(official):g} = {num(lo)} to "
                     f"{num(g)} × {max(official):g} = {num(hi)} tok/s (official ALs)")
        honest = f"{num(lo)}–{num(hi)} tok/s"

    q5 = prior.get("acceptance") or acceptance(ev, ref, prior)
    if al is not None and q5.status == "ok":
        bound = g * al
        figures["bound_tok_s"] = bound
        basis.append(f"bound = ceiling × AL = {num(g)} × {al:g} = {num(bound)} tok/s (Q5 accepted the AL)")
        if figures["claimed_tok_s"] > bound:
            return _ans("stop", f"{lead}, above ceiling × AL = {num(g)} × {al:g} = {num(bound)} tok/s: "
                                f"every verify pass still reads the weights once{tail}.", **kw)
        return _ans("ok", f"{lead}, within ceiling × AL = {num(g)} × {al:g} = {num(bound)} tok/s"
                          f"{tail}.", **kw)

    if method is None or best is None:
        return _ans("unanswerable", f"{lead}; {need}, and the reference has no published AL for "
                                    f"any method to judge that by{tail}.",
                    missing=["published ALs for the speculative method"], **kw)
    assumptions.append(_A_STOP)
    stop_bound = STOP_MULTIPLE * g * best.al
    figures["bound_tok_s"] = stop_bound
    cite = method.name if official else method.cite()
    basis.append(f"{cite}: best published AL {best.al:g} ({best.task}, "
                 f"{'official' if best.official else 'third-party'}: {best.source})")
    basis.append(f"stop bound = {num(STOP_MULTIPLE)} × {num(g)} × {best.al:g} = {num(stop_bound)} tok/s")
    if al is None:
        why_al = "and no AL is reported"
    else:
        shown = (f"{c.acceptance_length_low:g}–{al:g}" if c.acceptance_length is None
                 and c.acceptance_length_low is not None else f"{al:.1f}" if al == int(al) else f"{al:g}")
        why_al = f"and the reported AL {shown} is not credible (Q5 {q5.status})"
    if figures["claimed_tok_s"] > stop_bound:
        return _ans("stop", f"{lead}, above {num(STOP_MULTIPLE)} × the ceiling × the best AL anyone "
                            f"has published for {method.name} ({best.al:g}) = {num(stop_bound)} tok/s; "
                            f"{need}, {why_al}" + (f"; honest range {honest}" if honest else "") + f"{tail}.", **kw)
    if official and figures["claimed_tok_s"] > figures["honest_high_tok_s"]:
        return _ans("flag", f"{lead}, above the honest {method.name} range of {honest} (ceiling × "
                            f"{TYPICAL_ATTAINMENT} × {min(official):g} to ceiling × "
                            f"{max(official):g}); {need}, {why_al}{tail}.", **kw)
    if not honest:
        where = f"below the stop bound of {num(stop_bound)} tok/s"
    elif figures["claimed_tok_s"] < figures["honest_low_tok_s"]:
        where = f"below the honest {method.name} range of {honest}"
    else:
        where = f"within the honest {method.name} range of {honest}"
    return _ans("ok", f"{lead}, {where}; {need}{tail}.", **kw)
