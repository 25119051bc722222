"""Compiled patterns kept between runs (extractors/text/compiled.py): what is read back is what
`re` and the gates compute, a changed pattern or gate code is never served stale, a damaged or
unwritable store costs a compile and nothing else."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from re import _parser  # type: ignore[attr-defined]

import pytest

from extractors.text import compiled, lazyre

ROOT = Path(__file__).resolve().parents[2]

PATTERNS = [
    (r"(?i)\bbatch\s*(?P<n>\d+)(?:\s*x\s*(?P<m>\d+))?", 0),
    (r"^x(\d)$", re.MULTILINE),
    (r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:tok(?:ens)?/s|t/s)(?!\w)", re.IGNORECASE),
    (r"(a|b)\1{2,5}[^\W\d_]+", 0),
    (r"[\u00b5\u03bc]s|caf\u00e9", re.IGNORECASE | re.UNICODE),
]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A store in tmp_path, written as an installed CLI writes it (bytecode allowed)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    compiled.keep_in(tmp_path)
    yield tmp_path
    compiled.keep_in(None)


def _reopen(directory: Path) -> None:
    """A new process's view of the directory: the file read afresh."""
    compiled.keep_in(directory)


def _gate(source: str, flags: int) -> tuple[tuple[str, ...] | None, tuple[tuple[str, ...], ...]]:
    parsed = _parser.parse(source, flags)
    found = lazyre.required_literals(parsed)
    return (tuple(sorted(found)) if found is not None else None), lazyre.required_all(parsed)


@pytest.mark.parametrize(("source", "flags"), PATTERNS)
def test_a_kept_pattern_is_the_compiled_pattern_and_its_gate(store: Path, source: str, flags: int) -> None:
    first = compiled.analysed(source, flags)
    assert compiled.save() is True
    _reopen(store)
    read, required, need = compiled.analysed(source, flags)
    assert compiled._KEPT[0] is not None and compiled._KEPT[0].added is False  # served from the file
    # Patterns compare equal when their source, flags and compiled code are.
    assert read == re.compile(source, flags) == first[0]
    assert (read.groups, read.groupindex) == (re.compile(source, flags).groups, re.compile(source, flags).groupindex)
    assert (required, need) == _gate(source, flags) == first[1:]
    assert compiled.compile(source, flags) == re.compile(source, flags)


def test_start_classes_and_plain_patterns_are_kept(store: Path) -> None:
    source = r"(?i)(?<![A-Za-z])(?:rtx|gtx)\s?\d{4}"
    assert compiled.start_class(source) == lazyre.start_class(source) == "[gGrR]"
    assert compiled.compile(source) == re.compile(source)
    assert compiled.save() is True
    _reopen(store)
    assert compiled.start_class(source) == "[gGrR]"
    assert compiled.compile(source) == re.compile(source)
    assert compiled._KEPT[0] is not None and compiled._KEPT[0].added is False


def test_a_changed_pattern_is_compiled_not_served_from_the_old_entry(store: Path) -> None:
    compiled.analysed(r"batch\s*(\d+)", 0)
    compiled.save()
    _reopen(store)
    changed, required, _ = compiled.analysed(r"batches\s*(\d+)", 0)
    assert changed == re.compile(r"batches\s*(\d+)")
    assert required == ("batches",)
    assert changed.search("batch 8") is None


def test_the_file_is_named_by_the_gate_code_it_was_made_with(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    here = compiled.store_path(tmp_path)
    edited = tmp_path / "lazyre.py"
    edited.write_bytes(Path(lazyre.__file__).read_bytes() + b"\n# an edit\n")
    monkeypatch.setattr(lazyre, "__file__", str(edited))
    assert here is not None and compiled.store_path(tmp_path) not in (None, here)


@pytest.mark.parametrize("damage", [
    b"not marshal data",
    marshal.dumps(["a", "list"]),
    marshal.dumps({"format": 0, "entries": {}}),
    "entry",  # a well-formed file whose entry the engine refuses
])
def test_a_damaged_store_is_compiled_afresh(store: Path, damage: bytes | str) -> None:
    source, flags = PATTERNS[0]
    path = compiled.store_path(store)
    assert path is not None
    if damage == "entry":
        key = ("lazy", source, flags)
        bad: tuple[object, ...] = (flags, b"\x01\x00", 0, {}, (None,), (None, ()))
        damage = marshal.dumps({"format": compiled._FORMAT, "entries": {key: bad}})
    assert isinstance(damage, bytes)
    path.write_bytes(damage)
    _reopen(store)
    pattern, required, need = compiled.analysed(source, flags)
    assert pattern == re.compile(source, flags)
    assert (required, need) == _gate(source, flags)
    assert compiled.save() is True  # and the file is whole again
    _reopen(store)
    assert compiled.analysed(source, flags)[0] == re.compile(source, flags)
    assert compiled._KEPT[0] is not None and compiled._KEPT[0].added is False


def test_nothing_is_written_under_dont_write_bytecode(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    compiled.analysed(*PATTERNS[1])
    assert compiled.save() is False
    assert list(store.iterdir()) == []


def test_an_unwritable_directory_keeps_nothing_and_raises_nothing(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    compiled.keep_in(blocker / "cache")
    try:
        pattern, _, _ = compiled.analysed(*PATTERNS[2])
        assert pattern == re.compile(*PATTERNS[2])
        assert compiled.save() is False
    finally:
        compiled.keep_in(None)


def test_the_directory_kept_in_is_what_a_worker_is_told(store: Path) -> None:
    assert compiled.kept_in() == store
    compiled.keep_in(None)
    assert compiled.kept_in() is None


def test_without_a_directory_nothing_is_kept(tmp_path: Path) -> None:
    compiled.keep_in(None)
    assert compiled.compile(*PATTERNS[3]) == re.compile(*PATTERNS[3])
    assert compiled.save() is False


def test_the_cli_keeps_its_patterns_and_the_next_run_reads_them(tmp_path: Path) -> None:
    # Two fresh processes (in this one the readers' patterns may be compiled already): the first
    # writes what it compiled, the second finds all of it and writes nothing.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["CLAIMCHECK_COMPILED_DIR"] = str(tmp_path)
    argv = [sys.executable, "-m", "bot.cli", "audit", "--example", "--json"]
    first = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    files = list(tmp_path.glob("patterns-*.marshal"))
    assert first.returncode == 0 and len(files) == 1
    written = files[0].read_bytes()
    entries = marshal.loads(written)["entries"]
    assert {kind for kind, _, _ in entries} == {"lazy", "re", "start"}
    second = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert files[0].read_bytes() == written
