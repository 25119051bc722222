"""X/Twitter status links, read through the fxtwitter JSON mirror (github.com/FixTweet/FxTwitter).

x.com needs JavaScript; `https://api.fxtwitter.com/<user>/status/<id>` answers without it:
`{code, message, tweet{url, id, text, raw_text{text, facets[]}, author{name, screen_name},
created_at, created_timestamp, media{photos[], videos[], all[]}, quote?, …}}`. Long "note tweets"
arrive whole in `text`.

Quirks:
- Links in tweets are `t.co` shortlinks. `expand_shortlinks` fetches each one through the same
  SafeFetcher (redirects followed, every hop checked) and records where it led; the fetched body
  is kept, so the target is not fetched again when it is followed.
- `raw_text.facets` of type `url` carry the expanded link when fxtwitter has it.
- A quoted tweet's text is context (often the claim being answered) but its links are not this
  post's, so they are not followed.
- `code` other than 200 (a deleted or private status) is a clear "not available", not a parse error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from urllib.parse import urlsplit

from extractors.errors import FetchError, NoClaimFound
from extractors.links import find_links, is_image_link
from extractors.web.post import PostPage, from_timestamp, unique

__all__ = [
    "FXTWITTER_API",
    "SHORTENER_HOSTS",
    "TWITTER_HOSTS",
    "Expanded",
    "api_url",
    "expand_shortlinks",
    "is_shortlink",
    "is_status",
    "parse_status",
]

FXTWITTER_API = "https://api.fxtwitter.com"
TWITTER_HOSTS = ("twitter.com", "x.com", "www.twitter.com", "www.x.com", "mobile.twitter.com",
                 "mobile.x.com", "fxtwitter.com", "fixupx.com", "vxtwitter.com", "fixvx.com")
SHORTENER_HOSTS = ("t.co", "bit.ly", "buff.ly", "ow.ly", "tinyurl.com", "lnkd.in", "dlvr.it",
                   "trib.al", "is.gd")
_STATUS = re.compile(r"^/(?P<user>[A-Za-z0-9_]{1,15})/status(?:es)?/(?P<id>\d{1,25})(?:/|$)")
_WEB_STATUS = re.compile(r"^/i/web/status/(?P<id>\d{1,25})(?:/|$)")


def api_url(url: str) -> str | None:
    """The fxtwitter JSON URL for a status link, or None when the URL is not one."""
    parts = urlsplit(url)
    if (parts.hostname or "").lower() not in TWITTER_HOSTS:
        return None
    m = _STATUS.match(parts.path)
    if m:
        return f"{FXTWITTER_API}/{m['user']}/status/{m['id']}"
    m = _WEB_STATUS.match(parts.path)
    if m:
        return f"{FXTWITTER_API}/i/status/{m['id']}"
    return None


def is_shortlink(url: str) -> bool:
    try:
        return (urlsplit(url).hostname or "").lower() in SHORTENER_HOSTS
    except ValueError:  # not a link urlsplit can read: not a shortlink either
        return False


def is_status(data: Any) -> bool:
    """An fxtwitter answer: a `tweet` object with text, or an error answer for a status."""
    if not isinstance(data, dict) or "tweet" not in data:
        return False
    tweet = data.get("tweet")
    if isinstance(tweet, dict):
        return isinstance(tweet.get("text"), str) or isinstance(tweet.get("raw_text"), dict)
    return tweet is None and "code" in data


def _media(tweet: dict[str, Any]) -> list[str]:
    media = tweet.get("media")
    if not isinstance(media, dict):
        return []
    urls = []
    for key in ("photos", "videos", "mosaic", "all"):
        items = media.get(key)
        if isinstance(items, dict):
            items = [items]
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("url"), str):
                urls.append(item["url"])
    return unique(urls)


def _facet_links(tweet: dict[str, Any]) -> list[str]:
    raw = tweet.get("raw_text")
    facets = raw.get("facets") if isinstance(raw, dict) else None
    out = []
    for f in facets if isinstance(facets, list) else []:
        if isinstance(f, dict) and f.get("type") == "url":
            for key in ("replacement", "original"):
                if isinstance(f.get(key), str) and f[key].startswith(("http://", "https://")):
                    out.append(f[key])
                    break
    return out


def _created(tweet: dict[str, Any]) -> datetime | str | None:
    when = from_timestamp(tweet.get("created_timestamp"))  # out of range: created_at instead
    if when is not None:
        return when
    return tweet.get("created_at") if isinstance(tweet.get("created_at"), str) else None


def parse_status(data: Any, url: str) -> PostPage:
    """The post of an fxtwitter answer. Raises NoClaimFound for a status that is not available."""
    tweet = data.get("tweet")
    if not isinstance(tweet, dict):
        why = str(data.get("message") or data.get("code") or "no tweet in the answer")[:80]
        raise NoClaimFound(f"{url}: the status is not available ({why})")
    text = tweet.get("text")
    if not isinstance(text, str):
        raw = tweet.get("raw_text")
        text = raw.get("text") if isinstance(raw, dict) else None
        text = text if isinstance(text, str) else ""
    links = [*_facet_links(tweet), *find_links(text)]
    images = _media(tweet)
    body = text.strip()
    quote = tweet.get("quote")
    if isinstance(quote, dict) and isinstance(quote.get("text"), str):
        quoted = quote.get("author")
        who = quoted.get("screen_name") if isinstance(quoted, dict) else None
        body += f"\n\nQuoting @{who or '?'}: {quote['text'].strip()}"
    author = tweet.get("author")
    name = author.get("screen_name") if isinstance(author, dict) else None
    return PostPage(
        text=body,
        title=None,
        author=f"@{name}" if isinstance(name, str) and name else None,
        created=_created(tweet),
        links=unique([u for u in links if not is_image_link(u)]),
        images=unique([*images, *(u for u in links if is_image_link(u))]),
        site="fxtwitter",
    )


# ---- shortlinks -------------------------------------------------------------------------------


class _Fetcher(Protocol):
    async def fetch(
        self, url: str, *, kind_hint: Any = None, max_age_s: float | None = None
    ) -> Any: ...


@dataclass(frozen=True)
class Expanded:
    """One shortlink and where it led: the final URL and its stored body, or why not."""

    short: str
    final: str | None = None
    fetched: Any = None  # extractors.fetch.Fetched
    failure: str | None = None


async def expand_shortlinks(
    urls: Sequence[str],
    fetcher: _Fetcher,
    *,
    is_short: Callable[[str], bool] = is_shortlink,
) -> list[Expanded]:
    """Fetch every shortlink among `urls` (redirects followed by the SafeFetcher) and say where
    each one led. Failures are reported, never raised: a dead t.co link is a finding."""
    out = []
    for url in urls:
        if not is_short(url):
            continue
        try:
            fetched = await fetcher.fetch(url)
        except FetchError as exc:
            out.append(Expanded(url, failure=str(exc)))
            continue
        out.append(Expanded(url, final=fetched.final_url, fetched=fetched))
    return out
