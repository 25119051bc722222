"""Calibrate against real records: audit every record under a folder and print, per source,
what was read, what was refused and why, the verdicts, and how often the roofline (Q7) could
be answered. Run: `python -m benchmarks.calibrate DIR [--json]`.

A "source" is the adapter that read the file (`accelmark`, `vllm_bench`, …). A file whose shape an
adapter recognised but could not read is *refused*, with the reader's own sentence; a file no
adapter recognises (a schema, a suite definition next to the records) is listed apart as *not a
record*, so neither can hide among the other. Every `implausible` and `suspicious` headline
is listed so each one can be explained; for records whose Q7 stayed unanswered the reasons are
counted (the roofline's first missing input, or its summary), so a missing reference row shows
up as one line with its count.

The pipeline's own functions do the work (`extractors.evidence.read_document`,
`evidence_per_record`, `checks.runner.audit`): what this prints is what `sweep` would say.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.models import Report
from checks.reference import Reference, load_reference
from checks.runner import audit
from extractors.errors import ExtractError, UnrecognisedInput
from extractors.evidence import evidence_per_record, read_document
from extractors.inputs import InputSpec, read_local

__all__ = ["Calibration", "SourceTally", "as_json", "calibrate", "main", "render"]

ANSWERED = ("ok", "flag", "stop")
_SUFFIXES = (".json", ".jsonl", ".csv", ".tsv", ".txt", ".log")


@dataclass
class SourceTally:
    """What one source (adapter) gave over the folder."""

    files: int = 0
    records: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    q7: Counter[str] = field(default_factory=Counter)
    unanswered: Counter[str] = field(default_factory=Counter)
    flagged: list[tuple[str, str, str]] = field(default_factory=list)  # (verdict, where, headline)
    by_kind: Counter[str] = field(default_factory=Counter)  # records per tok_s kind
    answered_by_kind: Counter[str] = field(default_factory=Counter)

    @property
    def q7_answered(self) -> int:
        return sum(self.q7[s] for s in ANSWERED)


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in _SUFFIXES)


def _why_unanswered(report: Report) -> str:
    """The roofline's first missing input, else its summary."""
    q7 = report.question("roofline")
    if q7.missing:
        return f"{q7.status}: missing {q7.missing[0]}"
    return f"{q7.status}: {q7.summary[:120]}"


def _tally(t: SourceTally, where: str, report: Report) -> None:
    t.records += 1
    t.verdicts[report.verdict] += 1
    q7 = report.question("roofline")
    t.q7[q7.status] += 1
    kind = report.claim.tok_s_kind or "unknown"
    t.by_kind[kind] += 1
    t.answered_by_kind[kind] += q7.status in ANSWERED
    if q7.status not in ANSWERED:
        t.unanswered[_why_unanswered(report)] += 1
    if report.verdict in ("implausible", "suspicious"):
        t.flagged.append((report.verdict, where, report.headline))


@dataclass
class Calibration:
    """Everything one run over a folder found."""

    tallies: dict[str, SourceTally] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # file -> the reader's sentence
    not_records: list[str] = field(default_factory=list)  # files no adapter recognises


def calibrate(folder: Path, ref: Reference) -> Calibration:
    """Audit every record of every readable-looking file under `folder`."""
    out = Calibration()
    tallies, refused = out.tallies, out.refused
    for path in _files(folder):
        rel = str(path.relative_to(folder))
        try:
            reading = read_document(read_local(InputSpec("file", str(path))), ref)
            evidence = evidence_per_record(reading, ref)
        except UnrecognisedInput:
            out.not_records.append(rel)
            continue
        except ExtractError as exc:
            refused[rel] = str(exc)
            continue
        t = tallies.setdefault(reading.source.format or "unknown", SourceTally())
        t.files += 1
        for i, ev in enumerate(evidence):
            cell = f" [{ev.claim.cell}]" if ev.claim.cell else ""
            _tally(t, f"{rel}#{i}{cell}", audit(ev, ref))
    return out


def _share(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def render(cal: Calibration) -> str:
    tallies, refused = cal.tallies, cal.refused
    lines: list[str] = []
    for name, t in sorted(tallies.items()):
        lines.append(f"== {name}: {t.files} file(s), {t.records} record(s)")
        lines.append("   verdicts: " + ", ".join(f"{v} {t.verdicts[v]}" for v in
                     ("implausible", "suspicious", "insufficient", "consistent")))
        lines.append(f"   Q7 answered: {t.q7_answered}/{t.records} ({_share(t.q7_answered, t.records)})"
                     " — " + ", ".join(f"{s} {n}" for s, n in t.q7.most_common()))
        lines.append("   Q7 answered by kind of figure: " + ", ".join(
            f"{k} {t.answered_by_kind[k]}/{n}" for k, n in t.by_kind.most_common()))
        for reason, n in t.unanswered.most_common():
            lines.append(f"   Q7 not answered ({n}): {reason}")
        for verdict, where, headline in t.flagged:
            lines.append(f"   {verdict.upper()} {where}: {headline}")
    lines.append(f"== refused: {len(refused)} file(s)")
    lines.extend(f"   {rel}: {why}" for rel, why in sorted(refused.items()))
    lines.append(f"== not a record format: {len(cal.not_records)} file(s)")
    lines.extend(f"   {rel}" for rel in cal.not_records)
    total = sum(t.records for t in tallies.values())
    answered = sum(t.q7_answered for t in tallies.values())
    bad = Counter(v for t in tallies.values() for v, _, _ in t.flagged)
    lines.append(f"== total: {total} record(s) from {sum(t.files for t in tallies.values())} file(s); "
                 f"{len(refused)} refused; Q7 answered {_share(answered, total)}; "
                 f"implausible {bad['implausible']}; suspicious {bad['suspicious']} "
                 f"({_share(bad['suspicious'], total)})")
    return "\n".join(lines)


def as_json(cal: Calibration) -> dict[str, Any]:
    tallies = cal.tallies
    return {
        "sources": {name: {"files": t.files, "records": t.records, "verdicts": dict(t.verdicts),
                           "q7": dict(t.q7), "q7_answered": t.q7_answered,
                           "q7_unanswered_reasons": dict(t.unanswered),
                           "q7_answered_by_kind": {k: [t.answered_by_kind[k], n]
                                                   for k, n in t.by_kind.items()},
                           "flagged": [{"verdict": v, "record": w, "headline": h}
                                       for v, w, h in t.flagged]}
                    for name, t in sorted(tallies.items())},
        "refused": cal.refused,
        "not_records": cal.not_records,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibrate",
                                     description="Audit every record under a folder.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true", help="print the tallies as JSON")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"not a folder: {args.folder}", file=sys.stderr)
        return 2
    cal = calibrate(args.folder, load_reference())
    print(json.dumps(as_json(cal), indent=2) if args.json else render(cal))
    return 0


if __name__ == "__main__":
    sys.exit(main())
