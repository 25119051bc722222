"""The sweep's spool gives back the Claim it was given: the same fields, the same provenance, the
same set fields and the same JSON, a non-finite float included (JSON has none), without
validating it again."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

from bot.sweep import _decode, _encode, _read_entry
from checks.models import Claim
from checks.reference import Reference
from extractors.document import RawDocument
from extractors.evidence import read_document

BOARD = Path(__file__).resolve().parents[2] / "bot" / "examples" / "headline_board.json"


@pytest.mark.parametrize("extra", [{}, {"tok_s": math.inf}, {"power_w": -math.inf, "repeats": 3}])
def test_a_spooled_claim_reads_back_equal(ref: Reference, extra: dict[str, object]) -> None:
    read = read_document(RawDocument(BOARD.read_bytes(), source=str(BOARD)), ref).records
    claims = [c.model_copy(update=extra) for c in read[:5]]
    assert len(claims) == 5
    f = io.BytesIO(b"".join(_encode(c) for c in claims))
    back = [_decode(_read_entry(f)) for _ in claims]
    assert f.read() == b""  # every entry read, nothing left over
    for got, want in zip(back, claims, strict=True):
        assert type(got) is Claim
        assert got == want
        assert got.model_fields_set == want.model_fields_set
        assert got.provenance == want.provenance
        assert got.model_dump_json() == want.model_dump_json()
    if "tok_s" in extra:
        assert all(c.tok_s == math.inf for c in back)
