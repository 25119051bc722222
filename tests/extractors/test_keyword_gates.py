"""The statement readers' keyword gates (`Scan.mentions`) run on the casefolded text: every
spelling an IGNORECASE pattern reads still reaches the pattern."""

from __future__ import annotations

import pytest

from checks.reference import load_reference
from extractors.document import RawDocument
from extractors.text import parse_text


@pytest.mark.parametrize(("text", "field", "value"), [
    ("Llama 3.1 8B on one H100, sıngle stream: 150 tok/s", "concurrency", 1),  # dotless i
    ("Llama 3.1 8B on one H100, SİNGLE stream: 150 tok/s", "concurrency", 1),  # dotted capital I
    ("Llama 3.1 8B on one H100 at batch size 4: 150 tok/s", "batch", 4),
    ("Llama 3.1 8B on one H100, 2.5x speedup, 150 tok/s", "speedup", 2.5),
    ("Llama 3.1 8B on one H100, 150 tok/s, 3 repetitions", "repeats", 3),
    ("Llama 3.1 8B on one H100, 150 tok/s at ctx 8192", "context_length", 8192),
])
def test_gated_statements_are_still_read(text: str, field: str, value: float) -> None:
    claim = parse_text(RawDocument.from_text(text), load_reference()).claim
    assert getattr(claim, field) == value
