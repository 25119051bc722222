"""Reddit permalinks, read through their `.json` form (any reddit.com permalink + `.json`).

`https://www.reddit.com/r/<sub>/comments/<id>/<slug>/` + `.json` answers
`[Listing(post), Listing(comments)]`; the post is `[0].data.children[0].data` (`title, selftext,
url, url_overridden_by_dest, permalink, author, created_utc, is_self, post_hint, media, preview,
media_metadata, …`) and the comments are `[1].data.children[*]` of kind `t1` (`body, score,
author, stickied`).

Quirks:
- `raw_json=1` asks for text without HTML entities; without it `&`, `<`, `>` arrive as
  `&amp;`, `&lt;`, `&gt;`, so entities are decoded either way.
- A link post's target is `url_overridden_by_dest` (or `url` when `is_self` is false): it belongs
  to the post's links, or to its pictures when it is an image (i.redd.it, a gallery, a video).
- `preview.images` are counted only for image posts: link posts carry a preview of the target
  page, which is not a picture the author posted.
- A few top comments (by score, not stickied, not deleted) are added to the text for context:
  their tok/s figures help match a record, but their links are not the post's (Q1 asks about the
  original post), so they are not followed.
"""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from extractors.links import find_links, is_image_link
from extractors.web.post import PostPage, from_timestamp, unique

__all__ = ["REDDIT_HOSTS", "is_listing", "json_url", "parse_listing"]

REDDIT_HOSTS = ("reddit.com", "www.reddit.com", "old.reddit.com", "new.reddit.com",
                "np.reddit.com", "m.reddit.com", "i.reddit.com")
TOP_COMMENTS = 3  # enough context for a number; more is other people's posts
COMMENT_LIMIT = 1500  # characters per comment kept in the text
_PERMALINK = re.compile(r"^(/r/[^/]+)?/comments/[a-z0-9]+(/[^/]*)?/?$", re.IGNORECASE)
_GONE = ("[deleted]", "[removed]")


def json_url(url: str) -> str | None:
    """The `.json` form of a Reddit permalink, or None when the URL is not one."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host not in REDDIT_HOSTS or not _PERMALINK.match(parts.path):
        return None
    path = parts.path.rstrip("/") + "/.json"
    return urlunsplit(("https", "www.reddit.com", path, "raw_json=1", ""))


def _children(listing: Any) -> list[dict[str, Any]]:
    if not isinstance(listing, dict) or listing.get("kind") != "Listing":
        return []
    data = listing.get("data")
    children = data.get("children") if isinstance(data, dict) else None
    return [c for c in children if isinstance(c, dict)] if isinstance(children, list) else []


def is_listing(data: Any) -> bool:
    """`[Listing(post), Listing(comments)]` (or the post listing alone)."""
    if not isinstance(data, list) or not data:
        return False
    first = _children(data[0])
    return bool(first) and first[0].get("kind") == "t3" and isinstance(first[0].get("data"), dict)


def _text(value: Any) -> str:
    return html.unescape(value) if isinstance(value, str) else ""


def _url(value: Any) -> str | None:
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        return None
    return html.unescape(value)


def _media(post: dict[str, Any]) -> tuple[list[str], int]:
    """Picture and video URLs, and how many media items the post holds."""
    urls: list[str] = []
    count = 0
    is_image_post = post.get("post_hint") == "image" or bool(post.get("is_gallery"))
    preview = post.get("preview")
    if is_image_post and isinstance(preview, dict):
        for img in preview.get("images") or []:
            src = img.get("source") if isinstance(img, dict) else None
            if isinstance(src, dict) and _url(src.get("url")):
                urls.append(_url(src.get("url")) or "")
    metadata = post.get("media_metadata")
    if isinstance(metadata, dict):
        for item in metadata.values():
            if not isinstance(item, dict):
                continue
            count += 1
            best = item.get("s")
            if isinstance(best, dict):
                u = _url(best.get("u") or best.get("gif") or best.get("mp4"))
                if u:
                    urls.append(u)
    for key in ("media", "secure_media"):
        media = post.get(key)
        video = media.get("reddit_video") if isinstance(media, dict) else None
        if isinstance(video, dict):
            count = max(count, 1)
            u = _url(video.get("fallback_url"))
            if u:
                urls.append(u)
    return unique(urls), max(count, 1 if is_image_post else 0)


def _comments(data: list[Any]) -> list[str]:
    if len(data) < 2:
        return []
    rows: list[tuple[float, str, str]] = []
    for child in _children(data[1]):
        c = child.get("data")
        if child.get("kind") != "t1" or not isinstance(c, dict) or c.get("stickied"):
            continue
        body = _text(c.get("body")).strip()
        if not body or body in _GONE:
            continue
        raw_score = c.get("score")
        score: float = raw_score if isinstance(raw_score, (int, float)) else 0
        rows.append((score, str(c.get("author") or "?"), body))
    rows.sort(key=lambda r: -r[0])
    return [f"u/{author} ({score:g} points): {body[:COMMENT_LIMIT]}"
            for score, author, body in rows[:TOP_COMMENTS]]


def parse_listing(data: Any, url: str) -> PostPage:
    """The post of a permalink's `.json` listing, with a few top comments for context."""
    post: dict[str, Any] = _children(data[0])[0]["data"]
    title = _text(post.get("title")).strip() or None
    selftext = _text(post.get("selftext")).strip()
    links = find_links(selftext)
    images, media_count = _media(post)
    permalink = post.get("permalink")
    own = {f"https://www.reddit.com{permalink}"} if isinstance(permalink, str) else set()
    if not post.get("is_self"):
        target = _url(post.get("url_overridden_by_dest")) or _url(post.get("url"))
        if target and target not in own:
            (images if is_image_link(target) else links).append(target)
    text = selftext
    comments = _comments(data)
    if comments:
        text += "\n\nTop comments:\n" + "\n".join(f"- {c}" for c in comments)
    created = post.get("created_utc")
    when = from_timestamp(created)
    author = post.get("author")
    return PostPage(
        text=text,
        title=title,
        author=f"u/{author}" if isinstance(author, str) and author else None,
        created=when,
        links=unique(links),
        images=unique(images),
        image_count=media_count,
        site="reddit",
    )
