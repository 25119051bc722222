"""One audit's memo (checks.memo): a `per_audit` figure is computed once per audit for the same
argument objects and every time outside one; the runner cites a claim's one record as 'record-1'
from the start, and numbers several records by first citation as it always did."""

from __future__ import annotations

from collections.abc import Callable

from checks.basis import assembled, difference, field, record_source, repointed, step
from checks.memo import AuditMemo, current_audit, one_audit, per_audit
from checks.models import Basis, Cited, Difference, Provenance, Question, Step, built
from checks.physics import resolve_format
from checks.reference import Reference
from checks.runner import audit
from tests.seed_claims import headline_claim, headline_evidence


def _counting() -> tuple[list[object], Callable[..., tuple[object, int]]]:
    calls: list[object] = []

    @per_audit
    def size(x: object, *, scale: int = 1) -> tuple[object, int]:
        calls.append(x)
        return (x, scale)

    return calls, size


def test_outside_an_audit_every_call_computes() -> None:
    calls, size = _counting()
    x = object()
    assert size(x) == size(x) == (x, 1)
    assert len(calls) == 2 and current_audit() is None


def test_inside_one_audit_the_same_arguments_compute_once() -> None:
    calls, size = _counting()
    x, y = object(), object()
    with one_audit(AuditMemo()) as memo:
        first = size(x)
        assert size(x) is first
        assert size(y) == (y, 1)  # another object: its own value
        assert size(x, scale=2) == (x, 2)  # other keywords: computed
        assert current_audit() is memo
    assert calls == [x, y, x]
    assert current_audit() is None
    size(x)  # the audit is over: computed again
    assert len(calls) == 4


def test_a_memoised_physics_figure_is_the_one_object_within_an_audit(ref: Reference) -> None:
    c = headline_claim()
    assert resolve_format(c, ref) is not resolve_format(c, ref)
    with one_audit(AuditMemo()):
        assert resolve_format(c, ref) is resolve_format(c, ref)
        assert resolve_format(c, ref) == resolve_format(headline_claim(), ref)


def test_field_cites_the_record_under_the_id_the_runner_gave_it() -> None:
    c = headline_claim()
    outside = field(c, "tok_s", "= 2103.6 tok/s")
    numbered = record_source("board://seed", 1)
    with one_audit(AuditMemo(records={"board://seed": numbered})):
        inside = field(c, "tok_s", "= 2103.6 tok/s")
    assert (outside.source, inside.source) == ("record:board://seed", "record-1")
    assert inside.cite is numbered
    assert inside == repointed(outside, "record-1", numbered)
    assert inside.__pydantic_fields_set__ == outside.__pydantic_fields_set__


def test_one_record_is_record_1_in_every_entry_and_the_references(ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    sources = {b.source for a in [*report.questions, *report.findings] for b in a.basis}
    assert "record-1" in sources and not any(s and s.startswith("record:") for s in sources)
    records = [c for c in report.references if c.kind == "record"]
    assert [(c.id, c.citation) for c in records] == [("record-1", "board://seed")]


def test_two_records_are_numbered_in_order_of_first_citation(ref: Reference) -> None:
    c = headline_claim()
    provenance = dict(c.provenance)
    provenance["power_w"] = Provenance(source="board://other", field="power_w")
    report = audit(headline_evidence(provenance=provenance), ref)
    answers = [*report.questions, *report.findings]
    first: dict[str, str] = {}
    for a in answers:
        for b in a.basis:
            if b.cite is not None and b.cite.kind == "record":
                first.setdefault(b.cite.citation, b.cite.id)
                assert b.source == b.cite.id
    assert sorted(first.values()) == ["record-1", "record-2"]
    records = [(r.id, r.citation) for r in report.references if r.kind == "record"]
    assert records == sorted(((i, s) for s, i in first.items()), key=lambda p: p[0])


def test_the_written_out_builders_give_what_built_gives() -> None:
    assert step(knob=None, run="plain decode") == built(Step, knob=None, run="plain decode")
    assert step(knob=None, run="x").__pydantic_fields_set__ == {"knob", "run"}
    d = difference(knob="spec_window", claimed="56", reference="published 16")
    assert d == built(Difference, knob="spec_window", claimed="56", reference="published 16")
    assert d.model_dump() == {"knob": "spec_window", "claimed": "56", "reference": "published 16"}
    cite = built(Cited, id="record-1", kind="record", citation="a.json")
    b = assembled(Basis, {"kind": "note", "states": "s", "source": None, "field": None, "at": None,
                          "cite": None}, {"kind", "states"})
    assert b == built(Basis, kind="note", states="s") and b.model_dump() == {"states": "s"}
    assert repointed(b, "record-1", cite).source == "record-1"


def test_a_question_is_its_answer_and_its_number(ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    assert [q.n for q in report.questions] == list(range(1, 9))
    assert all(type(q) is Question and "n" in q.__pydantic_fields_set__ for q in report.questions)
