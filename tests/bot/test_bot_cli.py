"""`claimcheck bot`, `claimcheck digest`, `audit --chart`, the bot's settings and its factory."""

from __future__ import annotations

import asyncio
import io
import struct
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from discord.ext import commands
from pydantic import ValidationError

from bot.app import ClaimBot, ShardedClaimBot, create_bot
from bot.cli import main
from bot.digest import build_digest, digest_text
from bot.settings import Settings
from bot.store import AuditPlace, Store, save_audit
from checks.models import Verdict
from checks.reference import Reference


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out=out, err=err), out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TOKEN", "DB_PATH", "CACHE_PATH", "SHARD_COUNT", "SHARD_IDS", "ALLOW_HOSTS"):
        monkeypatch.delenv(f"CLAIMCHECK_{name}", raising=False)


def test_bot_without_a_token_exits_2_with_one_line_on_how_to_get_one() -> None:
    code, out, err = run("bot")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "https://discord.com/developers/applications" in err and "CLAIMCHECK_TOKEN" in err
    assert "Message Content intent" in err and "slash commands work without it" in err


def test_settings_read_the_old_cache_path_and_json_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMCHECK_CACHE_PATH", "/data/old.sqlite3")
    monkeypatch.setenv("CLAIMCHECK_ALLOW_HOSTS", '["127.0.0.1:8080", "board.lan"]')
    monkeypatch.setenv("CLAIMCHECK_TOKEN", "t0k")
    s = Settings()
    assert s.db_path == Path("/data/old.sqlite3")
    assert s.fetch.allow_hosts == ["127.0.0.1:8080", "board.lan"]
    token = s.discord.token
    assert token is not None and token.get_secret_value() == "t0k" and "t0k" not in repr(s)
    monkeypatch.setenv("CLAIMCHECK_DB_PATH", "/data/new.sqlite3")
    assert Settings().db_path == Path("/data/new.sqlite3")


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [(None, [0], "shard_ids needs shard_count"), (2, [0, 2], "shard_ids must be below shard_count")],
)
def test_inconsistent_sharding_is_refused(count: int | None, ids: list[int], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Settings(shard_count=count, shard_ids=ids)


async def test_the_factory_builds_a_quiet_bot_and_shards_only_when_asked(
    tmp_path: Path, ref: Reference
) -> None:
    plain = create_bot(Settings(db_path=tmp_path / "a.db"), ref=ref)
    sharded = create_bot(Settings(db_path=tmp_path / "b.db", shard_count=4, shard_ids=[2, 3]), ref=ref)
    try:
        assert type(plain) is ClaimBot and not isinstance(plain, commands.AutoShardedBot)
        assert isinstance(sharded, ShardedClaimBot) and isinstance(sharded, commands.AutoShardedBot)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
        for b in (plain, sharded):
            mentions = b.allowed_mentions
            assert mentions is not None and mentions.to_dict() == {"parse": []}
            assert b.intents.message_content and not b.intents.members and not b.intents.presences
    finally:
        await plain.close()  # (an AutoShardedBot that never logged in cannot be closed)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(
    ("inputs", "size"),
    [
        (["--example"], (1000, 400)),  # siblings in the board: claim panel + window curve
        (["Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s"], (600, 400)),  # the claim panel only
    ],
)
def test_audit_chart_writes_the_png(tmp_path: Path, inputs: list[str], size: tuple[int, int]) -> None:
    png = tmp_path / "c.png"
    code, out, err = run("audit", "--brief", "--chart", str(png), *inputs)
    assert (code, err) == (0, "") and out
    assert _png_size(png.read_bytes()) == size


def test_audit_chart_without_a_ceiling_says_so(tmp_path: Path) -> None:
    code, _, err = run("audit", "--chart", str(tmp_path / "c.png"), "I got 40 tok/s")
    assert code == 2
    assert err == "claimcheck: no chart: the report has no roofline ceiling to draw the claim against\n"
    assert not (tmp_path / "c.png").exists()


def test_digest_prints_what_the_bot_would_post(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    now = datetime.now(UTC)

    async def fill() -> str:
        async with await Store.open(db) as store:
            runs: list[tuple[Verdict, int]] = [("consistent", 1), ("implausible", 1),
                                               ("suspicious", 2), ("implausible", 1)]
            for i, (verdict, guild) in enumerate(runs):
                await save_audit(store, f"k{i}", "{}", verdict, f"claim {i}",
                                 created_at=now - timedelta(hours=30 if i == 3 else 1),
                                 place=AuditPlace(guild_id=guild, channel_id=5, message_id=10 + i))
            return digest_text(await build_digest(store, 1, now))

    expected = asyncio.run(fill())
    code, out, err = run("digest", "--guild", "1", "--db", str(db))
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == expected.splitlines()[1:]  # the first line holds the time
    assert out.splitlines()[1] == "2 audits: 1 implausible, 0 suspicious, 0 insufficient, 1 consistent"
    assert out.splitlines()[3:8] == [
        "**🛑 Implausible** (1)", "- [claim 1](https://discord.com/channels/1/5/11)", "",
        "**✅ Consistent** (1)", "- [claim 0](https://discord.com/channels/1/5/10)"]
    code, out, _ = run("digest", "--db", str(db))
    assert code == 0 and out.splitlines()[1].startswith("3 audits: 1 implausible, 1 suspicious")


def test_digest_without_a_store_exits_2(tmp_path: Path) -> None:
    code, _, err = run("digest", "--db", str(tmp_path / "none.sqlite3"))
    assert code == 2 and err.startswith("claimcheck: no store at ")



def test_matplotlib_is_imported_only_when_a_chart_is_drawn(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import sys, io; from bot.cli import main; "
            "main(['audit', '--example'], out=io.StringIO()); a = 'matplotlib' in sys.modules; "
            f"main(['audit', '--example', '--chart', {str(tmp_path / 'c.png')!r}], out=io.StringIO()); "
            "print(a, 'matplotlib' in sys.modules)")
    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo,
                         check=True).stdout
    assert out.split() == ["False", "True"]


def test_the_image_runs_the_bot_as_a_non_root_user_with_the_store_on_a_volume() -> None:
    repo = Path(__file__).resolve().parents[2]
    lines = [ln.strip() for ln in (repo / "Dockerfile").read_text().splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    assert lines[0] == "FROM python:3.11-slim"
    assert "USER claimcheck" in lines and 'VOLUME ["/data"]' in lines
    assert lines[-2:] == ['ENTRYPOINT ["claimcheck"]', 'CMD ["bot"]']
    assert any(ln.startswith("RUN pip install . ") for ln in lines)
    assert "CLAIMCHECK_DB_PATH=/data/claimcheck.sqlite3" in " ".join(lines)
    assert "pip install .\n" in (repo / "README.md").read_text()  # the same install
