"""The typed options every front door hands the pipeline.

Derived from the settings' `fetch` and `store` groups (`from_settings`), with a front door's own
entries added (boards, hosts) or put first (the cache file, `no_cache`): the fetch settings are
carried whole, not copied field by field. The pipeline never sees an `argparse.Namespace`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from bot.settings import FetchSettings, Settings

__all__ = ["PipelineOptions"]


class PipelineOptions(BaseModel):
    """How one audit, compare or sweep reads its inputs and fetches its links."""

    model_config = ConfigDict(frozen=True)

    fetch: FetchSettings = Field(default_factory=FetchSettings)
    boards: tuple[Path | str, ...] = ()  # leaderboard mapping files, merged over the built-in one
    cache_path: Path | None = None  # None: the default file under the user's data dir
    use_cache: bool = True  # False: fetched bodies are kept in memory only

    @property
    def allow_hosts(self) -> tuple[str, ...]:
        return tuple(self.fetch.allow_hosts)

    @property
    def fetch_budget(self) -> int:
        return self.fetch.fetch_budget

    @property
    def fetch_deadline_s(self) -> float:
        return self.fetch.fetch_deadline_s

    @property
    def total_timeout_s(self) -> float:
        return self.fetch.total_timeout_s

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        boards: Iterable[Path | str] = (),
        allow_hosts: Iterable[str] = (),
        cache_path: Path | None = None,
        no_cache: bool = False,
    ) -> PipelineOptions:
        """The settings, with a front door's own entries added (boards, hosts) or put first
        (the cache file, `no_cache`)."""
        fetch = settings.fetch
        extra = list(allow_hosts)
        if extra:
            fetch = fetch.model_copy(update={"allow_hosts": [*fetch.allow_hosts, *extra]})
        return cls(
            fetch=fetch,
            boards=(*settings.board_files, *boards),
            cache_path=cache_path or settings.store.db_path,
            use_cache=settings.store.use_cache and not no_cache,
        )
