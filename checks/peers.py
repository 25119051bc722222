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

`PeerIndex` is built once from many claims (a board, a corpus, stored audits), grouped by key in a
dict; `peers_of` gives one record's group with the record itself left out, by its id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from checks.models import Claim, PeerFigure, PeerGroup
from checks.physics.model_size import sourced_claim
from checks.reference import Reference

__all__ = ["UNNAMED_MACHINE", "PeerIndex", "PeerKey", "peer_figure", "peer_key"]

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

    def describe(self) -> str:
        parts = [f"{self.hardware} ×{self.count}", self.model, self.weight_format, self.kind]
        for name in ("batch", "concurrency", "offload", "gpu_layers", "cell"):
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
    return PeerKey(hardware=hardware, count=c.hardware_count or 1, model=model, weight_format=fmt,
                   kind=figure[1], batch=c.batch, concurrency=c.concurrency, offload=c.offload,
                   gpu_layers=c.gpu_layers,
                   cell=" ".join(c.cell.lower().split()) if c.cell else None)


@dataclass
class PeerIndex:
    """Figures grouped by setup, built once (`build`) and asked per record (`peers_of`)."""

    groups: dict[PeerKey, list[PeerFigure]] = field(default_factory=dict)

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
        if key is None or figure is None:
            return
        self.groups.setdefault(key, []).append(
            PeerFigure(record=record_id, tok_s=figure[0], source=claim.source_url))

    def peers_of(self, record_id: str | None, claim: Claim, ref: Reference) -> PeerGroup | None:
        """The other records of this claim's setup (never the record itself); None: no key."""
        key = peer_key(claim, ref)
        if key is None:
            return None
        others = [f for f in self.groups.get(key, ()) if f.record != record_id]
        return PeerGroup(setup=key.describe(), figures=others)
