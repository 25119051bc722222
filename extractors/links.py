"""Finding and ranking the links in a post: which page has the real config.

Viral posts are often traffic for a leaderboard whose record holds the real config, so links to
known leaderboard and benchmark hosts, raw JSON, gists and repositories rank first; papers and
ordinary pages next; navigation, social and image links last. Images are counted, not followed:
"the body has a number, the image is a photo of a GPU".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["RankedLink", "find_links", "is_evidence_link", "is_image_link", "rank_links", "score_link"]

_URL = re.compile(r"""https?://[^\s<>()\[\]{}"'`|\\^]+""", re.IGNORECASE)
_TRAILING = ".,;:!?*_~"

# Public leaderboards and benchmark sites (each host is the site's own address).
BOARD_HOSTS = (
    "inferencex.semianalysis.com",
    "inferencex.com",
    "localscore.ai",
    "localscore.org",
    "freedomintelligence.github.io",
    "llm-speed.com",
    "api.llm-speed.com",
    "runlocalai.co",
    "mlcommons.org",
)
CODE_HOSTS = ("github.com", "gitlab.com", "codeberg.org")
RAW_HOSTS = ("raw.githubusercontent.com", "gist.githubusercontent.com", "pastebin.com")
GIST_HOSTS = ("gist.github.com",)
MODEL_HOSTS = ("huggingface.co", "hf.space", "hf.co")
PAPER_HOSTS = ("arxiv.org", "openreview.net", "papers.nips.cc")
SOCIAL_HOSTS = ("twitter.com", "x.com", "t.co", "reddit.com", "redd.it", "youtube.com", "youtu.be",
                "discord.gg", "discord.com", "linkedin.com", "facebook.com", "bsky.app", "threads.net")
IMAGE_HOSTS = ("i.redd.it", "preview.redd.it", "i.imgur.com", "imgur.com", "pbs.twimg.com")
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".heic", ".mp4", ".mov")
DATA_EXT = (".json", ".jsonl", ".csv", ".log", ".txt", ".sh", ".yaml", ".yml")

EVIDENCE_SCORE = 60  # boards, raw data, gists, repositories, model cards


@dataclass(frozen=True)
class RankedLink:
    url: str
    score: int
    why: str


def _host_in(host: str, hosts: tuple[str, ...]) -> bool:
    return any(host == h or host.endswith("." + h) for h in hosts)


def find_links(text: str) -> list[str]:
    """Every http(s) URL in the text, in order, without duplicates or trailing punctuation."""
    seen: dict[str, None] = {}
    for m in _URL.finditer(text or ""):
        url = m.group(0).rstrip(_TRAILING)
        seen.setdefault(url, None)
    return list(seen)


def _host_path(url: str) -> tuple[str, str] | None:
    """Lower-case host and path, or None for a link urlsplit cannot read (`http://[::1`)."""
    try:
        parts = urlsplit(url)
        return (parts.hostname or "").lower(), parts.path.lower()
    except ValueError:
        return None


def _is_image(host: str, path: str) -> bool:
    return _host_in(host, IMAGE_HOSTS) or path.endswith(IMAGE_EXT)


def is_image_link(url: str) -> bool:
    split = _host_path(url)
    return split is not None and _is_image(*split)


def score_link(url: str) -> RankedLink:
    split = _host_path(url)
    if split is None:
        return RankedLink(url, 0, "unreadable link")
    host, path = split
    if _is_image(host, path):  # the split above, not a second one
        return RankedLink(url, 0, "image")
    if _host_in(host, BOARD_HOSTS):
        return RankedLink(url, 100, "leaderboard or benchmark site")
    if path.endswith((".json", ".jsonl")) or "/api/" in path:
        return RankedLink(url, 95, "raw JSON / API endpoint")
    if _host_in(host, RAW_HOSTS):
        return RankedLink(url, 90, "raw file")
    if _host_in(host, GIST_HOSTS):
        return RankedLink(url, 88, "gist")
    if _host_in(host, CODE_HOSTS):
        if "/issues/" in path or "/pull/" in path or "/discussions/" in path:
            return RankedLink(url, 62, "repository discussion")
        return RankedLink(url, 80, "repository")
    if _host_in(host, MODEL_HOSTS):
        return RankedLink(url, 70, "model card or space")
    if path.endswith(DATA_EXT):
        return RankedLink(url, 75, "data file")
    if _host_in(host, PAPER_HOSTS):
        return RankedLink(url, 30, "paper")
    if _host_in(host, SOCIAL_HOSTS):
        return RankedLink(url, 10, "social or navigation")
    return RankedLink(url, 40, "web page")


def is_evidence_link(url: str) -> bool:
    """A link to a config, a record, a log, a repository or a gist (Q1)."""
    return score_link(url).score >= EVIDENCE_SCORE


def rank_links(urls: list[str]) -> list[RankedLink]:
    """Best first; ties keep the post's order."""
    scored = [score_link(u) for u in urls]
    return sorted(scored, key=lambda r: -r.score)
