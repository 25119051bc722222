from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import settings

from bot.core import Network
from checks.reference import Reference, load_reference
from tests.fixtures.web.loopback import Loopback
from tests.fixtures.web.loopback import loopback_network as _loopback

# The longest tests, started first: with the suite spread over two processes (pytest-xdist,
# `-n 2` in pyproject.toml), a minute-long file left for the end keeps one core busy while the
# other has nothing left to run. Measured with `pytest --durations=60`; the order is otherwise
# the collection order, so every run is the same.
LONG_FIRST = (
    "tests/test_lint.py",  # mypy over the tree, cold on a fresh clone
    "tests/bot/store/test_crash.py",  # 40 writer processes killed mid-write
    "tests/bot/discord/test_burst.py",  # 500-message bursts
    "tests/extractors/test_linear_time.py",
    "tests/extractors/test_ocr_screens.py",
    "tests/bot/discord/test_digest.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)  # stable: each file keeps its own order


@pytest.fixture(scope="session")
def ref() -> Reference:
    return load_reference()


@pytest.fixture
async def server() -> AsyncIterator[Loopback]:
    """A loopback server for the web fixtures (tests/fixtures/web/loopback.py); a test module
    with a server of its own (test_safe_fetch) overrides this one."""
    srv = await Loopback().start()
    yield srv
    await srv.close()


# Property tests must be deterministic in CI: the same examples every run (a failure found once is
# kept by the explicit @example or a regression test, not by luck).
settings.register_profile("claimcheck", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("claimcheck")


@pytest.fixture
def loopback_network() -> Network:
    """How the app, the bot and the CLI reach hosts in a test: loopback only, no DNS. Passed in
    (`App.open(..., network=)`, `create_bot(..., network=)`, `main(..., network=)`), never
    patched into a module."""
    return _loopback
