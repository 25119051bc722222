from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import settings

from checks.reference import Reference, load_reference
from tests.fixtures.web.loopback import Loopback, bot_fetching_on_loopback


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
def loopback_network() -> Iterator[None]:
    """The bot's and the CLI's fetches confined to loopback (`bot_fetching_on_loopback`)."""
    with bot_fetching_on_loopback():
        yield
