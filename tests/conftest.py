from __future__ import annotations

import pytest

from checks.reference import Reference, load_reference


@pytest.fixture(scope="session")
def ref() -> Reference:
    return load_reference()
