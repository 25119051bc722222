"""A screenshot read as a document: OCR, then the readers every other document goes through.

`read_screenshot` is what `extractors.evidence.read_document` calls for image bytes (in the
reading worker: `read_document` runs there). The OCR text (or the record a printout stands for)
is read by the same `read_document`; the Reading's source keeps the image's name, says
"screenshot <name>, OCR" in its note, and carries a `Screenshot` (lines read, figures read) from
which Q1 says whether the image was a printout with figures or a photo without any. A photo is
a Reading with no claim, never an error: beside a post's text it is the seed's "the image is a
photo of a GPU".
"""

from __future__ import annotations

from collections.abc import Callable

from checks.models import Claim, Screenshot, Source
from extractors.document import RawDocument
from extractors.errors import UnusableInput
from extractors.evidence import Reading
from extractors.image import read_image, screenshot_source

__all__ = ["NO_TEXT", "figures_in", "read_screenshot"]

NO_TEXT = "OCR read no text in it: a photo or a picture, not a printout"


def figures_in(claim: Claim) -> int:
    """How many numeric fields a claim holds (tok/s, W, ms, tokens, counts ...)."""
    values = claim.model_dump(exclude={"provenance"})
    return sum(1 for v in values.values()
               if isinstance(v, (int, float)) and not isinstance(v, bool))


def _note(*parts: str | None) -> str:
    return "; ".join(p for p in parts if p)


def read_screenshot(doc: RawDocument, source: Source,
                    read: Callable[[RawDocument, Source], Reading]) -> Reading:
    """The Reading of an image: `read` (read_document) on its OCR text, with the Screenshot."""
    name = doc.source
    text_doc = read_image(doc.data, name)
    lines = len([line for line in text_doc.text.splitlines() if line.strip()])
    src = source.model_copy(update={"note": _note(source.note, screenshot_source(name))})
    if not text_doc.text.strip():
        shot = Screenshot(name=name, lines=0, figures=0, format=None)
        return Reading(source=src.model_copy(update={"screenshot": shot, "format": "screenshot"}),
                       warnings=[f"{name}: {NO_TEXT}"])
    try:
        reading = read(text_doc, src)
    except UnusableInput as exc:
        shot = Screenshot(name=name, lines=lines, figures=0, format=None)
        return Reading(source=src.model_copy(update={"screenshot": shot, "format": "screenshot"}),
                       warnings=[str(exc)])
    claims = reading.records or ([reading.text.claim] if reading.text is not None else [])
    shot = Screenshot(name=name, lines=lines, figures=max((figures_in(c) for c in claims),
                                                          default=0),
                      format=reading.source.format)
    reading.source = reading.source.model_copy(update={"screenshot": shot})
    return reading
