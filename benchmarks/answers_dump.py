"""Dump what every audit of a calibration run answered, to diff two versions of the checks.

`python -m benchmarks.answers_dump DIR OUT.jsonl` runs `benchmarks.calibrate` over DIR (every record
and every planted fake) and writes one line per audit, in order: the verdict, every question's and
finding's status, and every figure's value. Run it before and after a change to the checks'
representation and compare the files with `python -m benchmarks.answers_dump --diff A B`: an empty
diff means the same answers (figures compared by value, so 1.0 and True, 3.0 and 3 are equal).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import benchmarks.calibrate as calibrate_module
from checks.models import Evidence, PeerGroup, Report
from checks.reference import Reference, load_reference
from checks.runner import audit

__all__ = ["diff", "dump", "main", "summary_of"]


def summary_of(report: Report) -> dict[str, Any]:
    """The verdict, every answer's status and figures: what must not change."""
    answers = [*report.questions, *report.findings]
    return {
        "verdict": report.verdict,
        "status": {a.key: a.status for a in answers},
        "figures": {a.key: {k: _value(v) for k, v in a.figures.items()} for a in answers},
    }


def _value(v: Any) -> Any:
    value = v.value if hasattr(v, "value") else v
    return float(value) if isinstance(value, (bool, int, float)) else value


def dump(folder: Path, out: Path) -> int:
    """Audit everything calibrate audits under `folder`; one summary line per audit in `out`."""
    ref = load_reference()
    lines: list[str] = []

    def recording(ev: Evidence, r: Reference, peers: PeerGroup | None = None) -> Report:
        report = audit(ev, r, peers=peers)
        lines.append(json.dumps(summary_of(report), sort_keys=True))
        return report

    calibrate_module.audit = recording  # type: ignore[assignment]  # a benchmark's hook, not a patch
    try:
        calibrate_module.calibrate(folder, ref)
    finally:
        calibrate_module.audit = audit
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def diff(a: Path, b: Path) -> list[str]:
    """Lines where two dumps differ: the audit's number, the key and both values."""
    left = a.read_text(encoding="utf-8").splitlines()
    right = b.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    if len(left) != len(right):
        out.append(f"audits: {len(left)} vs {len(right)}")
    for i, (x, y) in enumerate(zip(left, right, strict=False)):
        if x == y:
            continue
        p, q = json.loads(x), json.loads(y)
        if p["verdict"] != q["verdict"]:
            out.append(f"#{i} verdict: {p['verdict']} -> {q['verdict']}")
        for key in sorted(set(p["status"]) | set(q["status"])):
            if p["status"].get(key) != q["status"].get(key):
                out.append(f"#{i} {key} status: {p['status'].get(key)} -> {q['status'].get(key)}")
            fp, fq = p["figures"].get(key, {}), q["figures"].get(key, {})
            for name in sorted(set(fp) | set(fq)):
                if fp.get(name) != fq.get(name):
                    out.append(f"#{i} {key}.{name}: {fp.get(name)} -> {fq.get(name)}")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 3 and args[0] == "--diff":
        lines = diff(Path(args[1]), Path(args[2]))
        print("\n".join(lines[:200]) if lines else "no difference")
        print(f"{len(lines)} differences")
        return 1 if lines else 0
    if len(args) != 2:
        print("usage: python -m benchmarks.answers_dump DIR OUT.jsonl | --diff A B", file=sys.stderr)
        return 2
    n = dump(Path(args[0]), Path(args[1]))
    print(f"{n} audits written to {args[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
