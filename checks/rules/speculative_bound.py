"""How Q7 judges a claim above the plain-decode ceiling: speculative decoding stated or unstated.

A helper of checks/rules/roofline.py (documented there, tested in tests/checks/test_roofline.py),
not a check of its own. Each verify pass of a speculative run still reads the weights once, so
tok/s <= ceiling × AL: the AL a record reports can always condemn a claim, only one Q5 accepted
can excuse it, and with no credible AL the claim is set against the honest range of the method's
published ALs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from checks.basis import field as claim_field
from checks.basis import formula, row
from checks.models import Answer, Assumption, Basis, Claim, Evidence, Status
from checks.physics import Ceilings, num
from checks.physics.figures import per_reference
from checks.reference import MethodRow, PublishedAL, Reference
from checks.rules.acceptance import acceptance, method_als

__all__ = [
    "MEASURED_AL_MARGIN",
    "STOP_MULTIPLE",
    "STOP_RATIO",
    "TYPICAL_ATTAINMENT",
    "Judged",
    "judge_speculative",
    "judge_unstated",
    "measured_al",
    "set_status",
    "times",
    "tok",
]

# Above the plain-decode ceiling only speculative decoding (or miscounted bytes) explains a claim.
STOP_RATIO = 1.0
# Honest low = ceiling × typical attainment × lowest official AL. 0.6 sits in the llama.cpp /
# consumer band 0.55-0.70 (AlexsJones/llmfit@3f44fd3 defaults to 0.55; llmfit PR #137 measured 0.62).
TYPICAL_ATTAINMENT = 0.6
# Stop above 3 × ceiling × the highest AL anyone has published: real speedup is 0.4-0.8 × AL and
# never above it (hemingkx/Spec-Bench@fd2c1cd Leaderboard.md; sgl-project/sglang PR #4247), so 3×
# the best AL leaves room for every honest run and for ALs not yet in the table.
STOP_MULTIPLE = 3.0

# A run's own acceptance and its throughput are measured over the same scenario but not always the
# same pass (AccelMark: throughput is the median of num_runs = 3, the runtime metrics are read once
# "after inference completes", runners/benchmark_runner.py @5797fc42): 5% covers that spread and
# the rounding of a printed rate (0.74 of 4 drafts is 2.94-2.98 accepted).
MEASURED_AL_MARGIN = 1.05

_A_MEASURED = Assumption(name="measured-AL margin", value=MEASURED_AL_MARGIN, unit="× AL",
                         source="acceptance and throughput from different runs of one scenario "
                                "(FreedomIntelligence/AccelMark@5797fc42 runners/benchmark_runner.py: "
                                "num_runs 3, runtime metrics read once) and a rate's printed rounding")

_A_ATTAIN = Assumption(name="typical decode attainment", value=TYPICAL_ATTAINMENT, unit="of ceiling",
                       source="llama.cpp / consumer cards reach 0.55-0.70 of the bandwidth ceiling "
                              "(AlexsJones/llmfit@3f44fd3 fit.rs default 0.55; llmfit PR #137: 0.62)")
_A_STOP = Assumption(name="speculative stop multiple", value=STOP_MULTIPLE, unit="× ceiling × best AL",
                     source="speedup is 0.4-0.8 × AL, never above it (hemingkx/Spec-Bench@fd2c1cd "
                            "Leaderboard.md; sgl-project/sglang PR #4247)")


@dataclass
class Judged:
    """One rate set against one ceiling, before it becomes an Answer."""

    status: Status
    summary: str
    figures: dict[str, float]
    basis: list[Basis | str]
    assumptions: list[Assumption] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    batch: int = 1
    reason: str = ""  # the Answer's reason code (checks.render.REASONS)


@per_reference  # a fact of the method table: the same for every claim
@per_reference  # a fact of the method table: the same for every claim
def _best_method(ref: Reference) -> MethodRow | None:
    rows = [m for m in ref.methods if m.published_als]
    return max(rows, key=lambda m: max(p.al for p in m.published_als), default=None)


def tok(x: float) -> str:
    """A claimed figure as the record gives it (2103.6, 4691), not rounded like a derived one."""
    return f"{round(x, 1):g}"


def times(ratio: float) -> str:
    return f"{ratio:.1f}×" if ratio >= 2 else f"{ratio:.2f}×" if ratio >= 1 else f"{ratio:.2f} of"


def set_status(j: Judged, status: Status, summary: str, reason: str = "") -> Judged:
    j.status, j.summary, j.reason = status, summary, reason
    return j


@per_reference  # a fact of the method table: the same for every claim
def _best_any(ref: Reference) -> tuple[MethodRow, PublishedAL] | None:
    """The highest AL published for any method in the table, third-party included."""
    pairs = [(m, p) for m in ref.methods for p in m.published_als]
    return max(pairs, key=lambda mp: mp[1].al, default=None)


def judge_unstated(ev: Evidence, ref: Reference, j: Judged, lead: str, notes: list[str], *,
                   one_stream: bool = False) -> Judged:
    """Nothing says whether speculative decoding ran: above the ceiling only it could explain the
    number, and nothing mentions it. One stream gets at most ceiling × the best AL any method has
    published; a figure whose stream count is unstated keeps room (3 ×) for an unlabelled
    aggregate."""
    ratio, g = j.figures["ratio"], j.figures["ceiling_tok_s"]
    where = "the post" if ev.kind == "post" else "the record"
    if ratio <= STOP_RATIO:
        notes.insert(0, "not stated whether speculative decoding was used")
        return set_status(j, "ok", f"{lead}, possible even without speculative decoding ({'; '.join(notes)}).")
    tail = f" ({'; '.join(notes)})" if notes else ""
    j.figures["required_al"] = ratio
    j.basis.append(formula(f"required AL = {tok(j.figures['claimed_tok_s'])} ÷ {num(g)} = {ratio:.1f}"))
    best = _best_any(ref)
    if best is not None:
        method, pub = best
        # Nothing names a method: the best AL any method has published is the most any could give
        # one stream; an unlabelled figure at an unstated batch may count several streams.
        multiple = 1.0 if one_stream else STOP_MULTIPLE
        bound = multiple * g * pub.al
        j.figures["bound_tok_s"] = bound
        j.basis.append(row(method, f"best AL published for any method {pub.al:g} ({pub.task}, "
                                   f"{'official' if pub.official else 'third-party'}: {pub.source})"))
        if one_stream:
            j.basis.append(formula(f"stop bound = {num(g)} × {pub.al:g} = {num(bound)} tok/s (one stream)"))
        else:
            j.assumptions.append(_A_STOP)
            j.basis.append(formula(f"stop bound = {num(STOP_MULTIPLE)} × {num(g)} × {pub.al:g} = "
                                   f"{num(bound)} tok/s (stream count not stated)"))
        times_ = "" if one_stream else f"{num(STOP_MULTIPLE)} × "
        if j.figures["claimed_tok_s"] > bound:
            return set_status(j, "stop", f"{lead}, above {times_}the ceiling × the best AL "
                                   f"published for any method ({method.name}, {pub.al:g}) = "
                                   f"{num(bound)} tok/s: not even speculative decoding explains it, and "
                                   f"{where} does not mention any{tail}.", "above_any_speculation")
    need = math.ceil(ratio * 10) / 10  # rounded up: the AL that would suffice
    return set_status(j, "flag", f"{lead}: only possible with speculative decoding at AL ≥ {need:.1f}, "
                           f"which {where} does not mention{tail}.", "needs_unstated_speculation")


def judge_speculative(ev: Evidence, ref: Reference, prior: Mapping[str, Answer], ceil: Ceilings,
                 j: Judged, lead: str, notes: list[str], al: float | None) -> Judged:
    c = ev.claim
    g = ceil.generous.value
    ratio, claimed = j.figures["ratio"], j.figures["claimed_tok_s"]
    j.figures["required_al"] = ratio
    j.basis.append(formula(f"required AL = {tok(claimed)} ÷ {num(g)} = {ratio:.1f}"))
    method = ref.method(c.spec_method)
    if method is None or not method.published_als:
        method = _best_method(ref)
        if method is not None:
            why = (f"speculative method '{c.spec_method}' has no published AL in the reference"
                   if c.spec_method else "speculative method not named")
            notes.append(f"{why}: judged with {method.name}, the best method in the table")
    tail = f" ({'; '.join(notes)})" if notes else ""
    need = f"it would need an AL of {ratio:.1f}"
    window = c.spec_window
    cap = al if al is not None else window
    if c.speedup is not None and cap is not None and c.speedup > cap:
        what = f"the AL of {cap:g}" if al is not None else f"the {window}-token window"
        j.basis.append(claim_field(c, "speedup", f"= {c.speedup:g}× > {what}"))
        return set_status(j, "stop", f"The claimed {c.speedup:g}× speedup is above {what}: a speculative "
                               f"run cannot gain more than the tokens it emits per pass.", "speedup_above_al")
    if window and ratio > window:
        j.basis.append(formula(f"required AL {ratio:.1f} > window {window}"))
        return set_status(j, "stop", f"{lead}; {need}, more than the {window}-token window can emit per "
                               f"pass even if the draft never missed{tail}.", "above_window")

    official, best = method_als(ref, method) if method is not None else ([], None)
    honest = ""
    if method is not None and official:
        lo, hi = g * TYPICAL_ATTAINMENT * min(official), g * max(official)
        j.figures["honest_low_tok_s"], j.figures["honest_high_tok_s"] = lo, hi
        j.assumptions.append(_A_ATTAIN)
        j.basis.append(row(method, f"official ALs {min(official):g}–{max(official):g}"))
        j.basis.append(formula(f"honest range = {num(g)} × {TYPICAL_ATTAINMENT} × {min(official):g} = "
                               f"{num(lo)} to {num(g)} × {max(official):g} = {num(hi)} tok/s (official ALs)"))
        honest = f"{num(lo)}–{num(hi)} tok/s"

    measured = measured_al(c)
    measured_bound: float | None = None
    if measured is not None:
        m_al, how = measured
        bound = g * m_al * MEASURED_AL_MARGIN
        if al is None or bound > g * al:
            measured_bound = bound
            # The run's own acceptance gives the tokens each verify pass emitted: the weights are
            # still read once per pass, so tok/s <= ceiling × that (a small margin for the runs).
            j.figures["bound_tok_s"] = bound
            j.assumptions.append(_A_MEASURED)
            j.basis.append(formula(f"{how}; bound = ceiling × measured AL × {MEASURED_AL_MARGIN:g} = "
                                   f"{num(g)} × {m_al:.2f} × {MEASURED_AL_MARGIN:g} = {num(bound)} tok/s"))
            if claimed > bound:
                return set_status(j, "stop", f"{lead}; {need}, and the run's own acceptance gives "
                                       f"{m_al:.2f} tokens per verify pass: above ceiling × that × "
                                       f"{MEASURED_AL_MARGIN:g} = {num(bound)} tok/s{tail}.",
                                  "above_ceiling_times_al")

    q5 = prior.get("acceptance") or acceptance(ev, ref, prior)
    if al is not None and al > 0:
        shown = (f"{c.acceptance_length_low:g}–{al:g}" if c.acceptance_length is None
                 and c.acceptance_length_low is not None else _al(al))
        bound = g * al
        if claimed > bound and (measured_bound is None or claimed > measured_bound):
            # The record's own AL condemns whatever Q5 made of it: a fed-in AL only ever flatters.
            # Its counts read the larger way (the bonus token counted) judged first, above.
            j.figures["bound_tok_s"] = bound
            j.basis.append(formula(f"bound = ceiling × the record's AL = {num(g)} × {al:g} = {num(bound)} tok/s"))
            return set_status(j, "stop", f"{lead}; {need}, and the record says {shown}: above ceiling × AL "
                                   f"= {num(g)} × {al:g} = {num(bound)} tok/s, and every verify pass "
                                   f"still reads the weights once{tail}.", "above_ceiling_times_al")
        if q5.status == "ok" and claimed <= bound:
            j.figures["bound_tok_s"] = bound
            j.basis.append(formula(f"bound = ceiling × AL = {num(g)} × {al:g} = {num(bound)} tok/s "
                                   "(Q5 accepted the AL)"))
            return set_status(j, "ok", f"{lead}, within ceiling × AL = {num(g)} × {al:g} = {num(bound)} "
                                 f"tok/s{tail}.")

    if method is None or best is None:
        j.missing.append("published ALs for the speculative method")
        return set_status(j, "unanswerable", f"{lead}; {need}, and the reference has no published AL "
                                       f"for any method to judge that by{tail}.")
    j.assumptions.append(_A_STOP)
    stop_bound = STOP_MULTIPLE * g * best.al
    # the tighter of the two true bounds is the figure: the run's own acceptance, where it has one
    j.figures["bound_tok_s"] = min(stop_bound, measured_bound or stop_bound)
    j.basis.append(row(method, f"best published AL {best.al:g} ({best.task}, "
                               f"{'official' if best.official else 'third-party'}: {best.source})"))
    j.basis.append(formula(f"stop bound = {num(STOP_MULTIPLE)} × {num(g)} × {best.al:g} = {num(stop_bound)} tok/s"))
    if al is None:
        why_al = "and no AL is reported"
    else:
        shown = (f"{c.acceptance_length_low:g}–{al:g}" if c.acceptance_length is None
                 and c.acceptance_length_low is not None else _al(al))
        why_al = f"and the reported AL {shown} is not credible (Q5 {q5.status})"
    if claimed > stop_bound:
        return set_status(j, "stop", f"{lead}, above {num(STOP_MULTIPLE)} × the ceiling × the best AL anyone "
                               f"has published for {method.name} ({best.al:g}) = {num(stop_bound)} "
                               f"tok/s; {need}, {why_al}" + (f"; honest range {honest}" if honest else "")
                               + f"{tail}.", "above_stop_bound")
    if official and claimed > j.figures["honest_high_tok_s"]:
        return set_status(j, "flag", f"{lead}, above the honest {method.name} range of {honest} (ceiling × "
                               f"{TYPICAL_ATTAINMENT} × {min(official):g} to ceiling × "
                               f"{max(official):g}); {need}, {why_al}{tail}.", "above_honest_range")
    if not honest:
        where = f"below the stop bound of {num(stop_bound)} tok/s"
    elif claimed < j.figures["honest_low_tok_s"]:
        where = f"below the honest {method.name} range of {honest}"
    else:
        where = f"within the honest {method.name} range of {honest}"
    return set_status(j, "ok", f"{lead}, {where}; {need}{tail}.")


def measured_al(c: Claim) -> tuple[float, str] | None:
    """The tokens each verify pass emitted, from the run's own acceptance counts: accepted drafts
    per pass + the bonus token (`accepted_per_pass`), or 1 + acceptance rate × the drafts per pass
    (window − 1: vLLM's rate is accepted ÷ proposed draft tokens, and a pass proposes window − 1)
    where the record states no AL of its own (a stated AL is the direct count: it can condemn);
    None when neither is given."""
    out: list[tuple[float, str]] = []
    if c.accepted_per_pass is not None and c.accepted_per_pass >= 0:
        out.append((c.accepted_per_pass + 1, f"{c.source_of('accepted_per_pass')} = {c.accepted_per_pass:g} "
                                             f"accepted drafts per pass + 1 bonus token = "
                                             f"{c.accepted_per_pass + 1:.2f} tokens per pass"))
    stated = c.acceptance_length is not None or c.acceptance_length_high is not None
    if (not out and not stated and c.acceptance_rate is not None and 0 <= c.acceptance_rate <= 1
            and c.spec_window and c.spec_window > 1):
        k = c.spec_window - 1
        out.append((1 + c.acceptance_rate * k, f"{c.source_of('acceptance_rate')} = {c.acceptance_rate:g} of "
                                              f"{k} drafts per pass + 1 bonus token = "
                                              f"{1 + c.acceptance_rate * k:.2f} tokens per pass"))
    return max(out, key=lambda x: x[0], default=None)


def _al(al: float) -> str:
    """An AL as records print it: 56.0, 3.05."""
    return f"{al:.1f}" if al == int(al) else f"{al:g}"
