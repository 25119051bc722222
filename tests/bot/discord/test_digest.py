"""The daily digest fires when virtual time reaches the guild's hour (simcord's clock drives
discord.py's tasks.loop): counts first, one section per verdict most severe first, each subject
once as a masked link, split over as many messages as it needs with nothing cut, and the watched
sources' records only when new since the last digest."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from bot.store.audits import AuditPlace, save_audit
from checks.models import Verdict
from tests.fixtures.web.loopback import FIXTURES, Loopback

BOARD = "/api/records"
DAY = 24 * 3600


def _digest_pages(w: Any, channel: Any) -> list[Any]:
    """The bot's digest embeds in `channel`, oldest first."""
    msgs = [m for m in channel.history() if m.author.id == w.bot.user.id]
    return [e for m in sorted(msgs, key=lambda m: m.id) for e in m.embeds]


def _within_discord_limits(embed: Any) -> bool:
    return len(embed.description) <= 4096 and len(embed) <= 6000


async def _to_nine(w: Any) -> None:
    await w.env.advance_time(9 * 3600 + 61)  # the loop's 09:00 iteration runs just after 09:00


async def test_the_digest_fires_at_the_configured_hour_in_severity_order(
    world_factory: Any, server: Loopback
) -> None:
    board = server.file(BOARD, "generic_board/community_board.json")
    async with world_factory() as w:
        mods = w.guild.create_text_channel("mods")
        await w.mod.slash(w.general, "claimcheck digest", channel=mods, hour=9)
        await w.mod.slash(w.general, "claimcheck source-add", url=board)
        for text in ("Llama 3.1 8B on one H100, batch 1, 150 tok/s",  # consistent
                     "I got 40 tok/s",  # insufficient
                     "Llama 3.1 70B fp16 on one RTX 4090 at 900 tok/s"):  # implausible
            await w.alice.send(w.general, text)
        threads = {t.name: t.id for t in w.general.threads}
        await w.env.advance_time(8 * 3600 + 59 * 60)
        before = mods.last_message  # a local, so mypy does not narrow mods.last_message for good
        assert before is None  # 08:59: not yet
        await w.env.advance_time(61)
        pages = _digest_pages(w, mods)
        assert len(pages) >= 2 and all(_within_discord_limits(e) for e in pages)
        assert [e.footer.text for e in pages] == [
            f"digest 2026-01-01 · part {n} of {len(pages)}" for n in range(1, len(pages) + 1)]
        lines = "\n".join(e.description for e in pages).splitlines()
        assert lines[:2] == ["**claimcheck digest** 2025-12-31 09:00 – 2026-01-01 09:00 UTC",
                             "3 audits: 1 implausible, 0 suspicious, 1 insufficient, 1 consistent"]
        heads = [ln for ln in lines if ln.startswith("**") and "(continued)" not in ln][1:]
        assert [h.rsplit(" (", 1)[0] for h in heads] == [
            "**🛑 Implausible**", "**❔ Need more information**", "**✅ Consistent**",
            "**New in watched sources**", "**Disputes**"]
        jump = f"https://discord.com/channels/{w.guild.id}/{threads['900 tok/s · RTX 4090 · Llama 3.1 70B']}"
        implausible = lines[lines.index("**🛑 Implausible** (1)") + 1]
        assert implausible.startswith("- [") and implausible.endswith(f"]({jump})")
        need = lines[lines.index("**❔ Need more information** (1)") + 1]
        assert need.startswith("- [too little to judge 40\\.0 tok/s")  # the verdict word once
        assert sum("too little to judge 40\\.0 tok/s" in ln for ln in lines) == 1
        start = next(i for i, ln in enumerate(lines) if ln.startswith("**New in watched sources**"))
        new = [ln for ln in lines[start + 1:lines.index("**Disputes** (0)")]
               if not ln.startswith("**") and ln]
        shown = int(lines[start].split("(")[1].rstrip(")"))
        assert shown == len(new) == 20  # every new record is listed
        assert all(ln.startswith(("- **implausible**", "- **suspicious**")) for ln in new)
        assert lines[-1] == "- none open"
        assert server.paths() == ["/api/records"]
        # The next hour passes without a second digest.
        n = len(pages)
        await w.env.advance_time(3600)
        assert len(_digest_pages(w, mods)) == n


HEADLINES: list[tuple[Verdict, str]] = [
    ("implausible", "implausible — {n}000.5 tok/s is 16.3× the bandwidth ceiling of 128.9 tok/s "
                    "for Qwen3.6-27B FP8 on one RTX 5090 at batch 1, audit #{n}"),
    ("suspicious", "suspicious — {n}10.0 tok/s on an H100 needs an acceptance length of 3.4 the "
                   "record does not state (draft window 4), audit #{n}"),
    ("insufficient", "insufficient — too little to judge {n}.5 tok/s: no hardware, no model, no "
                     "batch size in the message, audit #{n}"),
    ("consistent", "consistent — {n}1.0 tok/s for Llama 3.1 8B BF16 on one H100 is 42% of the "
                   "bandwidth ceiling at batch 1, audit #{n}"),
]


async def test_a_digest_of_60_audits_spans_several_messages_with_nothing_cut(
    world_factory: Any,
) -> None:
    async with world_factory() as w:
        mods = w.guild.create_text_channel("mods")
        await w.mod.slash(w.general, "claimcheck digest", channel=mods, hour=9)
        now = w.bot.clock()
        expected: dict[Verdict, list[str]] = {v: [] for v, _ in HEADLINES}
        for n in range(60):
            verdict, head = HEADLINES[n % 4]
            await save_audit(w.bot.store, f"message:{n}", "{}", verdict, head.format(n=n),
                             created_at=now + timedelta(minutes=n),
                             place=AuditPlace(subject=f"s{n}", guild_id=w.guild.id,
                                              channel_id=w.general.id, message_id=1000 + n,
                                              thread_id=1000 + n))
            expected[verdict].append(f"audit \\#{n}](https://discord.com/channels/"
                                     f"{w.guild.id}/{1000 + n})")
        # The same subject audited again later: one line, its newest verdict.
        await save_audit(w.bot.store, "message:again", "{}", "consistent",
                         "consistent — 11.0 tok/s re-audited, audit #again",
                         created_at=now + timedelta(hours=2),
                         place=AuditPlace(subject="s0", guild_id=w.guild.id,
                                          channel_id=w.general.id, message_id=3000))
        await _to_nine(w)
        pages = _digest_pages(w, mods)
        msgs = [m for m in mods.history() if m.author.id == w.bot.user.id]
        assert len(msgs) == len(pages) == 3  # one embed per message, three messages
        assert all(_within_discord_limits(e) for e in pages)
        assert all("…(truncated)" not in e.description for e in pages)
        lines = "\n".join(e.description for e in pages).splitlines()
        assert lines[1] == "60 audits: 14 implausible, 15 suspicious, 15 insufficient, 16 consistent"
        for want in expected.values():
            for tail in want[1:] if "#0]" in want[0] else want:  # s0's newest is the re-audit
                assert sum(ln.endswith(tail) for ln in lines) == 1, tail
        assert sum(ln.startswith("- [11\\.0 tok/s re\\-audited") for ln in lines) == 1
        assert not any("audit \\#0]" in ln for ln in lines)
        assert not any(ln.startswith("- [implausible") or ln.startswith("- [consistent")
                       for ln in lines)  # the verdict word is the section's, not repeated
        # Every page after the first goes on with its section's title.
        assert all(e.description.splitlines()[0].endswith("(continued)")
                   or e.description.splitlines()[0].startswith("**")
                   for e in pages[1:])
        assert lines[-2:] == ["**Disputes** (0)", "- none open"]
        assert "**New in watched sources** (0)" in lines


def _board(records: list[dict[str, Any]]) -> dict[str, Any]:
    base = json.loads((FIXTURES / "generic_board/community_board.json").read_text(), strict=False)
    return {**base, "count": len(records), "records": records}


async def test_watched_source_records_appear_only_when_new_since_the_last_digest(
    world_factory: Any, server: Loopback
) -> None:
    records = json.loads((FIXTURES / "generic_board/community_board.json").read_text(), strict=False)["records"]
    board = server.json(BOARD, _board(records[:60]))
    async with world_factory() as w:
        mods = w.guild.create_text_channel("mods")
        await w.mod.slash(w.general, "claimcheck digest", channel=mods, hour=9)
        await w.mod.slash(w.general, "claimcheck source-add", url=board)

        async def new_section() -> list[str]:
            page_lines = "\n".join(e.description for e in _digest_pages(w, mods)).splitlines()
            starts = [i for i, ln in enumerate(page_lines)
                      if ln.startswith("**New in watched sources**")]
            day = page_lines[starts[-1]:]
            return day[1:day.index("**Disputes** (0)") - 1]

        await _to_nine(w)
        first = await new_section()
        assert first and all(ln.startswith(("- **implausible**", "- **suspicious**")) for ln in first)
        # The next day, the same board: nothing new, and yesterday's lines are not repeated.
        await w.env.advance_time(DAY)
        assert await new_section() == ["- nothing new since the last digest"]
        # One record added on the third day: only it is new.
        shown = first[0].split(" · ")[1].replace("\\", "")
        copy = {**next(r for r in records if r["id"] == shown), "id": "r-new-1"}
        server.json(BOARD, _board([*records[:60], copy]))
        await w.env.advance_time(DAY)
        (line,) = await new_section()
        assert line.split(" · ")[1] == "r\\-new\\-1"
        assert line.split(" · ")[0] == first[0].split(" · ")[0]  # same figures, same verdict
