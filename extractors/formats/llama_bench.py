"""PLACEHOLDER: llama_bench format, to be written."""

from __future__ import annotations

from typing import ClassVar

from checks.models import Claim, SourceKind
from extractors.document import RawDocument


class LlamaBench:
    name: ClassVar[str] = "llama_bench"
    kind: ClassVar[SourceKind] = "tool-output"

    def sniff(self, doc: RawDocument) -> bool:
        return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        raise NotImplementedError("llama_bench")
