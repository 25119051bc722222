"""The typed options a front door hands the pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import build_parser, main, options_from_args
from bot.options import PipelineOptions
from bot.settings import FetchSettings, Settings


def test_cli_flags_are_added_to_the_settings_entries(tmp_path: Path) -> None:
    settings = Settings(board_files=[Path("a.json")], allow_hosts=["board.example:8080"],
                        fetch_budget=5, use_cache=True)
    args = build_parser().parse_args(["audit", "x", "--boards", "b.json", "--allow-host", "127.0.0.1:9",
                                      "--cache", str(tmp_path / "c.db")])
    opts = options_from_args(args, settings)
    assert opts == PipelineOptions(
        fetch=FetchSettings(allow_hosts=["board.example:8080", "127.0.0.1:9"], fetch_budget=5),
        boards=(Path("a.json"), "b.json"), cache_path=tmp_path / "c.db", use_cache=True)
    # derived from the settings' fetch group, not copied field by field
    assert (opts.fetch_budget, opts.fetch_deadline_s) == (5, settings.fetch.fetch_deadline_s)


@pytest.mark.parametrize(("use_cache", "no_cache", "expected"), [
    (True, False, True), (True, True, False), (False, False, False),
])
def test_cache_is_on_only_when_neither_the_settings_nor_the_flag_turn_it_off(
        use_cache: bool, no_cache: bool, expected: bool) -> None:
    opts = PipelineOptions.from_settings(Settings(use_cache=use_cache), no_cache=no_cache)
    assert opts.use_cache is expected


def test_settings_reference_files_are_merged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    extra = tmp_path / "rows.json"
    extra.write_text(json.dumps({"hardware": [{
        "name": "Test Card 9000", "aliases": [], "kind": "consumer", "memory_gb": 48, "bandwidth_gbs": 1234,
        "tdp_w": 300, "source": "https://example.org/spec", "checked": "2026-11-30"}]}))
    monkeypatch.setenv("CLAIMCHECK_REFERENCE_FILES", json.dumps([str(extra)]))
    assert main(["reference", "gpu", "Test Card 9000", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bandwidth_gbs"] == 1234


async def test_the_keepalive_setting_reaches_the_sessions_connector(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CLAIMCHECK_KEEPALIVE_S sets how long an idle connection is kept: it reaches the policy and
    the connector of the session opened from it (aiohttp's 15 s when unset)."""
    from bot.fetching import policy_for
    from extractors.fetch import open_session

    assert policy_for(PipelineOptions.from_settings(Settings())).keepalive_timeout == 15.0
    monkeypatch.setenv("CLAIMCHECK_KEEPALIVE_S", "90")
    policy = policy_for(PipelineOptions.from_settings(Settings()))
    async with open_session(policy) as session:
        assert session.connector is not None
        assert session.connector._keepalive_timeout == 90.0  # aiohttp keeps it private


def test_a_keepalive_of_zero_is_refused_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    from bot.settings import flat_name

    monkeypatch.setenv("CLAIMCHECK_KEEPALIVE_S", "0")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert flat_name(info.value.errors()[0]["loc"]) == "CLAIMCHECK_KEEPALIVE_S"
