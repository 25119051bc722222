"""Reading fetched pages: posts (Reddit, X/Twitter, HTML, model cards), raw files and records.

Two steps, each small:
- `rewrite_url` turns a known page into the form that holds its data before it is fetched: a
  Reddit permalink into its `.json`, an x.com status into the fxtwitter JSON mirror, a model card
  into its raw README, a GitHub blob or gist into its raw file.
- `read_page` reads a fetched body by its **content shape first, host second**: JSON with a
  Reddit listing shape is a Reddit post whatever host served it; JSON with an fxtwitter `tweet`
  object is a tweet; any other JSON goes to the structured formats (`extractors.formats.detect`);
  an HTML page with embedded Next.js data holding a record is that record, any other HTML page is
  read by `html_page`; markdown and plain text go to the text readers; an image (PNG, JPEG, GIF,
  WebP by its magic bytes) is read by OCR (`extractors.image`). A self-hosted copy of a
  board or a mirror of a post therefore reads exactly like the original.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.models import Source
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.errors import InvalidInput, NoClaimFound, UnusableInput
from extractors.evidence import Reading, read_document
from extractors.formats import detect
from extractors.image.sniff import is_image
from extractors.text import parse_text
from extractors.web import github, html_page, huggingface, reddit, twitter
from extractors.web.post import PostPage

__all__ = ["PageReading", "PostPage", "embedded_records", "read_page", "rewrite_url"]

_JSON_TYPES = ("application/json", "text/json", "application/x-ndjson", "application/jsonl")


@dataclass
class PageReading:
    """One fetched body as read: the Reading, and the links on it worth following."""

    reading: Reading
    links: list[str] = field(default_factory=list)

    @property
    def is_record(self) -> bool:
        return bool(self.reading.records)


def rewrite_url(url: str) -> str:
    """The URL that holds a known page's data (JSON or raw file); other URLs unchanged."""
    for rewrite in (reddit.json_url, twitter.api_url, huggingface.raw_url, github.raw_url):
        target = rewrite(url)
        if target is not None:
            return target
    return url


def _is_json_type(content_type: str | None) -> bool:
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    return mime in _JSON_TYPES or mime.endswith("+json")


def _json_or_fail(doc: RawDocument) -> Any:
    data = doc.json()
    if data is None:
        try:
            json.loads(doc.text, strict=False)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{doc.source}: the body is not valid JSON ({exc.msg} at line "
                               f"{exc.lineno} column {exc.colno})") from None
        except (ValueError, RecursionError):
            raise InvalidInput(f"{doc.source}: the body is not JSON claimcheck can read") from None
        raise InvalidInput(f"{doc.source}: the body is JSON but neither an object nor a list")
    return data


def _read_json(doc: RawDocument, ref: Reference, source: Source,
               boards: Sequence[str | Path]) -> Reading:
    """A JSON body through the structured formats, with the caller's board mappings first."""
    return read_document(doc, ref, source, boards=boards)


def embedded_records(data: Any, doc: RawDocument, ref: Reference, source: Source) -> Reading | None:
    """Records in a Next.js page's `__NEXT_DATA__` (`props.pageProps`), e.g. LocalScore's
    `/result/<id>`; None when the page embeds nothing a format recognises."""
    props = data.get("props") if isinstance(data, dict) else None
    page_props = props.get("pageProps") if isinstance(props, dict) else None
    if not isinstance(page_props, dict):
        return None
    candidates: list[tuple[str, Any]] = [("props.pageProps", page_props)]
    candidates += [(f"props.pageProps.{k}", v) for k, v in page_props.items()
                   if isinstance(v, (dict, list))]
    for path, value in candidates:
        sub = RawDocument(json.dumps(value).encode(), source=doc.source,
                          content_type="application/json")
        fmt = detect(sub)
        if fmt is None:
            continue
        try:
            records = fmt.parse(sub)
        except UnusableInput:
            continue
        if not records:
            continue
        note = f"read from the page's embedded Next.js data ({path})"
        src = source.model_copy(update={"format": fmt.name, "kind": fmt.kind, "note": note})
        warnings = [*doc.warnings, *sub.warnings]
        return Reading(source=src, records=records, warnings=warnings)
    return None


def _page_only(source: Source, links: list[str], fmt: str) -> PageReading:
    """A followed page that is not a record: listed as a source, its links kept for following."""
    src = source.model_copy(update={"kind": "page", "format": fmt})
    return PageReading(Reading(source=src), links=links)


def _code_reading(code: list[str], ref: Reference, source: Source, fmt: str) -> Reading | None:
    """A followed page's code blocks read as a config or a log, when that is what they hold:
    write-ups and READMEs keep the launch command in a code block, amid prose that is not the
    post's claim."""
    if not code:
        return None
    doc = RawDocument.from_text("\n\n".join(code), source=source.final_url or source.url)
    text = parse_text(doc, ref)
    if text.kind not in ("config", "log"):
        return None
    note = "; ".join(x for x in (source.note, "read from the page's code blocks") if x)
    src = source.model_copy(update={"kind": text.kind, "format": fmt, "note": note})
    return Reading(source=src, text=text, warnings=list(text.warnings))


def _post(page: PostPage, ref: Reference, source: Source, as_post: bool) -> PageReading:
    links = [*page.links]
    if as_post:
        return PageReading(page.to_reading(ref, source), links=links)
    reading = _code_reading(page.code, ref, source, page.site)
    if reading is not None:
        return PageReading(reading, links=links)
    return _page_only(source, links, page.site)


def read_page(
    doc: RawDocument,
    ref: Reference,
    source: Source,
    *,
    as_post: bool = True,
    boards: Sequence[str | Path] = (),
) -> PageReading:
    """Read one fetched body by its shape. `as_post` is true for the URL the user gave (its text
    is the claim); a followed page contributes records, configs and logs (a page's code blocks
    count when they hold a command or log lines), and its links — never its prose.

    Raises `UnusableInput` subclasses (unrecognised JSON, invalid JSON, a status that is gone)."""
    url = source.final_url or source.url
    if not doc.data.strip():
        raise NoClaimFound(f"{url}: the page is empty")
    if is_image(doc.data):  # a picture (a post's screenshot): read by OCR, like a file
        return PageReading(read_document(doc, ref, source, boards=boards))
    # A JSON content type must hold JSON; text that merely starts with "[" (a title such as
    # "[Benchmark] …") is JSON only if it parses.
    data = _json_or_fail(doc) if _is_json_type(doc.content_type) else doc.json()
    if data is not None:
        if reddit.is_listing(data):
            return _post(reddit.parse_listing(data, url), ref, source, as_post)
        if twitter.is_status(data):
            return _post(twitter.parse_status(data, url), ref, source, as_post)
        return PageReading(_read_json(doc, ref, source, boards))
    text = doc.text
    if html_page.is_html(text, doc.content_type):
        data = html_page.next_data(text)
        if data is not None:
            reading = embedded_records(data, doc, ref, source)
            if reading is not None:
                return PageReading(reading)
        return _post(html_page.parse_html(text, url), ref, source, as_post)
    reading = read_document(doc, ref, source)
    links = list(reading.text.links) if reading.text is not None else []
    if reading.is_post:
        if as_post and huggingface.is_markdown(text):  # a model card, a README, a markdown post
            return _post(huggingface.parse_model_card(text, url), ref, source, as_post)
        if not as_post:
            code = _code_reading(huggingface.code_blocks(text), ref, source, "text")
            return PageReading(code, links=links) if code else _page_only(source, links, "text")
        reading.source = reading.source.model_copy(update={"kind": "post"})
    return PageReading(reading, links=links)
