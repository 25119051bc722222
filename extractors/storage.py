"""The small storage interface the extractors depend on: raw bodies first, parsed later.

Every fetched body is written with its metadata (`StoredBody`) before anything parses it, and the
parsers read the stored bytes back, so a report can always name the exact bytes it came from.
`RawStore` is the protocol; `MemoryRawStore` keeps everything in this process (`--no-cache`);
the SQLite implementation is `bot.store.fetch_cache.SqliteRawStore`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "MemoryRawStore",
    "RawStore",
    "StoredBody",
    "check_body",
    "is_fresh",
    "sha256_hex",
    "utc_now",
]


def sha256_hex(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def utc_now() -> datetime:
    return datetime.now(UTC)


class StoredBody(BaseModel):
    """What is known about one stored response body."""

    # Built on the first body stored, not at import: an audit of local files imports this
    # module (for `utc_now`) and stores nothing.
    model_config = ConfigDict(frozen=True, defer_build=True)

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    url: str  # the URL asked for
    final_url: str  # after redirects
    redirects: tuple[str, ...] = ()  # every URL that answered with a redirect, in order
    status: int
    content_type: str | None = None  # the Content-Type header as sent, charset included
    fetched_at: datetime  # UTC
    size: int = Field(ge=0)

    @field_validator("fetched_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("fetched_at must be timezone-aware")
        return value.astimezone(UTC)


@runtime_checkable
class RawStore(Protocol):
    """Where raw bodies live. `put_raw` is idempotent; bodies are addressed by sha256."""

    async def put_raw(self, meta: StoredBody, body: bytes) -> None: ...

    async def get_raw(self, sha256: str) -> bytes | None: ...

    async def latest_for_url(
        self, url: str, max_age_s: float | None = None
    ) -> StoredBody | None: ...


def check_body(meta: StoredBody, body: bytes) -> None:
    """Refuse to store bytes that do not match their metadata (a bug, never user input)."""
    if sha256_hex(body) != meta.sha256 or len(body) != meta.size:
        raise ValueError(f"body does not match its metadata (sha256 {meta.sha256[:12]}…)")


def is_fresh(meta: StoredBody, max_age_s: float | None, now: datetime) -> bool:
    return max_age_s is None or now - meta.fetched_at <= timedelta(seconds=max_age_s)


class MemoryRawStore:
    """A RawStore held in this process only; used with `--no-cache` and in tests."""

    def __init__(self, *, clock: Callable[[], datetime] = utc_now) -> None:
        self._bodies: dict[str, bytes] = {}
        self._fetches: dict[tuple[str, datetime, str], StoredBody] = {}
        self._clock = clock

    async def put_raw(self, meta: StoredBody, body: bytes) -> None:
        check_body(meta, body)
        self._bodies.setdefault(meta.sha256, bytes(body))
        self._fetches.setdefault((meta.url, meta.fetched_at, meta.sha256), meta)

    async def get_raw(self, sha256: str) -> bytes | None:
        return self._bodies.get(sha256)

    async def latest_for_url(self, url: str, max_age_s: float | None = None) -> StoredBody | None:
        rows = [m for m in self._fetches.values() if m.url == url]
        if not rows:
            return None
        latest = max(rows, key=lambda m: m.fetched_at)
        return latest if is_fresh(latest, max_age_s, self._clock()) else None

    def __len__(self) -> int:
        """How many fetches are recorded (not distinct bodies)."""
        return len(self._fetches)
