"""Hugging Face model cards and static spaces.

A model card page (`https://huggingface.co/<org>/<model>`) is a JavaScript app around a README;
the README itself is at `…/raw/main/README.md` (markdown, served as text/plain). Model cards put
their speed figures in markdown tables under "Benchmark Results" with a "Setup:" sentence, which
the text readers take as they are. `…/blob/<rev>/<file>` links become `…/raw/<rev>/<file>`.
Static spaces (`*.static.hf.space/…`) are plain HTML and are read as HTML pages.

Quirks:
- The README opens with YAML front matter (license, tags, base_model); it is metadata, not the
  post, so it is dropped from the text. `base_model` is kept as a line: it names the model.
- Markdown images (`![alt](url)`) are the card's pictures.
- Table cells are bare numbers, their unit is in the header ("DFlash tok/s"): tables are read one
  sentence per row with the unit carried to each value.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from extractors.links import find_links, is_image_link
from extractors.web.post import PostPage, table_sentences, unique

__all__ = ["HF_HOSTS", "code_blocks", "is_markdown", "parse_model_card", "raw_url",
           "tables_as_sentences"]

HF_HOSTS = ("huggingface.co", "www.huggingface.co", "hf.co")
# First path segments that are site pages, not an organisation or user.
_SITE_PAGES = {"docs", "blog", "papers", "models", "datasets", "spaces", "settings", "login",
               "join", "pricing", "collections", "organizations", "learn", "posts", "chat",
               "api", "tasks", "enterprise", "new", "search", "inference-endpoints", "changelog"}
_FRONT_MATTER = re.compile(r"\A\ufeff?---\s*\n(?P<yaml>.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
_BASE_MODEL = re.compile(r"^base_model:[ \t]*(?:\n[ \t]*-[ \t]*)?(?P<name>[^\s#]+)", re.MULTILINE)
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\((?P<url>https?://[^)\s]+)")
_HEADING = re.compile(r"^#\s+(?P<title>.+?)\s*#*\s*$", re.MULTILINE)
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t:|-]+\|?[ \t]*$")
_MARKDOWN = re.compile(r"^(?:#{1,6}\s|\|.*\|\s*$|[-*]\s|```)", re.MULTILINE)


def raw_url(url: str) -> str | None:
    """The raw file behind a model card, dataset card or blob link; None for other URLs."""
    parts = urlsplit(url)
    if (parts.hostname or "").lower() not in HF_HOSTS:
        return None
    segs = [s for s in parts.path.split("/") if s]
    prefix: list[str] = []
    if segs and segs[0] in ("datasets", "spaces"):
        prefix, segs = [segs[0]], segs[1:]
    elif segs and segs[0] in _SITE_PAGES:
        return None
    if len(segs) < 2:
        return None
    repo = [*prefix, segs[0], segs[1]]
    rest = segs[2:]
    if not rest:
        if prefix == ["spaces"]:
            return None  # a space is an app: its page is read as it is
        path = [*repo, "raw", "main", "README.md"]
    elif rest[0] == "blob" and len(rest) >= 3:
        path = [*repo, "raw", *rest[1:]]
    else:
        return None
    return urlunsplit(("https", "huggingface.co", "/" + "/".join(path), "", ""))


def is_markdown(text: str) -> bool:
    """Front matter, or a heading / table / list / fence at the start of a line."""
    head = text[:20000]
    return bool(_FRONT_MATTER.match(head)) or len(_MARKDOWN.findall(head)) >= 2


_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(?P<code>.*?)^[ \t]*\1[ \t]*$",
                    re.MULTILINE | re.DOTALL)


def code_blocks(text: str) -> list[str]:
    """The fenced code blocks of a markdown text (where READMEs keep commands and logs)."""
    return [m["code"].strip() for m in _FENCE.finditer(text) if m["code"].strip()]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables_as_sentences(body: str) -> str:
    """Markdown tables rewritten one sentence per row (`post.table_sentences`)."""
    lines, out, i = body.split("\n"), [], 0
    while i < len(lines):
        if (_TABLE_ROW.match(lines[i]) and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1])
                and "-" in lines[i + 1]):
            rows = [_cells(lines[i])]
            i += 2
            while i < len(lines) and _TABLE_ROW.match(lines[i]):
                rows.append(_cells(lines[i]))
                i += 1
            out += table_sentences(rows)
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def parse_model_card(text: str, url: str) -> PostPage:
    """A model card README (or any markdown page) as a post: body, title, links, pictures."""
    body = text
    base_model = None
    m = _FRONT_MATTER.match(text)
    if m:
        body = text[m.end():]
        bm = _BASE_MODEL.search(m["yaml"])
        base_model = bm["name"].strip("'\"") if bm else None
    segs = [s for s in urlsplit(url).path.split("/") if s]
    repo = "/".join(segs[:2]) if len(segs) >= 2 and "raw" in segs else None
    title = None if _HEADING.search(body) else repo  # a heading already names the card
    body = tables_as_sentences(body)
    if base_model:
        body = f"{body.rstrip()}\n\nBase model: {base_model}"
    links = find_links(body)
    images = [mm["url"] for mm in _MD_IMAGE.finditer(body)]
    return PostPage(
        text=body.strip(),
        title=title,
        links=unique([u for u in links if not is_image_link(u) and u not in images]),
        images=unique([*images, *(u for u in links if is_image_link(u))]),
        code=code_blocks(body),
        site="model_card",
    )
