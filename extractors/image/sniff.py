"""Which image format a body is, from its first bytes (the formats' magic numbers).

PNG: `89 50 4E 47 0D 0A 1A 0A` (RFC 2083 §3.1); JPEG: `FF D8 FF` (the SOI marker and the next
marker's `FF`, ITU T.81 B.1.1.3); GIF: `GIF87a` / `GIF89a`; WebP: `RIFF <size> WEBP` (RFC 9649
§2.5). No decoding, no import of an imaging library: a body is sniffed before anything reads it.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["ImageType", "image_type", "is_image"]

ImageType = Literal["png", "jpeg", "gif", "webp"]


def image_type(data: bytes) -> ImageType | None:
    """The image format of `data`, or None when its first bytes are no image we read."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if len(data) >= 12 and data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "webp"
    return None


def is_image(data: bytes) -> bool:
    return image_type(data) is not None
