"""Leaderboard endpoints: one Reading holding every record a board serves.

- InferenceX `GET /api/v1/benchmarks?model=…` answers one JSON array of `BenchmarkRow`s: one
  call, read by the `inferencex` format (SemiAnalysisAI/InferenceX-app `packages/app/src/lib/api.ts`).
- LocalScore `GET /api/results?page=N&limit=L&sortDirection=…` is **paged** (`limit` clamped to
  1..100, pages from 1): pages are read with `limit=100` until a short page, an empty page, a
  page identical to the previous one (a server that ignores `page`) or `max_pages`; the runs of
  every page are concatenated. A run's `/result/<id>` page embeds the detail (with per-test
  power and TTFT) in Next.js `__NEXT_DATA__` JSON, which `extractors.web` reads (§1.2).
- AccelMark `result.json` files (GitHub blob links become raw files) and any other JSON board go
  through content sniffing: the structured formats, then the generic board adapter with the
  packaged and the caller's mapping entries (`--boards FILE`).

URL patterns only decide *how* to fetch (paging); what the body is, is decided by its shape, so an
unknown host serving a records JSON works, and a self-hosted LocalScore behaves like the original.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from yarl import URL

from checks.models import Claim
from checks.reference import Reference
from extractors.errors import FetchError, InvalidInput, UnusableInput
from extractors.evidence import Reading
from extractors.formats import format_named
from extractors.web import read_page, rewrite_url

__all__ = [
    "LOCALSCORE_PAGE_LIMIT",
    "fetch_records",
    "is_inferencex_api",
    "is_localscore_list",
    "is_localscore_result",
]

LOCALSCORE_PAGE_LIMIT = 100  # cjpais/LocalScore src/pages/api/results.ts clamps limit to 1..100
_LOCALSCORE_LIST = re.compile(r"/api/results/?$")
_LOCALSCORE_RESULT = re.compile(r"/result/\d+/?$")
_INFERENCEX_API = re.compile(r"/api/v1/benchmarks/?$")


class _Fetcher(Protocol):
    async def fetch(
        self, url: str, *, kind_hint: Any = None, max_age_s: float | None = None
    ) -> Any: ...


def is_localscore_list(url: str) -> bool:
    return bool(_LOCALSCORE_LIST.search(urlsplit(url).path))


def is_localscore_result(url: str) -> bool:
    return bool(_LOCALSCORE_RESULT.search(urlsplit(url).path))


def is_inferencex_api(url: str) -> bool:
    return bool(_INFERENCEX_API.search(urlsplit(url).path))


async def _read(url: str, fetcher: _Fetcher, ref: Reference,
                boards: Sequence[str | Path]) -> tuple[Reading, Any]:
    fetched = await fetcher.fetch(url, kind_hint="record")
    doc = await fetched.document()
    page = read_page(doc, ref, fetched.source(), as_post=False, boards=boards)
    return page.reading, fetched


def _no_records(url: str, reading: Reading) -> InvalidInput:
    what = reading.source.format or reading.source.kind
    return InvalidInput(f"{url}: no leaderboard records there (the body reads as {what}); give "
                        "the board's JSON endpoint or a file of records")


async def fetch_records(
    url: str,
    fetcher: _Fetcher,
    ref: Reference,
    *,
    max_pages: int = 20,
    boards: Sequence[str | Path] = (),
) -> Reading:
    """Every record behind a board URL, as one Reading. Raises FetchError when the (first) page
    cannot be fetched and UnusableInput when it holds no records."""
    target = rewrite_url(url)
    if is_localscore_list(target):
        return await _localscore_pages(target, fetcher, ref, max_pages=max_pages, boards=boards)
    reading, _ = await _read(target, fetcher, ref, boards)
    if not reading.records:
        raise _no_records(url, reading)
    return reading


def _page_url(url: str, page: int, limit: int) -> str:
    u = URL(url)
    return str(u.update_query(page=str(page), limit=str(limit)))


def _is_run_list(reading: Reading, data: Any) -> bool:
    return reading.source.format == "localscore" and isinstance(data, list)


async def _localscore_pages(url: str, fetcher: _Fetcher, ref: Reference, *, max_pages: int,
                            boards: Sequence[str | Path]) -> Reading:
    query = URL(url).query
    try:
        first_page = max(1, int(query.get("page", "1")))
    except ValueError:
        first_page = 1
    limit = LOCALSCORE_PAGE_LIMIT
    localscore = format_named("localscore")
    first: Reading | None = None
    records: list[Claim] = []
    warnings: list[str] = []
    pages: list[str] = []
    previous_sha: str | None = None
    complete = False
    for n in range(first_page, first_page + max(1, max_pages)):
        page_url = _page_url(url, n, limit)
        try:
            fetched = await fetcher.fetch(page_url, kind_hint="record")
        except FetchError as exc:
            if first is None:
                raise
            warnings.append(f"{url}: stopped at page {n}: {exc}")
            break
        doc = await fetched.document()
        data = doc.json()
        if first is None:
            reading = read_page(doc, ref, fetched.source(), as_post=False, boards=boards).reading
            if not _is_run_list(reading, data):
                # Not LocalScore's list shape: whatever the body is, it is read as it stands.
                if not reading.records:
                    raise _no_records(url, reading)
                return reading
            first = reading
        elif fetched.sha256 == previous_sha:
            warnings.append(f"{url}: page {n} repeats page {n - 1}; the server ignores 'page'")
            complete = True
            break
        previous_sha = fetched.sha256
        pages.append(f"page {n} (sha256 {fetched.sha256[:12]})")
        rows = len(data) if isinstance(data, list) else 0
        if rows and n == first_page:
            records += first.records
        elif rows:
            try:
                records += localscore.parse(doc)
            except UnusableInput as exc:
                warnings.append(f"{page_url}: {exc}")
            warnings += [w for w in doc.warnings if w not in warnings]
        if rows < limit:
            complete = True
            break
    if first is None:
        raise InvalidInput(f"{url}: no page could be read")
    if not complete:
        warnings.append(f"{url}: read the first {max_pages} pages of {limit}; the board may hold "
                        "more runs")
    note = f"{len(pages)} page(s) of up to {limit} runs, {len(records)} runs: " + ", ".join(pages)
    source = first.source.model_copy(update={"note": note})
    return Reading(source=source, records=records, warnings=[*first.warnings, *warnings])
