"""The layering contract: three floors, `checks` <- `extractors` <- `bot`, no upward import
(pyproject.toml `[tool.importlinter]`, checked by import-linter's `lint-imports`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _lint_imports(cwd: Path, *args: str, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    env = {**os.environ, "PYTHONPATH": str(path or cwd)}
    return subprocess.run([exe, "--no-cache", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_three_floors_hold() -> None:
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "three floors: checks <- extractors <- bot KEPT" in done.stdout
    assert "Contracts: 1 kept, 0 broken." in done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """The same contract over a copy of the floors' shape with one upward import."""
    for pkg, body in (("checks", "from extractors import reader\n"), ("extractors", ""),
                      ("bot", "from extractors import reader\n")):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
        (tmp_path / pkg / "core.py").write_text(body)
    (tmp_path / "extractors" / "reader.py").write_text("")
    contract = (ROOT / "pyproject.toml").read_text().split("[tool.importlinter]", 1)[1]
    contract = "[tool.importlinter]" + contract.split("\n[tool.ruff]", 1)[0]
    (tmp_path / "pyproject.toml").write_text(contract)
    done = _lint_imports(tmp_path)
    assert done.returncode == 1
    assert "three floors: checks <- extractors <- bot BROKEN" in done.stdout
    assert "checks.core -> extractors.reader" in done.stdout
