from __future__ import annotations

import pytest
from hypothesis import settings

from checks.reference import Reference, load_reference


@pytest.fixture(scope="session")
def ref() -> Reference:
    return load_reference()


# Property tests must be deterministic in CI: the same examples every run (a failure found once is
# kept by the explicit @example or a regression test, not by luck).
settings.register_profile("claimcheck", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("claimcheck")
