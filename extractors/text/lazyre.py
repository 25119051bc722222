"""Patterns compiled on first use. The readers hold a few hundred module-level patterns; compiling
them all when `extractors` is imported was most of its import time, though a CLI run or one audit
uses a handful of readers. `lazy` returns a stand-in that compiles on its first attribute access
and then keeps the compiled pattern's methods on itself, so later calls cost a plain attribute
lookup."""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["lazy"]


class _Lazy:
    """A pattern's source and flags until something is asked of it."""

    def __init__(self, source: str, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes not yet on the instance: compile once, then keep the bound
        # method (or attribute) here so the next lookup does not come back through this hook.
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(re.compile(self._source, self._flags), name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy({self._source!r})"


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern that compiles `source` when first used (typed as the pattern it stands for)."""
    return cast(re.Pattern[str], _Lazy(source, flags))
