"""Decode ceilings: the hardware row, bandwidth, the claim's aggregate rate, roofline and compute.

`roofline_ceilings` combines the weight bytes (`weights`) and KV bytes (`kv`) with the card's
bandwidth: generous at the theoretical bandwidth, realistic at an achievable fraction of it, plus
recurrent state and KV reads at the stated context. An offloaded run (`offload`) reads its
system-memory share at system-memory bandwidth: time per step is the sum of the two parts.
`peak_tflops` and `required_tflops` give the compute side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from checks.basis import field as claim_field
from checks.basis import row
from checks.memo import per_audit
from checks.models import Assumption, Basis, Claim
from checks.physics.figures import Derived, Missing, gb, join_parts, num, per_reference
from checks.physics.kv import depth_kv_gb, kv_gb_per_sequence, serving_context_tokens
from checks.physics.offload import OffloadSplit, card_memory_gb, offload_split, says_offload
from checks.physics.weights import (
    WeightFormat,
    generous_weight_gb,
    realistic_weight_gb,
    resident_weight_gb,
    resolve_format,
)
from checks.reference import CONSUMER_GPU, HardwareRow, ModelRow, Reference

__all__ = [
    "ACHIEVABLE_BANDWIDTH_FRACTION",
    "Ceilings",
    "aggregate_tok_s",
    "bandwidth",
    "batch_size",
    "class_row",
    "hardware_row",
    "host_row",
    "integrated_row",
    "layer_split",
    "official_bandwidth_gbs",
    "peak_tflops",
    "required_tflops",
    "roofline_ceilings",
]

# Large-buffer copies reach 0.89-0.91 of spec bandwidth: A800 1727/1935 GB/s
# (mli/transformers-benchmarks issue #4), RTX 4090 918-924/1008 GB/s (tinygrad/open-gpu-kernel-modules
# issue #6). The top of what a decode kernel can stream, so the realistic ceiling is still an upper
# bound (ai-dynamo/aiconfigurator's 0.8 would be a typical, not a best, figure).
ACHIEVABLE_BANDWIDTH_FRACTION = 0.90

# llama.cpp and the tools built on it (llama-bench, ik_llama.cpp, llamafile) share its default split.
_LAYER_SPLIT_ENGINES = ("llama.cpp", "llama-bench", "llamafile")
# A split other than the default, stated: row (tensor) split, ik_llama.cpp's graph split, tensor parallel.
_OTHER_SPLIT = re.compile(r"(?i)(?:-sm|--split-mode|split[_ -]?mode)\s{0,3}[=:]?\s{0,3}(?:row|tensor|graph)\b"
                          r"|tensor[ -]parallel|\btp\s{0,3}[=:]?\s{0,3}[2-9]")
_LAYER_SPLIT_SOURCE = ("ggml-org/llama.cpp@a5410f046c01d01330c8a42f13b64a211fedf2c3 src/llama-model.cpp: "
                       "split_mode = LLAMA_SPLIT_MODE_LAYER by default")

_A_BW = Assumption(
    name="achievable bandwidth fraction", value=ACHIEVABLE_BANDWIDTH_FRACTION, unit="of spec",
    source=("large-buffer copies 0.89 (A800, mli/transformers-benchmarks issue #4) to 0.91 "
            "(RTX 4090, tinygrad/open-gpu-kernel-modules issue #6) of spec"),
)


# ---- the card, bandwidth, the cell, the ceilings --------------------------------------------


def hardware_row(claim: Claim, ref: Reference) -> HardwareRow | Missing:
    if not claim.hardware:
        return Missing(("hardware",))
    row = ref.gpu(claim.hardware)
    if row is None:
        row = integrated_row(claim, ref)
    if row is None and claim.hardware == CONSUMER_GPU:
        row = class_row(ref)
    if row is None:
        return Missing((f"reference row for hardware '{claim.hardware}'",))
    return row


@per_reference  # a fact of the hardware table: the same for every claim
def class_row(ref: Reference) -> HardwareRow | None:
    """A card named by its class only ("2103.6 tok/s on one consumer GPU"): read as the most
    generous consumer card in the curated table (the highest bandwidth, then memory), so no bound
    drawn from it is tighter than any consumer card's. The row keeps its own sources and says what
    it stands for; power is never judged from it (no board power belongs to a class)."""
    rows = [h for h in ref.hardware if h.kind == "consumer" and h.source_kind == "curated"]
    if not rows:
        return None
    best = min(rows, key=lambda h: (-h.bandwidth_gbs, -h.memory_gb, h.name))
    return best.model_copy(update={"name": f"{CONSUMER_GPU} (at most an {best.name})", "aliases": []})


# Integrated GPUs by the names drivers and tools print for them. Intel's are named apart from its
# discrete cards, which carry a model number (Arc A770, B580): "Intel(R) UHD Graphics 770",
# "Intel(R) Iris(R) Xe Graphics", "Intel(R) Arc(TM) Graphics" (Meteor Lake's, no model number),
# "Intel HD Graphics 620". AMD's numbered ones are APU graphics only ("Radeon 780M Graphics",
# "Radeon 760M", "Radeon 890M", "Radeon Vega 8 Graphics"); a bare "AMD Radeon Graphics" is what
# ROCm and Vulkan also print for some discrete cards, so it counts only where the host CPU's
# brand string names its own graphics ("AMD Ryzen 5 7640U w/ Radeon 760M Graphics").
_INTEL_IGPU = re.compile(r"(?i)^\s*intel(?:\(r\))?\s+(?:(?:u?hd|iris(?:\(r\))?(?:\s+(?:xe|plus|pro))?)"
                         r"(?:\(tm\))?\s+graphics\b|arc(?:\(tm\))?\s+graphics\s*$)")
_AMD_NUMBERED_IGPU = re.compile(r"(?i)^\s*(?:amd\s+)?radeon(?:\(tm\))?\s+(?:\d{3}m|vega\s+\d{1,2})"
                                r"(?:\s+graphics)?\s*$")
_AMD_BARE_IGPU = re.compile(r"(?i)^\s*(?:amd\s+)?radeon(?:\(tm\))?\s+graphics\s*$")
_AMD_HOST_GRAPHICS = re.compile(r"(?i)\b(?:w/|with)\s+radeon\b")
_INTEL_HOST = re.compile(r"(?i)\b(?:intel|core|xeon|pentium|celeron|atom)\b")
_AMD_HOST = re.compile(r"(?i)\b(?:amd|ryzen|athlon)\b")


def integrated_row(claim: Claim, ref: Reference) -> HardwareRow | None:
    """An integrated GPU named as the accelerator reads its host's memory: the named host CPU's
    platform row (its most generous configuration), when the GPU's name is an integrated one of
    the host's own vendor (see the patterns above). Its compute peak is left out (the platform's
    is the CPU cores', not the GPU's), and its derivation says whose memory it is. None without
    a named host: the accelerator stays unanswered."""
    name, host = claim.hardware or "", claim.host or ""
    if not host:
        return None
    if _INTEL_IGPU.search(name):
        vendor_ok = _INTEL_HOST.search(host) is not None and _AMD_HOST.search(host) is None
    elif _AMD_NUMBERED_IGPU.search(name):
        vendor_ok = _AMD_HOST.search(host) is not None
    elif _AMD_BARE_IGPU.search(name):
        vendor_ok = _AMD_HOST.search(host) is not None and _AMD_HOST_GRAPHICS.search(host) is not None
    else:
        return None
    row_ = host_row(claim, ref) if vendor_ok else None
    if row_ is None:
        return None
    how = f"{row_.bandwidth_derivation}; " if row_.bandwidth_derivation else ""
    return row_.model_copy(update={
        "peak_tflops": {},
        "bandwidth_derivation": (f"{how}'{name}' is the integrated GPU of the host '{host}': it reads "
                                 "the host's memory, so the host platform's memory system bounds it"),
    })


def layer_split(claim: Claim, hw: HardwareRow) -> bool:
    """One stream on several identical cards under llama.cpp's default layer split: each layer's
    weights live on one card and a token passes the cards one after another.

    llama.cpp's `llama_model_default_params` sets `split_mode = LLAMA_SPLIT_MODE_LAYER`, and
    `make_gpu_buft_list` splits a tensor across devices only under `LLAMA_SPLIT_MODE_ROW`
    (ggml-org/llama.cpp@a5410f046c01d01330c8a42f13b64a211fedf2c3 src/llama-model.cpp;
    include/llama.h: "LLAMA_SPLIT_MODE_LAYER = 1, // split layers and KV across GPUs"). Per token
    the time is Σ shareᵢ ÷ bwᵢ, which for identical cards is weights ÷ one card's bandwidth
    whatever the shares. Only where all of it is known: a llama.cpp-family tool, no other split
    stated (`-sm row`, `--split-mode tensor|graph`, tensor parallel), one stream (decode or output
    at batch 1), identical discrete cards (a mixed rig's shares are unknown), no offload."""
    count = claim.hardware_count or 1
    if count < 2 or hw.kind in ("cpu", "unified") or len(set(hw.parts)) > 1 or claim.offload:
        return False
    engine = (claim.engine or "").lower()
    if not any(e in engine for e in _LAYER_SPLIT_ENGINES):
        return False
    if claim.tok_s_kind not in ("decode", "output") or claim.serving_claim:
        return False
    if claim.batch not in (None, 1) or claim.concurrency not in (None, 1):
        return False
    said = " ".join(x for x in (claim.launch_command, claim.notes, claim.cell, *claim.env.values()) if x)
    return _OTHER_SPLIT.search(said) is None


def host_row(claim: Claim, ref: Reference) -> HardwareRow | None:
    """The named host CPU's row (`Claim.host`), when it resolves to a CPU platform."""
    row_ = ref.gpu(claim.host) if claim.host else None
    return row_ if row_ is not None and row_.kind == "cpu" else None


def bandwidth(claim: Claim, hw: HardwareRow) -> Derived:
    """Theoretical memory bandwidth, × card count (tensor parallel: each card streams its share);
    one card's under llama.cpp's default layer split of one stream (`layer_split`)."""
    count = claim.hardware_count or 1
    how = f" = {hw.bandwidth_derivation}" if hw.bandwidth_derivation else ""
    basis: list[Basis | str] = [row(hw, f"{num(hw.bandwidth_gbs)} GB/s{how}")]
    per = hw.bandwidth_gbs
    if layer_split(claim, hw):
        basis.append(f"{num(per)} GB/s, one card's: {count} cards under llama.cpp's default layer "
                     "split, one stream reads them one after another (time per token = Σ share ÷ "
                     f"card bandwidth = weights ÷ {num(per)} GB/s; {_LAYER_SPLIT_SOURCE})")
        return Derived(per, "GB/s", tuple(basis))
    if hw.overclock_bandwidth_gbs and hw.overclock_bandwidth_gbs > hw.bandwidth_gbs:
        # A socketed desktop's DIMMs are unknown and commonly run XMP/EXPO profiles above the
        # official rate: the generous bound reads the fastest common kit, the realistic one
        # keeps the official rate (`official_bandwidth_gbs`).
        per = hw.overclock_bandwidth_gbs
        basis.append(f"generous: {num(per)} GB/s = {hw.overclock_derivation} (official rate "
                     f"{num(hw.bandwidth_gbs)} GB/s kept for the realistic ceiling)")
    if claim.hardware_count is None and hw.max_sockets > 1:
        # A server part's socket count is not stated: each socket brings its own channels, and
        # the generous bound takes the most the platform holds (the realistic one keeps one).
        basis.append(f"generous: {num(per)} GB/s × {hw.max_sockets} sockets = "
                     f"{num(per * hw.max_sockets)} GB/s, the most sockets the platform takes "
                     f"({hw.max_sockets_source})")
        notes: tuple[str, ...] = (f"socket count not stated: {hw.max_sockets} sockets read, the "
                                  "most the platform takes",)
        return Derived(per * hw.max_sockets, "GB/s", tuple(basis), notes=notes)
    if count > 1:
        basis.append(f"{num(per)} GB/s × {count} cards (tensor parallel) = "
                     f"{num(per * count)} GB/s")
    notes = ("card count not stated: one card assumed",) if claim.hardware_count is None else ()
    return Derived(per * count, "GB/s", tuple(basis), notes=notes)


def official_bandwidth_gbs(claim: Claim, hw: HardwareRow) -> float:
    """The bandwidth at the vendor's official memory rate, × card count (the realistic basis);
    one card's under the default layer split of one stream (`layer_split`)."""
    return hw.bandwidth_gbs * (1 if layer_split(claim, hw) else claim.hardware_count or 1)


def batch_size(claim: Claim) -> int | None:
    """Sequences decoded together: the batch, else the concurrency."""
    return claim.batch or claim.concurrency


@per_audit  # the same claim's figure for every check of one audit
def aggregate_tok_s(claim: Claim) -> Derived | Missing:
    """The claim's tok/s as all streams together on all cards (per user × batch, per GPU × count).

    Only a per-request rate (labelled per user, or decode-only from TPOT) is multiplied by the
    batch: every other kind either already counts all streams or is a single stream."""
    if claim.tok_s is None:
        return Missing(("tok/s",))
    t = claim.tok_s
    batch = batch_size(claim)
    if claim.tok_s_kind == "per_gpu":
        count = claim.hardware_count or 1
        return Derived(t * count, "tok/s", (claim_field(claim, "tok_s", f"= {t:g} tok/s per GPU × {count} = "
                                                                  f"{num(t * count)} tok/s"),))
    if claim.tok_s_kind not in ("per_user", "decode"):
        # End-to-end output throughput at concurrency N (vLLM output_throughput, AccelMark, GuideLLM)
        # already counts every stream; an unlabelled rate is read the same way, the reading that
        # favours the claim.
        kind = f" ({claim.tok_s_kind})" if claim.tok_s_kind else ""
        return Derived(t, "tok/s", (claim_field(claim, "tok_s", f"= {t:g} tok/s{kind}"),))
    if batch and batch > 1:
        return Derived(t * batch, "tok/s", (claim_field(claim, "tok_s", f"= {t:g} tok/s per stream × batch {batch} = "
                                                                  f"{num(t * batch)} tok/s aggregate"),))
    return Derived(t, "tok/s", (claim_field(claim, "tok_s", f"= {t:g} tok/s"),))


@dataclass(frozen=True)
class Ceilings:
    """Decode ceilings for one claim's cell (aggregate tok/s over all streams)."""

    generous: Derived  # theoretical bandwidth ÷ generous bytes, batch-aware
    realistic: Derived  # achievable bandwidth ÷ realistic bytes (+ state, + KV)
    bandwidth: Derived
    weights_gb: Derived  # generous weight bytes per pass
    batch: int
    fmt: WeightFormat
    cards: int = 1  # bandwidth is per card × cards (tensor parallel)
    kv_gb: float = 0.0  # generous KV GB per sequence (batch > 1; at batch 1 a stated depth's)
    model: ModelRow | None = field(default=None)
    offload: OffloadSplit | None = None  # part of the weights read from system memory
    layer_split: bool = False  # the cards are read one after another: bandwidth is one card's


def roofline_ceilings(claim: Claim, ref: Reference, batch: int = 1,
                      context: Derived | None = None) -> Ceilings | Missing:
    """Bound = batch ÷ time per step; time = weights ÷ bandwidth (+ the offloaded share ÷ system
    bandwidth) + batch × KV per sequence ÷ bandwidth. Generous and realistic. `context` overrides
    the context each sequence holds (the serving bound's average context)."""
    hw = hardware_row(claim, ref)
    model = ref.model(claim.model)
    fmt = resolve_format(claim, ref)
    weights = generous_weight_gb(claim, model, fmt, ref)
    missing = [m for x in (hw, weights) if isinstance(x, Missing) for m in x.what]
    if missing:
        return Missing(tuple(missing))
    assert isinstance(hw, HardwareRow) and isinstance(weights, Derived)
    split = offload_split(claim, hw, model, fmt, host_row(claim, ref))
    if claim.hardware_count is None and not says_offload(claim, model) and split is None:
        # One card is assumed only where the weights fit on one, or where the record names one
        # card and nothing more (`one_named_card`: then what does not fit is offloaded, `split`).
        # Otherwise a model that needs several runs on several, and more cards stream faster.
        resident = resident_weight_gb(claim, model, fmt)
        if isinstance(resident, Derived) and resident.value > card_memory_gb(hw, 1, claim.hardware_memory_gb):
            return Missing((f"card count ({num(resident.value)} GB of weights need more than one "
                            f"{hw.name}'s {num(card_memory_gb(hw, 1, claim.hardware_memory_gb))} GB)",))
    bw = bandwidth(claim, hw)
    if context is None:
        # A batch decodes its output at positions input + 1 … input + output: on average each
        # sequence holds input + output ÷ 2 tokens of KV (the final length would overcount).
        context = serving_context_tokens(claim)
    # At batch 1 the KV of a stated depth (sweep-bench N_KV, llama-bench "@ d4096") is read by
    # every token too: counted at the smallest cache type, the bound stays true and is tighter.
    depth = batch == 1 and bool(claim.kv_depth) and not claim.context_length
    kv = (kv_gb_per_sequence(claim, model, generous=True, context=context) if batch > 1
          else depth_kv_gb(claim, model, generous=True) if depth else Derived(0.0, "GB"))
    off_notes: tuple[str, ...] = ()
    if isinstance(split, Missing):
        off_notes = (f"offload stated but no {split.what[0]}: all weights read at the card's bandwidth",)
        split = None
    generous = _generous(weights, bw, kv, batch, split, off_notes)

    real_w = realistic_weight_gb(claim, model, fmt, ref)
    if isinstance(real_w, Missing):  # unreachable in practice: generous found params or a file
        real_w = weights
    real_kv = (depth_kv_gb(claim, model, generous=False) if depth
               else kv_gb_per_sequence(claim, model, generous=False, context=context))
    state = model.state_gb_per_token if model is not None and model.state_gb_per_token else 0.0
    per_seq = state + real_kv.value
    f = split.system_fraction if split is not None else 0.0
    official = official_bandwidth_gbs(claim, hw)
    real_bw = ACHIEVABLE_BANDWIDTH_FRACTION * official
    real_time = (real_w.value * (1 - f) + batch * per_seq) / real_bw
    if split is not None:
        real_time += real_w.value * f / (ACHIEVABLE_BANDWIDTH_FRACTION * split.realistic_gbs)
    real_value = batch / real_time
    parts = [f"{num(real_w.value)} GB weights" + (f" × {num(1 - f)} on the card" if f else "")]
    if state:
        parts.append(f"{num(state)} GB recurrent state ({model.name if model else ''})")
    if real_kv.value:
        parts.append(f"{num(real_kv.value)} GB KV")
    per = " per sequence" if batch > 1 else ""
    formula = (f"realistic ceiling = {batch} × " if batch > 1 else "realistic ceiling = ") + (
        f"{ACHIEVABLE_BANDWIDTH_FRACTION} × {num(official)} GB/s ÷ ({' + '.join(parts)}{per})")
    if split is not None:
        formula = (f"realistic ceiling = {batch} ÷ ({' + '.join(parts)}{per} at {ACHIEVABLE_BANDWIDTH_FRACTION} × "
                   f"{num(official)} GB/s + {num(real_w.value * f)} GB at {ACHIEVABLE_BANDWIDTH_FRACTION} × "
                   f"{num(split.realistic_gbs)} GB/s)")
    b, a, n = join_parts(real_w, real_kv)
    realistic = Derived(real_value, "tok/s", (*b, f"{formula} = {num(real_value)} tok/s"), (_A_BW, *a), n)
    return Ceilings(generous=generous, realistic=realistic, bandwidth=bw, weights_gb=weights,
                    batch=batch, fmt=fmt, cards=claim.hardware_count or 1, kv_gb=kv.value, model=model,
                    offload=split, layer_split=layer_split(claim, hw))


def _generous(weights: Derived, bw: Derived, kv: Derived, batch: int, split: OffloadSplit | None,
              notes: tuple[str, ...]) -> Derived:
    w = weights.value
    if split is None:
        value = batch * bw.value / (w + batch * kv.value)
        if batch == 1 and kv.value:
            formula = (f"generous ceiling = {num(bw.value)} GB/s ÷ ({num(w)} GB + {gb(kv.value)} KV at the stated "
                       f"depth) = {num(value)} tok/s (theoretical bandwidth, nominal bits)")
        elif batch > 1:
            formula = (f"generous ceiling = {batch} × {num(bw.value)} GB/s ÷ ({num(w)} GB + "
                       f"{batch} × {gb(kv.value)} KV) = {num(value)} tok/s")
        else:
            formula = (f"generous ceiling = {num(bw.value)} GB/s ÷ {num(w)} GB = {num(value)} tok/s "
                       "(theoretical bandwidth, nominal bits, no KV reads)")
        b, a, n = join_parts(bw, weights, kv)
        return Derived(value, "tok/s", (*b, formula), a, (*n, *notes))
    f, sbw = split.system_fraction, split.system_bandwidth.value
    card_gb, sys_gb = w * (1 - f), w * f
    t_card = (card_gb + batch * kv.value) / bw.value
    t_sys = sys_gb / sbw
    value = batch / (t_card + t_sys)
    kv_text = (f" + {batch} × {gb(kv.value)} KV" if batch > 1 and kv.value
               else f" + {gb(kv.value)} KV at the stated depth" if kv.value else "")
    formula = (f"offload: time per step = ({num(card_gb)} GB{kv_text}) ÷ {num(bw.value)} GB/s + "
               f"{num(sys_gb)} GB ÷ {num(sbw)} GB/s = {t_card * 1000:.2f} + {t_sys * 1000:.2f} ms; "
               f"generous ceiling = {batch} ÷ {(t_card + t_sys) * 1000:.2f} ms = {num(value)} tok/s")
    b, a, n = join_parts(bw, weights, kv)
    return Derived(value, "tok/s", (*b, *split.basis, formula), (*a, *split.assumptions), n)


# ---- compute --------------------------------------------------------------------------------


def required_tflops(params_b: float, tok_s: float) -> float:
    """2 FLOPs per weight per token (one multiply-add): 2 × params × tok/s, in TFLOPS."""
    return 2 * params_b * 1e9 * tok_s / 1e12


def peak_tflops(claim: Claim, hw: HardwareRow, fmt: WeightFormat) -> Derived | Missing:
    """The card's dense tensor peak for the format's family (× count); unknown format: its best."""
    count = claim.hardware_count or 1
    if fmt.family is not None:
        peak = hw.peak_tflops.get(fmt.family)
        if peak is None:
            return Missing((f"dense {fmt.family} peak TFLOPS of {hw.name}",))
        family, note = fmt.family, ()  # type: tuple[str, tuple[str, ...]]
    elif hw.peak_tflops:
        family = max(hw.peak_tflops, key=lambda k: hw.peak_tflops[k])
        peak = hw.peak_tflops[family]
        note = (f"weight format unknown: the card's highest dense peak ({family}) used",)
    else:
        return Missing((f"dense peak TFLOPS of {hw.name}",))
    basis: list[Basis | str] = [row(hw, f"dense {family} peak {num(peak)} TFLOPS")]
    if count > 1:
        basis.append(f"{num(peak)} TFLOPS × {count} cards = {num(peak * count)} TFLOPS")
    return Derived(peak * count, f"{family} TFLOPS", tuple(basis), notes=note)
