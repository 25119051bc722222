"""Configuration, from the environment (CLAIMCHECK_*) and the command line (pydantic-settings).

`db_path` is the store's SQLite file (fetched pages, audits, guild settings, digests); the older
`cache_path` (CLAIMCHECK_CACHE_PATH) is still accepted and used when `db_path` is not set.
`allow_hosts` and `shard_ids` are JSON lists in the environment
(`CLAIMCHECK_ALLOW_HOSTS='["127.0.0.1:8080"]'`).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CLAIMCHECK_", extra="ignore")

    reference_files: list[Path] = Field(default_factory=list)  # merged over the packaged tables
    board_files: list[Path] = Field(default_factory=list)  # extra leaderboard mappings
    db_path: Path | None = None  # None: the default file under the user's data dir
    cache_path: Path | None = None  # the old name of db_path, still read
    use_cache: bool = True
    cache_lifetime_s: float = 6 * 3600.0  # a stored page or audit older than this is redone
    allow_hosts: list[str] = Field(default_factory=list)  # host[:port] let through the address rules
    fetch_budget: int = 12  # fetches per audit when following links
    fetch_deadline_s: float = 30.0
    total_timeout_s: float = 15.0

    # The Discord bot
    token: SecretStr | None = None
    dev_guild_id: int | None = None  # slash commands are synced here at start (instantly visible)
    owner_ids: list[int] = Field(default_factory=list)  # empty: the application's owner
    charts: bool = True  # attach the PNG chart to reports (False: text only)
    attachment_max_bytes: int = Field(default=2 * 1024 * 1024, ge=1)  # /audit file: cap
    user_rate: int = Field(default=3, ge=1)  # audits a member may start per `user_per_s`
    user_per_s: float = Field(default=60.0, gt=0)
    channel_rate: int = Field(default=10, ge=1)  # audits started in one channel per `channel_per_s`
    channel_per_s: float = Field(default=60.0, gt=0)
    shard_count: int | None = Field(default=None, ge=1)  # set: AutoShardedBot
    shard_ids: list[int] | None = None  # the shards this process runs (of shard_count)

    @model_validator(mode="after")
    def _old_cache_name(self) -> Settings:
        if self.db_path is None and self.cache_path is not None:
            self.db_path = self.cache_path
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("shard_ids needs shard_count (the total number of shards)")
        if self.shard_ids and self.shard_count and max(self.shard_ids) >= self.shard_count:
            raise ValueError(f"shard_ids must be below shard_count ({self.shard_count})")
        return self

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None
