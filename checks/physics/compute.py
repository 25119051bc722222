"""The compute roof: the tokens per second the cards' arithmetic allows, at any batch.

Every token through a model costs at least one multiply-add per weight it uses (2 × active
params FLOPs), whatever the batch: prompt processing (prefill) is bounded by this roof, not by
memory bandwidth, because one pass over the weights serves every prompt token at once.

    compute roof (tok/s) = dense peak × cards ÷ (2 × active params per token)

Every reading favours the claim:
- the peak is the dense figure of the format's family; a weight-only quantised format (GGUF
  k-quants, AWQ, NF4: family bf16 below 16 bits) may be multiplied in INT8 (llama.cpp's MMQ
  kernels do), so the higher of the card's bf16 and int8 peaks is read; an unknown format reads
  the card's highest dense peak;
- attention FLOPs are not counted;
- the card count unstated is one card only where the weights fit on one (else no roof); a
  server CPU's socket count unstated reads the most sockets its platform holds;
- nothing saying whether the model is a MoE, the most generous plausible MoE reading (the dense
  roof ÷ the active share of the sparsest published MoE of about its total, `moe_share`) is
  offered beside the dense one.

`stoppable` says whether a figure above the roof may be condemned: not where the peak is not
confirmed against a source (`unverified`), nor where the record says part of the model runs in
system memory (the host's own arithmetic is not counted).
"""

from __future__ import annotations

from dataclasses import dataclass

from checks.basis import formula, row
from checks.models import Basis, Claim, Status
from checks.physics.ceilings import hardware_row, peak_tflops, required_tflops
from checks.physics.figures import Derived, Missing, num, per_reference
from checks.physics.offload import card_memory_gb, fits_at_no_format, one_named_card, says_offload
from checks.physics.weights import (
    WeightFormat,
    model_is_moe,
    params_per_token,
    params_resident,
    resident_weight_gb,
    resolve_format,
    sparsest_moe_near,
)
from checks.reference import HardwareRow, ModelRow, Reference

__all__ = ["ComputeJudgement", "ComputeRoof", "compute_peak", "compute_roof", "judge_compute", "moe_share",
           "one_card_fits", "smallest_active_share"]


@dataclass(frozen=True)
class ComputeRoof:
    """The compute roof for one claim's figure: the bound, the peak and params it rests on."""

    bound: Derived  # tok/s: peak ÷ (2 × params per token)
    peak: Derived  # TFLOPS, × cards
    params: Derived  # B params per token
    hw: HardwareRow
    moe_unknown: bool  # nothing says dense or MoE: the dense reading, `moe_share` beside it
    moe_share: tuple[float, Basis] | None  # the most generous plausible active share, its row
    stoppable: bool
    why_not: str | None  # why a figure above the roof cannot be condemned
    cards: int = 1

    def required_tflops(self, tok_s: float) -> float:
        return required_tflops(self.params.value, tok_s)


@per_reference  # a fact of the model table: the same for every claim
def smallest_active_share(ref: Reference) -> tuple[float, Basis] | None:
    """The smallest active ÷ total share of any MoE in the model table, and its row."""
    rows = [(m.params_active_b / m.params_total_b, m) for m in ref.models
            if m.moe and m.params_active_b and m.params_total_b]
    best = min(rows, key=lambda r: (r[0], r[1].cite()), default=None)
    if best is None:
        return None
    share, m = best
    return share, row(m, f"{num(m.params_active_b or 0)}B of {num(m.params_total_b or 0)}B active = "
                         f"{share:.3f}, the smallest active share of any MoE in the reference")


def moe_share(claim: Claim, model: ModelRow | None, ref: Reference) -> tuple[float, Basis] | None:
    """The most generous plausible active share of a model nothing names dense or MoE, and the row
    it comes from: the sparsest published MoE of about its total (`sparsest_moe_near`: an 8B is
    read as the small MoEs are, 15% active, not as a trillion-parameter one's 3%); with no total,
    the smallest share of any MoE in the table."""
    total = params_resident(claim, model)
    near = sparsest_moe_near(total.value, ref) if isinstance(total, Derived) else None
    if near is not None:
        return near.share, near.entry()
    return smallest_active_share(ref)


def one_card_fits(claim: Claim, hw: HardwareRow, model: ModelRow | None, fmt: WeightFormat) -> Missing | None:
    """With the card count unstated, one card is assumed only where the weights fit on one: a
    model that needs several runs on several, and more cards do more arithmetic."""
    if claim.hardware_count is not None:
        return None
    if _overflows_one_card(claim, hw, model, fmt):
        if one_named_card(claim, hw) and (fmt.family is not None or bool(claim.model_size_bytes)
                                          or fits_at_no_format(claim, hw, model, True) is not None):
            # One card named and nothing more: the rest is offloaded (checks/physics/offload.py);
            # the roof is that card's arithmetic, and it never condemns (`why_not`).
            return None
        resident = resident_weight_gb(claim, model, fmt)
        assert isinstance(resident, Derived)
        return Missing((f"card count ({num(resident.value)} GB of weights need more than one "
                        f"{hw.name}'s {num(card_memory_gb(hw, 1, claim.hardware_memory_gb))} GB)",))
    return None


def _overflows_one_card(claim: Claim, hw: HardwareRow, model: ModelRow | None, fmt: WeightFormat) -> bool:
    """The card count is not stated and the weights do not fit one card."""
    if claim.hardware_count is not None:
        return False
    resident = resident_weight_gb(claim, model, fmt)
    return isinstance(resident, Derived) and resident.value > card_memory_gb(hw, 1, claim.hardware_memory_gb)


def compute_peak(claim: Claim, hw: HardwareRow, fmt: WeightFormat) -> Derived | Missing:
    """The dense peak the format can compute in, × cards (see the module docstring)."""
    return _sockets(claim, hw, _format_peak(claim, hw, fmt))


def _format_peak(claim: Claim, hw: HardwareRow, fmt: WeightFormat) -> Derived | Missing:
    weight_only = fmt.family == "bf16" and fmt.row is not None and fmt.nominal_bits < 16
    peak = peak_tflops(claim, hw, fmt)
    if not weight_only or "int8" not in hw.peak_tflops:
        return peak
    int8 = hw.peak_tflops["int8"]
    if isinstance(peak, Derived) and peak.value >= int8 * (claim.hardware_count or 1):
        return peak
    count = claim.hardware_count or 1
    basis = [f"{hw.cite()}: dense int8 peak {num(int8)} TOPS ({fmt.name} is weight-only: its "
             "matmuls may run in INT8, as llama.cpp's MMQ kernels do)"]
    if count > 1:
        basis.append(f"{num(int8)} TOPS × {count} cards = {num(int8 * count)} TOPS")
    return Derived(int8 * count, "int8 TOPS", tuple(basis))


def _sockets(claim: Claim, hw: HardwareRow, peak: Derived | Missing) -> Derived | Missing:
    """A server CPU's socket count unstated: each socket brings its own cores, and the generous
    peak takes the most sockets the platform holds (as its bandwidth does)."""
    if isinstance(peak, Missing) or claim.hardware_count is not None or hw.max_sockets <= 1:
        return peak
    n = hw.max_sockets
    return Derived(peak.value * n, peak.unit, (*peak.basis, (
        f"socket count not stated: {num(peak.value)} × {n} sockets = {num(peak.value * n)}, the most "
        f"the platform takes ({hw.max_sockets_source})")), peak.assumptions,
        (*peak.notes, f"socket count not stated: {n} sockets read, the most the platform takes"))


def compute_roof(claim: Claim, ref: Reference) -> ComputeRoof | Missing:
    """The compute roof of the claim's cards and model, or what the record and tables lack."""
    hw = hardware_row(claim, ref)
    model = ref.model(claim.model)
    params = params_per_token(claim, model, ref)
    missing = [m for x in (hw, params) if isinstance(x, Missing) for m in x.what]
    if missing:
        return Missing(tuple(missing))
    assert isinstance(hw, HardwareRow) and isinstance(params, Derived)
    fmt = resolve_format(claim, ref)
    count = one_card_fits(claim, hw, model, fmt)
    if count is not None:
        return count
    peak = compute_peak(claim, hw, fmt)
    if isinstance(peak, Missing):
        return peak
    value = peak.value * 1e12 / (2 * params.value * 1e9)
    cards = "" if claim.hardware_count is not None else " (card count not stated: one card, the weights fit on it)"
    formula = (f"compute roof = {num(peak.value)} TFLOPS ÷ (2 × {num(params.value)}e9 params per token) "
               f"= {num(value)} tok/s{cards} (attention FLOPs not counted)")
    notes = tuple(dict.fromkeys((*params.notes, *fmt.notes, *peak.notes)))
    bound = Derived(value, "tok/s", (*params.basis, *peak.basis, formula), fmt.assumptions, notes)
    why_not = None
    if not hw.is_verified("peak_tflops"):
        why_not = f"the {hw.name}'s peak is not confirmed against a source"
    elif says_offload(claim, model) or _overflows_one_card(claim, hw, model, fmt):
        why_not = "part of the model runs in system memory, and the host's arithmetic is not counted"
    moe_unknown = model_is_moe(claim, model, ref) is None
    return ComputeRoof(bound=bound, peak=peak, params=params, hw=hw, moe_unknown=moe_unknown,
                       moe_share=moe_share(claim, model, ref) if moe_unknown else None,
                       stoppable=why_not is None, why_not=why_not, cards=claim.hardware_count or 1)


@dataclass(frozen=True)
class ComputeJudgement:
    """A figure set against the compute roof: ok / flag / stop / unanswerable, with its figures."""

    status: Status
    summary: str
    figures: dict[str, float]
    basis: tuple[Basis | str, ...]
    missing: tuple[str, ...] = ()


def judge_compute(claimed: Derived, roof: ComputeRoof, what: str, flag_ratio: float) -> ComputeJudgement:
    """`claimed` (tok/s, all streams together) against the compute roof. Above the roof is a `stop`
    where `roof.stoppable`, else a `flag` naming why not; above `flag_ratio` a `flag` (real
    prefill lands well below a dense peak); else `ok`. With the architecture unknown, a figure
    the dense reading would flag is judged at the most generous MoE reading, where only a stop
    stands (short of it the answer is `unanswerable`)."""
    g = roof.bound.value
    ratio = claimed.value / g
    need = roof.required_tflops(claimed.value)
    figures = {"claimed_tok_s": claimed.value, "ceiling_tok_s": g, "ratio": ratio,
               "compute_roof": True, "compute_bound_tok_s": g, "compute_ratio": ratio,
               "peak_tflops": roof.peak.value, "required_tflops": need}
    basis = [*claimed.basis, *roof.bound.basis,
             f"required = 2 × {num(roof.params.value)}e9 × {round(claimed.value, 1):g} tok/s = "
             f"{num(need)} TFLOPS", f"ratio = {round(claimed.value, 1):g} ÷ {num(g)} = {ratio:.2f}"]
    on = roof.hw.on(roof.cards)
    lead = (f"{what}{round(claimed.value, 1):g} tok/s needs {num(need)} TFLOPS, {_times(ratio)} the "
            f"compute roof of {num(g)} tok/s ({num(roof.peak.value)} {roof.peak.unit} dense peak of "
            f"{on} ÷ 2 × {num(roof.params.value)}B params per token)")
    lead = lead[0].upper() + lead[1:]
    notes = list(roof.bound.notes)
    if roof.moe_unknown and ratio > flag_ratio and roof.moe_share is not None:
        share, share_row = roof.moe_share
        moe_g = g / share
        moe_ratio = claimed.value / moe_g
        # The dense reading's figures stay under `ratio` / `ceiling_tok_s`, which Q7 renames
        # `dense_*` when it cannot judge; no compute_* figure may show them as a verdict.
        dense = {k: v for k, v in figures.items() if k not in ("compute_ratio", "compute_bound_tok_s")}
        moe_basis = (*basis, share_row, formula(f"most generous MoE reading: {num(g)} ÷ {share:.3f} (the "
                                                f"sparsest published MoE of its size) = {num(moe_g)} tok/s"))
        if moe_ratio > 1 and roof.stoppable:
            return ComputeJudgement(
                "stop", f"{lead}; even read as a MoE as sparse as any published of its size the "
                        f"roof is {num(moe_g)} tok/s, {_times(moe_ratio)} it: more arithmetic per second "
                        f"than the cards can do{_tail(notes)}.",
                {**figures, "ceiling_tok_s": moe_g, "ratio": moe_ratio, "compute_bound_tok_s": moe_g,
                 "compute_ratio": moe_ratio, "dense_ceiling_tok_s": g},
                (*moe_basis, f"ratio = {round(claimed.value, 1):g} ÷ {num(moe_g)} = {moe_ratio:.2f}"))
        return ComputeJudgement(
            "unanswerable", f"{lead}, read as dense; nothing says whether the model is a MoE, which "
                            "computes only its active experts, so the claim cannot be judged against it.",
            dense, moe_basis, ("whether the model is a MoE, and its active params",))
    if ratio > 1 and roof.stoppable:
        return ComputeJudgement("stop", f"{lead}: more arithmetic per second than the cards can do, "
                                        f"at any batch{_tail(notes)}.", figures, tuple(basis))
    if ratio > 1:
        return ComputeJudgement("flag", f"{lead}: above the roof, but {roof.why_not}{_tail(notes)}.",
                                figures, tuple(basis))
    if ratio > flag_ratio:
        return ComputeJudgement("flag", f"{lead}: real prompt processing lands well below a dense peak, "
                                        f"so above {flag_ratio} suggests miscounted params or a wrong "
                                        f"card{_tail(notes)}.", figures, tuple(basis))
    return ComputeJudgement("ok", f"{lead}: within the cards' arithmetic{_tail(notes)}.", figures,
                            tuple(basis))


def _times(ratio: float) -> str:
    return f"{ratio:.1f}×" if ratio >= 2 else f"{ratio:.2f}×" if ratio >= 1 else f"{ratio:.2f} of"


def _tail(notes: list[str]) -> str:
    return f" ({'; '.join(notes)})" if notes else ""
