"""Which of a post's pictures are read by OCR when a post is followed (`extractors.follow`).

A post's screenshots are often its only evidence (a llama-bench table, a `vllm bench serve`
block), so the first few pictures are fetched through the same SafeFetcher as every page — the
same URL policy, redirects checked hop by hop, a byte cap (`FetchPolicy.image_cap`; 0 keeps
pictures refused), each fetch counted in the follow's budget and under its deadline — and their
bytes read in the reading worker (`extractors.image.read_image`). Videos are not pictures OCR
reads.

The bot and the CLI read them by default (`image_cap`: their settings' count and byte cap,
`fetch.post_images` = `MAX_POST_IMAGES` pictures of at most `IMAGE_CAP` bytes), whenever the OCR
extra is installed: without it a picture would be fetched only to be refused. `FetchPolicy`
itself keeps 0, so a fetcher built for other uses (a sweep, a board) takes no pictures.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from extractors.links import is_image_link

__all__ = ["IMAGE_CAP", "MAX_POST_IMAGES", "VIDEO_EXT", "image_cap", "post_images"]

MAX_POST_IMAGES = 2  # a post's first pictures: the screenshot is rarely the fifth
IMAGE_CAP = 8 * 1024 * 1024  # the image_cap a fetcher that reads pictures uses
VIDEO_EXT = (".mp4", ".mov", ".webm", ".m3u8", ".svg", ".heic")


def image_cap(count: int, max_bytes: int = IMAGE_CAP) -> int:
    """The fetch policy's picture cap for a front door that reads `count` pictures a post: the
    byte cap, or 0 (pictures refused) when it reads none or OCR is not installed."""
    from extractors.image.ocr import ocr_available

    return max_bytes if count > 0 and ocr_available() else 0


def post_images(links: Sequence[str], limit: int = MAX_POST_IMAGES) -> list[str]:
    """The post's picture links OCR can read, in the post's order, at most `limit`."""
    out: list[str] = []
    for url in dict.fromkeys(links):
        try:
            path = urlsplit(url).path.lower()
        except ValueError:
            continue
        if is_image_link(url) and not path.endswith(VIDEO_EXT) and "/DASH_" not in url:
            out.append(url)
        if len(out) == limit:
            break
    return out
