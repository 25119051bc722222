"""Which image format a body is, from its first bytes (the formats' magic numbers).

PNG: `89 50 4E 47 0D 0A 1A 0A` (RFC 2083 §3.1); JPEG: `FF D8 FF` (the SOI marker and the next
marker's `FF`, ITU T.81 B.1.1.3); GIF: `GIF87a` / `GIF89a`; WebP: `RIFF <size> WEBP` (RFC 9649
§2.5). No decoding, no import of an imaging library: a body is sniffed before anything reads it.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["ImageType", "image_type", "is_image", "is_readable_image"]

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


def is_readable_image(head: bytes) -> bool:
    """An image whose first bytes hold a header an imaging library reads: PNG, GIF and WebP keep
    their size in the first 30 bytes, so a body with the magic but a broken header is binary
    noise, not a picture. A JPEG's size comes after its EXIF block (often beyond the first
    kilobytes a stream is sniffed by), so its magic and first marker are enough here; the full
    bytes are checked again before decoding (`extractors.image.decode`)."""
    kind = image_type(head)
    if kind is None:
        return False
    if kind == "jpeg":
        return len(head) >= 4 and (0xC0 <= head[3] <= 0xFE)
    import io
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Image.open(io.BytesIO(head))
    except Image.DecompressionBombError:  # a header that reads, and declares a bomb: the guard
        return True  # in extractors.image.decode refuses it with its size
    except Exception:  # noqa: BLE001 - any failure to read the header: not a picture
        return False
    return True
