"""Configuration, from the environment (CLAIMCHECK_*) and the command line (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CLAIMCHECK_", extra="ignore")

    reference_files: list[Path] = Field(default_factory=list)  # merged over the packaged tables
    board_files: list[Path] = Field(default_factory=list)  # extra leaderboard mappings
    cache_path: Path | None = None  # None: the default file under the user's data dir
    use_cache: bool = True
    allow_hosts: list[str] = Field(default_factory=list)  # host[:port] let through the address rules
    fetch_budget: int = 12  # fetches per audit when following links
    fetch_deadline_s: float = 30.0
    total_timeout_s: float = 15.0
