"""PLACEHOLDER: generic_board format, to be written."""

from __future__ import annotations

from typing import ClassVar

from checks.models import Claim, SourceKind
from extractors.document import RawDocument


class GenericBoard:
    name: ClassVar[str] = "generic_board"
    kind: ClassVar[SourceKind] = "record"

    def sniff(self, doc: RawDocument) -> bool:
        return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        raise NotImplementedError("generic_board")
