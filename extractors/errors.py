"""Errors the extractors raise. Every one carries a sentence fit to show a user as it is.

    ExtractError                      base: anything from outside that could not be used
    ├── UnusableInput                 input we cannot read as a claim (CLI exit 2)
    │   ├── UsageError                the command was given nothing usable to work on
    │   ├── UnrecognisedInput         no adapter recognises the shape
    │   ├── InvalidInput              the shape is recognised but the content is broken
    │   └── NoClaimFound              readable, but holds no speed claim
    └── FetchError                    a URL could not be fetched (CLI exit 3)
        ├── FetchRefused              the URL policy refused it ("that address is not allowed: ...")
        ├── FetchTimeout              the source did not answer within the deadline
        ├── FetchTooLarge             the body went over the byte cap while streaming
        └── FetchBadResponse          an HTTP error status or a content type we do not read
"""

from __future__ import annotations

__all__ = [
    "ExtractError",
    "FetchBadResponse",
    "FetchError",
    "FetchRefused",
    "FetchTimeout",
    "FetchTooLarge",
    "InvalidInput",
    "NoClaimFound",
    "UnrecognisedInput",
    "UnusableInput",
    "UsageError",
]


class ExtractError(Exception):
    """Base of every extractor error; str(err) is the user-facing sentence."""


class UnusableInput(ExtractError):
    pass


class UsageError(UnusableInput):
    pass


class UnrecognisedInput(UnusableInput):
    pass


class InvalidInput(UnusableInput):
    pass


class NoClaimFound(UnusableInput):
    pass


class FetchError(ExtractError):
    pass


class FetchRefused(FetchError):
    pass


class FetchTimeout(FetchError):
    pass


class FetchTooLarge(FetchError):
    pass


class FetchBadResponse(FetchError):
    pass
