"""Every URL of tests/fixtures/hostile/urls.txt is refused before any connection is made.

98 URLs: other schemes, every spelling of loopback, private, link-local, metadata, shared,
multicast and reserved addresses, bad ports, userinfo, malformed and over-long host names, DNS
names that rebind to private addresses, and redirects from an allowed page to each of those, a
loop and a chain. `python -m benchmarks.hostile urls` prints the same count for the README.
"""

from __future__ import annotations

from tests.hostile_urls import load_hostile, run_hostile


async def test_every_hostile_url_is_refused_and_nothing_connects() -> None:
    lines = load_hostile()
    outcomes = await run_hostile(lines)
    assert len(outcomes) == len(lines) == 98
    assert [o for o in outcomes if not o.refused] == []
    assert all(o.connected_to == () for o in outcomes)


async def test_a_refusal_names_the_rule() -> None:
    outcomes = {o.url: o.said for o in await run_hostile([
        "http://169.254.169.254/latest/meta-data/", "http://rebind-mixed.test/", "http://-/"])}
    assert outcomes == {
        "http://169.254.169.254/latest/meta-data/":
            "that address is not allowed: 169.254.169.254 is link-local",
        "http://rebind-mixed.test/":
            "that address is not allowed: rebind-mixed.test resolves to 127.0.0.1, which is a "
            "loopback address",
        "http://-/": "that URL is not allowed: '-' is not a valid host name (a part of it starts "
                     "or ends with a hyphen)",
    }
