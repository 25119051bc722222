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

Dense or MoE (`architecture`), in order: the record says so (`is_moe`), the model's row, an active
count below the total, the name's shape ("30B-A3B", "8x7B"), and last the family table
(`models.json` `families`: "Llama 33B", "TinyLlama 1.1B", "Hermes 3 Llama 3.1 8B" are dense,
"Mixtral", "DeepSeek V3", "Kimi K2" are MoE), each with where it came from. A name none of these
knows stays unknown; `sparsest_moe_near` then gives the most generous plausible reading of it
(`checks.physics.compute.moe_share`): the smallest active share any published MoE of about that
total has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from checks.basis import row as cited
from checks.memo import per_audit
from checks.models import Assumption, Basis, Claim
from checks.physics.figures import GB, Derived, Missing, num
from checks.physics.model_size import NameSize, size_from_name
from checks.reference import FamilyRow, FormatRow, ModelRow, Recipe, Reference, normalise_name

__all__ = [
    "ASSUMED_EFFECTIVE_BITS",
    "ASSUMED_NOMINAL_BITS",
    "MOE_TOTAL_BAND",
    "SIZE_LABEL_TOLERANCE",
    "Architecture",
    "SparsestMoe",
    "WeightFormat",
    "architecture",
    "family_row",
    "generous_weight_gb",
    "model_is_moe",
    "params_per_token",
    "params_resident",
    "realistic_weight_gb",
    "resident_weight_gb",
    "resolve_format",
    "sparsest_moe_near",
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
    basis: tuple[Basis | str, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    notes: tuple[str, ...] = ()
    assumed: bool = False  # no format and no bits known: the 4-bit guess below


@per_audit  # the same claim's figure for every check of one audit
def resolve_format(claim: Claim, ref: Reference) -> WeightFormat:
    """The claim's weight format from the table; else its own bits per weight; else 4-bit, said."""
    row = ref.format(claim.weight_format)
    if row is not None and row.bits_stated and claim.bits_per_weight:
        # EXL2 / EXL3: the bpw is chosen per checkpoint, and the stated one is the average the
        # file holds, scales included.
        bits = claim.bits_per_weight
        return WeightFormat(
            name=f"{row.name} {num(bits)} bpw", nominal_bits=bits, effective_bits=bits,
            family=row.family, row=row,
            basis=(f"{claim.source_of('bits_per_weight')} = {num(bits)} bits per weight, this "
                   f"{row.name} checkpoint's own average ({row.cite()})",),
        )
    if row is not None:
        return WeightFormat(
            name=row.name, nominal_bits=row.nominal_bits, effective_bits=row.effective_bits,
            family=row.family, row=row,
            basis=(cited(row, f"nominal {num(row.nominal_bits)} bits, "
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
    if (named := _bits_named(claim.weight_format)) is not None:
        # "Q8", "Q6", "8-bit", "int8": the name says its bits, the nominal count (Q8_0 stores
        # 8.5 with its scales): still generous, and not the 4-bit a name that says nothing gets.
        return WeightFormat(
            name=claim.weight_format or "", nominal_bits=named, effective_bits=named, family=None, row=None,
            basis=(f"{claim.source_of('weight_format')} = '{claim.weight_format}': {num(named)} bits per "
                   "weight, as its name says (not in the reference table)",),
            notes=(f"format '{claim.weight_format}' is not in the reference table: {num(named)} bits per "
                   "weight, as its name says",))
    why = (f"format '{claim.weight_format}' is not in the reference table"
           if claim.weight_format else "weight format not stated")
    return WeightFormat(
        name="4-bit (assumed)", nominal_bits=ASSUMED_NOMINAL_BITS,
        effective_bits=ASSUMED_EFFECTIVE_BITS, family=None, row=None,
        assumptions=(_A_NOMINAL, _A_EFFECTIVE),
        notes=(f"{why}: 4-bit assumed, the smallest format in common use",), assumed=True,
    )


# A format named by its bits: "Q8", "q6", "8-bit", "8bit", "int8", "INT4", and a GGUF-style name
# the table lacks, whose digit is its base bits: Unsloth's dynamic "UD-Q2_K_XL", ik_llama.cpp's
# "IQ2_KS" / "IQ4_KSS" / "IQ3_KT", repacked "Q4_0_4_4" (a mix keeps some tensors above its base
# bits, so the base is the generous count).
_BITS_NAMED = re.compile(r"(?i)(?P<gguf>(?:ud-)?i(?=q)|ud-)?q(?P<q>\d)(?P<tail>(?:_[a-z0-9]+)*)|int(?P<int>\d)|"
                         r"(?P<bits>\d)[- ]?bits?")


def _bits_named(fmt: str | None) -> float | None:
    """The bits per weight a format's bare name states, 2 to 8; None for any other name."""
    m = _BITS_NAMED.fullmatch(fmt.strip()) if fmt else None
    if m is None:
        return None
    if m.group("q"):
        gguf = m.group("gguf") or m.group("tail")
        # A GGUF-shaped name ("IQ1_KT", "Q2_K_XL") may have one bit; a bare "Q1" names no format.
        bits, low = int(m.group("q")), 1 if gguf else 2
    else:
        bits, low = int(m.group("int") or m.group("bits")), 2
    return float(bits) if low <= bits <= 8 else None


INFERRED_NOTE = "model size inferred"  # every note on an inferred size starts with these words


def _inferred(how: str) -> str:
    return f"{INFERRED_NOTE} {how}, not from a reference row"


def _name_size(claim: Claim, model: ModelRow | None) -> NameSize | None:
    """The size the model's name states, used only when neither the claim nor a row gives one."""
    if model is not None or claim.params_total_b or claim.model_size_bytes:
        return None
    return size_from_name(claim.model)


@dataclass(frozen=True)
class Architecture:
    """Dense or MoE, and where that came from (None: nothing says)."""

    moe: bool | None
    how: Literal["stated", "row", "active count", "name shape", "family", "unknown"]
    basis: str = ""
    family: FamilyRow | None = None


# Names are folded to lower-case words before the family patterns see them: "Shisa V2 70B (Llama
# 3 70B)" -> "shisa v2 70b llama 3 70b", "llama3.1:70b" -> "llama3.1 70b".
_FOLD = re.compile(r"[^a-z0-9.]+")
_MAX_NAME = 200  # patterns run on at most this much of a name
# A size in the name counts as one of a family row's sizes within this fraction ("Qwen2.5 7.6B").
_SIZE_MATCH = 0.05


def _fold_words(name: str) -> str:
    return _FOLD.sub(" ", name[:_MAX_NAME].lower()).strip(" .")


def family_row(name: str | None, ref: Reference) -> FamilyRow | None:
    """The first family row whose pattern the name matches (and whose sizes, if any, include
    the size the name states)."""
    if not name or not ref.families:
        return None
    words = _fold_words(name)
    size = size_from_name(name)
    for row in ref.families:
        if not re.search(row.pattern, words):
            continue
        if row.sizes and (size is None or not any(
                abs(size.total_b - s) <= _SIZE_MATCH * s for s in row.sizes)):
            continue
        return row
    return None


@per_audit  # the same claim's figure for every check of one audit
def architecture(claim: Claim, model: ModelRow | None, ref: Reference | None = None) -> Architecture:
    """Dense or MoE: stated, the model's row, an active count, the name's shape, the family table."""
    if claim.is_moe is not None:
        return Architecture(claim.is_moe, "stated", f"{claim.source_of('is_moe')} = "
                            f"{'MoE' if claim.is_moe else 'dense'}")
    if model is not None:
        return Architecture(model.moe, "row", f"{model.cite()}: {'MoE' if model.moe else 'dense'}")
    if claim.params_active_b and claim.params_total_b and claim.params_active_b < claim.params_total_b:
        return Architecture(True, "active count", (
            f"{claim.source_of('params_active_b')} = {num(claim.params_active_b)}B active of "
            f"{num(claim.params_total_b)}B total: MoE"))
    named = size_from_name(claim.model)
    if named is not None and named.is_moe:
        return Architecture(True, "name shape", f"the name '{claim.model}' has a MoE's shape ('{named.span}')")
    if ref is not None and (row := family_row(claim.model, ref)) is not None:
        kind = "MoE" if row.moe else "dense"
        return Architecture(row.moe, "family", (
            f"'{claim.model}' is a {row.name} name, and {row.name} models are {kind} "
            f"(family row: {row.cite()})"), row)
    return Architecture(None, "unknown")


def model_is_moe(claim: Claim, model: ModelRow | None, ref: Reference | None = None) -> bool | None:
    """Whether the model is a MoE: the claim, its row, an active count, a MoE-shaped name, the
    family table (with `ref`); None when nothing says."""
    return architecture(claim, model, ref).moe


def _is_moe(claim: Claim, model: ModelRow | None, ref: Reference | None = None) -> bool | None:
    return architecture(claim, model, ref).moe


# "Of about that total size": published MoEs whose total is within this factor of the claim's.
MOE_TOTAL_BAND = (0.5, 2.0)


@dataclass(frozen=True)
class SparsestMoe:
    """The published MoE with the smallest active share among those of about a given total."""

    share: float  # its active ÷ total params
    row: ModelRow
    band: tuple[float, float]  # the totals searched, B params

    def entry(self) -> Basis:
        """Its reference row as a basis entry, saying what it was picked for."""
        lo, hi = self.band
        return cited(self.row, f"{num(self.row.params_active_b or 0)}B of {num(self.row.params_total_b)}B "
                               f"active = {self.share:.3f}, the sparsest MoE of {num(lo)}-{num(hi)}B total "
                               "in the reference")


def sparsest_moe_near(total_b: float, ref: Reference) -> SparsestMoe | None:
    """The sparsest MoE row whose total is within `MOE_TOTAL_BAND` of `total_b`, the band doubled
    each way until it holds one; None when the table has no MoE with an active count."""
    moes = [r for r in ref.models if r.moe and r.params_active_b and r.params_total_b > 0]
    if not moes or total_b <= 0:
        return None
    # The band widens (×2 each way) until it holds a published MoE: a small model is read as
    # the small MoEs are, not as a trillion-parameter one's 3% active share.
    lo, hi = MOE_TOTAL_BAND
    near: list[ModelRow] = []
    while not near:
        near = [r for r in moes if lo * total_b <= r.params_total_b <= hi * total_b]
        if not near:
            lo, hi = lo / 2, hi * 2

    def share(r: ModelRow) -> float:
        return (r.params_active_b or r.params_total_b) / r.params_total_b

    best = min(near, key=lambda r: (share(r), r.name))
    return SparsestMoe(share(best), best, (lo * total_b, hi * total_b))


def _inferred_words(claim: Claim) -> str:
    return f"inferred from the name '{claim.model}'" if claim.model else "inferred from the record"


# A size quoted in a post ("27B dense") is the model's rounded name, not a parameter count: when
# the model row agrees with it to within this fraction, the row's exact count is used instead.
SIZE_LABEL_TOLERANCE = 0.05


@per_audit  # the same claim's figure for every check of one audit
def _total(claim: Claim, model: ModelRow | None) -> Derived | None:
    stated = claim.params_total_b
    if (stated is not None and model is not None and stated != model.params_total_b
            and abs(stated - model.params_total_b) / model.params_total_b <= SIZE_LABEL_TOLERANCE):
        return Derived(model.params_total_b, "B params", (
                cited(model, f"{num(model.params_total_b)}B params total (the claim's {num(stated)}B, "
                             f"{claim.source_of('params_total_b')}, is read as the model's rounded size)"),))
    if stated is not None and model is not None and model.params_total_b < stated:
        # A record's size label above its model's sourced count (a leaderboard's "1500 M" for
        # Llama 3.2 1B's 1.24B) is a label, not a count: every bound is judged at the smaller,
        # the reading that favours the claim, and both are shown.
        return Derived(model.params_total_b, "B params", (
                cited(model, f"{num(model.params_total_b)}B params total (the claim's {num(stated)}B, "
                             f"{claim.source_of('params_total_b')}, is larger: the sourced count is used, "
                             "the reading that favours the claim)"),))
    if claim.params_total_b:
        where = f"{claim.source_of('params_total_b')} = {num(claim.params_total_b)}B params"
        if claim.size_inferred and model is None:
            return Derived(claim.params_total_b, "B params", (f"{where}, {_inferred_words(claim)}",),
                           notes=(_inferred(_inferred_words(claim).removeprefix("inferred ")),))
        return Derived(claim.params_total_b, "B params", (where,))
    if model is not None:
        return Derived(model.params_total_b, "B params",
                       (cited(model, f"{num(model.params_total_b)}B params total"),))
    named = _name_size(claim, model)
    if named is not None:
        bound = " (at most: N experts × M, shared layers counted once in the real model)" if (
            named.is_moe and named.active_b is None) else ""
        return Derived(named.total_b, "B params", (
            f"{num(named.total_b)}B params {_inferred_words(claim)} ('{named.span}'){bound}; "
            "no reference row matches",), notes=(_inferred(f"from the name '{claim.model}'"),))
    return None


@per_audit  # the same claim's figure for every check of one audit
def params_per_token(claim: Claim, model: ModelRow | None, ref: Reference | None = None) -> Derived | Missing:
    """Params read per decoded token at batch 1: all of them (dense) or the active ones (MoE)."""
    arch = architecture(claim, model, ref)
    moe = arch.moe
    if moe:
        if claim.params_active_b:
            active = claim.params_active_b
            where = f"{claim.source_of('params_active_b')} = {num(active)}B"
        elif model is not None and model.params_active_b:
            active = model.params_active_b
            where = f"{model.cite()}: {num(active)}B active"
        elif model is None and (named := size_from_name(claim.model)) is not None and named.active_b:
            return Derived(named.active_b, "B params", (
                f"MoE: the active params are read per token; {num(named.active_b)}B active "
                f"{_inferred_words(claim)} ('{named.span}'); no reference row matches",),
                notes=(_inferred(f"from the name '{claim.model}'"),))
        else:
            return _active_unstated(claim, model, arch, ref)
        return Derived(active, "B params", (f"MoE: the active params are read per token; {where}",))
    total = _total(claim, model)
    if total is None:
        return Missing(("model size (params or file size)",))
    notes = ("not stated whether the model is MoE: read as dense (all weights)",) if moe is None else ()
    # The family table is the one source of "dense" the claim and its row do not already show.
    why = (arch.basis,) if arch.how == "family" else ()
    return Derived(total.value, "B params",
                   ("dense: every weight is read per token (not active params)", *why, *total.basis),
                   notes=(*total.notes, *notes))


def _active_unstated(claim: Claim, model: ModelRow | None, arch: Architecture,
                     ref: Reference | None) -> Derived | Missing:
    """The active params of a MoE whose record gives its total but not its active count: the
    published MoE of its family with that total, else the most generous plausible reading (the
    sparsest published MoE of about its total, `sparsest_moe_near`), never "unknown" while the
    total is known. A figure above even that reading is above the ceiling under every reading."""
    total = _total(claim, model)
    if ref is None or total is None:
        return Missing(("active params (MoE)",))
    family = arch.family if arch.family is not None and arch.family.moe else None
    if family is not None and (same := _same_family_moe(total.value, family, ref)) is not None:
        active = same.params_active_b or same.params_total_b
        return Derived(active, "B params", (
            cited(same, f"MoE: the active params are read per token; {num(active)}B active of "
                        f"{num(same.params_total_b)}B, the {family.name} MoE whose total the "
                        f"record's {num(total.value)}B matches"),))
    if (base := _same_shape_moe(claim, ref)) is not None:
        active = base.params_active_b or base.params_total_b
        return Derived(active, "B params", (
            cited(base, f"MoE: the active params are read per token; {num(active)}B active of "
                        f"{num(base.params_total_b)}B, the published MoE of the name's shape "
                        f"('{_base_shape(claim)}')"),))
    near = sparsest_moe_near(total.value, ref)
    if near is None:
        return Missing(("active params (MoE)",))
    active = total.value * near.share
    return Derived(active, "B params", (
        near.entry(),
        f"MoE, active params not stated: {num(total.value)}B × {near.share:.3f} = {num(active)}B active, "
        "the most generous plausible reading",
        *total.basis),
        notes=(*total.notes, f"active params not stated: read as the sparsest published MoE of its size "
                             f"({near.row.name}, {near.share:.3f} active)"))


# A Mixtral-style shape, N experts of M billion ("8x22B"): a fine-tune named by it is its base's.
_EXPERT_SHAPE = re.compile(r"(?i)\d{1,3}x\d{1,4}(?:\.\d{1,2})?b")


def _base_shape(claim: Claim) -> str | None:
    """The name's "NxMB" shape ("WizardLM-2 8x22B": "8x22b"), or None."""
    named = size_from_name(claim.model)
    if named is None or not named.is_moe or not _EXPERT_SHAPE.fullmatch(named.span):
        return None
    return named.span.lower()


def _same_shape_moe(claim: Claim, ref: Reference) -> ModelRow | None:
    """The published MoE whose name has the claim's "NxMB" shape, the base a fine-tune named so
    is built on ("WizardLM-2 8x22B", "Nous Hermes 2 Mixtral 8x7B": Mixtral 8x22B, 8x7B)."""
    shape = _base_shape(claim)
    if shape is None:
        return None
    rows = [r for r in ref.models if r.moe and r.params_active_b and r.params_total_b > 0
            and any(shape in _fold_words(n).split() for n in (r.name, *r.aliases))]
    return min(rows, key=lambda r: ((r.params_active_b or 0) / r.params_total_b, r.name), default=None)


def _same_family_moe(total_b: float, family: FamilyRow, ref: Reference) -> ModelRow | None:
    """The sparsest MoE row of `family` whose total is the record's, within `_SIZE_MATCH` (the
    tolerance a name's size meets a family row's sizes with: "Qwen3 30.53B" is Qwen3 30B-A3B,
    "Mixtral 47B" is Mixtral 8x7B's 46.7B)."""
    pattern = re.compile(family.pattern)
    rows = [r for r in ref.models if r.moe and r.params_active_b and r.params_total_b > 0
            and abs(r.params_total_b - total_b) <= _SIZE_MATCH * r.params_total_b
            and any(pattern.search(_fold_words(n)) for n in (r.name, *r.aliases))]
    return min(rows, key=lambda r: ((r.params_active_b or 0) / r.params_total_b, r.name), default=None)


def params_resident(claim: Claim, model: ModelRow | None) -> Derived | Missing:
    """Params that must sit in memory: all of them, MoE or not."""
    total = _total(claim, model)
    return total if total is not None else Missing(("total params",))


@per_audit  # the same claim's figure for every check of one audit
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


def generous_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat,
                       ref: Reference | None = None) -> Derived | Missing:
    """Weight GB read per token, favouring the claim: file size, else params × nominal bits / 8."""
    params = params_per_token(claim, model, ref)
    size = claim.model_size_bytes
    if size:
        src = claim.source_of("model_size_bytes")
        arch = architecture(claim, model, ref)
        if not arch.moe:
            notes = params.notes if isinstance(params, Derived) else _file_note(claim, model)
            why = (f"dense: every weight is read per token; {arch.basis}",) if arch.how == "family" else ()
            return Derived(size / GB, "GB",
                           (*why, f"{src} = {num(size / GB)} GB (the record's own file size beats params × bits)"),
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
    native: tuple[Basis | str, ...] = ()
    if model is not None and model.native_bits is not None and model.native_bits < bits:
        # Favour the claim: a wider label ("F16" gpt-oss GGUF) may still hold native-format weights.
        bits = model.native_bits
        native = (cited(model, f"released in {model.native_format}, and builds labelled {fmt.name} keep it, "
                               f"so the generous ceiling reads {num(bits)} bits per weight"),)
    gb = params.value * bits / 8
    basis = (*params.basis, *fmt.basis, *native,
             f"weights = {num(params.value)}e9 params × {num(bits)} bits ÷ 8 = {num(gb)} GB")
    return Derived(gb, "GB", basis, fmt.assumptions, (*params.notes, *fmt.notes))


def _recipe(model: ModelRow | None, fmt: WeightFormat) -> Recipe | None:
    if model is None or fmt.row is None:
        return None
    names = {normalise_name(n) for n in [fmt.row.name, *fmt.row.aliases]}
    return next((r for k, r in model.recipes.items() if normalise_name(k) in names), None)


def realistic_weight_gb(claim: Claim, model: ModelRow | None, fmt: WeightFormat,
                        ref: Reference | None = None) -> Derived | Missing:
    """Weight GB read per token as streamed: a published recipe, else the file, else effective bits."""
    recipe = _recipe(model, fmt)
    if recipe is not None and model is not None:
        note = f" ({recipe.note})" if recipe.note else ""
        return Derived(recipe.gb_per_token, "GB", (
            f"{model.name} {fmt.name} recipe: {recipe.gb_per_token:g} GB/token{note} [{recipe.source}]",))
    other = ((f"the reference recipe is for {', '.join(model.recipes)}, not this claim's "
              f"{fmt.name}: realistic bytes from bits per weight"),
             ) if model and model.recipes and claim.weight_format else ()
    if claim.model_size_bytes and not _is_moe(claim, model, ref):
        gb = claim.model_size_bytes / GB
        return Derived(gb, "GB", (f"{claim.source_of('model_size_bytes')} = {num(gb)} GB",),
                       notes=(*other, *_file_note(claim, model)))
    params = params_per_token(claim, model, ref)
    if isinstance(params, Missing):
        return params
    gb = params.value * fmt.effective_bits / 8
    return Derived(gb, "GB", (
        *params.basis, *fmt.basis,
        f"realistic weights = {num(params.value)}e9 × {num(fmt.effective_bits)} bits ÷ 8 = {num(gb)} GB",
    ), fmt.assumptions, (*params.notes, *fmt.notes, *other))
