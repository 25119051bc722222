"""PLACEHOLDER: sglang_bench_one_batch format, to be written."""

from __future__ import annotations

from typing import ClassVar

from checks.models import Claim, SourceKind
from extractors.document import RawDocument


class SglangBenchOneBatch:
    name: ClassVar[str] = "sglang_bench_one_batch"
    kind: ClassVar[SourceKind] = "tool-output"

    def sniff(self, doc: RawDocument) -> bool:
        return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        raise NotImplementedError("sglang_bench_one_batch")
