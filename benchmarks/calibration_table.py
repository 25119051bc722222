"""The README's calibration table: every corpus source with its repository and commit, and what
`python -m benchmarks.calibrate` finds on it, for the calibration split and the held-out split.

Run: `python -m benchmarks.calibration_table CALIBRATION_DIR [HELDOUT_DIR] [--manifest FILE]`.
It prints Markdown (a dated heading, one row per source and split, a total row per split); the
figures are the calibrate run's own tallies (`benchmarks.calibrate.as_json`), nothing recounted.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.calibrate import FACTORS, as_json, calibrate
from checks.reference import load_reference

__all__ = ["main", "table"]

MANIFEST = Path(__file__).parent / "corpus" / "sources.json"
_HEADER = ("| source | repo@commit | split | read | claims | refused | implausible | suspicious "
           "| physics answered (public spec) | x3 above ceiling caught | x10 caught "
           "| x10 implausible (plain decode) |")


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "-"


def _counts(src: dict[str, Any]) -> dict[str, int]:
    p3, p10 = src["planted"]["x3"], src["planted"]["x10"]
    answered, spec = src["q7_with_public_spec"]
    return {"read": src["read"], "claims": src["records"], "refused": sum(src["refused"].values()),
            "implausible": src["verdicts"].get("implausible", 0),
            "suspicious": src["verdicts"].get("suspicious", 0),
            "spec_answered": answered, "spec": spec,
            "x3_above_caught": p3["above_ceiling_caught"], "x3_above": p3["above_ceiling"],
            "x10_caught": p10["caught"], "x10": p10["n"],
            "x10_plain_implausible": p10["plain_decode_implausible"],
            "x10_plain": p10["plain_decode"]}


def _row(name: str, where: str, split: str, c: dict[str, int]) -> str:
    return (f"| {name} | {where} | {split} | {c['read']} | {c['claims']} | {c['refused']} "
            f"| {c['implausible']} | {c['suspicious']} | {_share(c['spec_answered'], c['spec'])} "
            f"| {_share(c['x3_above_caught'], c['x3_above'])} | {_share(c['x10_caught'], c['x10'])} "
            f"| {_share(c['x10_plain_implausible'], c['x10_plain'])} |")


def table(splits: dict[str, dict[str, Any]], manifest: dict[str, Any]) -> str:
    """Markdown rows for each split's calibrate JSON (`{"calibration": as_json(...), ...}`)."""
    repos = {s["name"]: f"`{s['repo']}@{s['commit'][:12]}`" for s in manifest["sources"]}
    lines = [_HEADER, "|" + "---|" * (_HEADER.count("|") - 1)]
    for split, data in splits.items():
        total: dict[str, int] = {}
        for name, src in sorted(data["sources"].items()):
            c = _counts(src)
            for k, v in c.items():
                total[k] = total.get(k, 0) + v
            lines.append(_row(name, repos.get(name, "(local)"), split, c))
        lines.append(_row(f"**all {len(data['sources'])} sources**", "", split, total))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibration_table",
                                     description="The README's calibration table.")
    parser.add_argument("calibration", type=Path)
    parser.add_argument("heldout", type=Path, nargs="?")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    folders = {"calibration": args.calibration}
    if args.heldout is not None:
        folders["held-out"] = args.heldout
    for folder in folders.values():
        if not folder.is_dir():
            print(f"not a folder: {folder}", file=sys.stderr)
            return 2
    ref = load_reference()
    splits = {name: as_json(calibrate(folder, ref)) for name, folder in folders.items()}
    manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"Calibration run {stamp} (`python -m benchmarks.calibration_table "
          f"{' '.join(str(f) for f in folders.values())}`); planted fakes at x"
          f"{' and x'.join(str(f) for f in FACTORS)}.\n")
    print(table(splits, manifest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
