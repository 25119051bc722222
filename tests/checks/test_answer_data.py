"""Answers are data: typed figures, basis entries citing sources by id, reason codes; the report
carries each source once, reads a claimcheck.report/1 document, and nothing reads a summary back."""

from __future__ import annotations

import json

import pytest

from checks.basis import answer, field, formula, row
from checks.models import Answer, Basis, Claim, Provenance, Report, figure_unit
from checks.reference import Reference
from checks.render import basis_line, reason_text
from checks.rules.measure import measure
from checks.runner import audit
from checks.verdict import headline, verdict
from tests.seed_claims import headline_evidence


@pytest.fixture(scope="module")
def seed(ref: Reference) -> Report:
    return audit(headline_evidence(), ref)


@pytest.mark.parametrize(("key", "name", "value", "kind"), [
    ("cell", "batch", 1, int),
    ("roofline", "ceiling_batch", 1, int),
    ("measure", "experiments", 5, int),
    ("measure", "differences", 4, int),
    ("acceptance", "window", 56, int),
    ("window_curve", "runs", 4, int),
    ("window_curve", "rigorous_is_slowest", True, bool),
    ("power", "tdp_w", 575.0, float),
    ("acceptance", "ratio", 1.0, float),
])
def test_figures_have_their_declared_types(seed: Report, key: str, name: str, value: object,
                                           kind: type) -> None:
    answers = {a.key: a for a in [*seed.questions, *seed.findings]}
    got = answers[key].figures[name]
    assert got == value and type(got) is kind


def test_the_seed_figures_are_the_published_ones(seed: Report) -> None:
    roof = seed.question("roofline").figures
    assert round(roof["ceiling_tok_s"], 1) == 128.9 and round(roof["ratio"], 1) == 16.3
    assert seed.question("acceptance").figures["ratio"] == 1.0


@pytest.mark.parametrize(("name", "unit"), [
    ("ceiling_tok_s", "tok/s"), ("bandwidth_gbs", "GB/s"), ("weights_gb", "GB"), ("tdp_w", "W"),
    ("watts", "W"), ("required_tflops", "TFLOPS"), ("mismatch_pct", "%"), ("ratio", ""),
    ("batch", ""), ("serving", ""),
])
def test_a_figure_unit_comes_from_its_name(name: str, unit: str) -> None:
    assert figure_unit(name) == unit


def test_the_report_names_each_figure_unit_once(seed: Report) -> None:
    units = json.loads(seed.to_json())["units"]
    assert units["ceiling_tok_s"] == "tok/s" and units["watts"] == "W" and "ratio" not in units
    assert all("units" not in a for a in json.loads(seed.to_json())["questions"])


def test_a_reference_row_cited_by_several_answers_is_carried_once(seed: Report) -> None:
    doc = json.loads(seed.to_json())
    pool = doc["basis"]  # /5: every entry once, each answer naming its entries' positions
    citing = [a["key"] for a in [*doc["questions"], *doc["findings"]]
              if any(isinstance(pool[i], dict) and pool[i].get("source") == "hardware/RTX 5090"
                     for i in a.get("basis", []))]
    assert len(citing) >= 3 and {"power", "roofline", "fits_memory"} <= set(citing)
    rows = [r for r in doc["references"] if r["id"] == "hardware/RTX 5090"]
    assert len(rows) == 1 and rows[0]["kind"] == "reference-row"
    citation = rows[0]["citation"]
    assert citation.startswith("RTX 5090 (") and seed.to_json().count(citation) == 1
    assert len({r["id"] for r in doc["references"]}) == len(doc["references"])


def test_power_states_its_inputs_as_data(seed: Report) -> None:
    power = seed.question("power")
    assert [b.kind for b in power.basis] == ["record-field", "reference-row", "formula", "reference-row"]
    assert [b.source for b in power.basis] == ["record-1", "hardware/RTX 5090", None, "power_bands/consumer"]
    assert power.basis[0].field == "power_w" and power.basis[0].at == "power_w"
    assert power.reason == "waiting" and power.status == "flag"
    lines = [basis_line(b, seed.cited()) for b in power.basis]
    assert lines[0] == "claim.power_w (board://seed: power_w) = 99.6 W (to 100 W)"
    assert lines[1].startswith("RTX 5090 (") and lines[1].endswith(": board power 575 W")
    assert lines[2] == "ratio = 99.6 W ÷ 575 W = 0.17"


def test_a_stated_by_user_field_points_at_the_user() -> None:
    c = Claim(batch=8, provenance={"batch": Provenance(source="stated by the user", field="--set batch",
                                                        kind="user")})
    b = field(c, "batch", "= 8")
    assert (b.kind, b.source, b.at) == ("stated-by-user", "user", "--set batch")
    assert basis_line(b) == "claim.batch (stated by the user: --set batch) = 8"


def test_a_plain_string_is_still_a_basis_line(ref: Reference) -> None:
    """The documented way older rules (and other helpers' new ones) keep building answers."""
    hw = ref.gpu("RTX 5090")
    assert hw is not None
    a = answer("power", "ok", "fine", reason="in_band", figures={"watts": 500, "batch": 1.0},
               basis=["an old prose line", row(hw, "board power 575 W"), formula("x = 1")])
    assert a.basis[0] == Basis(kind="note", states="an old prose line")
    assert [b.kind for b in a.basis] == ["note", "reference-row", "formula"]
    assert a.figures == {"watts": 500.0, "batch": 1} and type(a.figures["batch"]) is int
    assert type(a.figures["watts"]) is float  # a whole quantity is still a quantity
    assert a.lines()[0] == "an old prose line"


def test_no_headline_reads_a_summary(seed: Report, ref: Reference) -> None:
    ev = headline_evidence()
    qs = [q.model_copy(update={"summary": "JUNK: not read"}) for q in seed.questions]
    fs = [f.model_copy(update={"summary": "JUNK: not read"}) for f in seed.findings]
    assert verdict(qs, fs, ev) == seed.verdict
    assert headline(seed.verdict, qs, fs, ev, card_name="RTX 5090") == seed.headline
    assert "JUNK" not in seed.headline


def test_the_experiment_plan_is_typed_and_reads_no_summary(seed: Report, ref: Reference) -> None:
    prior = {a.key: a.model_copy(update={"summary": "JUNK"}) for a in [*seed.questions, *seed.findings]
             if a.key != "measure"}
    plan = measure(headline_evidence(), ref, prior)
    assert [(d.knob, d.claimed, d.reference) for d in plan.differences] == [
        ("spec_method", "DFlash", "none (plain decode)"), ("spec_window", "56", "published 16"),
        ("prefix_caching", "prefill cached / TTFT empty", "prefill counted"),
        ("engine_version", "0.5.4+dflash.a91f3e", "the official release")]
    assert [s.knob for s in plan.steps] == [None, "spec_method", "spec_window", "prefix_caching",
                                            "engine_version"]
    assert plan.reason == "dead" and "JUNK" not in " ".join(plan.lines())
    assert "stopped by: acceptance (AL / window = 1.000)" in plan.lines()
    assert plan.lines()[0] == "difference: spec_method: DFlash vs none (plain decode)"


@pytest.mark.parametrize(("a", "words"), [
    (Answer(key="power", status="flag", summary="s", reason="waiting", figures={"watts": 99.6, "ratio": 0.17}),
     "99.6 W is 0.17 of board power, below the decode band: the GPU is waiting, not computing"),
    (Answer(key="fork", status="flag", summary="s", reason="x", label="engine is renamed"), "engine is renamed"),
    (Answer(key="token_accounting", status="flag", summary="s", reason="counts_prompt"),
     "token accounting: counts prompt"),
    (Answer(key="cell", status="ok", summary="s"), "cell ok"),
])
def test_reason_words_come_from_data(a: Answer, words: str) -> None:
    assert reason_text(a) == words
