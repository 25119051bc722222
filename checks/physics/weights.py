"""Weight bytes: the weight format, params read per token and resident, GB per token.

Two byte counts, on purpose (the Q7 roofline's generous and realistic ceilings):
- **generous**: the record's own file size, else params × *nominal* bits / 8. Every assumption
  favours the claim, so a claim that breaks it is robustly broken.
- **realistic**: a published mixed-precision recipe for this model and format, else the file size,
  else params × *effective* bits (with scale overhead) / 8.

The model size comes from, in order: the claim's own parameter count, the reference row, and when no
row matches the record's file size (`model_size_bytes`) or the size its name states
(`size_from_name`: "Llama 3 70B", "Qwen3-30B-A3B"). A size that was not read from a reference row is
reported as inferred, with the words it was read from.
"""

from __future__ import annotations

from dataclasses import dataclass

from checks.models import Assumption, Claim
from checks.physics.figures import GB, Derived, Missing, num
from checks.physics.model_size import NameSize, size_from_name
from checks.reference import FormatRow, ModelRow, Recipe, Reference, normalise_name

__all__ = [
    "ASSUMED_EFFECTIVE_BITS",
    "ASSUMED_NOMINAL_BITS",
    "SIZE_LABEL_TOLERANCE",
    "WeightFormat",
    "generous_weight_gb",
    "model_is_moe",
    "params_per_token",
    "params_resident",
    "realistic_weight_gb",
    "resident_weight_gb",
    "resolve_format",
]

# Unknown weight format -> the smallest format in common use, 4-bit (generous to the claim).
ASSUMED_NOMINAL_BITS = 4.0
# Smallest scale overhead among common 4-bit formats: GPTQ/AWQ g128, 4 + 16/128 (FP16 scale) +
# 4/128 (packed zero) bits per weight, the AutoGPTQ / AutoAWQ group-128 packing.
ASSUMED_EFFECTIVE_BITS = 4.156

_A_NOMINAL = Assumption(
    name="assumed weight bits (format unknown)", value=ASSUMED_NOMINAL_BITS, unit="bits/weight",
    source="smallest weight format in common use (4-bit), generous to the claim",
)
_A_EFFECTIVE = Assumption(
    name="assumed effective weight bits (format unknown)", value=ASSUMED_EFFECTIVE_BITS,
    unit="bits/weight", source="GPTQ/AWQ W4A16 group 128 = 4 + 16/128 + 4/128 (AutoGPTQ / AutoAWQ packing)",
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


INFERRED_NOTE = "model size inferred"  # every note on an inferred size starts with these words


def _inferred(how: str) -> str:
    return f"{INFERRED_NOTE} {how}, not from a reference row"


def _name_size(claim: Claim, model: ModelRow | None) -> NameSize | None:
    """The size the model's name states, used only when neither the claim nor a row gives one."""
    if model is not None or claim.params_total_b or claim.model_size_bytes:
        return None
    return size_from_name(claim.model)


def model_is_moe(claim: Claim, model: ModelRow | None) -> bool | None:
    """Whether the model is a MoE: the claim, its row, an active count or a MoE-shaped name;
    None when nothing says."""
    return _is_moe(claim, model)


def _is_moe(claim: Claim, model: ModelRow | None) -> bool | None:
    if claim.is_moe is not None:
        return claim.is_moe
    if model is not None:
        return model.moe
    if claim.params_active_b and claim.params_total_b and claim.params_active_b < claim.params_total_b:
        return True
    named = _name_size(claim, model)
    if named is not None and named.is_moe:
        return True
    return None


def _inferred_words(claim: Claim) -> str:
    return f"inferred from the name '{claim.model}'" if claim.model else "inferred from the record"


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
        where = f"{claim.source_of('params_total_b')} = {num(claim.params_total_b)}B params"
        if claim.size_inferred and model is None:
            return Derived(claim.params_total_b, "B params", (f"{where}, {_inferred_words(claim)}",),
                           notes=(_inferred(_inferred_words(claim).removeprefix("inferred ")),))
        return Derived(claim.params_total_b, "B params", (where,))
    if model is not None:
        return Derived(model.params_total_b, "B params",
                       (f"{model.cite()}: {num(model.params_total_b)}B params total",))
    named = _name_size(claim, model)
    if named is not None:
        bound = " (at most: N experts × M, shared layers counted once in the real model)" if (
            named.is_moe and named.active_b is None) else ""
        return Derived(named.total_b, "B params", (
            f"{num(named.total_b)}B params {_inferred_words(claim)} ('{named.span}'){bound}; "
            "no reference row matches",), notes=(_inferred(f"from the name '{claim.model}'"),))
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
        elif (named := _name_size(claim, model)) is not None and named.active_b:
            return Derived(named.active_b, "B params", (
                f"MoE: the active params are read per token; {num(named.active_b)}B active "
                f"{_inferred_words(claim)} ('{named.span}'); no reference row matches",),
                notes=(_inferred(f"from the name '{claim.model}'"),))
        else:
            return Missing(("active params (MoE)",))
        return Derived(active, "B params", (f"MoE: the active params are read per token; {where}",))
    total = _total(claim, model)
    if total is None:
        return Missing(("model size (params or file size)",))
    notes = ("not stated whether the model is MoE: read as dense (all weights)",) if moe is None else ()
    return Derived(total.value, "B params",
                   ("dense: every weight is read per token (not active params)", *total.basis),
                   notes=(*total.notes, *notes))


def params_resident(claim: Claim, model: ModelRow | None) -> Derived | Missing:
    """Params that must sit in memory: all of them, MoE or not."""
    total = _total(claim, model)
    return total if total is not None else Missing(("total params",))


def resident_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat) -> Derived | Missing:
    """Weight GB that must sit in memory (every expert too): the file, else all params × nominal bits."""
    if claim.model_size_bytes:
        gb = claim.model_size_bytes / GB
        return Derived(gb, "GB", (f"{claim.source_of('model_size_bytes')} = {num(gb)} GB",),
                       notes=_file_note(claim, model))
    total = params_resident(claim, model)
    if isinstance(total, Missing):
        return total
    gb = total.value * fmt.nominal_bits / 8
    formula = f"weights = {num(total.value)}e9 params × {num(fmt.nominal_bits)} bits ÷ 8 = {num(gb)} GB"
    return Derived(gb, "GB", (*total.basis, *fmt.basis, formula), fmt.assumptions,
                   (*total.notes, *fmt.notes))


def _file_note(claim: Claim, model: ModelRow | None) -> tuple[str, ...]:
    """A size read from the record's file, with no row or parameter count behind it, is inferred."""
    return (_inferred("from the record's file size"),) if model is None and not claim.params_total_b else ()


def generous_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat) -> Derived | Missing:
    """Weight GB read per token, favouring the claim: file size, else params × nominal bits / 8."""
    params = params_per_token(claim, model)
    size = claim.model_size_bytes
    if size:
        src = claim.source_of("model_size_bytes")
        if not _is_moe(claim, model):
            notes = params.notes if isinstance(params, Derived) else _file_note(claim, model)
            return Derived(size / GB, "GB",
                           (f"{src} = {num(size / GB)} GB (the record's own file size beats params × bits)",),
                           notes=notes)
        total = _total(claim, model)
        if isinstance(params, Derived) and total is not None:
            gb = size / GB * params.value / total.value
            return Derived(gb, "GB", (
                *params.basis, *total.basis,
                (f"MoE bytes/token = file {num(size / GB)} GB × {num(params.value)}B active ÷ "
                 f"{num(total.value)}B total = {num(gb)} GB")))
    if isinstance(params, Missing):
        return params
    bits = fmt.nominal_bits
    native: tuple[str, ...] = ()
    if model is not None and model.native_bits is not None and model.native_bits < bits:
        # Favour the claim: a wider label ("F16" gpt-oss GGUF) may still hold native-format weights.
        bits = model.native_bits
        native = (f"{model.cite()}: released in {model.native_format}, and builds labelled "
                  f"{fmt.name} keep it, so the generous ceiling reads {num(bits)} bits per weight",)
    gb = params.value * bits / 8
    basis = (*params.basis, *fmt.basis, *native,
             f"weights = {num(params.value)}e9 params × {num(bits)} bits ÷ 8 = {num(gb)} GB")
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
        return Derived(gb, "GB", (f"{claim.source_of('model_size_bytes')} = {num(gb)} GB",),
                       notes=(*other, *_file_note(claim, model)))
    params = params_per_token(claim, model)
    if isinstance(params, Missing):
        return params
    gb = params.value * fmt.effective_bits / 8
    return Derived(gb, "GB", (
        *params.basis, *fmt.basis,
        f"realistic weights = {num(params.value)}e9 × {num(fmt.effective_bits)} bits ÷ 8 = {num(gb)} GB",
    ), fmt.assumptions, (*params.notes, *fmt.notes, *other))
