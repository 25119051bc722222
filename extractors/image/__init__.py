"""Screenshots and images, read by OCR into a document like any other.

`read_image(data, name)` is what a reading worker calls for image bytes (an attachment, a file
given to `audit`, a picture in a fetched post): the format is sniffed from the magic bytes, an
image bomb is refused from its header before any pixel is decoded (`decode.MAX_PIXELS`), the
image is sized for OCR, read by the offline engine (`ocr`: RapidOCR, models shipped in its
wheel, why this one is written there), and its text is rebuilt into lines and tables from the
character boxes (`layout`) so that llama-bench's Markdown table, `vllm bench serve` and
nvidia-smi printouts read through the same text readers as when pasted. The result is a
`RawDocument` whose source, and so every field's provenance, is "screenshot <name>, OCR".

OCR is an install extra (`pip install 'claimcheck[ocr]'`, about 420 MB with ONNX Runtime and
OpenCV): without it `read_image` raises `InvalidInput` with the one line that says how to enable
screenshot reading, so an image is never met with silence.

It is CPU-bound (1.7–3.5 CPU-seconds for the 330–1550 px wide screenshots of
`benchmarks/ocr_accuracy.py`, measured on 2 heavily shared cores; the wall time on 2 free cores
is about that over 1.5) and must never run on the event loop: callers go through
`extractors.offloop` (the reading workers).
"""

from __future__ import annotations

from dataclasses import dataclass

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.image.ocr import ocr_available
from extractors.image.sniff import image_type, is_image

__all__ = ["NO_OCR", "ImageText", "image_type", "is_image", "ocr_available", "ocr_image",
           "read_image", "screenshot_source"]

NO_OCR = ("screenshot reading is not installed: pip install 'claimcheck[ocr]' "
          "(or give the tool's text or JSON output)")


@dataclass(frozen=True)
class ImageText:
    """What OCR read from one image: its rebuilt text and how much of it there was."""

    name: str
    text: str
    lines: int
    width: int
    height: int


def screenshot_source(name: str) -> str:
    """The provenance of everything read from an image."""
    return f"screenshot {name}, OCR"


def ocr_image(data: bytes, name: str) -> ImageText:
    """OCR of one image's bytes, its text rebuilt into lines and tables. Raises InvalidInput for
    a body that is no image we read, an image bomb, a corrupt image, or a missing OCR extra."""
    from extractors.image.decode import header_size, open_for_ocr

    width, height = header_size(data, name)  # the bomb guard runs even without the extra
    if not ocr_available():
        raise InvalidInput(f"{name}: an image; {NO_OCR}")
    from extractors.image.layout import rebuild_text
    from extractors.image.ocr import recognise

    pixels, _ = open_for_ocr(data, name)
    text = rebuild_text(recognise(pixels))
    return ImageText(name=name, text=text, lines=text.count("\n"), width=width, height=height)


def read_image(data: bytes, name: str) -> RawDocument:
    """An image's text as a document with provenance "screenshot <name>, OCR". An image in which
    OCR reads nothing (a photo) is an empty document: the readers then say no claim was found,
    and Q1 says what the picture was."""
    from extractors.image.printouts import vllm_serve_record

    read = ocr_image(data, name)
    record = vllm_serve_record(read.text)
    if record is not None:  # the printout of a tool that saves JSON: read as that record
        doc = RawDocument(record.encode(), source=screenshot_source(name),
                          content_type="application/json")
        doc.warnings.append(f"{screenshot_source(name)}: read as the vLLM bench serve result "
                            "block it shows")
        return doc
    doc = RawDocument.from_text(read.text, source=screenshot_source(name))
    doc.content_type = f"image/{image_type(data)}"
    return doc
