"""The serving roofline: the largest aggregate throughput the hardware allows at any batch.

A serving benchmark at full load (trtllm-bench `throughput`, vLLM `bench throughput`, SGLang
offline throughput, MLPerf Offline/Server) reports all streams together at a batch it rarely
prints. Such a figure is never bounded by the batch-1 ceiling; it is bounded by two limits that
hold at every batch:

- **memory**: each decode step reads the weights once plus every sequence's KV cache, and the KV
  cache of the whole batch must fit in the cards' memory beside the weights. The largest batch
  is B_max = (memory − resident weights) ÷ KV per sequence, and the bound is
  B_max × bandwidth ÷ (weights read per step + B_max × KV per sequence) — the batch-B bound is
  increasing in B, so the largest batch that fits gives the largest bound. Every reading favours
  the claim: theoretical bandwidth, nominal bits, the smallest KV dtype in common use (FP8), the
  memory read as GiB, and a sequence's *average* context while it decodes (input + output ÷ 2).
  Where the KV per sequence is unknown (no context length, no KV geometry) the most generous
  reading is no KV at all, and memory bounds nothing: said, never guessed.
- **compute**: every output token costs at least 2 FLOPs per active weight, so
  aggregate tok/s ≤ dense peak × cards ÷ (2 × active params per token). Prefill FLOPs are not
  counted (the generous reading).

`required_batch` is the smallest batch at which the memory bound reaches a claimed figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from checks.models import Claim
from checks.physics.ceilings import Ceilings, hardware_row, roofline_ceilings
from checks.physics.compute import compute_peak
from checks.physics.figures import Derived, Missing, gb, num
from checks.physics.kv import kv_gb_per_sequence, parallel_slots, serving_context_tokens
from checks.physics.offload import card_memory_gb
from checks.physics.weights import params_per_token, resident_weight_gb, resolve_format
from checks.reference import HardwareRow, Reference

__all__ = ["ServingBounds", "required_batch", "serving_bounds"]


@dataclass(frozen=True)
class ServingBounds:
    """Both bounds on an aggregate at unknown batch; a bound that cannot be computed is None and
    `notes` says why."""

    memory: Derived | None  # aggregate tok/s at the largest batch that fits
    compute: Derived | None  # dense peak ÷ (2 × params per token)
    max_batch: int | None
    ceilings: Ceilings | None  # the roofline at max_batch (generous and realistic)
    kv_gb: float  # generous KV GB per sequence at the average context
    notes: tuple[str, ...] = ()
    slots: bool = False  # max_batch is the server's slot count, not what memory holds


def required_batch(claimed: float, weights_gb: float, bandwidth_gbs: float, kv_gb: float) -> int | None:
    """The smallest B with B × bandwidth ÷ (weights + B × KV) ≥ claimed; None when no batch
    reaches it (each sequence's own KV read already caps the rate at bandwidth ÷ KV)."""
    room = bandwidth_gbs - claimed * kv_gb
    if room <= 0:
        return None
    return max(1, math.ceil(claimed * weights_gb / room - 1e-9))


def _compute(claim: Claim, ref: Reference, hw: HardwareRow) -> Derived | str:
    model = ref.model(claim.model)
    fmt = resolve_format(claim, ref)
    params = params_per_token(claim, model)
    if isinstance(params, Missing):
        return f"compute bound not computable: no {params.what[0]}"
    peak = compute_peak(claim, hw, fmt)
    if isinstance(peak, Missing):
        return f"compute bound not computable: the reference has no {peak.what[0]}"
    value = peak.value * 1e12 / (2 * params.value * 1e9)
    formula = (f"compute bound = {num(peak.value)} TFLOPS ÷ (2 × {num(params.value)}e9 params per "
               f"token) = {num(value)} tok/s (prefill FLOPs not counted)")
    return Derived(value, "tok/s", (*params.basis, *peak.basis, formula),
                   notes=(*params.notes, *peak.notes))


def serving_bounds(claim: Claim, ref: Reference) -> ServingBounds | Missing:
    """Memory and compute bounds on an aggregate figure at an unknown batch: the memory bound at
    the largest batch that fits beside the weights, or at the server's slots when it runs fewer
    (llama-server `-np N`), and the compute bound."""
    hw = hardware_row(claim, ref)
    if isinstance(hw, Missing):
        return hw
    batch1 = roofline_ceilings(claim, ref, batch=1)
    if isinstance(batch1, Missing):
        return batch1
    notes: list[str] = []
    computed = _compute(claim, ref, hw)
    compute: Derived | None = None
    if isinstance(computed, str):
        notes.append(computed)
    else:
        compute = computed
    model = ref.model(claim.model)
    context = serving_context_tokens(claim)
    kv = kv_gb_per_sequence(claim, model, generous=True, context=context)
    resident = resident_weight_gb(claim, model, batch1.fmt)
    cards = claim.hardware_count or 1
    memory_gb = card_memory_gb(hw, cards)
    memory: Derived | None = None
    max_batch: int | None = None
    ceilings: Ceilings | None = None
    if kv.value <= 0:
        why = "no context length stated" if context is None else "no KV geometry for the model"
        notes.append(f"KV per sequence unknown ({why}): the most generous reading is no KV, so "
                     "memory bounds no batch; only compute bounds the aggregate")
    elif isinstance(resident, Missing):
        notes.append(f"memory bound not computable: no {resident.what[0]}")
    elif resident.value >= memory_gb:
        notes.append(f"memory bound not computable: {num(resident.value)} GB of weights leave no "
                     f"room for a KV cache in {num(memory_gb)} GB")
    else:
        max_batch = math.floor((memory_gb - resident.value) / kv.value)
        if max_batch < 1:
            notes.append(f"memory bound not computable: one sequence's {gb(kv.value)} KV cache "
                         f"does not fit beside {num(resident.value)} GB of weights")
            max_batch = None
    slots = parallel_slots(claim)
    fits_weights = not isinstance(resident, Missing) and resident.value < memory_gb
    if slots is not None and fits_weights and (max_batch is None or slots < max_batch):
        # The server decodes at most its slots at once, whatever else would fit.
        max_batch = slots
        fit = (f"largest batch = {slots}: the server decodes at most {slots} sequences at once "
               f"({_slots_said(claim)})")
        if kv.value <= 0:
            notes[:] = [n for n in notes if not n.startswith("KV per sequence unknown")]
            fit += "; KV reads not counted (the most generous reading)"
        basis = (*kv.basis, fit) if kv.value > 0 else (fit,)
    elif max_batch is not None:
        assert not isinstance(resident, Missing)
        fit = (f"largest batch = ({num(memory_gb)} GB on {cards} card(s), read as GiB − "
               f"{num(resident.value)} GB resident weights) ÷ {gb(kv.value)} KV per sequence "
               f"= {max_batch}")
        basis = (*resident.basis, *kv.basis, fit)
    if max_batch is not None:
        at = roofline_ceilings(claim, ref, batch=max_batch, context=context)
        if isinstance(at, Missing):  # unreachable: batch 1 was computed with the same rows
            return at
        ceilings = at
        memory = Derived(at.generous.value, "tok/s", (*basis, *at.generous.basis),
                         at.generous.assumptions, at.generous.notes)
    return ServingBounds(memory=memory, compute=compute, max_batch=max_batch, ceilings=ceilings,
                         kv_gb=kv.value, notes=tuple(notes), slots=max_batch is not None and max_batch == slots)


def _slots_said(claim: Claim) -> str:
    """Where the server's slot count was read ("-np 4"), for the basis."""
    p = claim.provenance.get("server_slots")
    return (p.span or p.field or "the record") if p is not None else "the record"
