"""Reference tables: hardware, models, weight formats, speculative methods, decode power bands.

The packaged tables live in `checks/data/*.json`; each row names its source and the date it was
checked: a constant whose derivation is unknown is never used. Rows or
fields that could not be checked against a source carry `unverified` and are reported as such.
A user's own JSON file with the same top-level keys is merged over the packaged tables: a row with
the same `name` replaces the packaged one, a new name is added.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from checks.names import NameIndex

__all__ = [
    "FamilyRow",
    "FormatRow",
    "HardwareRow",
    "MethodRow",
    "ModelRow",
    "PowerBand",
    "PublishedAL",
    "Recipe",
    "Reference",
    "ReferenceError",
    "load_reference",
    "normalise_name",
]

TABLES = ("hardware", "models", "formats", "methods", "power_bands")


class ReferenceError(ValueError):
    """A reference file that cannot be used (unreadable, invalid JSON, a row missing its source)."""


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    aliases: list[str] = Field(default_factory=list)
    source: str  # where the figures were read (URL, repository file, paper)
    checked: str  # date the source was read, YYYY-MM-DD
    unverified: list[str] = Field(default_factory=list)  # fields not confirmed against a source
    notes: str | None = None

    def cite(self) -> str:
        """'RTX 5090 (spheron.network/...; checked 2026-11-29)'."""
        return f"{self.name} ({self.source}; checked {self.checked})"

    def is_verified(self, field: str) -> bool:
        return field not in self.unverified and "*" not in self.unverified


class HardwareRow(_Row):
    # "cpu": CPU-only decode from system memory (bandwidth = channels x bus width x transfer rate)
    kind: Literal["consumer", "workstation", "datacenter", "unified", "cpu"]
    memory_gb: float
    bandwidth_gbs: float
    bandwidth_derivation: str | None = None  # "512 bit / 8 x 28 Gbps"
    tdp_w: float | None = None  # reference board power; None for SoCs and CPUs
    # The highest board-power limit known for the card (partner boards, raised limits), sourced.
    max_power_w: float | None = None
    # dense tensor peak per format family, TFLOPS: keys bf16, fp8, fp4, int8
    peak_tflops: dict[str, float] = Field(default_factory=dict)
    power_band: str | None = None  # key into power_bands; defaults to kind
    # A deployment spreads one model's weights over many of these devices' on-chip SRAM (Groq,
    # Cerebras): one device's memory says nothing about what fits, and its roofline is no ceiling.
    weights_across_devices: bool = False


class Recipe(BaseModel):
    """A published quantization recipe's real bytes read per token (mixed precision)."""

    model_config = ConfigDict(extra="forbid")

    gb_per_token: float
    source: str
    note: str | None = None


class ModelRow(_Row):
    params_total_b: float
    params_active_b: float | None = None  # MoE only; dense reads all weights
    streamed_b: float | None = None  # params read per token at batch 1
    moe: bool = False
    layers: int | None = None
    kv_layers: int | None = None  # layers that keep a KV cache (hybrid models have fewer)
    kv_heads: int | None = None
    head_dim: int | None = None
    kv_bytes_per_token_bf16: float | None = None
    state_gb_per_token: float | None = None  # recurrent state read+written per token (GDN)
    recipes: dict[str, Recipe] = Field(default_factory=dict)  # keyed by format name
    # The format the weights were released in, when builds labelled wider keep it (gpt-oss ships
    # its experts in MXFP4, and its "F16" GGUFs keep them so): the generous ceiling reads the
    # weights at no more than these nominal bits.
    native_format: str | None = None
    native_bits: float | None = None


class FormatRow(_Row):
    nominal_bits: float  # what the name says (generous ceiling)
    effective_bits: float  # with scale overhead (realistic ceiling)
    family: str  # peak_tflops key: bf16, fp8, fp4, int8
    # The bits per weight are chosen per checkpoint (EXL2/EXL3 "4.65bpw"): a stated bpw is the
    # format's own figure and beats the row's, which is only the lowest the format makes.
    bits_stated: bool = False


class FamilyRow(_Row):
    """A model family and what its names imply: dense (every weight read) or MoE.

    `pattern` is searched in the name folded to lower-case words ("Shisa V2 70B (Llama 3 70B)" ->
    "shisa v2 70b llama 3 70b"); `sizes` (billions), when given, are the only sizes the rule
    covers ("Qwen3 8B" is dense, "Qwen3 30B" is not in the dense row). The first row that
    matches decides; rows live in `models.json` under `families`."""

    pattern: str
    moe: bool
    sizes: list[float] = Field(default_factory=list)


class PublishedAL(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    al: float
    official: bool  # the method authors' own paper or model card
    source: str
    model: str | None = None
    window: int | None = None
    speedup: float | None = None


class MethodRow(_Row):
    window_convention: str  # how the draft window relates to the engine flag
    published_als: list[PublishedAL] = Field(default_factory=list)
    published_windows: list[int] = Field(default_factory=list)  # windows drafters ship with

    def official_als(self) -> list[float]:
        return [p.al for p in self.published_als if p.official]

    def best_published_al(self) -> PublishedAL | None:
        return max(self.published_als, key=lambda p: p.al, default=None)


class PowerBand(_Row):
    low: float  # fraction of board power at the low end of real decode
    high: float


_ROW_TYPES: dict[str, type[_Row]] = {
    "hardware": HardwareRow,
    "models": ModelRow,
    "formats": FormatRow,
    "methods": MethodRow,
    "power_bands": PowerBand,
    "families": FamilyRow,
}

_NOISE = re.compile(r"\b(nvidia|geforce|amd|radeon|instinct|apple|intel|the)\b")


def normalise_name(name: str) -> str:
    """Fold a hardware/model/format name so spelling variants meet: 'NVIDIA GeForce RTX-5090' -> 'rtx5090'."""
    s = _NOISE.sub(" ", name.lower())
    return re.sub(r"[^a-z0-9.]+", "", s)


class Reference(BaseModel):
    """All tables, with alias lookup. Immutable once loaded; its lookup index is built once."""

    model_config = ConfigDict(frozen=True)

    hardware: list[HardwareRow]
    models: list[ModelRow]
    formats: list[FormatRow]
    methods: list[MethodRow]
    power_bands: list[PowerBand]
    families: list[FamilyRow] = Field(default_factory=list)  # models.json `families`, in order
    origin: list[str] = Field(default_factory=list)  # files merged, packaged first
    _index: dict[str, NameIndex] = PrivateAttr(default_factory=dict)
    _pairs: dict[str, list[tuple[str, str]]] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        folds: dict[str, Literal["hardware", "model"]] = {"hardware": "hardware", "models": "model"}
        self._index = {t: NameIndex(getattr(self, t), normalise_name, folds.get(t)) for t in TABLES}
        for t in TABLES:  # sorted once: the tables never change after loading
            pairs = [(a, r.name) for r in getattr(self, t) for a in [r.name, *r.aliases]]
            self._pairs[t] = sorted(pairs, key=lambda p: -len(p[0]))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with `update` applied, its index rebuilt for the rows it now holds."""
        copy = super().model_copy(update=update, deep=deep)
        copy.model_post_init(None)
        return copy

    def _find(self, table: str, name: str | None) -> Any:
        """Exact (normalised) name or alias first; then the folded spelling (hardware, models)."""
        if not name:
            return None
        return self._index[table].find(name)

    def gpu(self, name: str | None) -> HardwareRow | None:
        return self._find("hardware", name)

    def model(self, name: str | None) -> ModelRow | None:
        return self._find("models", name)

    def format(self, name: str | None) -> FormatRow | None:
        return self._find("formats", name)

    def method(self, name: str | None) -> MethodRow | None:
        return self._find("methods", name)

    def power_band(self, hw: HardwareRow) -> PowerBand | None:
        return self._find("power_bands", hw.power_band or hw.kind)

    def table(self, name: str) -> list[_Row]:
        return list(getattr(self, name))

    def names_and_aliases(self, table: str) -> list[tuple[str, str]]:
        """(alias, canonical name) pairs, longest alias first, for finding names in free text."""
        return list(self._pairs[table])


def _read_json(path: Path | str, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReferenceError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ReferenceError(f"{path}: expected an object with keys {', '.join(TABLES)}")
    unknown = set(data) - set(TABLES) - {"$comment", "families"}
    if unknown:
        raise ReferenceError(f"{path}: unknown table(s) {', '.join(sorted(unknown))}; known: {', '.join(TABLES)}")
    return data


def _rows(path: Path | str, table: str, raw: Any) -> list[_Row]:
    if not isinstance(raw, list):
        raise ReferenceError(f"{path}: '{table}' must be a list of rows")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(_ROW_TYPES[table].model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"])
            raise ReferenceError(f"{path}: {table}[{i}] field '{loc}': {err['msg']}") from None
    return out


def _merge(base: list[_Row], extra: list[_Row]) -> list[_Row]:
    by_name = {normalise_name(r.name): r for r in base}
    order = [normalise_name(r.name) for r in base]
    for row in extra:
        key = normalise_name(row.name)
        if key not in by_name:
            order.append(key)
        by_name[key] = row
    return [by_name[k] for k in order]


def load_reference(*overrides: Path | str) -> Reference:
    """The packaged tables, with each override file merged over them in order."""
    tables: dict[str, list[_Row]] = {t: [] for t in TABLES}
    families: list[_Row] = []
    origin = []
    pkg = resources.files("checks") / "data"
    for table in TABLES:
        text = (pkg / f"{table}.json").read_text(encoding="utf-8")
        data = _read_json(f"checks/data/{table}.json", text)
        tables[table] = _rows(f"checks/data/{table}.json", table, data.get(table, []))
        if "families" in data:
            families = _rows(f"checks/data/{table}.json", "families", data["families"])
    origin.append("packaged checks/data")
    for path in overrides:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ReferenceError(f"cannot read reference file {p}: {exc.strerror}") from None
        data = _read_json(p, text)
        for table in TABLES:
            if table in data:
                tables[table] = _merge(tables[table], _rows(p, table, data[table]))
        if "families" in data:  # a user's family rows go first: they decide before the packaged
            families = [*_rows(p, "families", data["families"]), *families]
        origin.append(str(p))
    return Reference(origin=origin, families=families, **tables)
