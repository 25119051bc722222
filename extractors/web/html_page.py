"""Generic HTML pages (bs4): visible text, tables as text rows, og:/twitter: meta, outbound links.

What a reader of the page would see is what the claim is read from: scripts, styles, navigation,
headers, footers and forms are dropped; each table row becomes one `cell | cell | cell` line so a
"Benchmark Results" table reads like the markdown one on a model card. The page's own
description (`og:title`, `og:description`, `twitter:*`, `<title>`) comes first, because a page
whose body is only a picture often carries its claim there. Images in the body are counted (Q1:
"the image is a photo of a GPU"), never followed.

Tables whose header names a unit ("DFlash tok/s") are read one sentence per row with the unit
carried to each value (`post.table_sentences`).

Next.js pages (LocalScore's `/result/<id>`) embed their data as JSON in
`<script id="__NEXT_DATA__">`; `next_data` returns it so a record can be read from it.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from bs4 import BeautifulSoup, Tag

from extractors.web.post import PostPage, table_sentences, unique

__all__ = ["is_html", "next_data", "parse_html"]

# Elements a reader does not read as the page's content.
_HIDDEN = ("script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "header",
           "footer", "form", "button", "select", "aside", "head")
_BLOCKS = ("p", "div", "section", "article", "main", "li", "br", "h1", "h2", "h3", "h4", "h5",
           "h6", "pre", "blockquote", "dd", "dt", "figcaption", "hr", "ul", "ol", "dl")
_META_TEXT = ("og:title", "twitter:title", "og:description", "twitter:description", "description")
_META_AUTHOR = ("author", "article:author", "twitter:creator")
_META_DATE = ("article:published_time", "og:published_time", "date", "dc.date")
_HTML_START = re.compile(r"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title)\b",
                         re.IGNORECASE | re.DOTALL)
_NEXT_DATA_MAX = 8 * 1024 * 1024  # the JSON cap: an embedded blob is read like a JSON body


def is_html(text: str, content_type: str | None = None) -> bool:
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    if mime in ("text/html", "application/xhtml+xml"):
        return True
    return bool(_HTML_START.match(text[:2048]))


def _soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def next_data(html: str) -> Any | None:
    """The JSON of a Next.js page's `__NEXT_DATA__` script, or None."""
    if "__NEXT_DATA__" not in html:
        return None
    soup = _soup(html)
    tag = soup.find("script", id="__NEXT_DATA__")
    if not isinstance(tag, Tag):
        return None
    raw = tag.string or tag.get_text() or ""
    if not raw.strip() or len(raw) > _NEXT_DATA_MAX:
        return None
    try:
        return json.loads(raw, strict=False)
    except (ValueError, RecursionError):  # ValueError: also an integer over 4,300 digits
        return None


def _attr(tag: Tag, name: str) -> str:
    value = tag.get(name)
    return " ".join(value) if isinstance(value, list) else str(value or "")


def _meta(soup: BeautifulSoup, names: tuple[str, ...]) -> list[str]:
    tags = [t for t in soup.find_all("meta") if isinstance(t, Tag)]
    out = []
    for name in names:
        for tag in tags:
            key = (_attr(tag, "property") or _attr(tag, "name")).strip().lower()
            content = _attr(tag, "content").strip()
            if key == name and content:
                out.append(content)
    return unique(out)


def _absolute(href: str, base: str) -> str | None:
    href = (href or "").strip()
    if not href or href.startswith("#"):
        return None
    try:
        url = urljoin(base, href)
        parts = urlsplit(url)
    except ValueError:  # "http://[::1": an IPv6 literal urlsplit cannot read
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return url.split("#", 1)[0]


def _table_rows(table: Tag) -> list[str]:
    rows = []
    for tr in table.find_all("tr"):
        cells = [" ".join(c.get_text(" ", strip=True).split()) for c in tr.find_all(("th", "td"))]
        if any(cells):
            rows.append(cells)
    return table_sentences(rows)


def _visible_text(body: Tag) -> str:
    for table in body.find_all("table"):
        table.replace_with("\n" + "\n".join(_table_rows(table)) + "\n")
    for tag in body.find_all(_BLOCKS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    lines = (" ".join(line.split()) for line in body.get_text().splitlines())
    text = "\n".join(line for line in lines if line)
    return re.sub(r"\n{3,}", "\n\n", text)


def parse_html(html: str, url: str) -> PostPage:
    """The post an HTML page shows: meta description, visible text, links and pictures."""
    soup = _soup(html)
    base = url
    base_tag = soup.find("base", href=True)
    if isinstance(base_tag, Tag):
        try:
            base = urljoin(url, str(base_tag["href"]))
        except ValueError:
            base = url
    title_tag = soup.find("title")
    titles = _meta(soup, ("og:title", "twitter:title"))
    title = titles[0] if titles else (title_tag.get_text(" ", strip=True) if title_tag else None)
    descriptions = [d for d in _meta(soup, _META_TEXT) if d != title]
    authors = _meta(soup, _META_AUTHOR)
    dates = _meta(soup, _META_DATE)
    if not dates:
        time_tag = soup.find("time", datetime=True)
        if isinstance(time_tag, Tag):
            dates = [str(time_tag["datetime"])]

    body = soup.body or soup
    for tag in body.find_all(_HIDDEN):
        tag.decompose()
    code = [pre.get_text() for pre in body.find_all("pre")]
    links = [_absolute(str(a.get("href") or ""), base) for a in body.find_all("a")]
    images = [_absolute(str(img.get("src") or ""), base) for img in body.find_all("img")]
    images += [_absolute(str(v.get("src") or v.get("poster") or ""), base)
               for v in body.find_all("video")]
    text = _visible_text(body)
    parts = [*descriptions, text]
    return PostPage(
        text="\n\n".join(p for p in parts if p),
        title=title or None,
        author=authors[0] if authors else None,
        created=dates[0] if dates else None,
        links=unique([u for u in links if u]),
        images=unique([u for u in images if u]),
        image_count=len(body.find_all(("img", "video"))),
        code=[c.strip() for c in code if c.strip()],
        site="html",
    )
