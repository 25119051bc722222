"""Meta-tests that walk the registries (STYLE.md "Tests mirror modules")."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import bot
import checks
import extractors
from checks.docs import render_checks_doc
from checks.registry import CHECKS, Check
from extractors.formats import FORMATS
from extractors.formats.base import Format

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.key)
def test_every_check_has_a_docstring_naming_its_question(check: Check) -> None:
    doc = inspect.getdoc(check.run) or ""
    assert doc, f"{check.key} has no docstring"
    first = doc.splitlines()[0]
    if check.question is not None:
        assert first.startswith(f"Q{check.question} {check.key}"), first
    else:
        assert first.startswith(check.key), first
    assert "PLACEHOLDER" not in (inspect.getdoc(inspect.getmodule(check.run)) or "")


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.key)
def test_every_check_has_a_test_module(check: Check) -> None:
    assert (ROOT / "tests" / "checks" / f"test_{check.key}.py").is_file()


def test_checks_doc_is_up_to_date() -> None:
    doc = ROOT / "docs" / "checks.md"
    assert doc.read_text(encoding="utf-8") == render_checks_doc(), (
        "docs/checks.md is stale: run `python -m checks.docs > docs/checks.md`"
    )


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_every_format_has_a_fixture_and_a_test(fmt: Format) -> None:
    fixtures = ROOT / "tests" / "fixtures" / fmt.name
    assert fixtures.is_dir() and any(fixtures.iterdir()), f"no fixture for {fmt.name}"
    assert (ROOT / "tests" / "extractors" / f"test_{fmt.name}.py").is_file()
    assert "PLACEHOLDER" not in (inspect.getdoc(inspect.getmodule(type(fmt))) or "")


def _modules() -> list[ModuleType]:
    mods = []
    for pkg in (checks, extractors, bot):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            mods.append(importlib.import_module(info.name))
    return mods


def test_all_lists_are_exact() -> None:
    problems = []
    for mod in _modules():
        names = getattr(mod, "__all__", None)
        if names is None:
            continue
        for name in names:
            if not hasattr(mod, name):
                problems.append(f"{mod.__name__}.__all__ names missing {name}")
        for name, obj in vars(mod).items():
            if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if getattr(obj, "__module__", None) == mod.__name__ and name not in names:
                problems.append(f"{mod.__name__}.{name} is public but not in __all__")
    assert not problems, "\n".join(problems)


def test_checks_imports_neither_extractors_nor_bot() -> None:
    for path in (ROOT / "checks").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import extractors" not in text and "from extractors" not in text, path
        assert "import bot" not in text and "from bot" not in text, path


def test_extractors_import_only_checks() -> None:
    for path in (ROOT / "extractors").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "from bot" not in text and "import bot" not in text, path
