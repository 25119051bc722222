from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import settings

from bot.core import Network
from checks.reference import Reference, load_reference
from tests.fixtures.web.loopback import Loopback
from tests.fixtures.web.loopback import loopback_network as _loopback


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
