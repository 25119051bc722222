"""Stored reports of every schema version load: a claimcheck.report/1 document saved in the SQLite
store reads back as a /5 Report with the same answers, and renders; so do /2, /3 and /4 documents."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.render.escape import escape_untrusted
from bot.render.markdown import render_markdown
from bot.render.terminal import render_terminal
from bot.store import Store, get_audit, save_audit
from checks.models import REPORT_SCHEMA, Basis, Cited, Provenance, Report
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
async def test_a_stored_v2_report_reads_back_as_v5_and_its_v5_json_is_smaller(store: Store, name: str) -> None:
    report, old = await _stored(store, name, "claimcheck.report/2")
    assert report.schema_ == REPORT_SCHEMA == "claimcheck.report/5"
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


# Real /3 documents: the same two audits as main wrote them before /4 (main @96cf0702, paths
# made relative).
V3_DOCUMENTS = ["example-v3.json", "llama-h100-v3.json"]


def _v3_basis(entry: dict[str, Any], provenance: dict[str, Any]) -> tuple[Any, ...]:
    """A /3 basis entry as (states, source, field, at), with what its field's provenance gives."""
    p = provenance.get(entry.get("field") or "")
    if entry.get("kind") in ("record-field", "stated-by-user") and p is not None and "source" not in entry:
        return entry.get("states", ""), p["source"], entry["field"], p.get("field") or f'"{p["span"]}"'
    return entry.get("states", ""), entry.get("source"), entry.get("field"), entry.get("at")


@pytest.mark.parametrize("name", V3_DOCUMENTS)
async def test_a_stored_v3_report_reads_back_as_v5_with_the_same_values(store: Store, name: str) -> None:
    report, old = await _stored(store, name, "claimcheck.report/3")
    assert report.schema_ == REPORT_SCHEMA
    cited = {c["id"]: c["citation"] for c in old.get("references", [])}
    provenance = old["claim"].get("provenance", {})
    for new, was in zip([*report.questions, *report.findings], [*old["questions"], *old["findings"]], strict=True):
        assert (new.key, new.status, new.summary, new.figures) == (was["key"], was["status"], was["summary"],
                                                                   was.get("figures", {}))
        assert [(b.states, b.source, b.field, b.at) for b in new.basis] == [
            _v3_basis(b, provenance) for b in was.get("basis", [])]
    assert {k: (p.source, p.field, p.span, p.kind) for k, p in report.claim.provenance.items()} == {
        k: (cited.get(p["source"], p["source"]), p.get("field"), p.get("span"), p.get("kind", "read"))
        for k, p in provenance.items()}
    v4 = report.to_json()
    back = Report.model_validate_json(v4)
    assert back == report and back.to_json() == v4
    assert render_terminal(back) == render_terminal(report) and render_markdown(back) == render_markdown(report)
    assert len(v4) < len((FIXTURES / name).read_text(encoding="utf-8"))


def test_v5_names_each_source_once() -> None:
    """A provenance names the record by its reference id (left out for the claim's first record,
    with a span that is its value's own text: then it is where in the record), a record-field
    entry leaves the source and place its field's provenance gives, an answer names an assumption
    the report carries."""
    report = Report.model_validate_json((FIXTURES / "example-v2.json").read_text(encoding="utf-8"))
    doc = json.loads(report.to_json())
    record = next(c for c in doc["references"] if c["kind"] == "record")
    assert record == {"id": "record-1", "kind": "record", "citation": "bot/examples/headline_board.json"}
    provenance = doc["claim"]["provenance"]
    assert provenance["tok_s"] == "records[2].tok_s" and report.claim.provenance["tok_s"].span == "2103.6"
    assert provenance["speculative"] == {"field": "records[2].spec_method", "span": "DFlash"}
    assert provenance["ttft_empty"] == "records[2].ttft_ms" and report.claim.provenance["ttft_empty"].span is None
    post = next(c["id"] for c in doc["references"] if c["citation"] == "bot/examples/headline_post.txt")
    assert provenance["params_total_b"] == {"source": post, "span": "27B dense"}
    power = next(q for q in doc["questions"] if q["key"] == "power")
    assert doc["basis"][power["basis"][0]] == {"field": "power_w"}  # /5: it states the claim's 99.6 W
    assert report.question("power").basis[0].states == "= 99.6 W"
    names = {a["name"] for a in doc["assumptions"]}
    assert all(isinstance(a, str) and a in names for q in doc["questions"] for a in q.get("assumptions", []))
    assert "bot/examples/headline_board.json" not in json.dumps(doc["claim"])


@pytest.mark.parametrize(("name", "value", "span", "written"), [
    ("engine", "sglang", "sglang", "records[0].x"),  # the value's own text: left out
    ("hardware_count", 1, "1", "records[0].x"),
    ("acceptance_length", 56.0, "56.0", "records[0].x"),
    ("acceptance_length", 56.0, "56", {"field": "records[0].x", "span": "56"}),  # another text: kept
    ("engine", "sglang", None, {"field": "records[0].x", "span": None}),  # none: said so
    ("speculative", True, None, "records[0].x"),  # a flag has no one text
    ("speculative", True, "DFlash", {"field": "records[0].x", "span": "DFlash"}),
    ("launch_command", "x" * 300, "x" * 200, "records[0].x"),  # /5: the text as a reader quotes it, cut
    ("launch_command", "x" * 300, "x" * 300, {"field": "records[0].x", "span": "x" * 300}),
    ("launch_command", "x" * 300, "x" * 199, {"field": "records[0].x", "span": "x" * 199}),
    ("notes", "prefill from cache", "prefill", {"field": "records[0].x", "span": "prefill"}),
])
def test_a_v5_provenance_reads_back_as_written(ref: Reference, name: str, value: Any, span: str | None,
                                               written: Any) -> None:
    report = audit(headline_evidence(), ref)
    claim = report.claim.model_copy(update={name: value, "provenance": {
        name: Provenance(source="board.json", field="records[0].x", span=span)}})
    doc = report.model_copy(update={"claim": claim, "references": [
        Cited(id="record-1", kind="record", citation="board.json")]})
    assert json.loads(doc.to_json())["claim"]["provenance"] == {name: written}
    assert Report.model_validate_json(doc.to_json()).claim.provenance == claim.provenance


def test_a_value_the_user_stated_keeps_its_provenance_whole(ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    stated = Provenance(source="stated by the user", field="--set batch", kind="user")
    claim = report.claim.model_copy(update={"batch": 1, "provenance": {"batch": stated}})
    doc = report.model_copy(update={"claim": claim})
    assert json.loads(doc.to_json())["claim"]["provenance"] == {
        "batch": {"source": "stated by the user", "field": "--set batch", "kind": "user"}}
    assert Report.model_validate_json(doc.to_json()).claim.provenance == {"batch": stated}


# Real /4 documents: the same two audits as main wrote them before /5 (main @5bcd9a53, paths
# made relative).
V4_DOCUMENTS = ["example-v4.json", "llama-h100-v4.json"]


@pytest.mark.parametrize("name", V4_DOCUMENTS)
async def test_a_stored_v4_report_reads_back_as_v5_with_the_same_values(store: Store, name: str) -> None:
    report, old = await _stored(store, name, "claimcheck.report/4")
    assert report.schema_ == REPORT_SCHEMA
    cited = {c["id"]: c["citation"] for c in old.get("references", [])}
    provenance = {k: {"source": "record-1", "field": p} if isinstance(p, str) else {"source": "record-1", **p}
                  for k, p in old["claim"].get("provenance", {}).items()}
    for new, was in zip([*report.questions, *report.findings], [*old["questions"], *old["findings"]], strict=True):
        assert (new.key, new.status, new.summary, new.figures, getattr(new, "n", None)) == (
            was["key"], was["status"], was["summary"], was.get("figures", {}), was.get("n"))
        assert [(b.kind, b.states, b.source, b.field, b.at) for b in new.basis] == [
            (b.get("kind", "note"), *_v3_basis(b, provenance)) for b in was.get("basis", [])]
    assert {k: (p.source, p.field, p.span) for k, p in report.claim.provenance.items()} == {
        k: (cited.get(p["source"], p["source"]), p.get("field"), p["span"] if "span" in p else (
            str(v) if isinstance(v := old["claim"].get(k), (str, int, float)) and not isinstance(v, bool) else None))
        for k, p in provenance.items()}
    v5 = report.to_json()
    back = Report.model_validate_json(v5)
    assert back == report and back.to_json() == v5
    assert render_terminal(back) == render_terminal(report) and render_markdown(back) == render_markdown(report)
    assert len(v5) < len((FIXTURES / name).read_text(encoding="utf-8"))


def test_v5_writes_each_basis_entry_once() -> None:
    """The report's `basis` holds every distinct entry once; an answer names its entries by their
    positions there, in its own order; a kind the entry's source says is left out, a plain note is
    its string, and a question's `n` is its place."""
    text = (FIXTURES / "example-v4.json").read_text(encoding="utf-8")
    report, v4 = Report.model_validate_json(text), json.loads(text)
    doc = json.loads(report.to_json())
    pool = doc["basis"]
    assert len({json.dumps(e, sort_keys=True) for e in pool}) == len(pool) == 71
    answers = [*doc["questions"], *doc["findings"]]
    assert sum(len(a.get("basis", [])) for a in answers) == 83 == sum(  # the /4 document's entries
        len(a.get("basis", [])) for a in [*v4["questions"], *v4["findings"]])
    assert sorted({i for a in answers for i in a.get("basis", [])}) == list(range(len(pool)))
    roofline = next(a for a in doc["questions"] if a["key"] == "roofline")
    fits = next(a for a in doc["findings"] if a["key"] == "fits_memory")
    params = pool[roofline["basis"][3]]
    assert params["source"] == "models/Qwen3.6-27B" and params["states"].startswith("27.8B params total")
    assert roofline["basis"][3] == fits["basis"][0]  # one statement, cited by both
    assert "n" not in doc["questions"][0] and [q.n for q in report.questions] == list(range(1, 9))
    assert {e.get("kind") for e in pool if isinstance(e, dict)} == {None, "formula"}
    assert "dense: every weight is read per token (not active params)" in pool


@pytest.mark.parametrize(("entry", "written"), [
    ({"kind": "note", "states": "a note"}, "a note"),
    ({"kind": "note"}, ""),
    ({"kind": "formula", "states": "ratio = 2 ÷ 1 = 2"}, {"kind": "formula", "states": "ratio = 2 ÷ 1 = 2"}),
    ({"kind": "reference-row", "states": "board power 575 W", "source": "hardware/RTX 5090"},
     {"states": "board power 575 W", "source": "hardware/RTX 5090"}),
    ({"kind": "note", "states": "seen", "source": "hardware/RTX 5090"},  # a note citing a row says so
     {"kind": "note", "states": "seen", "source": "hardware/RTX 5090"}),
    ({"kind": "reference-row", "states": "row gone", "source": "hardware/none"},  # not in the references
     {"kind": "reference-row", "states": "row gone", "source": "hardware/none"}),
    ({"kind": "record-field", "states": "as read", "field": "tok_s"}, {"states": "as read", "field": "tok_s",
                                                                         "source": None}),
    ({"kind": "note", "states": "x", "field": "tok_s"}, {"kind": "note", "states": "x", "field": "tok_s"}),
    ({"kind": "stated-by-user", "states": "batch 1", "field": "batch", "source": "user", "at": "--set batch"},
     {"states": "batch 1", "source": "user", "field": "batch", "at": "--set batch"}),
    ({"kind": "document", "states": "evidence link", "source": "doc:https://x.example/r"},
     {"states": "evidence link", "source": "doc:https://x.example/r"}),
])
def test_a_v5_entry_is_written_with_what_its_source_does_not_say(ref: Reference, entry: dict[str, Any],
                                                               written: Any) -> None:
    report = audit(headline_evidence(), ref)
    q = report.questions[0]
    users = [Cited(id="user", kind="stated-by-user", citation="stated by the user"),
             Cited(id="doc:https://x.example/r", kind="document", citation="https://x.example/r")]
    odd = q.model_copy(update={"basis": [Basis.model_validate(entry)]})
    doc = report.model_copy(update={"questions": [odd, *report.questions[1:]],
                                    "references": [*report.references, *users]})
    data = json.loads(doc.to_json())
    assert [data["basis"][i] for i in data["questions"][0]["basis"]] == [written]
    back = Report.model_validate_json(doc.to_json())
    assert back.questions[0].basis == odd.basis and back == doc


@pytest.mark.parametrize("position", [99, -1, 1.0, None, [0]])
def test_a_v5_position_outside_the_list_is_refused(ref: Reference, position: Any) -> None:
    data = json.loads(audit(headline_evidence(), ref).to_json())
    data["questions"][0]["basis"] = [position]
    with pytest.raises(ValidationError):
        Report.model_validate(data)


@pytest.mark.parametrize(("name", "value", "states", "written"), [
    ("tok_s", 2103.6, "= 2103.6 tok/s", {"field": "tok_s"}),  # the value, its unit: by the field's name
    ("power_w", 99.6, "= 99.6 W", {"field": "power_w"}),
    ("wall_seconds", 0.969, "= 0.969 s", {"field": "wall_seconds"}),
    ("acceptance_length", 56.0, "= 56", {"field": "acceptance_length"}),  # a float as :g writes it
    ("acceptance_length", 56.0, "= 56.0", {"states": "= 56.0", "field": "acceptance_length"}),
    ("tokens_generated", 2048, "= 2048", {"field": "tokens_generated"}),
    ("engine", "sglang", "= 'sglang'", {"field": "engine"}),
    ("prefill_cached", True, "= true", {"field": "prefill_cached"}),
    ("tok_s", 2103.6, "= 2103.6 tok/s (decode)", {"states": "= 2103.6 tok/s (decode)", "field": "tok_s"}),
    ("tok_s", 2103.6, "", {"states": "", "field": "tok_s"}),  # says nothing: said so
    ("tok_s", None, "= None", {"states": "= None", "field": "tok_s"}),
])
def test_a_v5_record_field_entry_that_states_the_value_is_its_field(
        ref: Reference, name: str, value: Any, states: str, written: dict[str, Any]) -> None:
    report = audit(headline_evidence(), ref)
    claim = report.claim.model_copy(update={name: value, "provenance": {
        name: Provenance(source="board.json", field="records[0].x")}})
    entry = Basis(kind="record-field", states=states, field=name, source="record-1", at="records[0].x")
    q = report.questions[0].model_copy(update={"basis": [entry]})
    doc = report.model_copy(update={"claim": claim, "questions": [q, *report.questions[1:]], "references": [
        Cited(id="record-1", kind="record", citation="board.json")]})
    data = json.loads(doc.to_json())
    assert [data["basis"][i] for i in data["questions"][0]["basis"]] == [written]
    back = Report.model_validate_json(doc.to_json())
    assert back.questions[0].basis == [entry] and back == doc


@pytest.mark.parametrize("damage", [
    lambda d: d["basis"].__setitem__(0, {"source": ["x"], "states": "s"}),  # an id that is not a string
    lambda d: d["references"].__setitem__(0, {"id": ["x"], "kind": "record", "citation": "c"}),
    lambda d: d["basis"].__setitem__(0, {"field": ["x"]}),
    lambda d: d.__setitem__("basis", "not a list"),
    lambda d: d.__setitem__("claim", []),
])
def test_a_damaged_v5_document_is_refused_as_invalid_not_a_crash(ref: Reference, damage: Any) -> None:
    data = json.loads(audit(headline_evidence(), ref).to_json())
    damage(data)
    with pytest.raises(ValidationError):
        Report.model_validate(data)
