"""Which URLs the fetcher may request, checked before the first hop and on every redirect.

- Only `http` and `https`, only ports 80 and 443.
- No userinfo (`user:pass@`): aiohttp would turn it into an Authorization header, and
  `good.com@evil.com` reads as one host while meaning another.
- An IP-literal host must pass the IP policy (`ip_policy`). IP literals never reach the resolver,
  so this is where they are caught before any connection.
- Legacy numeric IPv4 spellings (`0x7f000001`, `2130706433`, `127.1`, `0177.0.0.1`) are refused
  outright: getaddrinfo turns them into addresses, and the person reading the link cannot see which.
- The allow-list (`host[:port]` entries, empty by default) lets exactly those hosts through the
  address and port rules; scheme and userinfo rules still apply. An entry without a port allows
  the host on 80 and 443 only.

Every refusal is a `FetchRefused` whose text is one sentence fit for a user.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from functools import lru_cache

from yarl import URL

from extractors.errors import FetchRefused
from extractors.fetch.ip_policy import describe_refusal, refusal_reason

__all__ = [
    "ALLOWED_PORTS",
    "ALLOWED_SCHEMES",
    "check_url",
    "host_key",
    "is_allow_listed",
    "parse_allow_entry",
]

ALLOWED_SCHEMES = frozenset({"http", "https"})
ALLOWED_PORTS = frozenset({80, 443})

MAX_LABEL, MAX_HOST = 63, 253
_NAME = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")
_NUMERIC_ISH = re.compile(r"[0-9a-fx.]+")

AllowEntry = tuple[str, int | None]


def host_key(host: str) -> str:
    """A host in the form the rules compare: lower case, no trailing dot, IPs in canonical text."""
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.endswith(".") and host != ".":
        host = host.rstrip(".")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


def parse_allow_entry(entry: str) -> AllowEntry:
    """`"127.0.0.1:8080"`, `"[::1]:8080"`, `"board.example"` -> (host key, port or None)."""
    text = entry.strip()
    try:
        url = URL("http://" + text)
    except ValueError:
        raise ValueError(f"allow-list entry {entry!r} is not host[:port]") from None
    if (
        not url.raw_host
        or url.raw_user is not None
        or url.raw_password is not None
        or url.raw_path not in ("", "/")
        or url.raw_query_string
        or url.raw_fragment
        or "/" in text
    ):
        raise ValueError(f"allow-list entry {entry!r} is not host[:port]")
    return host_key(url.raw_host), url.explicit_port


@lru_cache(maxsize=64)
def _parsed(allow_hosts: frozenset[str]) -> frozenset[AllowEntry]:
    return frozenset(parse_allow_entry(e) for e in allow_hosts)


def is_allow_listed(host: str, port: int | None, allow_hosts: Iterable[str]) -> bool:
    """True when `host:port` is exactly an allow-list entry (a port-less entry means 80 and 443)."""
    if not allow_hosts:
        return False
    entries = _parsed(frozenset(allow_hosts))
    key = host_key(host)
    if (key, port) in entries:
        return True
    return port in ALLOWED_PORTS and (key, None) in entries


def _legacy_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The address a non-dotted-quad numeric spelling means to getaddrinfo, else None."""
    if not _NUMERIC_ISH.fullmatch(host) or not any(c.isdigit() for c in host):
        return None
    try:
        packed = socket.inet_aton(host)  # pure parsing, no lookup
    except OSError:
        return None
    return ipaddress.IPv4Address(packed)


def _check_host(host: str) -> None:
    """Refuse an IP-literal host the IP policy refuses, a legacy numeric one, or a malformed name."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is not None:
        reason = refusal_reason(ip)
        if reason is not None:
            raise FetchRefused(f"that address is not allowed: {reason}")
        return
    legacy = _legacy_ipv4(host)
    if legacy is not None:
        why = describe_refusal(legacy)
        if why is not None:
            raise FetchRefused(
                f"that address is not allowed: {host} means {legacy}, which is {why}"
            )
        raise FetchRefused(
            f"that address is not allowed: {host} is an unusual spelling of {legacy}; "
            f"write it as {legacy}"
        )
    if not _NAME.fullmatch(host):
        raise FetchRefused(f"that URL is not allowed: {host[:100]!r} is not a valid host name")
    # RFC 1035 §2.3.4: labels of at most 63 octets, names of at most 253 characters written out.
    # The resolver's IDNA codec raises UnicodeError past these, so they are refused here.
    labels = host.split(".")
    if any(label.startswith("-") or label.endswith("-") for label in labels):
        raise FetchRefused(f"that URL is not allowed: {host[:100]!r} is not a valid host name "
                           "(a part of it starts or ends with a hyphen)")
    longest = max(len(label) for label in labels)
    if longest > MAX_LABEL or len(host) > MAX_HOST:
        why = (f"a part of it is {longest} characters long (at most {MAX_LABEL})"
               if longest > MAX_LABEL else f"it is {len(host)} characters long (at most {MAX_HOST})")
        shown = host if len(host) <= 60 else host[:60] + "…"
        raise FetchRefused(f"that URL is not allowed: {shown} is not a valid host name: {why}")


def check_url(url: str | URL, allow_hosts: Iterable[str] = ()) -> URL:
    """Return `url` parsed if the fetcher may request it; raise FetchRefused with the reason."""
    if isinstance(url, str):
        text = url
        try:
            url = URL(text.strip())
        except ValueError:
            raise FetchRefused(f"that is not a link we can read: {text[:200]}") from None
    scheme = (url.scheme or "").lower()
    if scheme not in ALLOWED_SCHEMES:
        shown = f"{scheme}:" if scheme else "a link without a scheme"
        raise FetchRefused(
            f"that URL is not allowed: only http and https links are fetched, not {shown}"
        )
    raw_host = url.raw_host
    if not raw_host:
        raise FetchRefused("that URL is not allowed: it names no host")
    authority = url.raw_authority or ""
    if url.raw_user is not None or url.raw_password is not None or "@" in authority:
        raise FetchRefused("that URL is not allowed: it carries a user name or password")
    host = host_key(raw_host)
    port = url.port
    if is_allow_listed(host, port, allow_hosts):
        return url
    _check_host(host)
    if port not in ALLOWED_PORTS:
        raise FetchRefused(f"that URL is not allowed: port {port} is not 80 or 443")
    return url
