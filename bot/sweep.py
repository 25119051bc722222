"""`sweep`: every record of a leaderboard dump audited, each report written as it is made.

The dump (`extractors.dump`) is read once. That pass reads each record's setup into a
`SiblingIndex`, keys it among its peers (`_BoardPeers`: its `checks.peers` setup and figure,
plain data), lists the records that cannot be read, and spools each Claim it read to a
temporary file (`_Spool`: one entry a record, found again by its offset, decoded once, in the
worker that audits it, without validating it again); the audit then takes the records in dump
order, each with its siblings and peers, from the spool, not from the dump: rows, their launch
commands and notes are read once, and no record is decoded or keyed twice. In between only the
indexes and the offsets are held; during the audit a record's Claim is held from when it is loaded until the
last record that has it as a sibling has been audited, and each audited record leaves one
summary row for the ranking: severity and roofline ratio in arrays, the row's JSON in a file
(`SweepSummary`). The texts of the
records are read through one memo per process (`TextMemo`): a board's repeated templates are
read once. A dump whose sibling runs sit together (most boards list a submitter's batch
together) holds one group at a time; siblings spread across the dump make the sweep hold the
records between them, since reports go out in dump order.

`jobs` worker processes share the reading of a streamed dump (every jobs-th record each, each
stripe spooled to its own file); then each takes a contiguous part of the records, loads them
from the spools and spools its reports to a file; the parts are copied out in order, so the
output is the same bytes for any number of jobs. A part is at least `MIN_PART` records: below
that, starting a process costs more than it saves.
"""

from __future__ import annotations

import gc
import os
import pickle
import shutil
import tempfile
from array import array
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from bot.options import PipelineOptions
from checks.models import Claim, PeerFigure, PeerGroup, Provenance, Report, Verdict, built, replaced
from checks.peers import (
    MachineKey,
    PeerKey,
    machine_gb_per_token,
    machine_key,
    peer_figure,
    peer_key,
    weights_of,
    what_ran,
)
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.dump import (
    Dump,
    DumpStreamError,
    Item,
    ReadNotes,
    Unreadable,
    loaded_dump,
    open_dump,
)
from extractors.errors import InvalidInput, UsageError
from extractors.evidence import Reading, record_evidence
from extractors.formats.record_text import TextMemo, current_memo, text_memo
from extractors.inputs import classify_input, read_local
from extractors.offloop import PARALLEL_BYTES, worker_context
from extractors.select import SetupKey, SiblingIndex, setup_key
from extractors.text import compiled

__all__ = [
    "MIN_PART",
    "PARALLEL_BYTES",
    "SweepResult",
    "SweepRow",
    "SweepSummary",
    "UnreadableRecord",
    "default_jobs",
    "run_sweep",
    "sweep_source",
]

MIN_PART = 50
_T = TypeVar("_T")
_M = TypeVar("_M", bound=BaseModel)
# Objects made (net of those freed) before the collector's young pass in a sweep worker (`_in_worker`).
_YOUNG = 20_000
# Distinct record texts (launch command + notes combinations) remembered per process: a board's
# templates repeat, its one-off notes need not all be kept. A few KB each.
MEMO_SIZE = 4096
SEVERITY: dict[str, int] = {"implausible": 0, "suspicious": 1, "insufficient": 2, "consistent": 3}
_VERDICTS = list(SEVERITY)

# (severity, -roofline ratio, dump index, the SweepRow as JSON): sorting these ranks the rows,
# ties kept in dump order, without holding a model per record.
RankKey = tuple[int, float, int, str]
# Rows kept in memory before the summary's file of rows moves to disk (a board of some
# thousand records; a 100k-record sweep keeps its rows on disk, not in the process).
_ROWS_IN_MEMORY = 1 << 20


class SweepRow(BaseModel):
    record_id: str | None
    submitter: str | None
    hardware: str | None
    model: str | None
    tok_s: float | None
    verdict: Verdict
    headline: str
    roofline_ratio: float | None = None


class UnreadableRecord(BaseModel):
    record: int  # 0-based position in the dump
    reason: str


class SweepResult(BaseModel):
    """A whole sweep in memory (small boards, the bot, tests); the CLI streams instead."""

    model_config = ConfigDict(populate_by_name=True)

    source: str
    records: int
    by_verdict: dict[str, int]
    ranked: list[SweepRow]
    reports: list[Report] = Field(default_factory=list)
    unreadable: list[UnreadableRecord] = Field(default_factory=list)


@dataclass
class SweepSummary:
    """What a streamed sweep keeps: the counts, the unreadable records, and one rank key a
    record as numbers in arrays (severity, -roofline ratio, dump index), its row's JSON in a
    temporary file (in memory while small) found again by offset: a 100k-record sweep holds a
    few MB for its ranking, not every row."""

    source: str
    unreadable: list[UnreadableRecord] = field(default_factory=list)
    _sev: array[int] = field(default_factory=lambda: array("b"), repr=False)
    _roof: array[float] = field(default_factory=lambda: array("d"), repr=False)
    _index: array[int] = field(default_factory=lambda: array("q"), repr=False)
    _at: array[int] = field(default_factory=lambda: array("q"), repr=False)
    # The summary's own file, closed (and gone: it has no name) when the summary is collected.
    _rows: tempfile.SpooledTemporaryFile[bytes] = field(
        default_factory=lambda: tempfile.SpooledTemporaryFile(_ROWS_IN_MEMORY),  # noqa: SIM115
        repr=False)
    _order: list[int] | None = field(default=None, repr=False)

    def add(self, sev: int, roof: float, i: int, row: str | bytes) -> None:
        """One ranked record: its key and its row's JSON (one line)."""
        self._sev.append(sev)
        self._roof.append(roof)
        self._index.append(i)
        self._rows.seek(0, os.SEEK_END)
        self._at.append(self._rows.tell())
        self._rows.write(row.encode() if isinstance(row, str) else row)
        self._rows.write(b"\n")
        self._order = None

    def _ranked_order(self) -> list[int]:
        if self._order is None:
            sev, roof, index = self._sev, self._roof, self._index
            # The order of sorting (severity, -ratio, dump index, row): the dump index is unique,
            # so the row never decides.
            self._order = sorted(range(len(sev)), key=lambda k: (sev[k], roof[k], index[k]))
        return self._order

    @property
    def records(self) -> int:
        return len(self._sev)

    @property
    def by_verdict(self) -> dict[str, int]:
        counts = dict.fromkeys(_VERDICTS, 0)
        for sev in self._sev:
            counts[_VERDICTS[sev]] += 1
        return counts

    def ranked_json(self, top: int | None = None) -> list[str]:
        rows = []
        for k in self._ranked_order()[:top]:
            self._rows.seek(self._at[k])
            rows.append(self._rows.readline().rstrip(b"\n").decode())
        return rows

    def ranked(self, top: int | None = None) -> list[SweepRow]:
        return [SweepRow.model_validate_json(row) for row in self.ranked_json(top)]


def default_jobs() -> int:
    """The cores this process may run on (a container's share, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _rank(i: int, report: Report) -> RankKey:
    roof = report.question("roofline").figures.get("ratio")
    c = report.claim
    row = SweepRow(record_id=c.record_id, submitter=c.submitter, hardware=c.hardware,
                   model=c.model, tok_s=c.tok_s, verdict=report.verdict,
                   headline=report.headline, roofline_ratio=roof)
    return SEVERITY[report.verdict], -(roof or 0.0), i, row.model_dump_json()


def _report_json(report: Report) -> bytes:
    """`report.model_dump_json(by_alias=True)`, the same bytes, as pydantic-core makes them: not
    decoded to a str only to be encoded again where it is written (a community report is some
    13 KB)."""
    return report.__pydantic_serializer__.to_json(report, by_alias=True)


def _encode(c: Claim) -> bytes:
    """One spool entry: the Claim as plain data (its fields, each Provenance as its fields),
    pickled, after its length (4 bytes). Read back by `_decode` without validating again: the
    Claim was validated when it was read, and the spool is this sweep's own temporary file. It
    reads back in about the CPU pydantic-core's validation of the Claim's JSON took (some 40 µs
    a community record, which carries some twenty Provenance models) from entries a quarter
    smaller, and every float pickles as it is, a non-finite one included (JSON has none)."""
    data = c.__dict__.copy()
    data["provenance"] = [(k, p.__dict__, p.__pydantic_fields_set__) for k, p in c.provenance.items()]
    body = pickle.dumps((data, c.__pydantic_fields_set__), pickle.HIGHEST_PROTOCOL)
    return len(body).to_bytes(4, "little") + body


def _decode(body: bytes) -> Claim:
    data, fields_set = pickle.loads(body)
    data["provenance"] = {k: _model(Provenance, p, p_set) for k, p, p_set in data["provenance"]}
    return _model(Claim, data, fields_set)


def _read_entry(f: BinaryIO) -> bytes:
    """The spool entry `f` is at (see `_encode`)."""
    return f.read(int.from_bytes(f.read(4), "little"))


def _model(cls: type[_M], data: dict[str, Any], fields_set: set[str]) -> _M:
    """A model as it was pickled from (its fields in their declared order, as `__dict__` keeps
    them), as pydantic's own unpickling sets it, without its per-model Python `__setstate__`."""
    obj = object.__new__(cls)
    _set = object.__setattr__
    _set(obj, "__dict__", data)
    _set(obj, "__pydantic_fields_set__", fields_set)
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


@dataclass
class _Spool:
    """The Claims of the one pass over a streamed dump, found again by dump index: `files[k]`
    holds stripe k's records, one entry each (`_encode`); `stripe[i]` and `offset[i]` say where record i is
    (-1: unreadable). Small enough to send to each worker (two machine words a record)."""

    files: list[str]
    stripe: array[int] = field(default_factory=lambda: array("i"))
    offset: array[int] = field(default_factory=lambda: array("q"))

    def read(self, wanted: Callable[[int], bool] | None = None) -> Iterator[Item]:
        """The spooled Claims in dump order (only those `wanted`), as `Dump.read` gives them."""
        handles = [open(f, "rb") for f in self.files]  # noqa: SIM115 - closed below
        try:
            for i, k in enumerate(self.stripe):
                if k < 0 or (wanted is not None and not wanted(i)):
                    continue
                f = handles[k]
                f.seek(self.offset[i])
                yield i, _decode(_read_entry(f))
        finally:
            for f in handles:
                f.close()


def _peer_id(i: int, claim: Claim) -> str:
    """A board record's name among its peers: its position (unique), and its own id if any."""
    return f"record {i}" + (f" ({claim.record_id})" if claim.record_id else "")


# One record's figure among its peers as the one pass sends it to the sweep's process: (dump
# index, the setup's number in that pass's list of setups, its peer id, tok/s, source URL).
_PeerEntry = tuple[int, int, str, float, str | None]
# One record among its machine's as the one pass sends it: (dump index, the machine's number in
# that pass's list, its peer id, tok/s, source URL, GB per token (None: it bounds no other), what
# ran, which weights, its KV depth).
_MachineEntry = tuple[int, int, str, float, str | None, float | None, str, str, int | None]
# One machine member as a worker keeps it: (dump index, peer id, tok/s, source URL, GB per token
# (None: unknown, it bounds only deeper rows of its weights), what ran, which weights, KV depth).
_Member = tuple[int, str, float, str | None, float | None, str, str, int | None]


@dataclass
class _BoardMachines:
    """The board's batch-1 decode records by machine (`checks.peers.machine_key`: one LocalScore
    submission, one table of one post), keyed in the one pass beside the setups: `fill` gives a
    record's group the machine and the machine's other records that
    `checks.peers.PeerIndex.peers_of` gives for the same records added in dump order. Plain data
    to send to each worker; a machine's records are few (a submission's models), so each record's
    others are cut out by a walk of them."""

    machines: list[str] = field(default_factory=list)  # machine -> its key, described
    members: list[list[_Member]] = field(default_factory=list)
    machine: array[int] = field(default_factory=lambda: array("i"))  # dump index -> machine, -1
    _figures: dict[int, list[tuple[int, PeerFigure]]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, n: int, stripes: Sequence[tuple[list[MachineKey], list[_MachineEntry]]]) -> _BoardMachines:
        number: dict[MachineKey, int] = {}
        out = cls(machine=array("i", [-1]) * n)
        for keys, entries in stripes:
            local = [number.setdefault(k, len(number)) for k in keys]
            out.members += [[] for _ in range(len(number) - len(out.members))]
            for i, k, record, tok_s, source, gb, ran, weights, depth in entries:
                out.machine[i] = local[k]
                out.members[local[k]].append((i, record, tok_s, source, gb, ran, weights, depth))
        for m in out.members:
            m.sort(key=lambda e: e[0])  # dump order, as PeerIndex adds them (stripes interleave)
        out.machines = [k.describe() for k in number]
        return out

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_figures": {}}  # built again where used

    def fill(self, i: int, group: PeerGroup | None) -> PeerGroup | None:
        """Record i's group with its machine's other records (never itself); unchanged where it
        has no machine, a group of no setup peers where it has a machine but no setup."""
        m = self.machine[i] if i < len(self.machine) else -1
        if m < 0:
            return group
        figures = self._figures.get(m)
        if figures is None:
            figures = self._figures[m] = [
                (j, built(PeerFigure, record=record, tok_s=tok_s, source=source, gb_per_token=gb,
                          ran=ran, weights=weights, kv_depth=depth))
                for j, record, tok_s, source, gb, ran, weights, depth in self.members[m]]
        base = group if group is not None else built(PeerGroup, setup="", figures=[])
        return replaced(base, machine=self.machines[m],
                        machine_figures=[f for j, f in figures if j != i])


@dataclass
class _BoardPeers:
    """The board's records by setup (`checks.peers.peer_key`): each is a peer of the others,
    keyed once in the one pass, so the audit neither decodes a record for its key nor keys it
    again. Plain data (numbers, strings, tuples) to send to each worker; `of` gives what
    `checks.peers.PeerIndex.peers_of` gives for the same records added in dump order, the
    figures ordered highest first (ties in dump order) as the peer_outlier rule ranks them, so
    its sort has nothing left to do."""

    machines: _BoardMachines = field(default_factory=_BoardMachines)  # the records by machine
    setups: list[str] = field(default_factory=list)  # group -> the setup, described
    members: list[list[tuple[int, str, float, str | None]]] = field(default_factory=list)
    group: array[int] = field(default_factory=lambda: array("i"))  # dump index -> group, -1
    # group -> its figures as models (in `members` order) and each member's place among them
    _figures: dict[int, tuple[list[PeerFigure], dict[int, int]]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, n: int, stripes: Sequence[tuple[list[PeerKey], list[_PeerEntry]]]) -> _BoardPeers:
        number: dict[PeerKey, int] = {}
        peers = cls(group=array("i", [-1]) * n)
        for keys, entries in stripes:
            local = [number.setdefault(k, len(number)) for k in keys]
            peers.members += [[] for _ in range(len(number) - len(peers.members))]
            for i, k, record, tok_s, source in entries:
                g = local[k]
                peers.group[i] = g
                peers.members[g].append((i, record, tok_s, source))
        for m in peers.members:
            m.sort(key=lambda e: (-e[2], e[0]))
        peers.setups = [k.describe() for k in number]
        return peers

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_figures": {}}  # built again where used

    def of(self, i: int) -> PeerGroup | None:
        """Record i's peers (never itself); None: it has no setup to key on."""
        g = self.group[i] if i < len(self.group) else -1
        if g < 0:
            return None
        made = self._figures.get(g)
        if made is None:
            members = self.members[g]
            made = self._figures[g] = (
                [built(PeerFigure, record=record, tok_s=tok_s, source=source)
                 for _, record, tok_s, source in members],
                {j: k for k, (j, *_) in enumerate(members)})
        figures, place = made
        # Every figure but the record's own, by two slices (copied in C): a group of a big board's
        # thousand records is not walked in Python once for each of its records.
        k = place.get(i)
        others = figures[:] if k is None else figures[:k] + figures[k + 1:]
        # `built`, not model_construct: pydantic 2.14's model_construct asks inspect.signature of
        # each default_factory it fills (machine_figures' list), a tenth of a sweep worker's CPU.
        return built(PeerGroup, setup=self.setups[g], figures=others)


def _audit_part(dump: Dump, index: SiblingIndex | _PartSiblings, part: Sequence[int], ref: Reference,
                spool: _Spool | None = None,
                peers: _BoardPeers | None = None) -> Iterator[tuple[int, Report]]:
    """The reports of `part` (ascending dump indices) in order, each Claim loaded once: from
    the spool of the one pass, or (a dump read whole) from the dump; each audited against its
    peers on the board (never itself) when `peers` is given."""
    if not part:
        return
    ready_at: dict[int, int] = {}  # the dump index by which a record and its siblings are read
    last_user: dict[int, int] = {}  # the last record of the part that needs this Claim
    for r in part:
        sibs = index.siblings(r)
        ready_at[r] = max(r, sibs[-1]) if sibs else r
        last_user[r] = r
        for j in sibs:
            last_user[j] = r
    release: dict[int, list[int]] = {}
    for j, r in last_user.items():
        release.setdefault(r, []).append(j)
    held: dict[int, Claim] = {}
    pos = 0
    items = spool.read if spool is not None else dump.read
    for i, item in items(last_user.__contains__):
        if isinstance(item, Claim):
            held[i] = item
        while pos < len(part) and ready_at[part[pos]] <= i:
            r = part[pos]
            wanted = [r, *index.siblings(r)]
            if any(j not in held for j in wanted):
                raise InvalidInput(f"{dump.source.url}: the dump changed while it was swept "
                                   f"(record {r} or one of its siblings can no longer be read)")
            siblings = [held[j] for j in wanted[1:]]
            group = peers.of(r) if peers is not None else None
            group = peers.machines.fill(r, group) if peers is not None else group
            yield r, audit(record_evidence(held[r], dump.source, siblings, dump.warnings), ref,
                           peers=group)
            for j in release.pop(r, ()):
                held.pop(j, None)
            pos += 1
        if pos == len(part):
            return
    if pos < len(part):
        raise InvalidInput(f"{dump.source.url}: the dump changed while it was swept "
                           f"(it now ends before record {part[pos]})")


def _reading() -> AbstractContextManager[object]:
    """The texts read in this block are memoised: in the sweep's memo, or (in a worker process,
    which has none) in one of its own for the block."""
    return nullcontext() if current_memo() is not None else text_memo(TextMemo(MEMO_SIZE))


def _spool_part(dump: Dump, index: SiblingIndex | _PartSiblings, part: Sequence[int], ref: Reference,
                spool: str | None, rows: str, claims: _Spool | None = None,
                peers: _BoardPeers | None = None) -> tuple[array[int], array[float], array[int]]:
    """A worker's job: audit one part, its reports spooled to a file and its ranking rows to
    another (one line each, in dump order); its rank keys returned as three arrays."""
    sev, roof, at = array("b"), array("d"), array("q")
    with _reading(), open(spool, "wb") if spool else _Nowhere() as out, \
            open(rows, "w", encoding="utf-8") as ranked:
        for i, report in _audit_part(dump, index, part, ref, claims, peers):
            s, r, _, row = _rank(i, report)
            sev.append(s)
            roof.append(r)
            at.append(i)
            ranked.write(row + "\n")
            if spool:
                out.write(_report_json(report) + b"\n")
    return sev, roof, at


class _Nowhere:
    def __enter__(self) -> _Nowhere:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def write(self, text: str | bytes) -> int:
        return 0


def _open(source: str, ref: Reference, opts: PipelineOptions,
          records: Reading | None = None) -> Dump:
    spec = classify_input(source)
    if spec.kind == "url":
        if records is None:  # the app fetches a board (App.sweep, App.sweep_board)
            raise UsageError(f"{source}: a board's records are fetched by the app first")
        reading = records
        if not reading.records:
            raise UsageError(f"{source}: sweep needs records (a leaderboard dump or tool output)")
        return Dump(source=reading.source, warnings=reading.warnings, claims=reading.records)
    if spec.kind == "text":
        raise UsageError(f"sweep needs a file or a URL of records, not text: {source[:80]!r}")
    if spec.kind == "stdin":
        return loaded_dump(read_local(spec), ref, list(opts.boards))
    return open_dump(Path(spec.value), ref, list(opts.boards))


@dataclass
class _StripeRead:
    """What the one pass over a stripe (every `stride`-th record from `stripe`) sends back, as
    plain compact data: its k-th record is dump record `stripe + k * stride`. Each distinct
    setup and peer setup is sent once, the records point at them by number."""

    setups: list[SetupKey] = field(default_factory=list)
    setup: array[int] = field(default_factory=lambda: array("i"))  # -1: unreadable
    offset: array[int] = field(default_factory=lambda: array("q"))  # in the spool; -1: unreadable
    unreadable: list[Unreadable] = field(default_factory=list)
    notes: ReadNotes = field(default_factory=ReadNotes)
    peer_setups: list[PeerKey] = field(default_factory=list)
    peers: list[_PeerEntry] = field(default_factory=list)
    machine_keys: list[MachineKey] = field(default_factory=list)
    machines: list[_MachineEntry] = field(default_factory=list)


def _keys(dump: Dump, ref: Reference, stripe: int = 0, stride: int = 1,
          spool: str | None = None) -> _StripeRead:
    """The one pass over every `stride`-th record from `stripe`: setup keys and unreadables,
    each Claim written to `spool` (with its offset there), each Claim's peer setup and figure,
    and what the reading noticed (known once the whole stream has been read)."""
    got = _StripeRead()
    setups: dict[SetupKey, int] = {}
    peer_setups: dict[PeerKey, int] = {}
    machine_keys: dict[MachineKey, int] = {}
    with _reading(), open(spool, "wb") if spool else _Nowhere() as out:
        at = 0
        for i, item in dump.read(wanted=None if stride == 1 else lambda i: i % stride == stripe):
            if isinstance(item, Unreadable):
                got.unreadable.append(item)
                got.setup.append(-1)
                got.offset.append(-1)
                continue
            got.setup.append(setups.setdefault(setup_key(item), len(setups)))
            got.offset.append(at)
            key = peer_key(item, ref)
            figure = peer_figure(item)
            if key is not None and figure is not None:
                got.peers.append((i, peer_setups.setdefault(key, len(peer_setups)),
                                  _peer_id(i, item), figure[0], item.source_url))
            mkey = machine_key(item, ref)  # None at once for a record that names no machine
            if mkey is not None and item.tok_s is not None:
                got.machines.append((i, machine_keys.setdefault(mkey, len(machine_keys)), _peer_id(i, item),
                                     item.tok_s, item.source_url,
                                     machine_gb_per_token(item, mkey, ref), what_ran(item),
                                     weights_of(item, ref), item.kv_depth))
            if spool:
                data = _encode(item)
                out.write(data)
                at += len(data)
    got.setups, got.peer_setups, got.notes = list(setups), list(peer_setups), dump.notes
    got.machine_keys = list(machine_keys)
    return got


def _first_pass(dump: Dump, ref: Reference, pool: Executor | None, stride: int,
                tmp: str | None) -> tuple[SiblingIndex, list[int], list[UnreadableRecord],
                                          _Spool | None, _BoardPeers]:
    """The one pass: the sibling index, the readable and unreadable records, (a streamed dump,
    `tmp` given) the spool of its Claims, and the records' peers."""
    stride = 1 if pool is None else stride
    files = [str(Path(tmp) / f"claims{k}.spool") for k in range(stride)] if tmp else []
    if pool is None or stride == 1:
        stripes = [_keys(dump, ref, 0, 1, files[0] if files else None)]
    else:
        stripes = [f.result() for f in [pool.submit(_in_worker, _keys, compiled.kept_in(), dump, ref, k, stride,
                                                    files[k] if files else None)
                                        for k in range(stride)]]
    n = sum(len(s.setup) for s in stripes)
    notes = ReadNotes()
    for stripe in stripes:
        notes = notes.merge(stripe.notes)
    if dump.streamed:
        dump.settle(notes)
    spool = _Spool(files, array("i", [-1]) * n, array("q", [0]) * n) if files else None
    peers = _BoardPeers.build(n, [(s.peer_setups, s.peers) for s in stripes])
    peers.machines = _BoardMachines.build(n, [(s.machine_keys, s.machines) for s in stripes])
    index = SiblingIndex()
    readable: list[int] = []
    reasons = {u.index: u.reason for s in stripes for u in s.unreadable}
    unreadable: list[UnreadableRecord] = []
    for i in range(n):
        k, at = i % len(stripes), i // len(stripes)
        got = stripes[k]
        setup = got.setup[at]
        if setup < 0:
            unreadable.append(UnreadableRecord(record=i, reason=reasons[i]))
            continue
        index.add(i, got.setups[setup])
        readable.append(i)
        if spool is not None:
            spool.stripe[i], spool.offset[i] = k, got.offset[at]
    return index, readable, unreadable, spool, peers


def _part_siblings(index: SiblingIndex, part: Sequence[int]) -> _PartSiblings:
    return _PartSiblings({r: sibs for r in part if (sibs := index.siblings(r))})


@dataclass
class _PartSiblings:
    """The siblings of one part's records only (what a worker needs of the `SiblingIndex`)."""

    of: dict[int, list[int]]

    def siblings(self, i: int) -> list[int]:
        return self.of.get(i, [])


def _parts(readable: list[int], jobs: int) -> list[list[int]]:
    n = max(1, min(jobs, len(readable) // MIN_PART))
    size = -(-len(readable) // n) if readable else 1
    return [readable[k:k + size] for k in range(0, len(readable), size)] or [[]]


def run_sweep(source: str, ref: Reference, opts: PipelineOptions | None = None, *,
              jobs: int = 1, on_report: Callable[[str], None] | None = None,
              records: Reading | None = None, report_out: BinaryIO | None = None) -> SweepSummary:
    """Sweep a file, stdin or URL (`records`: the URL's board, fetched by the app); `on_report`
    gets each report's JSON in dump order (leave it out when only the ranking is wanted: reports
    are then never serialised). `report_out`, given instead of `on_report`: the same JSON written
    to that binary stream as UTF-8, one line a report, in dump order; the workers' files of
    reports are copied to it as they are, not decoded and split into lines in this process (half
    a second of its CPU on a 10k community board, most of it after the last worker is done)."""
    if on_report is not None and report_out is not None:
        raise ValueError("give on_report or report_out, not both")
    sink = _Sink(on_report, report_out) if on_report is not None or report_out is not None else None
    opts = opts or PipelineOptions()
    with ExitStack() as stack:
        # One memo for the whole sweep in this process: the audit pass finds every text the
        # first pass read (workers keep their own).
        stack.enter_context(text_memo(TextMemo(MEMO_SIZE)))
        dump = _open(source, ref, opts, records)
        # Workers are started only when there is parsing to share: a streamed dump of some size.
        big = dump.path is not None and dump.path.stat().st_size >= PARALLEL_BYTES
        pool = stack.enter_context(_pool(jobs)) if jobs > 1 and big else None
        # A dump read whole holds its Claims already; a streamed one spools them.
        tmp = (stack.enter_context(tempfile.TemporaryDirectory(prefix="claimcheck-sweep-"))
               if dump.streamed else None)
        try:
            index, readable, unreadable, spool, peers = _first_pass(dump, ref, pool, jobs, tmp)
        except DumpStreamError:
            # A raw tab or newline inside a string: the lenient whole-document reader copes.
            assert dump.path is not None
            dump = loaded_dump(_read_bytes(dump.path), ref, list(opts.boards))
            index, readable, unreadable, spool, peers = _first_pass(dump, ref, None, 1, None)
        summary = SweepSummary(source=source, unreadable=unreadable)
        parts = _parts(readable, jobs)
        if len(parts) == 1:
            for i, report in _audit_part(dump, index, parts[0], ref, spool, peers):
                summary.add(*_rank(i, report))
                if sink is not None:
                    sink.report(_report_json(report))
        else:
            pool = pool or stack.enter_context(_pool(jobs))
            _run_parallel(pool, dump, index, parts, ref, summary, sink, spool, peers)
    return summary


def _in_worker(task: Callable[..., _T], kept: Path | None, /, *args: Any) -> _T:
    """A task in one of the sweep's own workers (processes that live for this sweep only), with
    the collector set for a sweep: what the process holds by now (the modules, the reference the
    task was sent) is kept out of its full passes (gc.freeze), and a young pass waits for
    `_YOUNG` objects, not 700. An audit makes and drops some thousand objects (its report), freed
    by their counts; with the default the collector ran a young pass twice a record and a full
    pass over the growing heap every thousand: 1.17 s of a 10k community sweep's 19 s CPU in one
    process, 0.08 s with these. Objects in cycles are still collected.

    The patterns the readers compile are read from, and new ones written to, the directory
    the sweep's process keeps them in (`kept`, `extractors.text.compiled`): the fork server's
    workers keep none of their own, and each compiled afresh every pattern a board's texts ask,
    ~0.1 s of a worker's first pass. Two workers writing the file at once is harmless: it is
    renamed over whole, and a pattern lost is compiled again next time."""
    gc.freeze()
    gc.set_threshold(_YOUNG, *gc.get_threshold()[1:])
    compiled.keep_in(kept)
    try:
        return task(*args)
    finally:
        compiled.save()
        compiled.keep_in(None)


def _pool(jobs: int) -> ProcessPoolExecutor:
    """The sweep's workers, from the reading pool's context (the fork server, else spawn), never a
    `fork` of this process: the app runs the sweep in a thread (`App.sweep`), so the process has
    threads by now, and a forked child keeps any lock one of them held with no thread left to
    release it (Python docs, multiprocessing, "Contexts and start methods")."""
    return ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context())


def _read_bytes(path: Path) -> RawDocument:
    try:
        return RawDocument(path.read_bytes(), source=str(path))
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None


def _run_parallel(pool: Executor, dump: Dump, index: SiblingIndex, parts: list[list[int]],
                  ref: Reference, summary: SweepSummary,
                  sink: _Sink | None, spool: _Spool | None,
                  peers: _BoardPeers | None = None) -> None:
    with tempfile.TemporaryDirectory(prefix="claimcheck-sweep-") as tmp:
        spools = [str(Path(tmp) / f"part{k}.jsonl") if sink is not None else None
                  for k in range(len(parts))]
        rows = [str(Path(tmp) / f"rows{k}.jsonl") for k in range(len(parts))]
        # Each worker gets its own part's siblings, not the board's index.
        futures = [pool.submit(_in_worker, _spool_part, compiled.kept_in(), dump, _part_siblings(index, part), part, ref, out,
                               ranked, spool, peers)
                   for part, out, ranked in zip(parts, spools, rows, strict=True)]
        for future, out, ranked in zip(futures, spools, rows, strict=True):
            sev, roof, at = future.result()
            with open(ranked, "rb") as f:
                for s, r, i, row in zip(sev, roof, at, f, strict=True):
                    summary.add(s, r, i, row.rstrip(b"\n"))
            if out is not None and sink is not None:
                with open(out, "rb") as f:
                    sink.part(f)


@dataclass
class _Sink:
    """Where a sweep's reports go: each report's JSON to `on_report`, or all of them, one line
    each, to the binary stream `out`."""

    on_report: Callable[[str], None] | None
    out: BinaryIO | None

    def report(self, data: bytes) -> None:
        if self.out is not None:
            self.out.write(data + b"\n")
        else:
            assert self.on_report is not None
            self.on_report(data.decode())

    def part(self, f: BinaryIO) -> None:
        """A worker's file of reports (UTF-8 JSON, one line each)."""
        if self.out is not None:
            shutil.copyfileobj(f, self.out, 1 << 20)
            return
        assert self.on_report is not None
        for line in f:
            self.on_report(line.rstrip(b"\n").decode())


def sweep_source(source: str, ref: Reference, opts: PipelineOptions | None = None, *,
                 jobs: int = 1, records: Reading | None = None) -> SweepResult:
    """A whole sweep in memory, every report kept: for small boards and callers that want
    models, not a stream."""
    reports: list[Report] = []
    summary = run_sweep(source, ref, opts, jobs=jobs, records=records,
                        on_report=lambda text: reports.append(Report.model_validate_json(text)))
    return SweepResult(source=summary.source, records=summary.records,
                       by_verdict=summary.by_verdict, ranked=summary.ranked(),
                       reports=reports, unreadable=summary.unreadable)
