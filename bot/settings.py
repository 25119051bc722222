"""Configuration, from the environment (CLAIMCHECK_*) and the command line (pydantic-settings).

Split by concern, one nested model each: `fetch` (hosts let through, budget, deadlines),
`store` (the SQLite file, the cache), `discord` (token, guild, owners, sharding, charts) and
`limits` (rate limits, attachment cap, reading workers). The pipeline's options are derived from
`fetch` and `store` (`bot.options.PipelineOptions.from_settings`), never copied field by field.

Environment names: the nested form `CLAIMCHECK_FETCH__ALLOW_HOSTS` and, as before, the flat
`CLAIMCHECK_ALLOW_HOSTS` (every name the README lists keeps working; the nested one wins when
both are set). Keyword arguments may be flat too (`Settings(db_path=...)`). `db_path` is the
store's SQLite file; the older `cache_path` (CLAIMCHECK_CACHE_PATH) is still read when `db_path`
is not set. Lists are JSON (`CLAIMCHECK_ALLOW_HOSTS='["127.0.0.1:8080"]'`).
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

if TYPE_CHECKING:  # imported when a CLAIMCHECK_ variable is set (`_environment_reader`)
    from pydantic_settings import BaseSettings

__all__ = ["DiscordSettings", "FetchSettings", "LimitSettings", "Settings", "StoreSettings",
           "flat_name"]

PREFIX = "CLAIMCHECK_"


class FetchSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    allow_hosts: list[str] = Field(default_factory=list)  # host[:port] let through the address rules
    fetch_budget: int = 12  # fetches per audit when following links
    fetch_deadline_s: float = 30.0  # for a whole follow (or a whole board read, or a reading)
    total_timeout_s: float = 15.0  # for one fetch
    # How long an idle connection is kept for the next fetch from the same host (aiohttp's
    # default). Tests running under simcord set it beyond any test's length: the connector's
    # cleanup timer then never fires in the middle of one.
    keepalive_s: float = Field(default=15.0, gt=0)
    # A followed post's first pictures are read by OCR (its screenshot is often its only
    # evidence): how many (0: none), and the byte cap of each. Only when the OCR extra is
    # installed. The defaults are extractors.web.images' MAX_POST_IMAGES and IMAGE_CAP (not
    # imported: the settings load on the CLI's cold path; a test pins that they agree).
    post_images: int = Field(default=2, ge=0, le=8)
    image_max_bytes: int = Field(default=8 * 1024 * 1024, ge=1)


class StoreSettings(BaseModel):
    db_path: Path | None = None  # None: the default file under the user's data dir
    cache_path: Path | None = None  # the old name of db_path, still read
    use_cache: bool = True
    cache_lifetime_s: float = 6 * 3600.0  # a stored page or audit older than this is redone
    # Where the CLI keeps what it compiled for the next run: patterns (extractors.text.compiled)
    # and the loaded reference (bot.reference_cache); None: the user cache dir. None is kept
    # (or read) under PYTHONDONTWRITEBYTECODE.
    compiled_dir: Path | None = None

    @model_validator(mode="after")
    def _old_cache_name(self) -> StoreSettings:
        if self.db_path is None and self.cache_path is not None:
            self.db_path = self.cache_path
        return self


class DiscordSettings(BaseModel):
    token: SecretStr | None = None
    dev_guild_id: int | None = None  # slash commands are synced here at start (instantly visible)
    owner_ids: list[int] = Field(default_factory=list)  # empty: the application's owner
    charts: bool = True  # attach the PNG chart to reports (False: text only)
    shard_count: int | None = Field(default=None, ge=1)  # set: AutoShardedBot
    shard_ids: list[int] | None = None  # the shards this process runs (of shard_count)
    # When a member deletes an audited message: its thread (or reply) is deleted, or archived
    # and locked with a note saying why.
    on_delete: Literal["delete", "archive"] = "delete"

    @model_validator(mode="after")
    def _shards(self) -> DiscordSettings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("shard_ids needs shard_count (the total number of shards)")
        if self.shard_ids and self.shard_count and max(self.shard_ids) >= self.shard_count:
            raise ValueError(f"shard_ids must be below shard_count ({self.shard_count})")
        return self


class LimitSettings(BaseModel):
    attachment_max_bytes: int = Field(default=2 * 1024 * 1024, ge=1)  # /audit file: cap
    user_rate: int = Field(default=3, ge=1)  # audits a member may start per `user_per_s`
    user_per_s: float = Field(default=60.0, gt=0)
    channel_rate: int = Field(default=10, ge=1)  # audits started in one channel per `channel_per_s`
    channel_per_s: float = Field(default=60.0, gt=0)
    readers: int | None = Field(default=None, ge=1)  # reading worker processes (None: the cores, up to 4)
    warm_ocr: bool = True  # each reading worker loads the OCR models as it starts (when installed)


_GROUPS: dict[str, type[BaseModel]] = {"fetch": FetchSettings, "store": StoreSettings,
                                       "discord": DiscordSettings, "limits": LimitSettings}
# The flat (pre-split) name of every grouped field, and its group.
_FLAT: dict[str, str] = {name: group for group, model in _GROUPS.items()
                         for name in model.model_fields}
_JSON_FIELDS = {"allow_hosts", "owner_ids", "shard_ids"}


def flat_name(loc: tuple[int | str, ...]) -> str:
    """The environment variable a validation error's location names (the flat form)."""
    names = [str(part) for part in loc if str(part) not in _GROUPS]
    return PREFIX + (names[0] if names else str(loc[0])).upper() if loc else PREFIX + "*"


class _Fields(BaseModel):
    """The settings' fields, their flat keywords and properties: `Settings` and the class that
    reads them from the environment (`_environment_reader`) are both made of these."""

    reference_files: list[Path] = Field(default_factory=list)  # merged over the packaged tables
    board_files: list[Path] = Field(default_factory=list)  # extra leaderboard mappings
    fetch: FetchSettings = Field(default_factory=FetchSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)

    @model_validator(mode="before")
    @classmethod
    def _flat_keywords(cls, data: Any) -> Any:
        """`Settings(db_path=..., token=...)`: flat keywords go to their group."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for name in [k for k in data if k in _FLAT]:
            group = data.setdefault(_FLAT[name], {})
            if isinstance(group, BaseModel):
                group = data[_FLAT[name]] = group.model_dump()
            group[name] = data.pop(name)  # a keyword given is what the caller wants
        return data

    @property
    def sharded(self) -> bool:
        return self.discord.shard_count is not None

    @property
    def db_path(self) -> Path | None:
        return self.store.db_path


def _names_a_setting(name: str) -> bool:
    """Whether pydantic-settings may read this environment variable as a setting (it compares
    names lower-cased; the flat names are compared upper-cased)."""
    return name.lower().startswith(PREFIX.lower()) or name.upper().startswith(PREFIX)


class Settings(_Fields):
    """The settings: the keywords given, over the CLAIMCHECK_ variables (read by pydantic-settings,
    imported only when one is set: with none set there is nothing for it to read, and importing
    it was ~30 ms of a cold `claimcheck audit --example`), over the defaults."""

    model_config = ConfigDict(extra="ignore")

    def __init__(self, **values: Any) -> None:
        if any(_names_a_setting(name) for name in os.environ):
            read = _environment_reader()(**values)
            values = {name: getattr(read, name) for name in read.model_fields_set}
        super().__init__(**values)


@cache
def _environment_reader() -> type[BaseSettings]:
    """The pydantic-settings class reading the settings' fields from the environment: the
    nested names (CLAIMCHECK_FETCH__ALLOW_HOSTS) and the flat ones (`_FlatEnv`), under the
    keywords given."""
    from pydantic_settings import (
        BaseSettings,
        PydanticBaseSettingsSource,
        SettingsConfigDict,
        SettingsError,
    )

    class _FlatEnv(PydanticBaseSettingsSource):
        """The flat names (CLAIMCHECK_ALLOW_HOSTS, CLAIMCHECK_TOKEN, …), read into their groups."""

        def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
            return None, field_name, False  # __call__ does the work

        def __call__(self) -> dict[str, Any]:
            env = {k.upper(): v for k, v in os.environ.items() if k.upper().startswith(PREFIX)}
            out: dict[str, dict[str, Any]] = {}
            for name, group in _FLAT.items():
                raw = env.get(PREFIX + name.upper())
                if raw is None:
                    continue
                value: Any = raw
                if name in _JSON_FIELDS:
                    try:
                        value = json.loads(raw)
                    except ValueError:
                        raise SettingsError(
                            f'error parsing value for field "{name}" from source "_FlatEnv"') from None
                out.setdefault(group, {})[name] = value
            return out

    class Settings(BaseSettings, _Fields):  # named so: its validation errors name the settings
        model_config = SettingsConfigDict(env_prefix=PREFIX, env_nested_delimiter="__",
                                          extra="ignore")

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            return (init_settings, env_settings, _FlatEnv(settings_cls), dotenv_settings,
                    file_secret_settings)

    return Settings
