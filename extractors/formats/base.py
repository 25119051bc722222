"""The two-method interface every input format implements (after httpx's content decoders)."""

from __future__ import annotations

from typing import ClassVar, Protocol

from checks.models import Claim, SourceKind
from extractors.document import RawDocument

__all__ = ["Format"]


class Format(Protocol):
    """One input format. `sniff` looks at the shape only (never the file name) and must not raise;
    `parse` returns one Claim per record (a llama-bench array gives several) and raises
    `InvalidInput` when the shape matched but the content is unusable."""

    name: ClassVar[str]
    kind: ClassVar[SourceKind]  # "tool-output", "record", "log" or "config"

    def sniff(self, doc: RawDocument) -> bool: ...

    def parse(self, doc: RawDocument) -> list[Claim]: ...
