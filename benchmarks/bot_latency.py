"""How cheap the bot's pre-filter is, and how long a dropped link takes to become a report.

Run: `python benchmarks/bot_latency.py`. Prints figures; asserts nothing (tests never time).

1. `prefilter_speed()`: `bot.cogs.watch.prefilter` over 100,000 realistic chat messages (about 1%
   carry a link or a speed claim), against one pass of a single compiled regex over the same
   messages (the cheapest scan that could find the same candidates). The ratio says what the
   pre-filter costs per message relative to that floor.
2. `thread_latency()`: a link dropped in a channel until the report is in its thread, through
   discord.py's real code paths (simcord) with the page served by a loopback aiohttp server:
   uncached (a new URL each time: fetch, follow, audit, chart, thread) and cached (a URL audited
   before: the stored audit is reused and the reply points to the thread), p50 and p95.

`measure()` returns both as one dict; `run(budget)` gives them as rows of `python -m benchmarks`:
the pre-filter against the one-regex floor, and the uncached link-to-thread latency against the
cached one (the same path with the fetch, follow and audit taken out).
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.table import Budget, Row  # noqa: E402
from bot.cogs.watch import prefilter  # noqa: E402

__all__ = ["chat_messages", "measure", "prefilter_speed", "run", "thread_latency"]

_TALK = [
    "morning all", "anyone tried the new driver on linux?", "lol same", "brb 5 min",
    "I have 2 cards and 96 GB of RAM", "which quant do you run for 70B?", "thanks, that fixed it",
    "meetup on the 12th, who is in?", "the 3090 is still the value pick imo", "ok", "nice",
    "it OOMs at 32k context for me", "try lowering the batch to 4", "my fans are loud af",
]
_HOT = [
    "got 2103.6 tok/s on a 5090 with Qwen3.6-27B, batch 1",
    "new record https://speedboard.example/posts/{n}",
    "Llama 3.1 8B on one H100, batch 1, 150 tok/s",
    "see https://github.com/someone/bench/issues/{n}",
]
_FLOOR = re.compile(r"https?://|\d\s*(?:tok|t/s|tps)", re.IGNORECASE)


def chat_messages(n: int = 100_000, hot_share: float = 0.01, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(_HOT).format(n=i) if rng.random() < hot_share else rng.choice(_TALK)
            for i in range(n)]


def _best(fn: Any, repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return min(runs)


def prefilter_speed(n: int = 100_000) -> dict[str, float]:
    msgs = chat_messages(n)
    kept = sum(1 for m in msgs if prefilter(m) is not None)
    ours = _best(lambda: [prefilter(m) for m in msgs])
    floor = _best(lambda: [_FLOOR.search(m) for m in msgs])
    return {"messages": float(n), "kept": float(kept), "prefilter_s": ours, "one_regex_s": floor,
            "ratio": ours / floor, "prefilter_us_per_message": ours / n * 1e6}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _latency(rounds: int) -> dict[str, float]:
    import simcord

    from bot.app import create_bot
    from bot.settings import Settings
    from tests.fixtures.web.loopback import Loopback, loopback_network

    server = await Loopback().start()
    uncached: list[float] = []
    cached: list[float] = []
    try:
        server.file("/api/records", "generic_board/community_board.json")
        with tempfile.TemporaryDirectory() as tmp:
            b = create_bot(Settings(db_path=Path(tmp) / "bench.sqlite3", allow_hosts=[server.host],
                                    user_rate=10_000, channel_rate=10_000, keepalive_s=3600.0),
                           network=loopback_network)
            try:
                # A slow machine gives a slow figure, not a failure: simcord's settle gets a
                # minute (its 5 s default failed a loaded run while the readers loaded OCR),
                # and aiohttp's keep-alive timer is put beyond the run (see tests/bot/discord).
                async with simcord.run(b, strict_sync=False, settle_timeout=60.0) as env:
                    guild = env.create_guild("bench")
                    channel = guild.create_text_channel("general")
                    alice = guild.add_member(env.create_user("alice"))
                    for i in range(rounds):
                        url = server.file(f"/posts/{i}", "web/headline_post.html", "text/html")
                        start = time.perf_counter()
                        await alice.send(channel, url)
                        uncached.append(time.perf_counter() - start)
                        start = time.perf_counter()
                        await alice.send(channel, url)
                        cached.append(time.perf_counter() - start)
                    assert len(channel.threads) == rounds
            finally:
                await b.close()
    finally:
        await server.close()
    return {"rounds": float(rounds),
            "uncached_p50_s": statistics.median(uncached), "uncached_p95_s": _pct(uncached, 0.95),
            "cached_p50_s": statistics.median(cached), "cached_p95_s": _pct(cached, 0.95)}


def thread_latency(rounds: int = 20) -> dict[str, float]:
    return asyncio.run(_latency(rounds))


def measure(n: int = 100_000, rounds: int = 20) -> dict[str, dict[str, float]]:
    return {"prefilter": prefilter_speed(n), "thread_latency": thread_latency(rounds)}


def run(budget: Budget) -> list[Row]:
    """The rows for `python -m benchmarks`."""
    p = prefilter_speed()
    t = thread_latency()
    rows = [Row("chat pre-filter, 100k messages", "time", p["prefilter_s"], "s",
                "one compiled-regex scan of the same text", p["one_regex_s"],
                note=f"{p['kept']:.0f} kept, {p['prefilter_us_per_message']:.2f} µs/message")]
    for q in ("p50", "p95"):
        rows.append(Row(f"link → report in thread ({t['rounds']:.0f} links)", f"uncached {q}",
                        t[f"uncached_{q}_s"], "s", f"the same link cached, {q}", t[f"cached_{q}_s"]))
    return rows


def main() -> None:
    result = measure()
    p = result["prefilter"]
    print(f"pre-filter: {p['messages']:.0f} messages, {p['kept']:.0f} kept; "
          f"{p['prefilter_s'] * 1000:.1f} ms ({p['prefilter_us_per_message']:.2f} µs/message) vs one "
          f"compiled regex {p['one_regex_s'] * 1000:.1f} ms: ratio {p['ratio']:.2f}")
    t = result["thread_latency"]
    print(f"link → report in thread over {t['rounds']:.0f} rounds: uncached p50 "
          f"{t['uncached_p50_s'] * 1000:.0f} ms, p95 {t['uncached_p95_s'] * 1000:.0f} ms; cached p50 "
          f"{t['cached_p50_s'] * 1000:.0f} ms, p95 {t['cached_p95_s'] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
