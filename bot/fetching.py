"""The fetch policy a front door's options give: the allowed hosts and the timeouts.

The fetcher itself belongs to the app (`bot.core.App.fetcher`): one guarded session for the
app's lifetime, its bodies archived in the app's store, its network passed in (`Network`).
"""

from __future__ import annotations

from pydantic import ValidationError

from bot.options import PipelineOptions
from extractors.errors import UsageError
from extractors.fetch import FetchPolicy

__all__ = ["policy_for"]


def policy_for(opts: PipelineOptions) -> FetchPolicy:
    """The fetch policy: the allowed hosts (`--allow-host` and `CLAIMCHECK_ALLOW_HOSTS`, empty by
    default), the total timeout, and the pictures' byte cap (`extractors.web.images.image_cap`:
    a post's pictures are fetched for OCR when the settings ask for some and OCR is installed)."""
    from extractors.web.images import image_cap

    total = opts.total_timeout_s
    try:
        return FetchPolicy(
            allow_hosts=frozenset(opts.allow_hosts),
            total_timeout=total,
            read_timeout=min(10.0, total),
            connect_timeout=min(5.0, total),
            keepalive_timeout=opts.fetch.keepalive_s,
            image_cap=image_cap(opts.fetch.post_images, opts.fetch.image_max_bytes),
        )
    except ValidationError as exc:
        first = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise UsageError(f"--allow-host: {first}") from None
