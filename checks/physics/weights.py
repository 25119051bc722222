"""Weight bytes: the weight format, params read per token and resident, GB per token.

Two byte counts, on purpose (SPEC §4 Q7):
- **generous**: the record's own file size, else params × *nominal* bits / 8. Every assumption
  favours the claim, so a claim that breaks it is robustly broken.
- **realistic**: a published mixed-precision recipe for this model and format, else the file size,
  else params × *effective* bits (with scale overhead) / 8.
"""

from __future__ import annotations

from dataclasses import dataclass

from checks.models import Assumption, Claim
from checks.physics.figures import GB, Derived, Missing, num
from checks.reference import FormatRow, ModelRow, Recipe, Reference, normalise_name

__all__ = [
    "ASSUMED_EFFECTIVE_BITS",
    "ASSUMED_NOMINAL_BITS",
    "SIZE_LABEL_TOLERANCE",
    "WeightFormat",
    "generous_weight_gb",
    "params_per_token",
    "params_resident",
    "realistic_weight_gb",
    "resident_weight_gb",
    "resolve_format",
]

# SPEC §4 Q7: unknown weight format -> the smallest format in common use, 4-bit.
ASSUMED_NOMINAL_BITS = 4.0
# Smallest scale overhead among common 4-bit formats: GPTQ/AWQ g128, 4 + 16/128 + 4/128 bits
# (reference-data.md §4).
ASSUMED_EFFECTIVE_BITS = 4.156

_A_NOMINAL = Assumption(
    name="assumed weight bits (format unknown)", value=ASSUMED_NOMINAL_BITS, unit="bits/weight",
    source="SPEC §4 Q7: smallest weight format in common use (4-bit)",
)
_A_EFFECTIVE = Assumption(
    name="assumed effective weight bits (format unknown)", value=ASSUMED_EFFECTIVE_BITS,
    unit="bits/weight", source="reference-data.md §4: GPTQ/AWQ W4A16 g128 = 4 + 16/128 + 4/128",
)


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
    stated = claim.params_total_b
    if (stated is not None and model is not None and stated != model.params_total_b
            and abs(stated - model.params_total_b) / model.params_total_b <= SIZE_LABEL_TOLERANCE):
        return Derived(model.params_total_b, "B params", (
                f"{model.cite()}: {num(model.params_total_b)}B params total "
                f"(the claim's {num(stated)}B, {claim.source_of('params_total_b')}, "
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
