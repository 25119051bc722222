"""A report's JSON is the same bytes whichever way it is written: `model_dump_json` (the sweep's
and the store's path) builds it from plain data read off the members (`checks.models._compacted`
with `plain=True`), every other dump walks the members through pydantic's handler. The handler's
walk, encoded by pydantic-core's own encoder with the report's settings (infinities as null), is
the reference each fast document is compared with, byte for byte."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pydantic_core
import pytest

from bot.pipeline import evidence_for_inputs
from bot.sweep import sweep_source
from checks.models import (
    _ANSWER_ORDER,
    Answer,
    Assumption,
    Basis,
    Cited,
    Question,
    Report,
    built,
    replaced,
)
from checks.reference import Reference
from checks.runner import audit
from tests.seed_claims import headline_evidence

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "tests" / "fixtures" / "generic_board" / "community_board.json"
EXAMPLES = [ROOT / "bot" / "examples" / "headline_board.json", ROOT / "bot" / "examples" / "headline_post.txt"]


def _walked(report: Report, *, by_alias: bool = True) -> str:
    """The JSON through pydantic's handler (a Python-mode dump takes that path), then encoded."""
    return pydantic_core.to_json(report.model_dump(by_alias=by_alias), inf_nan_mode="null").decode()


@pytest.fixture(scope="module")
def board_reports(ref: Reference) -> list[Report]:
    return sweep_source(str(BOARD), ref).reports


def test_every_report_of_a_real_board_writes_the_same_bytes(board_reports: list[Report]) -> None:
    assert len(board_reports) == 221
    differ = [r.claim.record_id for r in board_reports if r.model_dump_json(by_alias=True) != _walked(r)]
    assert differ == []


def test_the_example_writes_the_same_bytes_both_ways(ref: Reference) -> None:
    report = audit(evidence_for_inputs([str(p) for p in EXAMPLES], ref), ref)
    assert report.model_dump_json(by_alias=True) == _walked(report)
    assert report.model_dump_json() == _walked(report, by_alias=False)  # "schema_", as pydantic names it
    assert '"schema_":' in report.model_dump_json() and '"schema":' in report.model_dump_json(by_alias=True)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e16, 1.5e-7, 0.1, 3.0])
def test_a_figure_of_any_float_is_written_as_pydantic_writes_it(ref: Reference, value: float) -> None:
    report = audit(headline_evidence(), ref)
    q = report.questions[0]
    odd = replaced(q, figures={**q.figures, "ceiling_tok_s": value})
    report = replaced(report, questions=[odd, *report.questions[1:]])
    assert report.model_dump_json(by_alias=True) == _walked(report)
    written = json.loads(report.model_dump_json(by_alias=True))["questions"][0]["figures"]["ceiling_tok_s"]
    assert written == (None if not math.isfinite(value) else value)


def test_assumptions_and_record_field_entries_are_compacted_the_same(ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    q = report.questions[0]
    known = Assumption(name="kv_bytes", value=2.0, unit="B", source="fp16")
    other = Assumption(name="kv_bytes_alt", value="two", source="stated")
    basis = [*q.basis, built(Basis, kind="record-field", states="tok/s as read", field="tok_s", source=None),
             built(Basis, kind="stated-by-user", states="batch 1", field="batch", source="user", at="batch")]
    odd = replaced(q, assumptions=[known, other], basis=basis)
    report = replaced(report, questions=[odd, *report.questions[1:]], assumptions=[known])
    fast = report.model_dump_json(by_alias=True)
    assert fast == _walked(report)
    assert json.loads(fast)["questions"][0]["assumptions"][0] == "kv_bytes"  # named once in the report


def test_every_report_of_a_real_board_reads_back_the_same(board_reports: list[Report]) -> None:
    """/5 leaves out what other members say (each entry once, kinds, spans, places): reading
    gives every one of them back, so a stored or streamed report is the report."""
    differ = []
    for r in board_reports:
        text = r.model_dump_json(by_alias=True)
        back = Report.model_validate_json(text)
        if back != r or back.model_dump_json(by_alias=True) != text or back.to_json() != r.to_json():
            differ.append(r.claim.record_id)
    assert differ == []


def test_the_examples_figures_are_the_readmes_in_its_json(ref: Reference) -> None:
    """The README's example: a 129 tok/s ceiling, 16.3x it, AL / window 1.000, read from the
    printed JSON; the /5 document is smaller than the /4 one main printed."""
    report = audit(evidence_for_inputs([str(p) for p in EXAMPLES], ref), ref)
    doc = json.loads(report.to_json())
    answers = {a["key"]: a for a in [*doc["questions"], *doc["findings"]]}
    roof, acc = answers["roofline"]["figures"], answers["acceptance"]["figures"]
    assert (f"{roof['ceiling_tok_s']:.0f}", f"{roof['ratio']:.1f}", f"{acc['ratio']:.3f}") == ("129", "16.3", "1.000")
    v4 = (ROOT / "tests" / "fixtures" / "reports" / "example-v4.json").read_text(encoding="utf-8")
    assert doc["schema"] == "claimcheck.report/5"
    assert len(Report.model_validate_json(v4).to_json()) < 0.9 * len(v4)  # the same paths, relative


def test_a_report_read_back_writes_the_same_bytes(ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    text = report.model_dump_json(by_alias=True)
    assert Report.model_validate_json(text).model_dump_json(by_alias=True) == text


def test_the_fast_writer_knows_an_answers_fields_in_order() -> None:
    assert tuple(Answer.model_fields) == _ANSWER_ORDER
    assert tuple(Question.model_fields) == (*_ANSWER_ORDER, "n")
    assert tuple(Cited.model_fields) == ("id", "kind", "citation", "url")
