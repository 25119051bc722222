"""The URL policy: scheme, port, userinfo, IP literals and the allow-list, before any connection."""

from __future__ import annotations

import pytest
from yarl import URL

from extractors.errors import FetchRefused
from extractors.fetch.url_policy import check_url, host_key, is_allow_listed, parse_allow_entry

HOSTILE = [
    ("http://127.0.0.2/", "127.0.0.2 is a loopback address"),
    ("http://0x7f000001/", "0x7f000001 means 127.0.0.1, which is a loopback address"),
    ("http://2130706433/", "means 127.0.0.1"),
    ("http://127.1/", "means 127.0.0.1"),
    ("http://0177.0.0.1/", "means 127.0.0.1"),
    ("http://[::1]/", "::1 is a loopback address"),
    ("http://[::ffff:127.0.0.1]/", "IPv4-mapped for 127.0.0.1"),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is link-local"),
    ("http://100.100.100.200/", "carrier-grade NAT"),
    ("http://[fd00:ec2::254]/", "fd00:ec2::254 is a private address"),
    ("http://0.0.0.0/", "0.0.0.0 is the unspecified address"),
    ("http://[2002:7f00:1::]/", "6to4 for 127.0.0.1"),
    ("http://[64:ff9b::a9fe:a9fe]/", "NAT64 for 169.254.169.254"),
    ("http://[fe80::1%25eth0]/", "not allowed"),
    ("file:///etc/passwd", "only http and https links are fetched, not file:"),
    ("ftp://example.com/pub/x", "not ftp:"),
    ("gopher://example.com/", "not gopher:"),
    ("javascript:alert(1)", "not javascript:"),
    ("example.com/no-scheme", "a link without a scheme"),
    ("http://user:pass@example.com/", "carries a user name or password"),
    ("http://user@example.com/", "carries a user name or password"),
    ("http://good.example@evil.example/", "carries a user name or password"),
    ("http://example.com:8080/", "port 8080 is not 80 or 443"),
    ("https://example.com:22/", "port 22 is not 80 or 443"),
    ("http://exa mple.com/", "is not a valid host name"),
    ("http:///path-only", "names no host"),
]


@pytest.mark.parametrize(("url", "expected"), HOSTILE)
def test_hostile_urls_are_refused_with_one_sentence(url: str, expected: str) -> None:
    with pytest.raises(FetchRefused) as err:
        check_url(url)
    message = str(err.value)
    assert expected in message
    assert "\n" not in message and "Traceback" not in message


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/",
        "https://example.com/a/b?c=1#frag",
        "https://EXAMPLE.com:443/",
        "http://example.com:80/",
        "https://8.8.8.8/",
        "https://[2606:4700::1111]/",
        "https://bücher.example/",
        "https://raw.githubusercontent.com/o/r/main/result.json",
    ],
)
def test_ordinary_public_urls_pass(url: str) -> None:
    assert isinstance(check_url(url), URL)


def test_legacy_numeric_form_of_a_public_address_is_refused_too() -> None:
    with pytest.raises(FetchRefused, match="write it as 8.8.8.8"):
        check_url("http://0x08080808/")


def test_allow_list_entry_with_port_lets_exactly_that_host_and_port_through() -> None:
    allow = frozenset({"127.0.0.1:8080"})
    assert check_url("http://127.0.0.1:8080/x", allow)
    with pytest.raises(FetchRefused, match="127.0.0.1 is a loopback address"):
        check_url("http://127.0.0.1:8081/x", allow)
    with pytest.raises(FetchRefused):
        check_url("http://127.0.0.1/x", allow)
    with pytest.raises(FetchRefused, match="127.0.0.2"):
        check_url("http://127.0.0.2:8080/x", allow)


def test_allow_list_entry_without_port_allows_only_80_and_443() -> None:
    allow = frozenset({"board.internal"})
    assert check_url("http://board.internal/", allow)
    assert check_url("https://BOARD.internal./", allow)
    with pytest.raises(FetchRefused, match="port 8080"):
        check_url("http://board.internal:8080/", allow)


def test_allow_list_does_not_lift_scheme_or_userinfo_rules() -> None:
    allow = frozenset({"127.0.0.1:8080"})
    with pytest.raises(FetchRefused, match="user name or password"):
        check_url("http://u:p@127.0.0.1:8080/", allow)
    with pytest.raises(FetchRefused, match="only http and https"):
        check_url("ftp://127.0.0.1:8080/", allow)


def test_ipv6_allow_list_entries_compare_canonically() -> None:
    assert is_allow_listed("0:0::1", 8080, {"[::1]:8080"})
    assert not is_allow_listed("::1", 8081, {"[::1]:8080"})


@pytest.mark.parametrize(
    ("entry", "parsed"),
    [
        ("127.0.0.1:8080", ("127.0.0.1", 8080)),
        ("[::1]:9000", ("::1", 9000)),
        ("Board.Example", ("board.example", None)),
        ("board.example.:443", ("board.example", 443)),
    ],
)
def test_allow_entries_parse(entry: str, parsed: tuple[str, int | None]) -> None:
    assert parse_allow_entry(entry) == parsed


@pytest.mark.parametrize("entry", ["http://x/", "x/path", "u@x", ""])
def test_malformed_allow_entries_are_rejected(entry: str) -> None:
    with pytest.raises(ValueError):
        parse_allow_entry(entry)


def test_host_key_normalises_case_dots_and_ip_text() -> None:
    assert host_key("Example.COM.") == "example.com"
    assert host_key("[0:0::1]") == "::1"
