"""The limits and allow-list of one fetcher (`FetchPolicy`), and the user agent it sends.

The defaults are the production ones. Allow-list entries are normalised to
"host[:port]" (IPv6 hosts in brackets), so two spellings of one entry compare equal.
"""

from __future__ import annotations

from typing import Literal

import aiohttp
from pydantic import BaseModel, ConfigDict, Field, field_validator

from extractors.fetch.url_policy import parse_allow_entry

__all__ = ["USER_AGENT", "Family", "FetchPolicy", "MiB"]

MiB = 1024 * 1024
USER_AGENT = "claimcheck/0.1 (+https://github.com/claimcheck/claimcheck; audits LLM speed claims)"

Family = Literal["json", "html", "text", "image"]


def _render_entry(host: str, port: int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return shown if port is None else f"{shown}:{port}"


class FetchPolicy(BaseModel):
    """Limits and the allow-list for one fetcher. Defaults are the production ones."""

    model_config = ConfigDict(frozen=True)

    allow_hosts: frozenset[str] = frozenset()  # "host[:port]" let through address and port rules
    max_redirects: int = Field(5, ge=0, le=20)
    total_timeout: float = Field(15.0, gt=0)
    connect_timeout: float = Field(5.0, gt=0)
    read_timeout: float = Field(10.0, gt=0)
    keepalive_timeout: float = Field(15.0, gt=0)  # an idle connection is kept this long
    html_cap: int = Field(2 * MiB, gt=0)
    json_cap: int = Field(8 * MiB, gt=0)
    # text/plain gets the JSON cap: raw.githubusercontent.com and gists serve JSON as text/plain.
    text_cap: int = Field(8 * MiB, gt=0)
    # Pictures (a post's screenshots, read by OCR): 0 refuses them, as before OCR existed.
    image_cap: int = Field(0, ge=0)
    user_agent: str = USER_AGENT

    @field_validator("allow_hosts")
    @classmethod
    def _normalise(cls, value: frozenset[str]) -> frozenset[str]:
        return frozenset(_render_entry(*parse_allow_entry(e)) for e in value)

    def cap_for(self, family: Family) -> int:
        return {"json": self.json_cap, "html": self.html_cap, "text": self.text_cap,
                "image": self.image_cap}[family]

    def client_timeout(self) -> aiohttp.ClientTimeout:
        return aiohttp.ClientTimeout(
            total=self.total_timeout,
            sock_connect=self.connect_timeout,
            sock_read=self.read_timeout,
        )
