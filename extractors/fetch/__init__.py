"""Fetching URLs safely: the URL and IP policies, and the guarded, caching fetcher."""

from extractors.fetch.fetch_policy import FetchPolicy
from extractors.fetch.guards import GuardResolver, open_session
from extractors.fetch.ip_policy import describe_refusal, is_allowed_ip, refusal_reason
from extractors.fetch.safe_fetch import Fetched, SafeFetcher
from extractors.fetch.url_policy import check_url, is_allow_listed

__all__ = [
    "FetchPolicy",
    "Fetched",
    "GuardResolver",
    "SafeFetcher",
    "check_url",
    "describe_refusal",
    "is_allow_listed",
    "is_allowed_ip",
    "open_session",
    "refusal_reason",
]
