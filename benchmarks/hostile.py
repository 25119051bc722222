"""The figures of the README's hostile-input table, each produced here, none written by hand.

    python -m benchmarks.hostile urls            hostile URLs through the real fetcher (loopback)
    python -m benchmarks.hostile kill [ROUNDS]   kill -9 rounds on the store (fixed seed)
    python -m benchmarks.hostile readme          rewrite the README table from docs/*.json

`urls` and `kill` write their results to docs/hostile.json; `pytest -m fuzz` writes
docs/fuzz.json. `readme` puts all three into README.md between the hostile-input markers.
kill -9 proves process-crash safety only: the OS page cache survives a killed process, so this
says nothing about power loss with synchronous=NORMAL.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DOCS = ROOT / "docs"
RESULTS = DOCS / "hostile.json"
SEED = 20261130
START, END = "<!-- hostile-input table: python -m benchmarks.hostile readme -->", "<!-- /hostile-input table -->"

WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store import Store, save_audit

    async def main(path, prefix):
        store = await Store.open(path)
        i = 0
        while True:
            i += 1
            await save_audit(store, f"{prefix}-{i}", '{"n": %d}' % i, "consistent", f"audit {i}")
            sys.stdout.write(f"{prefix}-{i}\\n")  # the ack: only after COMMIT returned
            sys.stdout.flush()

    asyncio.run(main(sys.argv[1], sys.argv[2]))
    """
)


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


def _save(key: str, value: dict[str, Any]) -> None:
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data[key] = value
    DOCS.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2) + "\n")


def urls() -> dict[str, Any]:
    from tests.hostile_urls import load_hostile, run_hostile

    lines = load_hostile()
    outcomes = asyncio.run(run_hostile(lines))
    refused = sum(o.refused for o in outcomes)
    connected = sum(bool(o.connected_to) for o in outcomes)
    for o in outcomes:
        if not o.refused:
            print(f"NOT REFUSED: {o.url}: {o.said} {o.connected_to}")
    result = {"date": _today(), "urls": len(outcomes), "refused": refused, "connected": connected,
              "command": "python -m benchmarks.hostile urls"}
    print(f"{len(outcomes)} hostile URLs: {refused} refused before connecting, "
          f"{connected} connection attempts")
    _save("urls", result)
    return result


def _round(path: Path, prefix: str, delay: float) -> tuple[set[str], int]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), prefix], stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, text=True)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=10)
    return set(out.split()), proc.returncode


def kill(rounds: int = 105) -> dict[str, Any]:
    from bot.store import SCHEMA_VERSION

    rng = random.Random(SEED)
    acked: set[str] = set()
    lost = failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "crash.sqlite3"
        for n in range(rounds):
            got, code = _round(path, f"r{n}", rng.uniform(0.2, 1.2))
            acked |= got
            if not path.exists():
                continue  # killed before the file was made
            with sqlite3.connect(path) as conn:
                ok = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
                keys = ({r[0] for r in conn.execute("SELECT key FROM audits")}
                        if "audits" in tables else set())
            lost += len(acked - keys)
            failures += (not ok) or version not in (0, SCHEMA_VERSION) or code != -signal.SIGKILL
    result = {"date": _today(), "rounds": rounds, "seed": SEED, "acked": len(acked),
              "lost_acked": lost, "failed_rounds": failures,
              "command": f"python -m benchmarks.hostile kill {rounds}"}
    print(f"{rounds} kill -9 rounds (seed {SEED}): {len(acked)} acknowledged audits, "
          f"{lost} lost, {failures} rounds with an integrity or schema failure")
    _save("kill", result)
    return result


def readme() -> None:
    hostile = json.loads(RESULTS.read_text())
    fuzz = json.loads((DOCS / "fuzz.json").read_text())
    u, k = hostile["urls"], hostile["kill"]
    inputs = sum(r["inputs"] for r in fuzz["rows"])
    escapes = sum(r["escapes"] for r in fuzz["rows"])
    least = min(r["inputs"] for r in fuzz["rows"])
    table = [
        START, "", "| attack | result | command | date |", "|---|---|---|---|",
        f"| hostile URLs (other schemes, private / loopback / metadata addresses in every spelling, "
        f"DNS rebinding, redirects to each) | {u['refused']} of {u['urls']} refused before any "
        f"connection; {u['connected']} connection attempts | `{u['command']}` | {u['date']} |",
        f"| fuzzed inputs, {len(fuzz['rows'])} parsers ([table](docs/fuzz.md)) | {inputs:,} inputs "
        f"(at least {least:,} per parser), {escapes} escapes | `pytest -m fuzz` | {fuzz['date']} |",
        f"| kill -9 on the SQLite store, seed {k['seed']} | {k['rounds']} rounds, {k['acked']:,} "
        f"acknowledged audits, {k['lost_acked']} lost, {k['failed_rounds']} integrity failures "
        f"| `{k['command']}` | {k['date']} |",
        "", END,
    ]
    text = (ROOT / "README.md").read_text()
    if START in text:
        head, rest = text.split(START, 1)
        text = head + "\n".join(table) + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(table) + "\n"
    (ROOT / "README.md").write_text(text)
    print("\n".join(table))


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "urls"
    if what == "urls":
        urls()
    elif what == "kill":
        kill(int(sys.argv[2]) if len(sys.argv) > 2 else 105)
    elif what == "readme":
        readme()
    else:
        raise SystemExit(__doc__)
