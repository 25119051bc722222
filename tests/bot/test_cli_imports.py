"""Cold start: the CLI's path imports only what it uses (timing is in `python -m benchmarks`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("discord", "matplotlib", "bs4", "aiohttp", "aiosqlite", "ijson")

_PROBE = """
import contextlib, io, json, sys
from bot.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main(sys.argv[1:], out=io.StringIO(), err=io.StringIO())
    except SystemExit as exc:  # argparse's --help
        code = exc.code
print(json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


@pytest.mark.parametrize(("argv", "code"), [([], 2), (["--help"], 0), (["audit", "--example"], 0),
                                            (["audit", "--example", "--json"], 0)])
def test_the_cli_path_leaves_the_bot_chart_and_html_libraries_unimported(argv: list[str],
                                                                          code: int) -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    got = json.loads(done.stdout.splitlines()[-1])
    assert got["code"] == code
    assert [m for m in HEAVY if m in got["modules"]] == []


_GC_PROBE = """
import contextlib, gc, io, sys
from bot.cli import main
sys.argv = ["claimcheck", "audit", "--example"]
with contextlib.redirect_stdout(io.StringIO()):
    given = main(["audit", "--example"], out=io.StringIO())
    after_given = gc.get_freeze_count()
    own = main()
print(given, after_given, own, gc.get_freeze_count() > 0, gc.isenabled())
"""


def test_only_a_process_running_its_own_command_line_freezes_its_start_up() -> None:
    # A caller's own argv (the tests, a program embedding the CLI) leaves the collector as it
    # was; the command line's own run freezes what start-up made and collects again after.
    done = subprocess.run([sys.executable, "-c", _GC_PROBE], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.stdout.split() == ["0", "0", "0", "True", "True"]
