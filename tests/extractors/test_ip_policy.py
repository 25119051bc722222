"""The IP policy: global unicast only, after unwrapping every address hidden in another."""

from __future__ import annotations

import ipaddress

import pytest

from extractors.fetch.ip_policy import describe_refusal, is_allowed_ip, refusal_reason

REFUSED = [
    ("127.0.0.2", "127.0.0.2 is a loopback address"),
    ("::1", "::1 is a loopback address"),
    ("::ffff:127.0.0.1", "IPv4-mapped for 127.0.0.1, which is a loopback address"),
    ("169.254.169.254", "169.254.169.254 is link-local"),
    ("::ffff:169.254.169.254", "IPv4-mapped for 169.254.169.254, which is link-local"),
    ("100.100.100.200", "carrier-grade NAT"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("fd00:ec2::254", "fd00:ec2::254 is a private address"),
    ("10.0.0.5", "a private address"),
    ("192.168.1.1", "a private address"),
    ("172.16.0.1", "a private address"),
    ("0.0.0.0", "0.0.0.0 is the unspecified address"),
    ("::", ":: is the unspecified address"),
    ("fe80::1", "fe80::1 is link-local"),
    ("224.0.0.1", "224.0.0.1 is multicast"),
    ("ff02::1", "multicast"),
    ("2002:7f00:1::", "6to4 for 127.0.0.1, which is a loopback address"),
    ("64:ff9b::a9fe:a9fe", "NAT64 for 169.254.169.254, which is link-local"),
    ("64:ff9b::7f00:1", "NAT64 for 127.0.0.1, which is a loopback address"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo for"),
    ("2001:0:5ef5:79fd::7f00:1", "a Teredo tunnel address"),
    ("::7f00:1", "a reserved address"),  # IPv4-compatible: is_global, but reserved
    ("64:ff9b:1::1", "a reserved address"),  # local-use NAT64
    ("240.0.0.1", "240.0.0.1 is"),
    ("255.255.255.255", "255.255.255.255 is"),
    ("192.0.2.1", "192.0.2.1 is"),  # documentation
    ("198.18.0.1", "198.18.0.1 is"),  # benchmarking
    ("2001:db8::1", "2001:db8::1 is"),
]

ALLOWED = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "2606:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",  # mapped public: fine once unwrapped
    "2002:808:808::1",  # 6to4 for a public address
    "64:ff9b::808:808",  # NAT64 (DNS64 networks) for a public address
]


@pytest.mark.parametrize(("address", "expected"), REFUSED)
def test_non_global_addresses_are_refused_with_a_reason(address: str, expected: str) -> None:
    reason = refusal_reason(address)
    assert reason is not None and expected in reason
    assert not is_allowed_ip(address)
    assert not is_allowed_ip(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ALLOWED)
def test_global_unicast_addresses_are_allowed(address: str) -> None:
    assert is_allowed_ip(address)
    assert refusal_reason(address) is None
    assert describe_refusal(address) is None


def test_reason_is_a_sentence_fragment_naming_the_address() -> None:
    assert refusal_reason("169.254.169.254") == "169.254.169.254 is link-local"
    assert describe_refusal("127.0.0.1") == "a loopback address"


def test_text_that_is_not_an_address_raises_value_error() -> None:
    with pytest.raises(ValueError):
        is_allowed_ip("example.com")
