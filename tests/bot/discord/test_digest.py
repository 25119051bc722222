"""The daily digest fires when virtual time reaches the guild's hour (simcord's clock drives
discord.py's tasks.loop), and lists the day's audits in severity order with jump links."""

from __future__ import annotations

from typing import Any

from tests.fixtures.web.loopback import Loopback


async def test_the_digest_fires_at_the_configured_hour_in_severity_order(
    world_factory: Any, server: Loopback
) -> None:
    board = server.file("/api/records", "generic_board/community_board.json")
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
        await w.env.advance_time(61)  # the loop's 09:00 iteration runs just after 09:00
        body = mods.last_message.embeds[0].description
        lines = body.splitlines()
        assert lines[0] == "**claimcheck digest** 2025-12-31 09:00 – 2026-01-01 09:00 UTC"
        assert lines[1] == "3 audits: 1 implausible, 0 suspicious, 1 insufficient, 1 consistent"
        ranked = [ln for ln in lines[lines.index("**By severity**") + 1:] if ln.startswith("- ")][:3]
        assert [ln.split("**")[1] for ln in ranked] == ["implausible", "insufficient", "consistent"]
        jump = f"https://discord.com/channels/{w.guild.id}/{threads['900 tok/s · RTX 4090 · Llama 3.1 70B']}"
        assert ranked[0].endswith(f"({jump})")
        need = lines[lines.index("**Need more information**") + 1]
        assert need.startswith("- **insufficient** insufficient — too little to judge 40\\.0 tok/s")
        new = lines[lines.index("**New in watched sources**") + 1:]
        assert new and all(ln.startswith(("- **implausible**", "- **suspicious**")) for ln in new)
        assert server.paths() == ["/api/records"]
        # The next hour passes without a second digest; the next day brings one.
        await w.env.advance_time(3600)
        assert len([m for m in mods.history() if m.author.id == w.bot.user.id]) == 1
