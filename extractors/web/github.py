"""GitHub and Gist pages → their raw files (benchmark records often live in repos and gists).

A `blob` page is an HTML viewer around a file; the file itself is on
`raw.githubusercontent.com/<owner>/<repo>/<ref>/<path>`. A gist page
(`gist.github.com/<user>/<id>`) is served raw at `gist.githubusercontent.com/<user>/<id>/raw`
(the gist's first file; a `#file-…` anchor does not select another). A repository's front page
becomes its README at `HEAD`. Issues, pull requests, releases and trees stay HTML pages.

Quirks:
- raw.githubusercontent.com and gists serve JSON as `text/plain`; the parsers sniff the content,
  so a vLLM result JSON in a gist is read as one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

__all__ = ["GIST_HOSTS", "GITHUB_HOSTS", "raw_url"]

GITHUB_HOSTS = ("github.com", "www.github.com")
GIST_HOSTS = ("gist.github.com",)
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
_GIST_ID = re.compile(r"^[0-9a-f]{5,40}$", re.IGNORECASE)
# First path segments that are GitHub's own pages, not an owner.
_SITE_PAGES = {"about", "features", "pricing", "topics", "trending", "explore", "marketplace",
               "orgs", "settings", "login", "join", "sponsors", "collections", "search", "apps",
               "notifications", "pulls", "issues", "codespaces", "enterprise", "security"}


def _raw(path: str, host: str) -> str:
    return urlunsplit(("https", host, path, "", ""))


def _gist(segs: list[str]) -> str | None:
    if len(segs) >= 2 and _NAME.match(segs[0]) and _GIST_ID.match(segs[1]):
        user, gist_id = segs[0], segs[1]
        if len(segs) >= 4 and segs[2] == "raw":  # …/raw/<revision>/<file> is already raw
            return _raw("/" + "/".join(segs), "gist.githubusercontent.com")
        return _raw(f"/{user}/{gist_id}/raw", "gist.githubusercontent.com")
    return None


def raw_url(url: str) -> str | None:
    """The raw file behind a GitHub blob, repository or gist URL; None for other URLs."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segs = [s for s in parts.path.split("/") if s]
    if host in GIST_HOSTS:
        return _gist(segs)
    if host not in GITHUB_HOSTS or len(segs) < 2 or segs[0] in _SITE_PAGES:
        return None
    owner, repo = segs[0], segs[1].removesuffix(".git")
    if not (_NAME.match(owner) and _NAME.match(repo)):
        return None
    rest = segs[2:]
    if not rest:
        return _raw(f"/{owner}/{repo}/HEAD/README.md", "raw.githubusercontent.com")
    if rest[0] in ("blob", "raw") and len(rest) >= 3:
        return _raw("/" + "/".join([owner, repo, *rest[1:]]), "raw.githubusercontent.com")
    return None
