"""The typed options every front door hands the pipeline.

The CLI builds them from its flags over the settings (`from_settings(settings, ...)`); the bot
builds them from the settings and a guild's configuration. Neither fakes the other's inputs: the
pipeline never sees an `argparse.Namespace`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from bot.settings import Settings

__all__ = ["PipelineOptions"]


class PipelineOptions(BaseModel):
    """How one audit, compare or sweep reads its inputs and fetches its links."""

    model_config = ConfigDict(frozen=True)

    boards: tuple[Path | str, ...] = ()  # leaderboard mapping files, merged over the built-in one
    allow_hosts: tuple[str, ...] = ()  # host[:port] let through the address and port rules
    cache_path: Path | None = None  # None: the default file under the user's data dir
    use_cache: bool = True  # False: fetched bodies are kept in memory only
    fetch_budget: int = 12  # fetches per audit when following links
    fetch_deadline_s: float = 30.0  # for a whole follow (or a whole board read)
    total_timeout_s: float = 15.0  # for one fetch

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
        return cls(
            boards=(*settings.board_files, *boards),
            allow_hosts=(*settings.allow_hosts, *allow_hosts),
            cache_path=cache_path or settings.db_path,
            use_cache=settings.use_cache and not no_cache,
            fetch_budget=settings.fetch_budget,
            fetch_deadline_s=settings.fetch_deadline_s,
            total_timeout_s=settings.total_timeout_s,
        )
