"""Settings read without pydantic-settings when no CLAIMCHECK_ variable is set (bot/settings.py):
the same values and the same fields set as the pydantic-settings class gives, and with any such
variable set (whatever its case) that class reads them, as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.settings import Settings, _environment_reader

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("CLAIMCHECK_") or name.lower().startswith("claimcheck_"):
            monkeypatch.delenv(name)


@pytest.mark.parametrize("given", [
    {},
    {"db_path": Path("/data/a.sqlite3")},
    {"cache_path": Path("/data/old.sqlite3")},  # the old name, read as db_path
    {"token": "t0k", "allow_hosts": ["127.0.0.1:8080"], "readers": 2},
    {"reference_files": [Path("ref.json")], "board_files": ["boards.json"], "charts": False},
    {"shard_count": 4, "shard_ids": [2, 3], "on_delete": "archive"},
    {"fetch": {"fetch_budget": 3}, "unknown": 1},
])
def test_without_variables_the_settings_are_what_pydantic_settings_reads(given: dict[str, Any]) -> None:
    plain, read = Settings(**given), _environment_reader()(**given)
    assert plain.model_dump() == read.model_dump()
    assert plain.model_fields_set == read.model_fields_set
    assert (plain.db_path, plain.sharded) == (read.db_path, read.sharded)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("given", "message"), [
    ({"shard_ids": [0]}, "shard_ids needs shard_count"),
    ({"keepalive_s": 0}, "greater than 0"),
])
def test_without_variables_a_bad_keyword_is_refused_as_before(given: dict[str, Any], message: str) -> None:
    for make in (Settings, _environment_reader()):
        with pytest.raises(ValidationError, match=message):
            make(**given)


@pytest.mark.parametrize(("name", "value", "read"), [
    ("CLAIMCHECK_DB_PATH", "/data/x.sqlite3", lambda s: s.store.db_path == Path("/data/x.sqlite3")),
    ("claimcheck_db_path", "/data/y.sqlite3", lambda s: s.store.db_path == Path("/data/y.sqlite3")),
    ("CLAIMCHECK_FETCH__ALLOW_HOSTS", '["h:1"]', lambda s: s.fetch.allow_hosts == ["h:1"]),
    ("CLAIMCHECK_ALLOW_HOSTS", '["h:2"]', lambda s: s.fetch.allow_hosts == ["h:2"]),
    ("CLAIMCHECK_COMPILED_DIR", "/tmp/kept", lambda s: s.store.compiled_dir == Path("/tmp/kept")),
])
def test_a_set_variable_is_read(monkeypatch: pytest.MonkeyPatch, name: str, value: str, read: Any) -> None:
    monkeypatch.setenv(name, value)
    settings = Settings(token="given")
    assert read(settings)
    token = settings.discord.token
    assert token is not None and token.get_secret_value() == "given"  # a keyword still wins


def test_the_example_path_imports_no_pydantic_settings_unless_a_variable_is_set() -> None:
    probe = ("import io, sys; from bot.cli import main; main(['audit', '--example'], out=io.StringIO()); "
             "print('pydantic_settings' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("CLAIMCHECK_")}
    plain = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                           env=env, timeout=120)
    assert plain.stdout.split() == ["False"]
    env["CLAIMCHECK_FETCH_BUDGET"] = json.dumps(5)
    with_one = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=120)
    assert with_one.stdout.split() == ["True"]
