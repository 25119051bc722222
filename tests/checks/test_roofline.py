"""Q7 roofline: claimed tok/s over the memory-bandwidth ceiling (seed §4; SPEC §4 Q7, §7, §10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim, Evidence
from checks.reference import Reference
from checks.rules.acceptance import acceptance
from checks.rules.roofline import roofline
from checks.runner import audit
from tests.checks.test_physics import extra_ref
from tests.seed_claims import (
    headline_claim,
    headline_evidence,
    real_decode_claim,
    wide_window_siblings,
)

CEILING = 1792 / 13.9  # 128.9 tok/s, SPEC §10


@pytest.fixture
def xref(tmp_path: Path) -> Reference:
    return extra_ref(tmp_path)


def _q7(ref: Reference, claim: Claim):  # type: ignore[no-untyped-def]
    ev = Evidence(claim=claim)
    return roofline(ev, ref, {"acceptance": acceptance(ev, ref, {})})


def _llama(**kw: object) -> Claim:
    """Llama-3.1-8B BF16 on one H100 SXM at batch 1: ceiling 3350 / 16.06 = 208.6 tok/s."""
    base: dict[str, object] = {"model": "Llama-3.1-8B", "weight_format": "BF16", "hardware": "H100 SXM",
                                   "hardware_count": 1, "batch": 1, "tok_s": 158.0, "tok_s_kind": "decode",
                                   "speculative": False}
    base.update(kw)
    return Claim(**base)  # type: ignore[arg-type]


def _eagle(**kw: object) -> Claim:
    base: dict[str, object] = {"speculative": True, "spec_method": "EAGLE-3", "spec_window": 8,
                                   "acceptance_length": 3.5, "tok_s": 373.25}
    base.update(kw)
    return _llama(**base)


# ---- the seed (SPEC §10) ----------------------------------------------------------------------


def test_seed_2103_is_16x_the_ceiling_and_above_the_honest_range_so_flag(ref: Reference) -> None:
    ev = headline_evidence()
    a = roofline(ev, ref, {"acceptance": acceptance(ev, ref, {})})
    assert a.status == "flag"
    f = a.figures
    assert f["ceiling_tok_s"] == pytest.approx(129, abs=1)
    assert f["ratio"] == pytest.approx(16.3, abs=0.1)
    assert f["honest_low_tok_s"] == pytest.approx(128.9 * 0.6 * 4.39, abs=1)  # 339.6
    assert f["honest_high_tok_s"] == pytest.approx(128.9 * 5.46, abs=1)  # 704
    assert f["bound_tok_s"] == pytest.approx(3 * 128.92 * 8.24, abs=1)  # 3186.9: below it, not stop
    assert f["required_al"] == pytest.approx(16.3, abs=0.1)
    assert f["realistic_ceiling_tok_s"] == pytest.approx(0.9 * 1792 / 17.91, abs=0.5)  # 90
    assert "1792 GB/s ÷ 13.9 GB" in a.summary and "339.6–703.9 tok/s" in a.summary


def test_window_512_sibling_is_36x_the_ceiling_so_stop(ref: Reference) -> None:
    a = _q7(ref, wide_window_siblings()[0])  # AL 231-292, which Q5 flags
    assert a.status == "stop"
    assert a.figures["ratio"] == pytest.approx(36.4, abs=0.1)
    assert "best AL anyone has published for DFlash (8.24)" in a.summary


def test_real_decode_at_79_is_ok_at_061(ref: Reference) -> None:
    a = _q7(ref, real_decode_claim())
    assert a.status == "ok"
    assert a.figures["ratio"] == pytest.approx(0.61, abs=0.005)
    assert "required_al" not in a.figures


def test_real_decode_in_another_format_says_the_recipe_differs(xref: Reference) -> None:
    a = _q7(xref, real_decode_claim().model_copy(update={"weight_format": "Q4_K_M"}))
    assert a.status == "ok" and a.figures["ratio"] == pytest.approx(0.61, abs=0.005)
    assert "recipe is for NVFP4, not this claim's Q4_K_M" in a.summary


# ---- no speculative decoding ------------------------------------------------------------------


def test_llama8b_bf16_h100_at_158_is_ok(xref: Reference) -> None:
    a = _q7(xref, _llama())
    assert a.status == "ok"
    assert a.figures["ceiling_tok_s"] == pytest.approx(3350 / 16.06, abs=0.5)  # 208.6
    assert a.figures["ratio"] == pytest.approx(0.76, abs=0.01)


def test_no_spec_above_the_ceiling_is_stop(xref: Reference) -> None:
    assert _q7(xref, _llama(tok_s=230.0)).status == "stop"


def test_no_spec_above_090_of_the_ceiling_is_flag(xref: Reference) -> None:
    a = _q7(xref, _llama(tok_s=199.0))  # 0.95
    assert a.status == "flag" and "0.55–0.85" in a.summary


def test_file_size_beats_params_times_bits(xref: Reference) -> None:
    a = _q7(xref, _llama(model_size_bytes=15.0e9, tok_s=158.0))
    assert a.figures["weights_gb"] == 15.0 and a.figures["ceiling_tok_s"] == pytest.approx(3350 / 15)


# ---- speculative decoding ---------------------------------------------------------------------


def test_eagle3_al_3_5_at_window_8_under_ceiling_times_al_is_ok(xref: Reference) -> None:
    a = _q7(xref, _eagle())
    assert a.status == "ok"
    assert a.figures["bound_tok_s"] == pytest.approx(3350 / 16.06 * 3.5, abs=1)  # 730
    assert a.figures["required_al"] == pytest.approx(373.25 / (3350 / 16.06), abs=0.01)
    assert a.figures["honest_high_tok_s"] == pytest.approx(3350 / 16.06 * 6.13, abs=1)  # reported too


def test_credible_al_and_claim_above_ceiling_times_al_is_stop(xref: Reference) -> None:
    a = _q7(xref, _eagle(tok_s=800.0))
    assert a.status == "stop" and "every verify pass still reads the weights once" in a.summary


def test_speedup_above_al_is_stop(xref: Reference) -> None:
    a = _q7(xref, _eagle(speedup=4.2))
    assert a.status == "stop" and "4.2× speedup is above the AL of 3.5" in a.summary


def test_speedup_below_al_is_not_stop(xref: Reference) -> None:
    assert _q7(xref, _eagle(speedup=2.36)).status == "ok"


def test_required_al_above_the_window_is_stop(ref: Reference) -> None:
    a = _q7(ref, headline_claim(spec_window=8, acceptance_length=None, acceptance_rate=None, tok_s=1100.0))
    assert a.status == "stop" and "more than the 8-token window" in a.summary


def test_spec_without_al_inside_the_honest_range_is_ok(ref: Reference) -> None:
    a = _q7(ref, headline_claim(spec_window=16, acceptance_length=None, acceptance_rate=None, tok_s=500.0))
    assert a.status == "ok" and "within the honest DFlash range of 339.6–703.9 tok/s" in a.summary


def test_spec_without_al_above_the_honest_high_is_flag(ref: Reference) -> None:
    a = _q7(ref, wide_window_siblings()[2])  # window 24, no AL, 1074 tok/s
    assert a.status == "flag"
    assert a.figures["ratio"] == pytest.approx(1074 / CEILING, abs=0.01)


def test_unknown_speculation_below_the_ceiling_is_ok(ref: Reference) -> None:
    a = _q7(ref, real_decode_claim().model_copy(update={"speculative": None, "tok_s": 120.0}))
    assert a.status == "ok" and "possible even without speculative decoding" in a.summary


def test_unknown_speculation_above_the_ceiling_is_judged_with_the_best_method(ref: Reference) -> None:
    fine = _q7(ref, real_decode_claim().model_copy(update={"speculative": None, "tok_s": 2 * CEILING}))
    dead = _q7(ref, real_decode_claim().model_copy(update={"speculative": None, "tok_s": 100 * CEILING}))
    assert fine.status == "ok" and dead.status == "stop"
    assert "best method in the table" in fine.summary
    assert fine.figures["required_al"] == pytest.approx(2.0)


# ---- the cell ---------------------------------------------------------------------------------


def test_unknown_format_assumes_4_bit_and_says_so(ref: Reference) -> None:
    a = _q7(ref, real_decode_claim().model_copy(update={"weight_format": None}))
    assert a.figures["ceiling_tok_s"] == pytest.approx(CEILING)
    assert "4-bit assumed" in a.summary


def test_batch_8_is_judged_as_aggregate_against_the_batch_bound(xref: Reference) -> None:
    kv = 65536 * 4096 / 1e9
    bound = 8 * 3350 / (16.06 + 8 * kv)  # 1472 tok/s
    ok = _q7(xref, _llama(batch=8, context_length=4096, tok_s=150.0, tok_s_kind="per_user"))
    dead = _q7(xref, _llama(batch=8, context_length=4096, tok_s=200.0, tok_s_kind="per_user"))
    assert ok.figures["ceiling_tok_s"] == pytest.approx(bound)
    assert ok.figures["claimed_tok_s"] == 1200.0 and ok.status == "ok"
    assert dead.status == "stop"


def test_tensor_parallel_multiplies_bandwidth(ref: Reference) -> None:
    a = _q7(ref, real_decode_claim().model_copy(update={"hardware_count": 2, "tok_s": 200.0}))
    assert a.figures["ceiling_tok_s"] == pytest.approx(2 * CEILING)
    assert a.status == "ok" and any("tensor parallel" in b for b in a.basis)


def test_missing_hardware_is_unanswerable_naming_it(ref: Reference) -> None:
    a = _q7(ref, real_decode_claim().model_copy(update={"hardware": None}))
    assert a.status == "unanswerable" and a.missing == ["hardware"]


def test_missing_model_size_is_unanswerable_naming_it(ref: Reference) -> None:
    a = _q7(ref, Claim(hardware="RTX 5090", tok_s=79.0, speculative=False))
    assert a.status == "unanswerable" and a.missing == ["model size (params or file size)"]


def test_prefill_figure_is_na(ref: Reference) -> None:
    assert _q7(ref, real_decode_claim().model_copy(update={"tok_s_kind": "prefill"})).status == "n/a"


def test_aggregate_without_batch_is_unanswerable(ref: Reference) -> None:
    c = real_decode_claim().model_copy(update={"tok_s_kind": "aggregate", "batch": None})
    assert _q7(ref, c).missing == ["batch size"]


# ---- through the runner -----------------------------------------------------------------------


def test_headline_report_through_the_runner(ref: Reference) -> None:
    report = audit(headline_evidence(), ref)
    q5, q6, q7 = (report.question(k) for k in ("acceptance", "power", "roofline"))
    assert q5.n == 5 and q5.status == "stop" and q5.figures["ratio"] == pytest.approx(1.000)
    assert q6.status == "flag" and round(q6.figures["ratio"], 2) == 0.17
    assert q7.status == "flag"
    assert q7.figures["ceiling_tok_s"] == pytest.approx(129, abs=1)
    assert q7.figures["ratio"] == pytest.approx(16.3, abs=0.1)
    assert 335 <= q7.figures["honest_low_tok_s"] <= 345 and 700 <= q7.figures["honest_high_tok_s"] <= 708
    assert report.verdict == "implausible"
    assert any(a.name == "achievable bandwidth fraction" for a in report.assumptions)
