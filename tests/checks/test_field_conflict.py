"""field_conflict: a record whose structured fields and its own words disagree."""

from __future__ import annotations

from checks.models import Claim, Evidence, FieldConflict
from checks.reference import Reference
from checks.registry import PLAUSIBILITY_KEYS
from checks.rules.field_conflict import field_conflict
from checks.runner import audit
from tests.seed_claims import real_decode_claim

_WINDOW = FieldConflict(field="spec_window", structured="16", structured_from="spec_window",
                        text="56", text_from='launch_command: "--speculative-num-draft-tokens 56"')
_BATCH = FieldConflict(field="batch", structured="1", structured_from="batch_size",
                       text="8", text_from='notes: "batch 8"')


def _record(*conflicts: FieldConflict) -> Evidence:
    return Evidence(claim=real_decode_claim().model_copy(update={"conflicts": list(conflicts)}), kind="record")


def test_a_window_in_a_field_and_another_in_the_command_is_flag_showing_both(ref: Reference) -> None:
    a = field_conflict(_record(_WINDOW), ref, {})
    assert a.status == "flag" and a.figures["conflicts"] == 1.0
    assert ('contradicts itself on spec_window: 16 in spec_window vs 56 in launch_command: '
            '"--speculative-num-draft-tokens 56"') in a.summary
    assert a.lines() == ['spec_window: 16 (spec_window) vs 56 (launch_command: "--speculative-num-draft-tokens 56")']


def test_two_conflicts_name_both_fields(ref: Reference) -> None:
    a = field_conflict(_record(_WINDOW, _BATCH), ref, {})
    assert a.status == "flag" and a.figures["conflicts"] == 2.0
    assert "on spec_window, batch" in a.summary and "(+1 more)" in a.summary and len(a.lines()) == 2


def test_a_record_that_agrees_with_itself_is_ok(ref: Reference) -> None:
    a = field_conflict(_record(), ref, {})
    assert a.status == "ok" and a.figures == {}


def test_a_pasted_post_has_nothing_to_contradict(ref: Reference) -> None:
    assert field_conflict(Evidence(claim=Claim(tok_s=79.0)), ref, {}).status == "n/a"


def test_a_contradiction_is_provenance_named_in_the_headline_not_a_plausibility_flag(ref: Reference) -> None:
    report = audit(_record(_WINDOW), ref)
    assert "field_conflict" not in PLAUSIBILITY_KEYS
    assert report.verdict == "consistent"  # 79 tok/s plain decode at 0.61 of the ceiling
    assert report.headline.endswith("the record contradicts itself on spec_window")
