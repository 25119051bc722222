"""checks.basis.answer builds without validation what `Answer(...)` validates to, and validates
anything else (so a rule's mistake still fails loudly)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checks.basis import answer, formula
from checks.models import Answer, Assumption, Difference, Step

_ENTRY = formula("ratio = 10 ÷ 5 = 2.00")
_ASSUMED = Assumption(name="margin", value=1.05, source="a test")


class _Float(float):
    """A float of another type (numpy's float64 is one): not a plain figure."""


@pytest.mark.parametrize("kw", [
    {},
    {"figures": {"ratio": 2.0, "batch": 4.0, "serving": 1, "weights_gb": 3}, "basis": [_ENTRY, "a note"]},
    {"reason": "above_ceiling", "missing": ["tok/s"], "assumptions": [_ASSUMED]},
    {"label": "own words", "differences": [Difference(knob="w", claimed="5", reference="4")],
     "steps": [Step(knob=None, run="baseline")]},
])
def test_plain_values_give_the_validated_answer(kw: dict[str, Any]) -> None:
    built = answer("roofline", "ok", "fine.", **kw)
    validated = Answer(key="roofline", status="ok", summary="fine.", reason=kw.get("reason", ""),
                       figures=dict(kw.get("figures", {})), basis=list(kw.get("basis", [])),
                       missing=list(kw.get("missing", [])), assumptions=list(kw.get("assumptions", [])),
                       **{k: v for k, v in kw.items() if k in ("label", "differences", "steps")})
    assert built.__dict__ == validated.__dict__
    assert list(built.__dict__) == list(Answer.model_fields)
    assert [type(v) for v in built.figures.values()] == [type(v) for v in validated.figures.values()]
    assert built.model_dump_json() == validated.model_dump_json()


def test_figures_are_typed_by_name() -> None:
    a = answer("roofline", "ok", "fine.", figures={"batch": 4.0, "serving": 1, "weights_gb": 3})
    assert a.figures == {"batch": 4, "serving": True, "weights_gb": 3.0}
    assert [type(v) for v in a.figures.values()] == [int, bool, float]


def test_the_caller_s_figures_are_not_changed() -> None:
    figures: dict[str, float | int | bool] = {"batch": 4.0}
    answer("roofline", "ok", "fine.", figures=figures)
    assert type(figures["batch"]) is float


@pytest.mark.parametrize("kw", [
    {"status": "great"},
    {"figures": {"ratio": "high"}},
    {"basis": [{"kind": "nonsense"}]},
    {"missing": [3]},
])
def test_other_values_are_validated(kw: dict[str, Any]) -> None:
    args: dict[str, Any] = {"status": "ok", **kw}
    with pytest.raises(ValidationError):
        answer("roofline", args.pop("status"), "fine.", **args)


def test_a_float_of_another_type_is_validated_to_a_float() -> None:
    a = answer("roofline", "ok", "fine.", figures={"ratio": _Float(2.5)})
    assert a.figures == {"ratio": 2.5}


def test_a_member_answer_does_not_declare_is_left_out_as_validation_leaves_it() -> None:
    a = answer("roofline", "ok", "fine.", unknown_member=1)
    assert a.__dict__ == Answer(key="roofline", status="ok", summary="fine.").__dict__
