"""Calibrate against real records: audit every record under a folder and print, per source,
what was read, what was refused and why, the verdicts, how often the roofline (Q7) could be
answered, and how often planted fakes are caught. Run: `python -m benchmarks.calibrate DIR [--json]`.

Two layouts are read:
- a corpus built by `benchmarks/corpus/build.py`: every `index.ndjson` under DIR lists records
  (`id`, `source`, `url`, `file`), and the source is the corpus source named there;
- any other folder: every record-looking file is read, and the source is the adapter that read it
  (`accelmark`, `vllm_bench`, …).

A file whose shape an adapter recognised but could not read is *refused*, with the reader's own
sentence; a file no adapter recognises (a schema, a suite definition next to the records) is
listed apart as *not a record*, so neither can hide among the other. Every `implausible` and
`suspicious` headline is listed so each one can be explained; for records whose Q7 stayed
unanswered the reasons are counted (the roofline's first missing input, or its summary), so a
missing reference row shows up as one line with its count. Physics is also counted over the
claims "whose hardware has a public spec" (the named hardware resolves to a reference row), and
the names that did not resolve are listed with their counts.

Planted fakes: every honest per-stream claim (not an aggregate, not prompt processing, not a
per-request rate measured under load at an unknown concurrency, not already flagged) is audited
again with every speed figure ×3 and ×10 — tok/s, per-user rate and baseline multiplied, wall time
and TTFT divided, token counts kept — so the record's own arithmetic still adds up and only the
physics can catch it. Caught = `implausible` or `suspicious`. The share `implausible` is also
given where plain decode is known — the record says it did not speculate, its tool cannot
(llama-bench, LocalScore/llamafile, plain llama.cpp, Ollama), or the corpus manifest says so of
the whole source (`plain_decode` in `index.ndjson`, independent of what the readers make of the
record) — and the share caught among the fakes that land above the generous ceiling (the
roofline's own ratio > 1). The fakes that pass are counted by why (`why_uncaught`): under every
bound the record let the checks draw, or no roofline for want of its first input (hardware, the
model's size, whether it is a MoE), so what the readers could still learn is told apart from what
no record-based check can reach.

Peers: the records of the run are indexed by setup once (`checks.peers.PeerIndex`: hardware
row and count, model, format, kind of figure, batch), and every record, honest or planted, is
audited against the others of its setup, leave-one-out (a record is never its own peer), so the
`peer_outlier` finding catches a fake below the ceiling that is far above every other run of the
same setup. A pasted table row that names no hardware is keyed by its table instead
(`assign_machines`: the rows of one table of one post ran on one machine), so a fake in a post
that never names its rig is still compared with the other rows of the same run. Per source the
honest records with enough peers are counted with the highest ratio of an honest figure to its
best peer (what `OUTLIER_FACTOR` is picked from), the same for records with one or two peers
(what `FEW_PEERS_FACTOR` is picked from), and the fakes caught by their peers.

Machines: every pasted table row gets its table as its machine (`Claim.machine`; not in a table
whose rows name several hardware: that one compares machines); a LocalScore row has its submission
as its machine from the reader (the board entry's machine columns, extractors/data/boards.json: the
card, its memory, CPU, RAM and OS on one day, what `sweep` reads too), so `machine_outlier` bounds each batch-1 decode figure by the
machine's other records per byte read. Per source the honest ratios of a figure to that bound are
printed as a distribution (what `MACHINE_FACTOR` is picked from), and the fakes caught by their
machine. On the calibration split: 2,642 honest records with another record of their machine,
median 0.88, p99 1.06, highest 2.05 (an ik_llama.cpp sweep-bench row at N_KV 0 against its table's
deeper rows); `MACHINE_FACTOR` 3 leaves it a margin of 1.46.

The pipeline's own functions do the work (`extractors.evidence.read_document`,
`evidence_per_record`, `checks.runner.audit`): what this prints is what `sweep` would say.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.models import Claim, Evidence, PeerGroup, Report
from checks.peers import PeerIndex
from checks.reference import Reference, load_reference
from checks.render import reason_text
from checks.rules.machine_outlier import MACHINE_FACTOR
from checks.rules.peer_outlier import MIN_PEERS
from checks.runner import audit
from extractors.errors import ExtractError, UnrecognisedInput
from extractors.evidence import build_evidence, evidence_per_record, read_document
from extractors.inputs import InputSpec, read_local

__all__ = ["FACTORS", "Calibration", "Planted", "SourceTally", "as_json", "assign_machines",
           "calibrate", "is_plain_decode", "is_stream", "main", "planted", "render", "table_row",
           "why_uncaught"]

ANSWERED = ("ok", "flag", "stop")
CAUGHT = ("implausible", "suspicious")
FACTORS = (3, 10)
INDEX = "index.ndjson"
REFUSED_SHOWN = 30  # refused files listed by name; the reasons are counted per source
_SUFFIXES = (".json", ".jsonl", ".csv", ".tsv", ".txt", ".log")
# Figures that are not one stream's decode: the roofline's batch-1 ceiling does not bound them.
_NOT_STREAM = ("aggregate", "per_gpu", "prefill", "total")
# Tools that have no speculative decoding, so what they time is plain decode (llama-bench has no
# draft option in its README; LocalScore runs llamafile's own benchmark; Ollama exposes none).
_PLAIN_FORMATS = ("llama_bench", "localscore")
_PLAIN_ENGINES = ("llama-bench", "llamafile", "localscore", "ollama", "llama.cpp")
# A pasted table row's id: `source:path:L<line>` (a split cell adds `:<column>` and is left out).
_ROW_ID = re.compile(r"(?P<path>.+):L(?P<line>\d+)")
# Lines between two rows of one table: 1, or 2 where a row without a number was skipped between.
_ROW_GAP = 2


@dataclass
class Planted:
    """Planted fakes at one factor."""

    n: int = 0
    caught: int = 0
    implausible: int = 0
    plain: int = 0  # plain decode known
    plain_implausible: int = 0
    above: int = 0  # landing above the generous ceiling
    above_caught: int = 0
    by_peers: int = 0  # the peer_outlier finding flagged it
    by_machine: int = 0  # the machine_outlier finding flagged it
    missed: list[tuple[str, str]] = field(default_factory=list)  # (where, headline)
    # why a fake was not caught, counted: below every bound the record allows drawing, or the
    # roofline's first missing input (`why_uncaught`)
    uncaught: Counter[str] = field(default_factory=Counter)


@dataclass
class SourceTally:
    """What one source gave over the folder."""

    files: int = 0
    entries: int = 0  # records read (index lines, or files in a plain folder)
    records: int = 0  # claims audited
    refused: Counter[str] = field(default_factory=Counter)  # the reader's sentence, path removed
    not_records: int = 0
    formats: Counter[str] = field(default_factory=Counter)  # adapter that read each record
    verdicts: Counter[str] = field(default_factory=Counter)
    q7: Counter[str] = field(default_factory=Counter)
    unanswered: Counter[str] = field(default_factory=Counter)
    flagged: list[tuple[str, str, str]] = field(default_factory=list)  # (verdict, where, headline)
    by_kind: Counter[str] = field(default_factory=Counter)  # records per tok_s kind
    answered_by_kind: Counter[str] = field(default_factory=Counter)
    with_spec: int = 0  # hardware resolves to a reference row
    spec_answered: int = 0
    unresolved: Counter[str] = field(default_factory=Counter)  # hardware names with no row
    no_hardware: int = 0
    planted: dict[int, Planted] = field(default_factory=lambda: {f: Planted() for f in FACTORS})
    # honest records with at least MIN_PEERS peers: (figure ÷ the best peer's, where)
    peer_ratios: list[tuple[float, str]] = field(default_factory=list)
    # honest records with 1 or 2 peers: (peers, figure ÷ the best peer's, where)
    few_peer_ratios: list[tuple[int, float, str]] = field(default_factory=list)
    # honest records with another record of their machine: (figure ÷ the most generous bound of
    # the machine's others, checks.rules.machine_outlier.machine_bound; where)
    machine_ratios: list[tuple[float, str]] = field(default_factory=list)
    # the same records: (figure ÷ the upper median of those bounds, where)
    machine_typical: list[tuple[float, str]] = field(default_factory=list)

    @property
    def q7_answered(self) -> int:
        return sum(self.q7[s] for s in ANSWERED)


@dataclass
class Calibration:
    """Everything one run over a folder found."""

    tallies: dict[str, SourceTally] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # file -> the reader's sentence
    not_records: list[str] = field(default_factory=list)  # files no adapter recognises


@dataclass
class _Pending:
    """One record read and waiting for the peer index of the whole run."""

    tally: SourceTally
    where: str
    ev: Evidence
    fmt: str | None
    plain: bool
    table: tuple[str, int] | None = None  # (file and table shape, line) of a pasted table row


def _why_unanswered(report: Report) -> str:
    """The roofline's first missing input, else its reason (checks.render.reason_text): data, so
    the same cause counts as one line whatever the record's numbers."""
    q7 = report.question("roofline")
    if q7.missing:
        return f"{q7.status}: missing {q7.missing[0]}"
    return f"{q7.status}: {reason_text(q7)}"


def why_uncaught(fake: Report) -> str:
    """Why a planted fake passed: the roofline answered and the fake sits under it (and under its
    peers and machine, if any), or the roofline could not be drawn for want of its first input."""
    q7 = fake.question("roofline")
    if q7.status in ANSWERED:
        return "under every bound drawn"
    return f"no roofline: missing {q7.missing[0]}" if q7.missing else f"no roofline: {reason_text(q7)}"


def is_stream(claim: Claim) -> bool:
    """One stream's rate: a decode, end-to-end output or per-user figure, not a serving aggregate."""
    if claim.tok_s is None and claim.per_user_tok_s is None:
        return False
    if claim.tok_s_kind in _NOT_STREAM or claim.serving_claim:
        return False
    if claim.tok_s_kind is None:
        return claim.batch in (None, 1) and claim.concurrency in (None, 1)
    # A per-request rate measured under load at an unknown concurrency (AccelMark online at N QPS,
    # a serving run's TPOT) shares the bandwidth with streams nobody counted: its honest value
    # sits far below the batch-1 ceiling, so ×10 of it is often still physically possible and no
    # ceiling can catch it. It is no single stream to plant.
    return not (claim.tok_s_kind == "per_user" and batch_unknown(claim))


def batch_unknown(claim: Claim) -> bool:
    """Neither the batch nor the concurrency is stated."""
    return claim.batch is None and claim.concurrency is None


def is_plain_decode(claim: Claim, fmt: str | None) -> bool:
    """Plain decode is stated (speculative False) or implied by a tool that cannot speculate."""
    if claim.speculative is True or claim.spec_method or claim.acceptance_length is not None:
        return False
    if claim.speculative is False or (fmt or "") in _PLAIN_FORMATS:
        return True
    engine = (claim.engine or "").lower()
    return any(e in engine for e in _PLAIN_ENGINES)


def planted(ev: Evidence, factor: float) -> Evidence:
    """The same evidence with every speed figure scaled by `factor` and every duration divided,
    token counts kept, so the record's arithmetic is as consistent as before."""
    c = ev.claim
    update: dict[str, Any] = {}
    for name in ("tok_s", "per_user_tok_s", "baseline_tok_s"):
        value = getattr(c, name)
        if value is not None:
            update[name] = value * factor
    for name in ("wall_seconds", "ttft_ms"):
        value = getattr(c, name)
        if value is not None:
            update[name] = value / factor
    return ev.model_copy(update={"claim": c.model_copy(update=update)})


def _flagged_by(report: Report, key: str) -> bool:
    return any(f.key == key and f.status == "flag" for f in report.findings)


def _tally(t: SourceTally, where: str, ev: Evidence, fmt: str | None, ref: Reference,
           plain_source: bool = False, peers: PeerGroup | None = None) -> None:
    report = audit(ev, ref, peers=peers)
    peer = next((f for f in report.findings if f.key == "peer_outlier"), None)
    if peer is not None and peer.figures.get("peers", 0) >= MIN_PEERS and "ratio_to_highest" in peer.figures:
        t.peer_ratios.append((peer.figures["ratio_to_highest"], where))
    if peers is not None and 0 < len(peers.figures) < MIN_PEERS:
        best = max(f.tok_s for f in peers.figures)
        value = ev.claim.tok_s or ev.claim.per_user_tok_s
        if value:
            t.few_peer_ratios.append((len(peers.figures), value / best, where))
    mach = next((f for f in report.findings if f.key == "machine_outlier"), None)
    if mach is not None and "ratio_to_bound" in mach.figures:
        t.machine_ratios.append((float(mach.figures["ratio_to_bound"]), where))
        if "ratio_to_typical" in mach.figures:
            t.machine_typical.append((float(mach.figures["ratio_to_typical"]), where))
    t.records += 1
    t.formats[fmt or "unknown"] += 1
    t.verdicts[report.verdict] += 1
    q7 = report.question("roofline")
    t.q7[q7.status] += 1
    answered = q7.status in ANSWERED
    kind = report.claim.tok_s_kind or "unknown"
    t.by_kind[kind] += 1
    t.answered_by_kind[kind] += answered
    if not answered:
        t.unanswered[_why_unanswered(report)] += 1
    if report.hardware_name is not None:
        t.with_spec += 1
        t.spec_answered += answered
    elif report.claim.hardware:
        t.unresolved[report.claim.hardware] += 1
    else:
        t.no_hardware += 1
    if report.verdict in CAUGHT:
        t.flagged.append((report.verdict, where, report.headline))
        return
    if not is_stream(ev.claim):
        return
    plain = plain_source or is_plain_decode(ev.claim, fmt)
    for factor in FACTORS:
        fake = audit(planted(ev, factor), ref, peers=peers)
        p = t.planted[factor]
        p.n += 1
        caught = fake.verdict in CAUGHT
        p.caught += caught
        p.implausible += fake.verdict == "implausible"
        p.by_peers += _flagged_by(fake, "peer_outlier")
        p.by_machine += _flagged_by(fake, "machine_outlier")
        if plain:
            p.plain += 1
            p.plain_implausible += fake.verdict == "implausible"
        ratio = fake.question("roofline").figures.get("ratio")
        if ratio is not None and ratio > 1:
            p.above += 1
            p.above_caught += caught
        if not caught:
            p.uncaught[why_uncaught(fake)] += 1
        if not caught or (plain and fake.verdict != "implausible"):
            p.missed.append((where, f"x{factor}: {fake.headline}"))


def _reason(exc: Exception, path: Path) -> str:
    """The reader's sentence without the file name it starts with, so reasons can be counted."""
    text = str(exc)
    for prefix in (f"{path}: ", f"{path.name}: "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _read_one(out: Calibration, pending: list[_Pending], t_for: Any, path: Path, rel: str,
              ref: Reference, pasted: bool = False, plain: bool = False) -> None:
    """Audit one file: a record file through `sweep`'s path (one Evidence per record), a pasted
    line (a corpus text record) or a file holding only text through `audit`'s path."""
    try:
        spec = (InputSpec("text", path.read_text(encoding="utf-8")) if pasted
                else InputSpec("file", str(path)))
        reading = read_document(read_local(spec), ref)
        evidence = (evidence_per_record(reading, ref) if reading.records
                    else [build_evidence([reading], ref)])
    except UnrecognisedInput:
        out.not_records.append(rel)
        t = t_for(None)
        if t is not None:
            t.not_records += 1
        return
    except ExtractError as exc:
        out.refused[rel] = str(exc)
        t = t_for(None)
        if t is not None:
            t.refused[_reason(exc, path)] += 1
        return
    fmt = reading.source.format
    t = t_for(fmt)
    t.files += 1
    table = table_row(rel, path.read_text(encoding="utf-8")) if pasted else None
    for i, ev in enumerate(evidence):
        cell = f" [{ev.claim.cell}]" if ev.claim.cell else ""
        pending.append(_Pending(t, f"{rel}#{i}{cell}", ev, fmt, plain, table))


def table_row(record_id: str, text: str) -> tuple[str, int] | None:
    """Where a pasted table row sits: (its file, the table's lead and column names; its line), or
    None for an id that is no whole row of a table (`…:L26` is; a split cell `…:L26:3` is not,
    its columns may be different cards).

    The corpus writes a Markdown table row as `lead: header: cell; header: cell; …`
    (benchmarks/corpus/build.py `_markdown_tables`), the lead being the table's heading, caption
    and the post's rig and model sentences."""
    m = _ROW_ID.fullmatch(record_id)
    if m is None:
        return None
    pairs = text.strip().split("; ")
    head = pairs[0].rsplit(": ", 2)
    if len(head) < 2:
        return None
    lead = head[0] if len(head) == 3 else ""
    columns = [head[-2], *(p.split(": ", 1)[0] for p in pairs[1:])]
    return f"{m.group('path')} | {lead} | {' / '.join(columns)}", int(m.group("line"))


def assign_machines(pending: list[_Pending]) -> None:
    """Give every pasted table row the id of its table (`Claim.machine`): the rows of one table
    ran on one machine — one command's output in one post, the same rule extractors/post_rig.py
    applies to a post (one machine or none) — so they may be each other's peers. A table whose
    rows name more than one hardware compares machines: none of its rows gets one.
    One table is the rows of one file with the same lead and columns on lines at most `_ROW_GAP`
    apart: a second table under the same heading needs its own header and separator lines, so it
    starts further down and is another machine as far as anyone can tell. A leaderboard row
    names its machine itself (the reader's `Claim.machine`: a LocalScore submission)."""
    rows = sorted((p.table, k) for k, p in enumerate(pending) if p.table is not None)
    tables: list[tuple[str, list[int]]] = []
    last: tuple[str, int] | None = None
    for (shape, line), k in rows:
        if last is None or shape != last[0] or line - last[1] > _ROW_GAP:
            tables.append((f"{shape} | from line {line}", []))
        last = (shape, line)
        tables[-1][1].append(k)
    for machine, members in tables:
        # A table whose rows name several hardware compares machines: two of its rows naming the
        # same card may be two boxes (geerlingguy/ollama-benchmark's Llama 3.2 3B table has an RX
        # 7900 XT in a Pi 500+ and in a Ryzen 9 9950X), and a row naming none is a machine whose
        # name nobody read. No row of it is another's machine peer.
        named = {" ".join(hw.lower().split()) for k in members if (hw := pending[k].ev.claim.hardware)}
        if len(named) > 1:
            continue
        for k in members:
            p = pending[k]
            p.ev = p.ev.model_copy(update={"claim": p.ev.claim.model_copy(update={"machine": machine})})


def calibrate(folder: Path, ref: Reference) -> Calibration:
    """Audit every record of every readable-looking file under `folder`."""
    out = Calibration()
    pending: list[_Pending] = []
    indexes = sorted(folder.rglob(INDEX))
    corpus_dirs = [p.parent for p in indexes]
    for index in indexes:
        base = index.parent / "files"
        for line in index.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            t = out.tallies.setdefault(str(entry["source"]), SourceTally())
            t.entries += 1
            name = str(entry["file"])
            _read_one(out, pending, lambda _fmt, t=t: t, base / name, str(entry["id"]), ref,
                      pasted=name.startswith("text/"), plain=entry.get("plain_decode") is True)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()
                       and p.suffix.lower() in _SUFFIXES):
        if any(d in path.parents for d in corpus_dirs):
            continue
        rel = str(path.relative_to(folder))

        def by_format(fmt: str | None) -> SourceTally | None:
            if fmt is None:
                return None
            t = out.tallies.setdefault(fmt, SourceTally())
            t.entries += 1
            return t

        _read_one(out, pending, by_format, path, rel, ref)
    assign_machines(pending)
    # Every record of the run is a peer of the others of its setup; each is left out of its own.
    peer_index = PeerIndex.build(((p.where, p.ev.claim) for p in pending), ref)
    for p in pending:
        _tally(p.tally, p.where, p.ev, p.fmt, ref, p.plain,
               peers=peer_index.peers_of(p.where, p.ev.claim, ref))
    return out


def _share(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def _planted_line(factor: int, p: Planted) -> str:
    line = (f"   planted x{factor}: {p.caught}/{p.n} caught ({_share(p.caught, p.n)}), "
            f"implausible {p.implausible}; plain decode known: {p.plain_implausible}/{p.plain} "
            f"implausible ({_share(p.plain_implausible, p.plain)})")
    if p.above or factor == 3:
        line += f"; above the generous ceiling: {p.above_caught}/{p.above} caught ({_share(p.above_caught, p.above)})"
    if p.n:
        line += f"; flagged by their peers {p.by_peers}, by their machine {p.by_machine}"
    if p.uncaught:
        line += "; not caught: " + ", ".join(f"{why} {n}" for why, n in p.uncaught.most_common())
    return line


def _quantiles(values: list[float]) -> str:
    """The honest distribution a factor is picked from: median, 90th, 99th percentile, highest."""
    v = sorted(values)
    at = [v[min(len(v) - 1, int(q * len(v)))] for q in (0.5, 0.9, 0.99)]
    return f"median {at[0]:.2f}, p90 {at[1]:.2f}, p99 {at[2]:.2f}, highest {v[-1]:.2f}"


def _machine_line(ratios: list[tuple[float, str]], typical: list[tuple[float, str]]) -> str:
    if not ratios:
        return "   machine: no honest record has another record of its machine"
    top, where = max(ratios)
    line = (f"   machine: {len(ratios)} honest record(s) with another record of their machine, "
            f"figure ÷ the most its machine's others allow: {_quantiles([r for r, _ in ratios])} "
            f"({where})")
    if typical:
        line += (f"; {len(typical)} with a row of the same weights at a shallower cache, figure ÷ the "
                 f"upper median of those rows: {_quantiles([r for r, _ in typical])} ({max(typical)[1]})")
    return line + f"; flagged above {MACHINE_FACTOR:g}"


def _few_peers_line(ratios: list[tuple[int, float, str]]) -> str:
    parts = []
    for n in range(1, MIN_PEERS):
        rs = [(r, w) for k, r, w in ratios if k == n]
        if rs:
            top, where = max(rs)
            parts.append(f"{n} peer(s): {len(rs)} honest, ÷ the best peer {_quantiles([r for r, _ in rs])} ({where})")
    return "   fewer peers (1: not judged, 2: above FEW_PEERS_FACTOR): " + ("; ".join(parts) if parts else "none")


def _peers_line(ratios: list[tuple[float, str]]) -> str:
    if not ratios:
        return f"   peers: no honest record has {MIN_PEERS} or more"
    top, where = max(ratios)
    return (f"   peers: {len(ratios)} honest record(s) with {MIN_PEERS}+ peers; the highest is "
            f"{top:.2f}× its best peer ({where})")


def render(cal: Calibration, missed: int = 5) -> str:
    tallies, refused = cal.tallies, cal.refused
    lines: list[str] = []
    for name, t in sorted(tallies.items()):
        lines.append(f"== {name}: {t.entries} read, {t.files} file(s) read, {t.records} claim(s), "
                     f"{sum(t.refused.values())} refused, {t.not_records} not a record")
        if t.formats:
            lines.append("   read as: " + ", ".join(f"{f} {n}" for f, n in t.formats.most_common()))
        for reason, n in t.refused.most_common():
            lines.append(f"   refused ({n}): {reason[:160]}")
        lines.append("   verdicts: " + ", ".join(f"{v} {t.verdicts[v]}" for v in
                     ("implausible", "suspicious", "insufficient", "consistent")))
        lines.append(f"   Q7 answered: {t.q7_answered}/{t.records} ({_share(t.q7_answered, t.records)})"
                     " — " + ", ".join(f"{s} {n}" for s, n in t.q7.most_common()))
        lines.append(f"   Q7 answered where the hardware has a public spec: {t.spec_answered}/"
                     f"{t.with_spec} ({_share(t.spec_answered, t.with_spec)}); hardware unresolved "
                     f"{sum(t.unresolved.values())}, none named {t.no_hardware}")
        for hw, n in t.unresolved.most_common():
            lines.append(f"   unresolved hardware ({n}): {hw[:100]}")
        lines.append("   Q7 answered by kind of figure: " + ", ".join(
            f"{k} {t.answered_by_kind[k]}/{n}" for k, n in t.by_kind.most_common()))
        for reason, n in t.unanswered.most_common():
            lines.append(f"   Q7 not answered ({n}): {reason}")
        for verdict, where, headline in t.flagged:
            lines.append(f"   {verdict.upper()} {where}: {headline}")
        lines.append(_peers_line(t.peer_ratios))
        lines.append(_few_peers_line(t.few_peer_ratios))
        lines.append(_machine_line(t.machine_ratios, t.machine_typical))
        for factor in FACTORS:
            p = t.planted[factor]
            lines.append(_planted_line(factor, p))
            lines.extend(f"      not caught (or not implausible though plain decode) {w}: {h[:200]}"
                         for w, h in p.missed[:missed])
    lines.append(f"== refused: {len(refused)} file(s)")
    shown = sorted(refused.items())[:REFUSED_SHOWN]
    lines.extend(f"   {rel}: {why[:200]}" for rel, why in shown)
    if len(refused) > len(shown):
        lines.append(f"   … and {len(refused) - len(shown)} more (counted by reason per source "
                     "above; --json lists every one)")
    lines.append(f"== not a record format: {len(cal.not_records)} file(s)")
    lines.extend(f"   {rel}" for rel in cal.not_records)
    total = sum(t.records for t in tallies.values())
    answered = sum(t.q7_answered for t in tallies.values())
    spec = sum(t.with_spec for t in tallies.values())
    spec_answered = sum(t.spec_answered for t in tallies.values())
    bad = Counter(v for t in tallies.values() for v, _, _ in t.flagged)
    sums = {f: Planted() for f in FACTORS}
    for t in tallies.values():
        for f in FACTORS:
            s, p = sums[f], t.planted[f]
            s.n += p.n
            s.caught += p.caught
            s.implausible += p.implausible
            s.plain += p.plain
            s.plain_implausible += p.plain_implausible
            s.above += p.above
            s.above_caught += p.above_caught
            s.by_peers += p.by_peers
            s.by_machine += p.by_machine
            s.uncaught.update(p.uncaught)
    lines.append("== planted, all sources:")
    lines.append(_peers_line([r for t in tallies.values() for r in t.peer_ratios]))
    lines.append(_few_peers_line([r for t in tallies.values() for r in t.few_peer_ratios]))
    lines.append(_machine_line([r for t in tallies.values() for r in t.machine_ratios],
                               [r for t in tallies.values() for r in t.machine_typical]))
    lines.extend(_planted_line(f, sums[f]) for f in FACTORS)
    read = sum(t.entries for t in tallies.values())
    lines.append(f"== total: {read} read, {total} claim(s) from {sum(t.files for t in tallies.values())} file(s); "
                 f"{len(refused)} refused; Q7 answered {_share(answered, total)}; "
                 f"where the hardware has a public spec {_share(spec_answered, spec)} "
                 f"({spec_answered}/{spec}); "
                 f"implausible {bad['implausible']}; suspicious {bad['suspicious']} "
                 f"({_share(bad['suspicious'], total)})")
    return "\n".join(lines)


def _planted_json(p: Planted) -> dict[str, Any]:
    return {"n": p.n, "caught": p.caught, "implausible": p.implausible, "plain_decode": p.plain,
            "plain_decode_implausible": p.plain_implausible, "above_ceiling": p.above,
            "above_ceiling_caught": p.above_caught, "by_peers": p.by_peers,
            "by_machine": p.by_machine, "uncaught": dict(p.uncaught),
            "missed": [{"record": w, "headline": h} for w, h in p.missed]}


def as_json(cal: Calibration) -> dict[str, Any]:
    tallies = cal.tallies
    return {
        "sources": {name: {"read": t.entries, "files": t.files, "records": t.records,
                           "refused": dict(t.refused), "not_records": t.not_records,
                           "formats": dict(t.formats), "verdicts": dict(t.verdicts),
                           "q7": dict(t.q7), "q7_answered": t.q7_answered,
                           "q7_with_public_spec": [t.spec_answered, t.with_spec],
                           "unresolved_hardware": dict(t.unresolved), "no_hardware": t.no_hardware,
                           "q7_unanswered_reasons": dict(t.unanswered),
                           "q7_answered_by_kind": {k: [t.answered_by_kind[k], n]
                                                   for k, n in t.by_kind.items()},
                           "flagged": [{"verdict": v, "record": w, "headline": h}
                                       for v, w, h in t.flagged],
                           "peer_ratios": sorted(([round(r, 4), w] for r, w in t.peer_ratios),
                                                 reverse=True)[:20],
                           "few_peer_ratios": [[n, round(r, 4), w] for n, r, w in
                                               sorted(t.few_peer_ratios, key=lambda x: -x[1])[:20]],
                           "machine_ratios": sorted(([round(r, 4), w] for r, w in t.machine_ratios),
                                                    reverse=True)[:20],
                           "machine_typical": sorted(([round(r, 4), w] for r, w in t.machine_typical),
                                                     reverse=True)[:20],
                           "planted": {f"x{f}": _planted_json(t.planted[f]) for f in FACTORS}}
                    for name, t in sorted(tallies.items())},
        "refused": cal.refused,
        "not_records": cal.not_records,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibrate",
                                     description="Audit every record under a folder.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true", help="print the tallies as JSON")
    parser.add_argument("--missed", type=int, default=5,
                        help="planted fakes not caught to list per source and factor")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"not a folder: {args.folder}", file=sys.stderr)
        return 2
    cal = calibrate(args.folder, load_reference())
    print(json.dumps(as_json(cal), indent=2) if args.json else render(cal, args.missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
