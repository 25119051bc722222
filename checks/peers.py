"""Peers: the records of one setup, so a figure far above every other record of it stands out.

A roofline bounds what the hardware allows; a record of a setup that many others measured is also
bounded, more loosely, by what they found: a decode figure ten times the best of twenty runs of
the same card, model and format is an outlier even below the ceiling (the honest row ran far under
the ceiling: CPU offload, a small model on a big card, a server at low efficiency). Peers can be
misconfigured, so an outlier is only ever suspicious (checks/rules/peer_outlier.py); only physics
condemns.

The setup key (`peer_key`), each part with its reason:
- the hardware's reference row and the card count (a CPU or SoC platform row covers a family of
  parts, from 8 to 64 cores: there the record's own name is kept, so an EPYC 7352 is no peer of an
  EPYC 7763); where the record names no hardware, the unnamed machine it ran on (`Claim.machine`:
  one table of one post, one command's output, the rule extractors/post_rig.py applies to a post:
  one machine or none), and then only for a figure of a stated kind — an unnamed machine is never
  compared with another, nor with a named one;
- the model's reference row, else the parameter count (the runner's sourced values:
  checks/physics/model_size.sourced_claim), else nothing to key on;
- the weight format (its reference row, else the name as written) and a stated bits per weight;
- the kind of figure (decode, output, prefill, aggregate, per user, or unstated);
- batch, concurrency, offload and GPU layers where stated (a stated setup is a different setup),
  and the record's own name for its scenario (`cell`: "online at 5 QPS" is another load than
  "online at 1 QPS", so its per-request rate is no peer of the other's).

The machine key (`machine_key`): the records that ran on one machine for sure — the same
`Claim.machine` (one table of one post, one LocalScore submission: the caller says which records
share it) and the same hardware as written and card count — with the same tool, the same kind of
figure, batch 1, no speculation and the same offload and GPU layers, whatever the model, format or
KV depth (dense and MoE apart, and a model not known to be either kept to itself: it is compared
only with its own weights at other depths). At batch 1 plain decode a token's time is a fixed cost
plus the bytes it reads ÷ the machine's bandwidth (`gb_per_token`: the generous weight bytes and the KV at
the stated depth, the roofline's own figures in checks/physics), so on one machine a record that
reads more per token is no faster than one that reads less, and one that reads less draws no more
bandwidth than one that reads more (its fixed cost weighs more): the machine_outlier finding
bounds a record by its machine's other records that way.

`PeerIndex` is built once from many claims (a board, a corpus, stored audits), grouped by key in a
dict; `peers_of` gives one record's group (and its machine's other records) with the record itself
left out, by its id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from checks.models import Claim, PeerFigure, PeerGroup
from checks.physics.figures import Derived
from checks.physics.kv import depth_kv_gb
from checks.physics.model_size import sourced_claim
from checks.physics.weights import architecture, generous_weight_gb, resolve_format
from checks.reference import Reference

__all__ = ["UNNAMED_MACHINE", "MachineKey", "PeerIndex", "PeerKey", "gb_per_token", "machine_gb_per_token",
           "machine_key", "peer_figure", "peer_key", "weights_of", "what_ran"]

_UNSTATED = "unstated kind"
# How a key names a machine the record does not: its id (`Claim.machine`) after these words.
UNNAMED_MACHINE = "the unnamed machine of"


@dataclass(frozen=True)
class PeerKey:
    """One setup. Every part is a string so two spellings of one setup compare equal."""

    hardware: str
    count: int
    model: str
    weight_format: str
    kind: str
    batch: int | None = None
    concurrency: int | None = None
    offload: bool | None = None
    gpu_layers: int | None = None
    cell: str | None = None
    server_slots: int | None = None  # a server that sums more streams is another setup

    def describe(self) -> str:
        parts = [f"{self.hardware} ×{self.count}", self.model, self.weight_format, self.kind]
        for name in ("batch", "concurrency", "offload", "gpu_layers", "cell", "server_slots"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name} {value}")
        return ", ".join(parts)


def peer_figure(claim: Claim) -> tuple[float, str] | None:
    """The figure peers compare and its kind: the headline tok/s, else a per-request rate."""
    if claim.tok_s is not None and claim.tok_s > 0:
        return claim.tok_s, claim.tok_s_kind or _UNSTATED
    if claim.per_user_tok_s is not None and claim.per_user_tok_s > 0:
        return claim.per_user_tok_s, "per_user"
    return None


def peer_key(claim: Claim, ref: Reference) -> PeerKey | None:
    """The setup of a claim, or None when the hardware, the model or the figure is unknown."""
    figure = peer_figure(claim)
    if figure is None:
        return None
    if not claim.hardware:
        # No hardware named: only the records of the same unnamed machine compare, and only a
        # figure of a stated kind (an unstated one may be a prompt-processing rate beside a decode).
        if not claim.machine or figure[1] == _UNSTATED:
            return None
        hardware = f"{UNNAMED_MACHINE} {claim.machine}"
    else:
        hw = ref.gpu(claim.hardware)
        if hw is None:
            return None
        # A platform row spans a family's parts; the record's own name tells them apart.
        hardware = " ".join(claim.hardware.lower().split()) if hw.kind == "cpu" else hw.name
    c = sourced_claim(claim, ref)
    weights = _weights_named(c, ref)
    if weights is None:
        return None
    model, fmt = weights
    return PeerKey(hardware=hardware, count=c.hardware_count or 1, model=model, weight_format=fmt,
                   kind=figure[1], batch=c.batch, concurrency=c.concurrency, offload=c.offload,
                   gpu_layers=c.gpu_layers,
                   cell=" ".join(c.cell.lower().split()) if c.cell else None, server_slots=c.server_slots)


def _weights_named(c: Claim, ref: Reference) -> tuple[str, str] | None:
    """The weights a sourced claim ran, as two strings that compare equal for two spellings of
    them: the model's reference row (else its parameter counts) and the format's row (else its
    name as written) with a stated bits per weight. None: the model is unknown."""
    row = ref.model(c.model)
    if row is not None:
        model = row.name
    elif c.params_total_b is not None:
        model = f"{c.params_total_b:.3g}B params"
        if c.params_active_b is not None:
            model += f" ({c.params_active_b:.3g}B active)"
    else:
        return None
    fmt_row = ref.format(c.weight_format)
    fmt = fmt_row.name if fmt_row is not None else (c.weight_format or "format unstated").lower()
    if c.bits_per_weight is not None:
        fmt += f" {c.bits_per_weight:.2f} bpw"
    return model, fmt


def weights_of(claim: Claim, ref: Reference) -> str:
    """'Llama 3.1 8B | Q8_0': which weights a record ran, equal for two records that read the
    same weights (whatever their KV depth). A model of no known row or size is named as written
    ('as written: model unstated | format unstated'): the rows of one sweep-bench table, one run of
    one model, share that."""
    named = _weights_named(sourced_claim(claim, ref), ref)
    if named is not None:
        return " | ".join(named)
    return f"as written: {claim.model or 'model unstated'} | {claim.weight_format or 'format unstated'}"


@dataclass(frozen=True)
class MachineKey:
    """One machine and one way of timing on it: any model, format or KV depth."""

    machine: str
    hardware: str
    count: int
    engine: str
    kind: str
    moe: bool | None  # None: unknown; such a record compares only with its own weights' other depths
    offload: bool | None = None
    gpu_layers: int | None = None

    def describe(self) -> str:
        hw = f"{self.hardware} ×{self.count}" if self.hardware else "unnamed hardware"
        arch = "MoE or dense unknown" if self.moe is None else "MoE" if self.moe else "dense"
        parts = [hw, self.engine or "tool unstated", self.kind, arch, "batch 1"]
        for name in ("offload", "gpu_layers"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name} {value}")
        return f"{', '.join(parts)} on {self.machine}"


# Kinds of figure that are one stream's decode: what one machine's bandwidth bounds per byte read.
_MACHINE_KINDS = ("decode", "output")


def machine_key(claim: Claim, ref: Reference) -> MachineKey | None:
    """The machine a batch-1 plain-decode record ran on, or None where the caller named no
    machine (`Claim.machine`), the figure is no single stream's decode, it may have speculated
    (a draft model multiplies tokens per byte read), or whether the model is a MoE is unknown.
    Dense and MoE models are not compared: a MoE token reads many small scattered experts and
    routes between them, so its time per byte is its own (LocalScore's Qwen3 30B A3B ran at a
    third of the bandwidth its machine drew for a dense 4B)."""
    if not claim.machine or claim.tok_s is None or claim.tok_s <= 0:
        return None
    if claim.tok_s_kind not in _MACHINE_KINDS or claim.serving_claim:
        return None
    if claim.batch not in (None, 1) or claim.concurrency not in (None, 1):
        return None
    if claim.speculative or claim.spec_method or claim.acceptance_length is not None:
        return None
    c = sourced_claim(claim, ref)
    moe = architecture(c, ref.model(c.model), ref).moe
    return MachineKey(machine=claim.machine, hardware=" ".join((claim.hardware or "").lower().split()),
                      count=claim.hardware_count or 1, engine=(claim.engine or "").lower(),
                      kind=claim.tok_s_kind, moe=moe, offload=claim.offload, gpu_layers=claim.gpu_layers)


def gb_per_token(claim: Claim, ref: Reference) -> float | None:
    """GB each decoded token reads at batch 1: the generous weight bytes (file size, else params
    × nominal bits, active params of a MoE) plus the KV at the stated depth (the smallest cache
    type), the roofline's own lower bounds (checks/physics/weights.py, kv.py). None where the size
    is unknown."""
    c = sourced_claim(claim, ref)
    model = ref.model(c.model)
    weights = generous_weight_gb(c, model, resolve_format(c, ref), ref)
    if not isinstance(weights, Derived) or weights.value <= 0:
        return None
    return weights.value + depth_kv_gb(c, model, generous=True).value


def machine_gb_per_token(claim: Claim, key: MachineKey, ref: Reference) -> float | None:
    """`gb_per_token` where the record may be compared per byte with its machine's others: only
    when it is known to be dense or a MoE (the two read memory at different rates per byte)."""
    return gb_per_token(claim, ref) if key.moe is not None else None


def what_ran(claim: Claim) -> str:
    """A record's model, format and depth as written, to name a peer of another model."""
    parts = [claim.model or "model unstated", claim.weight_format or "format unstated"]
    if claim.kv_depth:
        parts.append(f"KV depth {claim.kv_depth}")
    return ", ".join(parts)


@dataclass
class PeerIndex:
    """Figures grouped by setup, built once (`build`) and asked per record (`peers_of`)."""

    groups: dict[PeerKey, list[PeerFigure]] = field(default_factory=dict)
    machines: dict[MachineKey, list[PeerFigure]] = field(default_factory=dict)

    @classmethod
    def build(cls, records: Iterable[tuple[str, Claim]], ref: Reference) -> PeerIndex:
        """`records`: (id, claim) pairs; the id is what leaves a record out of its own peers."""
        index = cls()
        for record_id, claim in records:
            index.add(record_id, claim, ref)
        return index

    def add(self, record_id: str, claim: Claim, ref: Reference) -> None:
        key = peer_key(claim, ref)
        figure = peer_figure(claim)
        if key is not None and figure is not None:
            self.groups.setdefault(key, []).append(
                PeerFigure(record=record_id, tok_s=figure[0], source=claim.source_url))
        mkey = machine_key(claim, ref)
        if mkey is not None and claim.tok_s is not None:
            # a record of unknown size still bounds its machine's deeper rows of the same weights
            self.machines.setdefault(mkey, []).append(PeerFigure(
                record=record_id, tok_s=claim.tok_s, source=claim.source_url,
                gb_per_token=machine_gb_per_token(claim, mkey, ref),
                ran=what_ran(claim), weights=weights_of(claim, ref), kv_depth=claim.kv_depth))

    def peers_of(self, record_id: str | None, claim: Claim, ref: Reference) -> PeerGroup | None:
        """The other records of this claim's setup and of its machine (never the record itself);
        None: neither key."""
        key = peer_key(claim, ref)
        mkey = machine_key(claim, ref)
        if key is None and mkey is None:
            return None
        others = [f for f in self.groups.get(key, ())
                  if f.record != record_id] if key is not None else []
        group = PeerGroup(setup=key.describe() if key is not None else "", figures=others)
        if mkey is None:
            return group
        same = [f for f in self.machines.get(mkey, ()) if f.record != record_id]
        return group.model_copy(update={"machine": mkey.describe(), "machine_figures": same})
