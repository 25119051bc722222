"""Stored reports of every schema version load: a claimcheck.report/1 document saved in the SQLite
store reads back as a /3 Report with the same answers, and renders; so does a /2 document."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.render.escape import escape_untrusted
from bot.render.markdown import render_markdown
from bot.render.terminal import render_terminal
from bot.store import Store, get_audit, save_audit
from checks.models import REPORT_SCHEMA, Report
from checks.reference import Reference
from checks.runner import audit
from tests.seed_claims import headline_evidence

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "reports"
# Real /1 documents: `claimcheck audit --example --json` and `claimcheck audit --json "Llama 3.1 8B
# BF16 on one H100, batch 1: 158 tok/s"` as main wrote them before /2 (the example's file paths
# made relative to the repository).
V1_DOCUMENTS = ["example-v1.json", "llama-h100-v1.json"]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "db.sqlite3")
    yield s
    await s.close()


def _check_v1(report: Report, old: dict[str, Any]) -> None:
    assert report.schema_ == REPORT_SCHEMA and report.verdict == old["verdict"]
    assert report.headline == old["headline"] and report.references == []
    old_answers = [*old["questions"], *old["findings"]]
    for new, was in zip([*report.questions, *report.findings], old_answers, strict=True):
        assert (new.key, new.status, new.summary) == (was["key"], was["status"], was["summary"])
        assert new.figures == was["figures"]  # the same values, now typed
        assert [b.states for b in new.basis] == was["basis"] and {b.kind for b in new.basis} <= {"note"}
        assert new.lines() == was["basis"]
    assert type(report.question("cell").figures.get("batch", 1)) is int


async def _stored(store: Store, name: str, schema: str) -> tuple[Report, dict[str, Any]]:
    """A real document of an older schema saved in the store and read back as bot/service.py
    reads a stored row; with the document as written."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    old = json.loads(text)
    assert old["schema"] == schema
    await save_audit(store, f"discord:{name}", text, old["verdict"], old["headline"])
    row = await get_audit(store, f"discord:{name}")
    assert row is not None
    return Report.model_validate_json(row.report_json), old


@pytest.mark.parametrize("name", V1_DOCUMENTS)
async def test_a_stored_v1_report_reads_back_as_v2(store: Store, name: str) -> None:
    report, old = await _stored(store, name, "claimcheck.report/1")
    _check_v1(report, old)
    first_line = old["questions"][0]["basis"][0]
    assert report.headline in render_terminal(report) and first_line in render_terminal(report)
    assert escape_untrusted(first_line, limit=2000, single_line=True) in render_markdown(report)
    assert json.loads(report.to_json())["schema"] == REPORT_SCHEMA


async def test_a_stored_v2_report_round_trips_and_renders_the_same(store: Store, ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    await save_audit(store, "discord:v2", report.to_json(), report.verdict, report.headline)
    row = await get_audit(store, "discord:v2")
    assert row is not None
    back = Report.model_validate_json(row.report_json)
    assert back.to_json() == report.to_json()
    assert render_terminal(back) == render_terminal(report)
    assert render_markdown(back) == render_markdown(report)


# Real /2 documents: the same two audits as main wrote them before /3 (paths made relative).
V2_DOCUMENTS = ["example-v2.json", "llama-h100-v2.json"]


@pytest.mark.parametrize("name", V2_DOCUMENTS)
async def test_a_stored_v2_report_reads_back_as_v3_and_its_v3_json_is_smaller(store: Store, name: str) -> None:
    report, old = await _stored(store, name, "claimcheck.report/2")
    assert report.schema_ == REPORT_SCHEMA == "claimcheck.report/3"
    for new, was in zip([*report.questions, *report.findings], [*old["questions"], *old["findings"]], strict=True):
        assert (new.key, new.status, new.summary, new.figures) == (was["key"], was["status"], was["summary"],
                                                                   was["figures"])
        assert [(b.states, b.source, b.field, b.at) for b in new.basis] == [
            (b.get("states", ""), b.get("source"), b.get("field"), b.get("at")) for b in was["basis"]]
        assert [a.model_dump() for a in new.assumptions] == was["assumptions"]
    assert {k: p.model_dump() for k, p in report.claim.provenance.items()} == old["claim"]["provenance"]
    v3 = report.to_json()
    back = Report.model_validate_json(v3)
    assert back == report and back.to_json() == v3
    assert render_terminal(back) == render_terminal(report) and render_markdown(back) == render_markdown(report)
    assert len(v3) < len((FIXTURES / name).read_text(encoding="utf-8"))


def test_v3_names_each_source_once() -> None:
    """A provenance names the record by its reference id, a record-field entry leaves the source and
    place its field's provenance gives, an answer names an assumption the report carries."""
    report = Report.model_validate_json((FIXTURES / "example-v2.json").read_text(encoding="utf-8"))
    doc = json.loads(report.to_json())
    record = next(c for c in doc["references"] if c["kind"] == "record")
    assert record["citation"] == "bot/examples/headline_board.json"
    assert doc["claim"]["provenance"]["tok_s"] == {"source": record["id"], "field": "records[2].tok_s",
                                                   "span": "2103.6"}
    power = next(q for q in doc["questions"] if q["key"] == "power")
    assert power["basis"][0] == {"kind": "record-field", "states": "= 99.6 W", "field": "power_w"}
    names = {a["name"] for a in doc["assumptions"]}
    assert all(isinstance(a, str) and a in names for q in doc["questions"] for a in q.get("assumptions", []))
    assert "bot/examples/headline_board.json" not in json.dumps(doc["claim"])
