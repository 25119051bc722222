"""Opening an image safely and sizing it for OCR.

The image-bomb guard works from the header: Pillow's `Image.open` reads only the header (the
pixels are decoded by `load()`), so width × height is known before a byte of pixel data is
decoded, and an image over `MAX_PIXELS` is refused there. Pillow's own guard
(`Image.MAX_IMAGE_PIXELS`, about 89 Mpx: a warning above it, `DecompressionBombError` above twice
it, https://pillow.readthedocs.io/en/stable/reference/Image.html#PIL.Image.open) is looser than
ours and raises a warning rather than refusing, so the check is done here, with the warning
silenced and the error caught as the same refusal.

Sizing: a terminal screenshot's text is 10–30 px high, which the recognition model reads as it
is; a larger image (a phone photo, a 4K screen) is scaled down so its longer side is at most
`MAX_SIDE` (time grows with pixels), a tiny one (a cropped line) scaled up.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

from extractors.errors import InvalidInput
from extractors.image.sniff import image_type

__all__ = ["MAX_PIXELS", "MAX_SIDE", "MIN_SIDE", "header_size", "open_for_ocr"]

MAX_PIXELS = 40_000_000  # 40 Mpx: above any screenshot (an 8K screen is 33 Mpx)
MAX_SIDE = 2000  # longer side the OCR sees
MIN_SIDE = 400  # a smaller image is scaled up (x2, x3) to at least this
_PIL_FORMATS = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WEBP"}


def _open(data: bytes, name: str) -> Any:
    from PIL import Image, UnidentifiedImageError

    kind = image_type(data)
    if kind is None:
        raise InvalidInput(f"{name}: not a PNG, JPEG, GIF or WebP image")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(data), formats=[_PIL_FORMATS[kind]])
    except Image.DecompressionBombError:
        raise InvalidInput(f"{name}: the image header declares more than "
                           f"{MAX_PIXELS // 1_000_000} million pixels; refused before decoding"
                           ) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise InvalidInput(f"{name}: the image cannot be read ({exc})") from None


def header_size(data: bytes, name: str) -> tuple[int, int]:
    """(width, height) from the header alone; InvalidInput past MAX_PIXELS."""
    img = _open(data, name)
    width, height = img.size
    if width <= 0 or height <= 0:
        raise InvalidInput(f"{name}: the image header declares {width}×{height} pixels")
    if width * height > MAX_PIXELS:
        raise InvalidInput(f"{name}: the image header declares {width}×{height} pixels (over "
                           f"{MAX_PIXELS // 1_000_000} million); refused before decoding")
    return width, height


def open_for_ocr(data: bytes, name: str) -> tuple[Any, float]:
    """The first frame as an RGB array for OCR, and the factor it was scaled by. Refuses an
    image bomb from the header before decoding; a truncated or corrupt body is InvalidInput."""
    import numpy as np
    from PIL import Image

    header_size(data, name)
    img = _open(data, name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img.seek(0)  # an animated GIF or WebP: its first frame
            rgb = img.convert("RGB")
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise InvalidInput(f"{name}: the image cannot be decoded ({exc})") from None
    longer = max(rgb.size)
    scale = 1.0
    if longer > MAX_SIDE:
        scale = MAX_SIDE / longer
    elif longer < MIN_SIDE:
        scale = float(-(-MIN_SIDE // longer))  # the whole factor that reaches MIN_SIDE
    if scale != 1.0:
        size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
        rgb = rgb.resize(size, Image.Resampling.LANCZOS)
    return np.asarray(rgb)[:, :, ::-1].copy(), scale  # BGR: the order OpenCV models expect
