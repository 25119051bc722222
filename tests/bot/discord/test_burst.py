"""A burst: 500 messages at once in four channels from forty members — small talk, one URL
repeated a hundred times, distinct pasted claims, and one member spamming claims. Every claim
that the rate limits let through is audited exactly once, the repeated URL is fetched once, the
spammer gets no more than the per-member limit, and nothing crashes (simcord fails the test on
any error the bot raised)."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.bot.discord.conftest import BOARD, POST, serve_headline
from tests.fixtures.web.loopback import Loopback

SMALL_TALK = ["morning all", "which driver do you run?", "lol", "I have 2 cards and 96 GB",
              "brb 5 min", "thanks!", "anyone at the meetup on the 12th?"]


async def test_a_burst_of_500_messages_audits_each_claim_once_within_the_limits(
    world_factory: Any, server: Loopback
) -> None:
    url = serve_headline(server)
    rng = random.Random(7)
    async with world_factory(user_rate=5, user_per_s=600, channel_rate=500, channel_per_s=600) as w:
        channels = [w.general] + [w.guild.create_text_channel(f"c{i}") for i in range(3)]
        members = [w.guild.add_member(w.env.create_user(f"u{i}")) for i in range(40)]
        spammer = w.guild.add_member(w.env.create_user("spammer"))
        plan: list[tuple[Any, Any, str]] = []
        for i, m in enumerate(members):  # 2 distinct claims each + the URL 2-3 times each
            plan += [(m, channels[i % 4], f"I got {1000 + 2 * i + k} tok/s on my rig") for k in (0, 1)]
        plan += [(members[i % 40], channels[i % 4], f"wow {url}") for i in range(100)]
        plan += [(spammer, channels[0], f"I got {n} tok/s") for n in range(1, 31)]  # 0 tok/s is no claim
        plan += [(members[i % 40], channels[i % 4], rng.choice(SMALL_TALK))
                 for i in range(500 - len(plan))]
        rng.shuffle(plan)
        assert len(plan) == 500
        # All 500 go into the simulated Discord before the bot handles any: the gateway then
        # delivers them back to back and the bot works through them concurrently.
        # simcord has no public "many at once": its backend takes the messages without waiting,
        # and the last of each wave, sent the ordinary way, lets the bot work through the wave
        # concurrently. Waves of 50 keep each within simcord's settle timeout on a slow machine
        # (each report carries its buttons, which simcord checks on every send).
        for start in range(0, len(plan), 50):
            wave = plan[start:start + 50]
            for m, ch, text in wave[:-1]:
                w.env.backend.create_message(ch.id, m.id, text, reference=None, attachments=[])
            last_member, last_channel, last_text = wave[-1]
            await last_member.send(last_channel, last_text)

        cog = w.bot.get_cog("WatchCog")
        distinct = 80 + 1  # the members' claims and the URL
        assert w.bot.auditor.audits_run == distinct + 5  # the spammer: 5 of 30
        assert cog.limited == 25
        assert server.paths().count(POST) == 1 and server.paths().count(BOARD) == 1
        rows = await w.bot.store.read("SELECT subject, count(*) FROM audits GROUP BY subject")
        assert len(rows) == distinct + 5 and all(r[1] == 1 for r in rows)
        threads = [t for ch in channels for t in ch.threads]
        assert len(threads) == distinct + 5


class _CountingExecutor(ThreadPoolExecutor):
    """The loop's default executor, counting what is put on it."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


async def test_500_concurrent_pasted_claims_never_wait_on_the_default_executor(
    world_factory: Any,
) -> None:
    """Each pasted claim is read in a reading worker, waited on through the loop's own
    selector: none of the 500 takes a default-executor thread (before the pool, each took one
    for as long as its worker ran, six threads on two cores), so a one-thread executor is
    enough and stays free for the work that needs it."""
    executor = _CountingExecutor()
    asyncio.get_running_loop().set_default_executor(executor)
    async with world_factory(user_rate=500, user_per_s=600, channel_rate=500, channel_per_s=600,
                             charts=False) as w:
        members = [w.guild.add_member(w.env.create_user(f"u{i}")) for i in range(50)]
        texts = [(members[i % 50], f"Llama 3.1 8B on one RTX 4090, batch 1: {100 + i} tok/s")
                 for i in range(500)]
        for start in range(0, len(texts), 50):  # each report carries buttons: smaller waves
            wave = texts[start:start + 50]
            for m, text in wave[:-1]:
                w.env.backend.create_message(w.general.id, m.id, text, reference=None,
                                             attachments=[])
            await wave[-1][0].send(w.general, wave[-1][1])
        assert w.bot.auditor.audits_run == 500
        assert len(w.general.threads) == 500
        assert executor.submitted == 0
        probe = await asyncio.wait_for(asyncio.to_thread(lambda: "free"), 5)
        assert probe == "free" and w.bot.app.pool.replaced == 0
