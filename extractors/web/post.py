"""The common result of every page parser: one post's text, links and pictures.

Reddit listings, fxtwitter statuses, HTML pages and model cards all come down to a `PostPage`;
`to_reading` turns it into the `Reading` the evidence builder takes, with the claim read from the
post's text by `extractors.text.parse_text`. The links are the page parser's, not the text
reader's: a parser knows which links belong to the post (a Reddit link post's target, an HTML
page's anchors, not its navigation) and which are pictures (counted for Q1, never followed).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from pydantic import BaseModel, Field

from checks.models import Source
from checks.reference import Reference
from checks.text import sanitise
from extractors.document import RawDocument
from extractors.evidence import Reading
from extractors.links import is_image_link
from extractors.text import parse_text

__all__ = ["EXCERPT_LIMIT", "LATEST_STAMP", "PostPage", "from_timestamp", "header_unit", "table_sentences", "unique"]

EXCERPT_LIMIT = 2000  # the post text kept in the report, as read_document keeps it
TITLE_LIMIT = 300


# A unit at the end of a column header: "DFlash tok/s", "TTFT (ms)", "Power [W]". Searched for
# at its own start only (not behind a lazy name and a run of spaces, which made a header of spaces
# quadratic); the name is what comes before it, less spaces and brackets.
_HEADER_UNIT = re.compile(
    r"(?<![A-Za-z])(?P<unit>tok/s|tokens/s|tokens/sec|t/s|tps|ms|s|W|GB|GiB)[)\]]*+\s*+$",
    re.IGNORECASE)
_NUMBER = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?$")
# "mean ± spread", as llama-bench prints its t/s cell ("127.45 ± 0.32"): the mean is the figure.
_MEAN_SPREAD = re.compile(r"^(?P<mean>[-+]?\d[\d,]*(?:\.\d+)?) ?(?:±|\+/-) ?\d[\d,]*(?:\.\d+)?$")


def _figure(value: str) -> str | None:
    """The number a table cell states, or None: a plain number, or the mean of "mean ± sd"."""
    text = value.strip()
    if _NUMBER.match(text):
        return text
    m = _MEAN_SPREAD.match(text)
    return m["mean"] if m else None


def header_unit(header: str) -> tuple[str, str] | None:
    """(name, unit) of a column header that ends in a unit, else None."""
    m = _HEADER_UNIT.search(header)
    if m is None:
        return None
    name = header[:m.start()].rstrip()
    while name[-1:] in ("(", "[") or name[-1:].isspace():
        name = name[:-1].rstrip()
    return name, m["unit"]


def table_sentences(rows: list[list[str]]) -> list[str]:
    """A table as one sentence per row, units carried from the header into each value:
    `| GSM8K | 151.2 | 698.4 |` under `| Dataset | Baseline tok/s | DFlash tok/s |` reads
    "GSM8K: Baseline 151.2 tok/s, DFlash 698.4 tok/s." The text readers find figures with
    their units in prose; a bare number in a cell has none. A row named by a number is named
    with its column ("batch 1: …"). Tables without a header unit come back as `| a | b |` rows."""
    if len(rows) < 2 or not any(header_unit(h or "") for h in rows[0][1:]):
        return ["| " + " | ".join(r) + " |" for r in rows]
    header, out = rows[0], []
    for row in rows[1:]:
        parts = []
        for name, value in zip(header[1:], row[1:], strict=False):
            unit = header_unit(name or "")
            figure = _figure(value) if unit else None
            if unit and figure is not None:
                label = unit[0].strip() or name
                parts.append(f"{label} {figure} {unit[1]}")
            elif value.strip():
                parts.append(f"{name} {value.strip()}".strip())
        label = row[0].strip() if row else ""
        if label and _figure(label) is not None and (header[0] or "").strip():
            # A number is no row's name: "| batch | … |" over "| 1 | … |" is "batch 1".
            label = f"{header[0].strip()} {label}"
        out.append(f"{label}: {', '.join(parts)}." if label else f"{', '.join(parts)}.")
    return out


# 9999-12-31T23:59:59Z: past it datetime cannot hold the time. A stamp of 1e13 (milliseconds
# written as seconds) or 1e20 (noise) is dropped rather than raising.
LATEST_STAMP = 253402300799


def from_timestamp(value: object) -> datetime | None:
    """A POSIX time in seconds as an aware UTC datetime; None for anything out of range."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not 0 < value <= LATEST_STAMP:  # NaN fails this too
        return None
    return datetime.fromtimestamp(value, UTC)


def unique(urls: list[str]) -> list[str]:
    """The URLs in order, without duplicates or empty entries."""
    return list(dict.fromkeys(u for u in urls if u))


class PostPage(BaseModel):
    """One post or page as a reader sees it."""

    text: str = ""
    title: str | None = None
    author: str | None = None
    created: datetime | str | None = None
    links: list[str] = Field(default_factory=list)  # followable links, in the post's order
    images: list[str] = Field(default_factory=list)  # pictures and videos (counted, not followed)
    image_count: int = 0  # at least len(images): some media have no URL of their own
    code: list[str] = Field(default_factory=list)  # code blocks: where pages keep commands/logs
    site: str = "html"  # which parser produced it: reddit, fxtwitter, html, model_card, ...

    def model_post_init(self, context: object, /) -> None:
        self.image_count = max(self.image_count, len(self.images))

    def full_text(self) -> str:
        """The title (when the body does not already start with it) and the body."""
        title = sanitise(self.title or "", limit=TITLE_LIMIT).strip()
        body = self.text.strip()
        if title and not body.startswith(title):
            return f"{title}\n\n{body}".strip()
        return body

    def to_reading(self, ref: Reference, source: Source) -> Reading:
        """A post Reading: the claim from the text, this page's links and pictures."""
        text = self.full_text()
        doc = RawDocument.from_text(text, source=source.url)
        reading = parse_text(doc, ref)
        links = [u for u in unique(self.links) if not is_image_link(u)]
        # An image with no URL of its own (a Reddit video, a gallery item) still counts for Q1:
        # _post_info counts image links, so such images are represented by their page URL.
        images = unique([*self.images, *(u for u in self.links if is_image_link(u))])
        reading = reading.model_copy(update={"links": [*links, *images], "kind": "post"})
        note = source.note
        if self.image_count > len(images):
            extra = self.image_count - len(images)
            note = "; ".join(x for x in (note, f"{extra} more picture(s) without a link") if x)
        src = source.model_copy(update={"kind": "post", "format": self.site, "note": note})
        return Reading(source=src, text=reading, excerpt=sanitise(text, limit=EXCERPT_LIMIT),
                       warnings=list(reading.warnings))
