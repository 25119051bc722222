"""The loaded reference kept between CLI runs (bot/reference_cache.py): read back it is the
reference the tables load to; a changed table, override file or row code is never served stale;
a damaged, planted or unwritable file costs a load and nothing else."""

from __future__ import annotations

import io
import json
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.reference_cache as cache
from bot.cli import main
from checks import names
from checks.reference import TABLES, Reference, load_reference

CARD = {"name": "Test Card 9000", "aliases": [], "kind": "consumer", "memory_gb": 48,
        "bandwidth_gbs": 1234, "tdp_w": 300, "source": "https://example.org/spec", "checked": "2026-11-30"}


@pytest.fixture
def writable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    yield


def _no_load(*_: object, **__: object) -> None:
    raise AssertionError("loaded from the tables, not read back")


LOOKUPS = [("gpu", "RTX 5090"), ("gpu", "H20 141GB"), ("gpu", "2x RTX 3090"), ("gpu", "p5.48xlarge"),
           ("gpu", "Xeon Gold 6138"), ("model", "Qwen3.6-27B"), ("model", "llama-3.1-8b-instruct"),
           ("format", "NVFP4"), ("format", "Q4_K_M"), ("method", "EAGLE-3"), ("system_cards", "DGX H100")]


def _same_reference(a: Reference, b: Reference) -> None:
    assert a.model_dump() == b.model_dump()  # every row of every table, in order
    assert [a.names_and_aliases(t) for t in TABLES] == [b.names_and_aliases(t) for t in TABLES]
    for method, name in LOOKUPS:
        assert getattr(a, method)(name) == getattr(b, method)(name), (method, name)
    gpu = a.gpu("RTX 5090")
    assert gpu is not None and a.power_band(gpu) == b.power_band(gpu)


def test_read_back_it_is_the_loaded_reference(tmp_path: Path, writable: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    first = cache.cached_reference(tmp_path)
    assert len(list(tmp_path.glob("reference-*.pickle"))) == 1
    monkeypatch.setattr(cache, "load_reference", _no_load)
    again = cache.cached_reference(tmp_path)
    assert again.__pydantic_private__ is not None and "hardware" in again.__pydantic_private__["_index"]  # kept built
    _same_reference(again, load_reference())
    _same_reference(first, load_reference())


def test_a_changed_override_file_is_loaded_not_read_back(tmp_path: Path, writable: None) -> None:
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"hardware": [CARD]}))
    kept = tmp_path / "kept"
    first = cache.cached_reference(kept, extra)
    row = first.gpu("Test Card 9000")
    assert row is not None and row.bandwidth_gbs == 1234
    extra.write_text(json.dumps({"hardware": [{**CARD, "bandwidth_gbs": 2345}]}))
    changed = cache.cached_reference(kept, extra)
    row = changed.gpu("Test Card 9000")
    assert row is not None and row.bandwidth_gbs == 2345
    assert len(list(kept.glob("reference-*.pickle"))) == 2
    assert cache.cached_reference(kept).gpu("Test Card 9000") is None  # the packaged tables alone


def test_the_file_is_named_by_the_tables_and_the_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = cache.reference_path(tmp_path, ())
    tables = cache._packaged_tables()
    monkeypatch.setattr(cache, "_packaged_tables", lambda: [tables[0] + b" ", *tables[1:]])
    edited_tables = cache.reference_path(tmp_path, ())
    monkeypatch.undo()
    edited = tmp_path / "names.py"
    edited.write_bytes(Path(str(names.__file__)).read_bytes() + b"\n# an edit\n")
    monkeypatch.setattr(names, "__file__", str(edited))
    edited_code = cache.reference_path(tmp_path, ())
    assert len({here, edited_tables, edited_code}) == 3 and None not in {here, edited_tables, edited_code}


class _Planted:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("planted code ran",))


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps({"a": 1}), pickle.dumps(_Planted())])
def test_a_damaged_or_planted_file_is_loaded_afresh(tmp_path: Path, writable: None, content: bytes,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = cache.reference_path(tmp_path, ())
    assert path is not None
    path.write_bytes(content)
    _same_reference(cache.cached_reference(tmp_path), load_reference())
    assert "planted code ran" not in capsys.readouterr().out
    again = cache._read(path)  # written whole again
    assert again is not None
    _same_reference(again, load_reference())


def test_an_unwritable_directory_loads_every_time(tmp_path: Path, writable: None) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    _same_reference(cache.cached_reference(blocker / "kept"), load_reference())


def test_nothing_is_written_under_dont_write_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _same_reference(cache.cached_reference(tmp_path), load_reference())
    assert list(tmp_path.iterdir()) == []


def test_a_broken_override_is_said_in_one_line_as_before(tmp_path: Path, writable: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMCHECK_COMPILED_DIR", str(tmp_path / "kept"))
    broken = tmp_path / "broken.json"
    broken.write_text('{"hardware": [')
    out, err = io.StringIO(), io.StringIO()
    code = main(["reference", "gpu", "RTX 5090", "--reference", str(broken)], out=out, err=err)
    assert (code, out.getvalue()) == (2, "")
    assert err.getvalue() == f"claimcheck: {broken}: not valid JSON (Expecting value at line 1)\n"
    assert list((tmp_path / "kept").glob("reference-*.pickle")) == []


def test_the_cli_prints_the_same_report_from_the_kept_reference(tmp_path: Path, writable: None,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMCHECK_COMPILED_DIR", str(tmp_path))
    outs = []
    for _ in range(2):
        out = io.StringIO()
        assert main(["audit", "--example", "--json"], out=out, err=io.StringIO()) == 0
        outs.append(out.getvalue())
        monkeypatch.setattr(cache, "load_reference", _no_load)  # the second run reads it back
    assert outs[0] == outs[1]
    assert len(list(tmp_path.glob("reference-*.pickle"))) == 1


def test_under_dont_write_bytecode_the_cli_keeps_and_reads_nothing(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cli import compiled_dir
    from bot.settings import Settings

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert compiled_dir(Settings(compiled_dir=tmp_path)) is None
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert compiled_dir(Settings(compiled_dir=tmp_path)) == tmp_path
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform == "linux":
        assert compiled_dir(Settings()) == tmp_path / "xdg" / "claimcheck"
