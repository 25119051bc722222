"""Audits: saved once per key, read back as models."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import AuditRecord, Store, audit_key, get_audit, list_audits, save_audit

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "db.sqlite3")
    yield s
    await s.close()


async def test_saved_audit_reads_back_as_a_model(store: Store) -> None:
    audit_id = await save_audit(
        store,
        "discord:1234",
        '{"schema": "claimcheck.report/1"}',
        "implausible",
        "2048 tok/s on one 4090 is over the roofline",
        "https://example.com/post",
        created_at=T0,
    )
    got = await get_audit(store, "discord:1234")
    assert got == AuditRecord(
        id=audit_id,
        key="discord:1234",
        created_at=T0,
        verdict="implausible",
        headline="2048 tok/s on one 4090 is over the roofline",
        source_url="https://example.com/post",
        report_json='{"schema": "claimcheck.report/1"}',
    )


async def test_saving_the_same_key_again_keeps_the_first_row(store: Store) -> None:
    first = await save_audit(store, "k", "{}", "consistent", "first", None)
    again = await save_audit(store, "k", '{"x": 1}', "suspicious", "second", None)
    assert again == first
    got = await get_audit(store, "k")
    assert got is not None and got.headline == "first"
    assert len(await list_audits(store)) == 1


async def test_concurrent_saves_of_one_key_make_one_row(store: Store) -> None:
    ids = await asyncio.gather(
        *(save_audit(store, "same", "{}", "consistent", f"h{i}") for i in range(20))
    )
    assert len(set(ids)) == 1
    assert len(await list_audits(store)) == 1


async def test_list_audits_since_returns_the_newer_ones_oldest_first(store: Store) -> None:
    for hours in (0, 1, 2):
        await save_audit(
            store,
            f"k{hours}",
            "{}",
            "consistent",
            f"h{hours}",
            created_at=T0 + timedelta(hours=hours),
        )
    recent = await list_audits(store, since=T0 + timedelta(minutes=30))
    assert [a.key for a in recent] == ["k1", "k2"]
    assert [a.key for a in await list_audits(store, limit=1)] == ["k0"]


async def test_missing_audit_is_none(store: Store) -> None:
    assert await get_audit(store, "nope") is None


async def test_nul_characters_are_stripped_before_storing(store: Store) -> None:
    await save_audit(store, "k", '{"n": "a\x00b"}', "suspicious", "a\x00b")
    got = await get_audit(store, "k")
    assert got is not None and got.headline == "ab" and "\x00" not in got.report_json


async def test_unknown_verdict_is_refused_before_writing(store: Store) -> None:
    with pytest.raises(ValueError, match="unknown verdict"):
        await save_audit(store, "k", "{}", "fake", "h")  # type: ignore[arg-type]
    assert await list_audits(store) == []


async def test_naive_times_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await list_audits(store, since=datetime(2026, 1, 1))


def test_audit_key_is_stable_and_unambiguous() -> None:
    assert audit_key("https://x", "text") == audit_key("https://x", "text")
    assert audit_key("ab", "c") != audit_key("a", "bc")
    assert audit_key("a").startswith("sha256:")
