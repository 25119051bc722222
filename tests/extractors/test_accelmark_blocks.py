"""AccelMark scenario blocks: quantization, scaling, online, interactive, sustained give claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.sweep import sweep_source
from checks.models import Claim
from checks.reference import load_reference
from extractors.document import RawDocument
from extractors.formats.accelmark import AccelMark

FIXTURES = Path(__file__).parents[1] / "fixtures" / "accelmark"
QUANT = "result_quantization_rtx4090.json"
H100 = "result_interactive_scaling_h100.json"


def parse(name: str, value: dict | None = None) -> tuple[list[Claim], RawDocument]:
    data = json.dumps(value).encode() if value is not None else (FIXTURES / name).read_bytes()
    doc = RawDocument(data, source=name)
    return AccelMark().parse(doc), doc


def by_cell(name: str) -> dict:
    claims, _ = parse(name)
    return {c.cell: c for c in claims}


def test_every_block_of_a_quantization_submission_is_read() -> None:
    cells = list(by_cell(QUANT))
    assert cells == [
        "quantization BF16, offline, client concurrency 1",
        "quantization BF16, offline, client concurrency 16",
        "quantization W4A16, offline, client concurrency 1",
        "quantization W4A16, offline, client concurrency 16",
        "quantization BF16, online at 5 QPS",
        "quantization W4A16, online at 5 QPS",
        "quantization W4A16, sustained at concurrency 8",
    ]


def test_quantization_entry_carries_its_precision_and_checkpoint() -> None:
    c = by_cell(QUANT)["quantization W4A16, offline, client concurrency 16"]
    assert (c.tok_s, c.tok_s_kind, c.weight_format) == (3120.0, "aggregate", "W4A16")
    assert c.model == "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"
    assert c.provenance["weight_format"].field == "metrics.quantization.results_by_precision[1].precision"


def test_quantization_online_entry_takes_the_checkpoint_of_its_precision() -> None:
    c = by_cell(QUANT)["quantization W4A16, online at 5 QPS"]
    assert c.model == "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"
    assert c.per_user_tok_s == pytest.approx(102.04) and c.tok_s_kind == "per_user"


def test_zero_watts_is_dropped_with_a_note_and_the_file_is_still_read() -> None:
    claims, doc = parse(QUANT)
    assert len(claims) == 7 and all(c.power_w is None for c in claims)
    assert doc.warnings == [
        f"{QUANT}: 4 power reading(s) of 0 W are 'not measured' and were dropped, e.g. "
        "metrics.quantization.results_by_precision[0].results_by_concurrency[0].power_watts_avg"]


def test_runner_status_note_is_not_a_method_statement() -> None:
    c = by_cell(QUANT)["quantization BF16, offline, client concurrency 1"]
    assert c.speculative is False and c.conflicts == []
    assert c.provenance["speculative"].field == "metrics.quantization"


def test_extra_config_is_read_through_the_flag_reader() -> None:
    c = by_cell(QUANT)["quantization BF16, offline, client concurrency 1"]
    assert c.kv_dtype == "fp8"
    assert c.provenance["kv_dtype"].field == "task.extra_config (--kv-cache-dtype)"
    assert c.context_length is None  # max_model_len is the server's cap, not the run's context


def test_interactive_block_is_a_batch_one_per_user_rate() -> None:
    c = by_cell(H100)["interactive, one request at a time"]
    assert (c.tok_s, c.per_user_tok_s, c.tok_s_kind) == (160.0, 160.0, "decode")
    assert (c.batch, c.concurrency, c.ttft_ms) == (1, 1, 21.0)
    assert c.provenance["per_user_tok_s"].field == "1000 ÷ metrics.interactive.tpot_ms_p50"
    assert "suite_B/suite.json" in c.provenance["batch"].field


def test_online_tpot_gives_the_per_request_rate() -> None:
    claims, _ = parse("result_a100_sglang.json")
    online = [c for c in claims if c.cell and c.cell.startswith("online")]
    assert [(c.cell, c.per_user_tok_s) for c in online] == [
        ("online at 5 QPS", pytest.approx(63.98)), ("online at 25 QPS", pytest.approx(27.65))]
    assert online[0].provenance["per_user_tok_s"].span == (
        "tpot_ms_p50 15.63 ms → 1000 / 15.63 = 63.98 tok/s per request")


def test_scaling_entries_carry_their_chip_count() -> None:
    cells = by_cell(H100)
    one, two = cells["scaling 1 chips, offline, client concurrency 8"], \
        cells["scaling 2 chips, offline, client concurrency 8"]
    assert (one.hardware_count, one.tok_s, one.power_w) == (1, 4100.0, 540.0)
    assert (two.hardware_count, two.tok_s, two.power_w) == (2, 6900.0, 1010.0)
    assert two.provenance["hardware_count"].field == (
        "metrics.scaling.results_by_chip_count[1].chip_count")


@pytest.mark.parametrize(("suite", "requests"), [("suite_C", 100), ("suite_E", 150), ("suite_X", None)])
def test_offline_concurrency_is_the_suites_request_count(suite: str, requests: int | None) -> None:
    value = json.loads((FIXTURES / QUANT).read_text())
    value["suite_id"] = suite
    claims, _ = parse(QUANT, value)
    assert claims[0].concurrency == requests


def test_speculative_claim_without_runtime_metrics_names_the_suites_drafter() -> None:
    value = json.loads((FIXTURES / "result_a100_sglang.json").read_text())
    del value["task"]["runtime_metrics"]
    value["task"]["extra_config"] = None
    claims, _ = parse("result_a100_sglang.json", value)
    spec = next(c for c in claims if c.speculative)
    assert (spec.drafter_model, spec.spec_method) == ("yuhuili/EAGLE-LLaMA3-Instruct-8B", "EAGLE")
    assert spec.provenance["drafter_model"].field is not None
    assert spec.provenance["drafter_model"].field.endswith(
        "suites/suite_A/suite.json speculative_draft_model_id")


def test_sustained_block_is_an_aggregate_at_its_concurrency() -> None:
    c = by_cell(H100)["sustained at concurrency 8"]
    assert (c.tok_s, c.tok_s_kind, c.concurrency) == (1210.0, "aggregate", 8)


def test_sweep_reads_every_block_of_both_fixtures() -> None:
    ref = load_reference()
    counts = {name: sweep_source(str(FIXTURES / name), ref).records for name in (QUANT, H100)}
    assert counts == {QUANT: 7, H100: 4}
