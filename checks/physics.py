"""Shared decode physics: bytes read per token, KV bytes, bandwidth and compute ceilings.

Used by Q7 roofline, fits_memory and compute_ceiling (and by anything that draws the ceilings).
Each function returns a `Derived` (the figure, the formula written out with its numbers, the
reference rows it read, the constants it assumed and the caveats a summary must carry) or a
`Missing` naming exactly what the record or the tables lack. Units: GB = 1e9 bytes, GB/s = 1e9 B/s,
TFLOPS = 1e12 FLOP/s (reference-data.md legend).

Two byte counts, on purpose (SPEC §4 Q7):
- **generous**: the record's own file size, else params × *nominal* bits / 8; no KV reads. Every
  assumption favours the claim, so a claim that breaks it is robustly broken.
- **realistic**: a published mixed-precision recipe for this model and format, else the file size,
  else params × *effective* bits (with scale overhead) / 8; plus recurrent state and KV reads at the
  stated context; streamed at an achievable fraction of the theoretical bandwidth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from checks.models import Assumption, Claim
from checks.reference import FormatRow, HardwareRow, ModelRow, Recipe, Reference, normalise_name

__all__ = [
    "ACHIEVABLE_BANDWIDTH_FRACTION",
    "GB",
    "GIB",
    "Ceilings",
    "Derived",
    "Missing",
    "WeightFormat",
    "aggregate_tok_s",
    "bandwidth",
    "batch_size",
    "context_tokens",
    "generous_weight_gb",
    "hardware_row",
    "kv_bytes_per_token",
    "kv_gb_per_sequence",
    "num",
    "params_per_token",
    "params_resident",
    "peak_tflops",
    "realistic_weight_gb",
    "required_tflops",
    "resident_weight_gb",
    "resolve_format",
    "roofline_ceilings",
]

GB = 1e9
GIB = 2**30

# Large-buffer copies reach 0.89-0.91 of spec bandwidth: A800 1727/1935 GB/s, RTX 4090 918-924/1008
# GB/s (reference-data.md §2.2). The top of what a decode kernel can stream, so the realistic
# ceiling is still an upper bound (aiconfigurator's 0.8 would be a typical, not a best, figure).
ACHIEVABLE_BANDWIDTH_FRACTION = 0.90
# SPEC §4 Q7: unknown weight format -> the smallest format in common use, 4-bit.
ASSUMED_NOMINAL_BITS = 4.0
# Smallest scale overhead among common 4-bit formats: GPTQ/AWQ g128, 4 + 16/128 + 4/128 bits
# (reference-data.md §4).
ASSUMED_EFFECTIVE_BITS = 4.156
# Generous KV: FP8 (1 byte), the smallest KV-cache dtype in common use (SGLang/vLLM
# --kv-cache-dtype fp8). Realistic KV: BF16 (2 bytes), the engines' default ("auto" = model dtype).
GENEROUS_KV_BYTES = 1.0
DEFAULT_KV_BYTES = 2.0
# Bytes per KV element by dtype name (reference-data.md §4 block sizes for the GGUF cache types).
_KV_DTYPE_BYTES = {
    "fp32": 4.0, "float32": 4.0, "f32": 4.0,
    "bf16": 2.0, "bfloat16": 2.0, "fp16": 2.0, "float16": 2.0, "f16": 2.0, "half": 2.0,
    "fp8": 1.0, "fp8e4m3": 1.0, "fp8e5m2": 1.0, "int8": 1.0, "q80": 34 / 32,
    "q40": 18 / 32, "nvfp4": 0.5625, "fp4": 0.5625,
}

_A_BW = Assumption(
    name="achievable bandwidth fraction", value=ACHIEVABLE_BANDWIDTH_FRACTION, unit="of spec",
    source="reference-data.md §2.2: large-buffer copies 0.89 (A800) to 0.91 (RTX 4090) of spec",
)
_A_NOMINAL = Assumption(
    name="assumed weight bits (format unknown)", value=ASSUMED_NOMINAL_BITS, unit="bits/weight",
    source="SPEC §4 Q7: smallest weight format in common use (4-bit)",
)
_A_EFFECTIVE = Assumption(
    name="assumed effective weight bits (format unknown)", value=ASSUMED_EFFECTIVE_BITS,
    unit="bits/weight", source="reference-data.md §4: GPTQ/AWQ W4A16 g128 = 4 + 16/128 + 4/128",
)
_A_KV_GENEROUS = Assumption(
    name="KV bytes per element (generous, dtype unknown)", value=GENEROUS_KV_BYTES, unit="bytes",
    source="FP8 KV cache, the smallest in common use (SGLang/vLLM --kv-cache-dtype fp8)",
)
_A_KV_DEFAULT = Assumption(
    name="KV bytes per element (realistic, dtype unknown)", value=DEFAULT_KV_BYTES, unit="bytes",
    source="BF16, the engines' default KV dtype (--kv-cache-dtype auto = model dtype)",
)


@dataclass(frozen=True)
class Derived:
    """A figure with the formula, rows and constants behind it."""

    value: float
    unit: str
    basis: tuple[str, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    notes: tuple[str, ...] = ()  # caveats a summary must carry ("4-bit assumed: format not stated")


@dataclass(frozen=True)
class Missing:
    """What the record or the reference tables lack, named exactly."""

    what: tuple[str, ...]


def num(x: float) -> str:
    """Format a derived figure the way reports print it: 1792, 128.9, 13.9, 0.61."""
    if x == int(x) and abs(x) < 1e6:
        return str(int(x))
    if abs(x) >= 1000:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def _join(*parts: Derived) -> tuple[tuple[str, ...], tuple[Assumption, ...], tuple[str, ...]]:
    basis: list[str] = []
    assumptions: list[Assumption] = []
    notes: list[str] = []
    for p in parts:
        basis += [b for b in p.basis if b not in basis]
        assumptions += [a for a in p.assumptions if a not in assumptions]
        notes += [n for n in p.notes if n not in notes]
    return tuple(basis), tuple(assumptions), tuple(notes)


# ---- the rows ------------------------------------------------------------------------------


def hardware_row(claim: Claim, ref: Reference) -> HardwareRow | Missing:
    if not claim.hardware:
        return Missing(("hardware",))
    row = ref.gpu(claim.hardware)
    if row is None:
        return Missing((f"reference row for hardware '{claim.hardware}'",))
    return row


@dataclass(frozen=True)
class WeightFormat:
    """The weight format as the checks use it, with where its bits came from."""

    name: str
    nominal_bits: float
    effective_bits: float
    family: str | None  # peak_tflops key; None when the format is unknown
    row: FormatRow | None
    basis: tuple[str, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    notes: tuple[str, ...] = ()


def resolve_format(claim: Claim, ref: Reference) -> WeightFormat:
    """The claim's weight format from the table; else its own bits per weight; else 4-bit, said."""
    row = ref.format(claim.weight_format)
    if row is not None:
        return WeightFormat(
            name=row.name, nominal_bits=row.nominal_bits, effective_bits=row.effective_bits,
            family=row.family, row=row,
            basis=((f"{row.cite()}: nominal {num(row.nominal_bits)} bits, "
                    f"effective {num(row.effective_bits)} bits per weight"),),
        )
    if claim.bits_per_weight:
        bits = claim.bits_per_weight
        notes = ((f"format '{claim.weight_format}' is not in the reference table; the record's "
                  f"{num(bits)} bits per weight used"),) if claim.weight_format else ()
        return WeightFormat(
            name=claim.weight_format or f"{num(bits)}-bit", nominal_bits=bits, effective_bits=bits,
            family=None, row=None, notes=notes,
            basis=(f"{claim.source_of('bits_per_weight')} = {num(bits)} bits per weight",),
        )
    why = (f"format '{claim.weight_format}' is not in the reference table"
           if claim.weight_format else "weight format not stated")
    return WeightFormat(
        name="4-bit (assumed)", nominal_bits=ASSUMED_NOMINAL_BITS,
        effective_bits=ASSUMED_EFFECTIVE_BITS, family=None, row=None,
        assumptions=(_A_NOMINAL, _A_EFFECTIVE),
        notes=(f"{why}: 4-bit assumed, the smallest format in common use",),
    )


def _is_moe(claim: Claim, model: ModelRow | None) -> bool | None:
    if claim.is_moe is not None:
        return claim.is_moe
    if model is not None:
        return model.moe
    if claim.params_active_b and claim.params_total_b and claim.params_active_b < claim.params_total_b:
        return True
    return None


# A size quoted in a post ("27B dense") is the model's rounded name, not a parameter count: when
# the model row agrees with it to within this fraction, the row's exact count is used instead.
SIZE_LABEL_TOLERANCE = 0.05


def _total(claim: Claim, model: ModelRow | None) -> Derived | None:
    if claim.params_total_b and model is not None and claim.params_total_b != model.params_total_b:
        if abs(claim.params_total_b - model.params_total_b) / model.params_total_b <= SIZE_LABEL_TOLERANCE:
            return Derived(model.params_total_b, "B params", (
                f"{model.cite()}: {num(model.params_total_b)}B params total "
                f"(the claim's {num(claim.params_total_b)}B, {claim.source_of('params_total_b')}, "
                "is read as the model's rounded size)",))
    if claim.params_total_b:
        return Derived(claim.params_total_b, "B params",
                       (f"{claim.source_of('params_total_b')} = {num(claim.params_total_b)}B params",))
    if model is not None:
        return Derived(model.params_total_b, "B params",
                       (f"{model.cite()}: {num(model.params_total_b)}B params total",))
    return None


def params_per_token(claim: Claim, model: ModelRow | None) -> Derived | Missing:
    """Params read per decoded token at batch 1: all of them (dense) or the active ones (MoE)."""
    moe = _is_moe(claim, model)
    if moe:
        if claim.params_active_b:
            active = claim.params_active_b
            where = f"{claim.source_of('params_active_b')} = {num(active)}B"
        elif model is not None and model.params_active_b:
            active = model.params_active_b
            where = f"{model.cite()}: {num(active)}B active"
        else:
            return Missing(("active params (MoE)",))
        return Derived(active, "B params", (f"MoE: the active params are read per token; {where}",))
    total = _total(claim, model)
    if total is None:
        return Missing(("model size (params or file size)",))
    notes = ("not stated whether the model is MoE: read as dense (all weights)",) if moe is None else ()
    return Derived(total.value, "B params",
                   ("dense: every weight is read per token (not active params)", *total.basis),
                   notes=notes)


def params_resident(claim: Claim, model: ModelRow | None) -> Derived | Missing:
    """Params that must sit in memory: all of them, MoE or not."""
    total = _total(claim, model)
    return total if total is not None else Missing(("total params",))


def resident_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat) -> Derived | Missing:
    """Weight GB that must sit in memory (every expert too): the file, else all params × nominal bits."""
    if claim.model_size_bytes:
        gb = claim.model_size_bytes / GB
        return Derived(gb, "GB", (f"{claim.source_of('model_size_bytes')} = {num(gb)} GB",))
    total = params_resident(claim, model)
    if isinstance(total, Missing):
        return total
    gb = total.value * fmt.nominal_bits / 8
    formula = f"weights = {num(total.value)}e9 params × {num(fmt.nominal_bits)} bits ÷ 8 = {num(gb)} GB"
    return Derived(gb, "GB", (*total.basis, *fmt.basis, formula), fmt.assumptions, fmt.notes)


# ---- bytes per token ------------------------------------------------------------------------


def generous_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat) -> Derived | Missing:
    """Weight GB read per token, favouring the claim: file size, else params × nominal bits / 8."""
    params = params_per_token(claim, model)
    size = claim.model_size_bytes
    if size:
        src = claim.source_of("model_size_bytes")
        if not _is_moe(claim, model):
            return Derived(size / GB, "GB",
                           (f"{src} = {num(size / GB)} GB (the record's own file size beats params × bits)",),
                           notes=params.notes if isinstance(params, Derived) else ())
        total = _total(claim, model)
        if isinstance(params, Derived) and total is not None:
            gb = size / GB * params.value / total.value
            return Derived(gb, "GB", (
                *params.basis, *total.basis,
                (f"MoE bytes/token = file {num(size / GB)} GB × {num(params.value)}B active ÷ "
                 f"{num(total.value)}B total = {num(gb)} GB")))
    if isinstance(params, Missing):
        return params
    gb = params.value * fmt.nominal_bits / 8
    basis = (*params.basis, *fmt.basis,
             f"weights = {num(params.value)}e9 params × {num(fmt.nominal_bits)} bits ÷ 8 = {num(gb)} GB")
    return Derived(gb, "GB", basis, fmt.assumptions, (*params.notes, *fmt.notes))


def _recipe(model: ModelRow | None, fmt: WeightFormat) -> Recipe | None:
    if model is None or fmt.row is None:
        return None
    names = {normalise_name(n) for n in [fmt.row.name, *fmt.row.aliases]}
    return next((r for k, r in model.recipes.items() if normalise_name(k) in names), None)


def realistic_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat) -> Derived | Missing:
    """Weight GB read per token as streamed: a published recipe, else the file, else effective bits."""
    recipe = _recipe(model, fmt)
    if recipe is not None and model is not None:
        note = f" ({recipe.note})" if recipe.note else ""
        return Derived(recipe.gb_per_token, "GB", (
            f"{model.name} {fmt.name} recipe: {recipe.gb_per_token:g} GB/token{note} [{recipe.source}]",))
    other = ((f"the reference recipe is for {', '.join(model.recipes)}, not this claim's "
              f"{fmt.name}: realistic bytes from bits per weight"),
             ) if model and model.recipes and claim.weight_format else ()
    if claim.model_size_bytes and not _is_moe(claim, model):
        gb = claim.model_size_bytes / GB
        return Derived(gb, "GB", (f"{claim.source_of('model_size_bytes')} = {num(gb)} GB",), notes=other)
    params = params_per_token(claim, model)
    if isinstance(params, Missing):
        return params
    gb = params.value * fmt.effective_bits / 8
    return Derived(gb, "GB", (
        *params.basis, *fmt.basis,
        f"realistic weights = {num(params.value)}e9 × {num(fmt.effective_bits)} bits ÷ 8 = {num(gb)} GB",
    ), fmt.assumptions, (*params.notes, *fmt.notes, *other))


def _kv_dtype_bytes(kv_dtype: str | None, generous: bool) -> tuple[float, tuple[Assumption, ...], str]:
    key = re.sub(r"[^a-z0-9]", "", (kv_dtype or "").lower())
    if key in _KV_DTYPE_BYTES:
        return _KV_DTYPE_BYTES[key], (), f"KV dtype {kv_dtype}"
    a, value = (_A_KV_GENEROUS, GENEROUS_KV_BYTES) if generous else (_A_KV_DEFAULT, DEFAULT_KV_BYTES)
    why = f"KV dtype '{kv_dtype}' unknown" if kv_dtype else "KV dtype not stated"
    return value, (a,), f"{why}: {num(value)} byte(s) per element assumed"


def kv_bytes_per_token(model: ModelRow | None, kv_dtype: str | None, *, generous: bool) -> Derived | Missing:
    """KV-cache bytes per context token: 2 (K and V) × KV layers × KV heads × head dim × bytes."""
    if model is None:
        return Missing(("model row (KV geometry)",))
    per_elem, assumptions, dtype_text = _kv_dtype_bytes(kv_dtype, generous)
    layers = model.kv_layers or model.layers
    if model.kv_bytes_per_token_bf16:
        bf16 = model.kv_bytes_per_token_bf16
        how = f"{model.cite()}: {num(bf16)} B/token at BF16"
    elif layers and model.kv_heads and model.head_dim:
        bf16 = 2 * layers * model.kv_heads * model.head_dim * 2
        how = (f"{model.cite()}: 2 × {layers} KV layers × {model.kv_heads} KV heads × "
               f"{model.head_dim} head dim × 2 B = {num(bf16)} B/token at BF16")
    else:
        return Missing((f"KV geometry (layers, KV heads, head dim) of {model.name}",))
    value = bf16 * per_elem / 2
    return Derived(value, "B", (how, f"{dtype_text}: {num(bf16)} × {num(per_elem)} ÷ 2 = {num(value)} B/token"),
                   assumptions)


def context_tokens(claim: Claim) -> Derived | None:
    """The context the KV cache holds: the stated context length, else input + output tokens."""
    if claim.context_length:
        return Derived(claim.context_length, "tokens",
                       (f"{claim.source_of('context_length')} = {claim.context_length} tokens",))
    if claim.input_tokens or claim.output_tokens:
        n = (claim.input_tokens or 0) + (claim.output_tokens or 0)
        return Derived(n, "tokens", ((f"context = input {claim.input_tokens or 0} + output "
                                      f"{claim.output_tokens or 0} = {n} tokens"),))
    return None


def kv_gb_per_sequence(claim: Claim, model: ModelRow | None, *, generous: bool) -> Derived:
    """KV GB one sequence reads per step at its context; 0 (said) when context or geometry is unknown."""
    ctx = context_tokens(claim)
    if ctx is None:
        return Derived(0.0, "GB", notes=("no context length stated: KV reads not counted",))
    per_token = kv_bytes_per_token(model, claim.kv_dtype, generous=generous)
    if isinstance(per_token, Missing):
        return Derived(0.0, "GB", notes=(f"KV reads not counted: no {per_token.what[0]}",))
    gb = per_token.value * ctx.value / GB
    basis, assumptions, notes = _join(ctx, per_token)
    return Derived(gb, "GB", (*basis, f"KV = {num(per_token.value)} B × {num(ctx.value)} tokens = {num(gb)} GB"),
                   assumptions, notes)


# ---- bandwidth, the cell, the ceilings ------------------------------------------------------


def bandwidth(claim: Claim, hw: HardwareRow) -> Derived:
    """Theoretical memory bandwidth, × card count (tensor parallel: each card streams its share)."""
    count = claim.hardware_count or 1
    how = f" = {hw.bandwidth_derivation}" if hw.bandwidth_derivation else ""
    basis = [f"{hw.cite()}: {num(hw.bandwidth_gbs)} GB/s{how}"]
    if count > 1:
        basis.append(f"{num(hw.bandwidth_gbs)} GB/s × {count} cards (tensor parallel) = "
                     f"{num(hw.bandwidth_gbs * count)} GB/s")
    notes = ("card count not stated: one card assumed",) if claim.hardware_count is None else ()
    return Derived(hw.bandwidth_gbs * count, "GB/s", tuple(basis), notes=notes)


def batch_size(claim: Claim) -> int | None:
    """Sequences decoded together: the batch, else the concurrency."""
    return claim.batch or claim.concurrency


def aggregate_tok_s(claim: Claim) -> Derived | Missing:
    """The claim's tok/s as all streams together on all cards (per user × batch, per GPU × count).

    Only a rate labelled per user is multiplied by the batch: every other kind either already
    counts all streams or is a single stream."""
    if claim.tok_s is None:
        return Missing(("tok/s",))
    t, src = claim.tok_s, claim.source_of("tok_s")
    batch = batch_size(claim)
    if claim.tok_s_kind == "per_gpu":
        count = claim.hardware_count or 1
        return Derived(t * count, "tok/s", (f"{src} = {t:g} tok/s per GPU × {count} = {num(t * count)} tok/s",))
    if claim.tok_s_kind != "per_user":
        # End-to-end output throughput at concurrency N (vLLM output_throughput, AccelMark, GuideLLM)
        # already counts every stream; an unlabelled rate is read the same way, the reading that
        # favours the claim.
        kind = f" ({claim.tok_s_kind})" if claim.tok_s_kind else ""
        return Derived(t, "tok/s", (f"{src} = {t:g} tok/s{kind}",))
    if batch and batch > 1:
        return Derived(t * batch, "tok/s", ((f"{src} = {t:g} tok/s per stream × batch {batch} = "
                                             f"{num(t * batch)} tok/s aggregate"),))
    return Derived(t, "tok/s", (f"{src} = {t:g} tok/s",))


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
    kv_gb: float = 0.0  # generous KV GB per sequence (batch > 1 only)
    model: ModelRow | None = field(default=None)


def roofline_ceilings(claim: Claim, ref: Reference, batch: int = 1) -> Ceilings | Missing:
    """Bound = batch × bandwidth ÷ (weights + batch × KV per sequence), generous and realistic."""
    hw = hardware_row(claim, ref)
    model = ref.model(claim.model)
    fmt = resolve_format(claim, ref)
    weights = generous_weight_gb(claim, model, fmt)
    missing = [m for x in (hw, weights) if isinstance(x, Missing) for m in x.what]
    if missing:
        return Missing(tuple(missing))
    assert isinstance(hw, HardwareRow) and isinstance(weights, Derived)
    bw = bandwidth(claim, hw)
    kv = kv_gb_per_sequence(claim, model, generous=True) if batch > 1 else Derived(0.0, "GB")
    denom = weights.value + batch * kv.value
    value = batch * bw.value / denom
    if batch > 1:
        formula = (f"generous ceiling = {batch} × {num(bw.value)} GB/s ÷ ({num(weights.value)} GB + "
                   f"{batch} × {num(kv.value)} GB KV) = {num(value)} tok/s")
    else:
        formula = (f"generous ceiling = {num(bw.value)} GB/s ÷ {num(weights.value)} GB = {num(value)} tok/s "
                   "(theoretical bandwidth, nominal bits, no KV reads)")
    b, a, n = _join(bw, weights, kv)
    generous = Derived(value, "tok/s", (*b, formula), a, n)

    real_w = realistic_weight_gb(claim, model, fmt)
    if isinstance(real_w, Missing):  # unreachable in practice: generous found params or a file
        real_w = weights
    real_kv = kv_gb_per_sequence(claim, model, generous=False)
    state = model.state_gb_per_token if model is not None and model.state_gb_per_token else 0.0
    per_seq = state + real_kv.value
    real_bw = ACHIEVABLE_BANDWIDTH_FRACTION * bw.value
    real_value = batch * real_bw / (real_w.value + batch * per_seq)
    parts = [f"{num(real_w.value)} GB weights"]
    if state:
        parts.append(f"{num(state)} GB recurrent state ({model.name if model else ''})")
    if real_kv.value:
        parts.append(f"{num(real_kv.value)} GB KV")
    per = " per sequence" if batch > 1 else ""
    b, a, n = _join(real_w, real_kv)
    realistic = Derived(real_value, "tok/s", (*b, (
        f"realistic ceiling = {batch} × " if batch > 1 else "realistic ceiling = ")
        + f"{ACHIEVABLE_BANDWIDTH_FRACTION} × {num(bw.value)} GB/s ÷ ({' + '.join(parts)}{per}) = "
        f"{num(real_value)} tok/s"), (_A_BW, *a), n)
    return Ceilings(generous=generous, realistic=realistic, bandwidth=bw, weights_gb=weights,
                    batch=batch, fmt=fmt, cards=claim.hardware_count or 1, kv_gb=kv.value, model=model)


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
    basis = [f"{hw.cite()}: dense {family} peak {num(peak)} TFLOPS"]
    if count > 1:
        basis.append(f"{num(peak)} TFLOPS × {count} cards = {num(peak * count)} TFLOPS")
    return Derived(peak * count, f"{family} TFLOPS", tuple(basis), notes=note)
