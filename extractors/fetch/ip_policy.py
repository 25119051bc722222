"""Which IP addresses the fetcher may connect to: global unicast only.

The rule is `ip.is_global and not ip.is_multicast and not ip.is_reserved`, applied to every
address hidden inside another one first (Python's `ipaddress` classifies the wrapper, not what it wraps; RFC 4291 §2.5.5.2, RFC 3056, RFC 6052):

- IPv4-mapped `::ffff:a.b.c.d`: `::ffff:127.0.0.1` is not `is_loopback`, so unwrap, don't trust it.
- 6to4 `2002::/16` and NAT64 `64:ff9b::/96` are `is_global` while embedding 127.0.0.1: unwrap.
- Teredo `2001::/32` embeds a server and a client address: the reason names a bad embedded
  address if there is one, and a Teredo address is refused either way (Python counts 2001::/32
  as non-global; a tunnel endpoint is never a benchmark page).
- CGNAT `100.64.0.0/10` (Alibaba's metadata is 100.100.100.200) is neither private nor global:
  test `is_global`, never `is_private` alone.
- `224.0.0.1` is `is_global`: hence `not is_multicast`.
- `::7f00:1` (IPv4-compatible) and `64:ff9b:1::/48` (local-use NAT64) are `is_global` but
  `is_reserved`: hence `not is_reserved`.

Unwrapping explicitly keeps the policy the same whatever Python's `ipaddress` thinks of mapped
addresses in a given release.
"""

from __future__ import annotations

import ipaddress
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

__all__ = ["IPAddress", "describe_refusal", "is_allowed_ip", "refusal_reason"]

IPAddress = IPv4Address | IPv6Address

_CGNAT = IPv4Network("100.64.0.0/10")  # RFC 6598 shared address space
_NAT64 = IPv6Network("64:ff9b::/96")  # RFC 6052 well-known prefix


def _as_ip(ip: IPAddress | str) -> IPAddress:
    return ip if isinstance(ip, (IPv4Address, IPv6Address)) else ipaddress.ip_address(ip)


def _wrapped(ip: IPv6Address) -> tuple[str, list[IPv4Address]] | None:
    """The IPv4 addresses an IPv6 address carries, with the name of the wrapping."""
    if ip.ipv4_mapped is not None:
        return "IPv4-mapped", [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return "6to4", [ip.sixtofour]
    if ip.teredo is not None:
        server, client = ip.teredo
        return "Teredo", [server, client]
    if ip in _NAT64:
        return "NAT64", [IPv4Address(int(ip) & 0xFFFFFFFF)]
    return None


def _describe_plain(ip: IPAddress) -> str | None:
    if ip.is_unspecified:
        return "the unspecified address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "link-local"
    if ip.is_multicast:
        return "multicast"
    if isinstance(ip, IPv4Address) and ip in _CGNAT:
        return "in the shared carrier-grade NAT range 100.64.0.0/10"
    if ip.is_private:
        return "a private address"
    if ip.is_reserved:
        return "a reserved address"
    if not ip.is_global:
        return "not a public address"
    return None


def describe_refusal(ip: IPAddress | str) -> str | None:
    """Why `ip` is refused, as a predicate ("a loopback address", "link-local"); None if allowed.

    `ip` may be an address object or its text; text that is not an address raises ValueError.
    """
    ip = _as_ip(ip)
    if isinstance(ip, IPv6Address):
        if ip.scope_id:
            return "a scoped (zone-qualified) address"
        wrapped = _wrapped(ip)
        if wrapped is not None:
            how, inner = wrapped
            for v4 in inner:
                why = _describe_plain(v4)
                if why is not None:
                    return f"{how} for {v4}, which is {why}"
            return "a Teredo tunnel address" if how == "Teredo" else None
    return _describe_plain(ip)


def refusal_reason(ip: IPAddress | str) -> str | None:
    """The sentence fragment a refusal shows ("169.254.169.254 is link-local"); None if allowed."""
    ip = _as_ip(ip)
    why = describe_refusal(ip)
    return None if why is None else f"{ip} is {why}"


def is_allowed_ip(ip: IPAddress | str) -> bool:
    """True when the fetcher may connect to `ip` (global unicast, after unwrapping)."""
    return describe_refusal(ip) is None
