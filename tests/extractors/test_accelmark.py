"""AccelMark `result.json`: one claim per concurrency of the offline and speculative scenarios."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.models import Claim
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.accelmark import AccelMark

FIXTURES = Path(__file__).parents[1] / "fixtures" / "accelmark"
RESULT = "result_a100_sglang.json"
SOURCE = ("results/community/nvidia_a100_sxm4_40gbx1_suite_A_nvidia_sglang_c43a8309_958afbbd/"
          "result.json")


def obj() -> dict:
    return json.loads((FIXTURES / RESULT).read_text())


def parse(value: object) -> list[Claim]:
    doc = RawDocument(json.dumps(value).encode(), source=SOURCE)
    return AccelMark().parse(doc)


def test_fixture_is_detected_as_accelmark() -> None:
    found = detect(RawDocument((FIXTURES / RESULT).read_bytes(), source=RESULT))
    assert found is not None and found.name == "accelmark"


def test_one_claim_per_measured_concurrency_and_oom_is_skipped() -> None:
    claims = parse(obj())[:6]
    # Offline: the engine batches internally, so client_concurrency is kept out of the cell; the
    # suite's 100 requests per run bound what can be in flight.
    assert [(c.concurrency, c.speculative) for c in claims] == [
        (100, False), (100, False), (100, False), (8, True), (32, True), (128, True)]
    assert claims[0].provenance["concurrency"].field is not None
    assert claims[0].provenance["concurrency"].field.endswith("suites/suite_A/suite.json request_count")
    assert "client_concurrency 8" in (claims[0].provenance["tok_s"].span or "")


def test_offline_claim_fields() -> None:
    c = parse(obj())[0]
    assert (c.hardware, c.hardware_count) == ("NVIDIA A100-SXM4-40GB", 1)
    assert (c.engine, c.engine_version) == ("SGLang", "0.5.6")
    assert (c.model, c.params_total_b, c.is_moe, c.weight_format) == (
        "meta-llama/Meta-Llama-3-8B-Instruct", 8.0, False, "BF16")
    assert (c.tok_s, c.tok_s_kind) == (3144.73, "aggregate")
    assert (c.power_w, c.power_w_high) == (318.4, 341.0)
    assert (c.repeats, c.submitter, c.date, c.record_id) == (3, "Gong-K", "2026-05-06", "958afbbd")
    assert c.notes == "power sampled with nvidia-smi at 1 Hz"
    assert c.launch_command is None  # reproduce_script is a path, not a command
    assert c.acceptance_length is None and c.spec_window is None


def test_offline_claim_provenance() -> None:
    c = parse(obj())[1]
    prov = c.provenance
    assert prov["tok_s"].field == "metrics.offline.results_by_concurrency[1].throughput_tokens_per_sec"
    assert prov["tok_s_kind"].field == "metrics.offline.results_by_concurrency[1]._throughput_note"
    assert prov["power_w"].field == "metrics.offline.results_by_concurrency[1].power_watts_avg"
    assert prov["hardware"].field == "chip.name"
    assert prov["submitter"].field == "meta.submitted_by"
    assert set(c.filled()) <= set(prov)


def test_speculative_claim_reads_runtime_metrics() -> None:
    c = parse(obj())[3]
    assert (c.tok_s, c.concurrency, c.power_w) == (705.16, 8, 221.7)
    assert (c.speculative, c.spec_method) == (True, "EAGLE")
    assert (c.acceptance_length, c.acceptance_rate) == (2.96, 0.74)
    assert c.spec_window == 5
    assert c.spec_window_convention is not None
    assert c.spec_window_convention.startswith("num_speculative_tokens 4 + 1 bonus token")
    assert c.drafter_model == "yuhuili/EAGLE-LLaMA3-Instruct-8B"
    assert c.provenance["acceptance_length"].field == "task.runtime_metrics.mean_accepted_tokens"
    assert c.provenance["spec_method"].field == "task.extra_config.speculative_algorithm"


def test_single_scenario_speculative_submission_reports_under_offline() -> None:
    r = obj()
    del r["metrics"]["speculative"]
    del r["task"]["scenarios_run"]
    r["task"]["scenario"] = "speculative"
    claims = [c for c in parse(r) if c.cell and c.cell.startswith("offline")]
    assert len(claims) == 3 and all(c.speculative and c.acceptance_length == 2.96 for c in claims)


def test_command_like_reproduce_script_and_flag() -> None:
    r = obj()
    r["meta"]["reproduce_script"] = "python -m sglang.launch_server --model-path x --tp 1"
    r["meta"]["flagged"] = "throughput above chip ceiling"
    c = parse(r)[0]
    assert c.launch_command == "python -m sglang.launch_server --model-path x --tp 1"
    assert c.notes is not None
    assert c.notes.endswith("[flagged by AccelMark: throughput above chip ceiling]")


def test_quantization_method_is_the_weight_format_when_given() -> None:
    r = obj()
    r["model"]["quantization_method"] = "awq"
    r["model"]["precision"] = "W4A16"
    assert parse(r)[0].weight_format == "awq"


def test_one_broken_result_in_a_list_is_skipped_with_a_warning() -> None:
    broken = obj()
    broken["metrics"]["offline"]["results_by_concurrency"] = {"8": 3144.73}
    doc = RawDocument(json.dumps({"results": [broken, obj()]}).encode(), source="dump.json")
    claims = AccelMark().parse(doc)
    assert len(claims) == 9
    field = claims[0].provenance["tok_s"].field
    assert field is not None and field.startswith("results[1].")
    assert doc.warnings == [
        "dump.json: skipped 1 unreadable AccelMark result(s), e.g. AccelMark result results[0]: "
        "'results[0].metrics.offline.results_by_concurrency' should be a list of per-concurrency "
        "results"]


def test_results_inside_a_list() -> None:
    claims = parse({"results": [obj(), obj()]})
    assert len(claims) == 18
    assert claims[9].provenance["tok_s"].field == (
        "results[1].metrics.offline.results_by_concurrency[0].throughput_tokens_per_sec")


# ------------------------------------------------------------------------------ broken content

def test_results_by_concurrency_not_a_list_is_invalid_input() -> None:
    r = obj()
    r["metrics"]["offline"]["results_by_concurrency"] = {"8": 3144.73}
    with pytest.raises(InvalidInput, match="'metrics.offline.results_by_concurrency' should be a list"):
        parse(r)


def test_unreadable_throughput_is_invalid_input_naming_the_path() -> None:
    r = obj()
    r["metrics"]["offline"]["results_by_concurrency"][1]["throughput_tokens_per_sec"] = "high"
    with pytest.raises(InvalidInput,
                       match=r"results_by_concurrency\[1\].throughput_tokens_per_sec' 'high'"):
        parse(r)


def test_no_throughput_anywhere_is_invalid_input() -> None:
    r = obj()
    r["metrics"] = {"burst": {"sla_ttft_ms": 500}, "derived": {}}
    with pytest.raises(InvalidInput, match="no throughput or TPOT in any scenario block"):
        parse(r)


def test_missing_required_keys_is_not_accelmark() -> None:
    r = obj()
    del r["suite_id"]
    doc = RawDocument(json.dumps(r).encode())
    assert not AccelMark().sniff(doc)
    with pytest.raises(InvalidInput, match="no AccelMark result"):
        AccelMark().parse(doc)


def _without_speculative_block(extra: object, runtime: object) -> dict:
    r = obj()
    del r["metrics"]["speculative"]
    r["task"]["extra_config"] = extra
    r["task"]["runtime_metrics"] = runtime
    return r


def test_extra_config_naming_a_method_with_measured_al_is_a_speculative_run_q5_divides() -> None:
    from checks.reference import load_reference
    from checks.runner import audit
    from extractors.evidence import evidence_per_record, read_document

    ref = load_reference()
    r = _without_speculative_block(
        {"max_num_seqs": 256, "speculative_config": {"method": "eagle3", "num_speculative_tokens": 3}},
        {"mean_accepted_tokens": 2.61})
    reading = read_document(RawDocument(json.dumps(r).encode(), source="result.json"), ref)
    evs = evidence_per_record(reading, ref)
    assert evs and all(ev.claim.speculative for ev in evs)
    first = evs[0].claim
    assert (first.acceptance_length, first.spec_window) == (2.61, 4)
    assert first.provenance["speculative"].field == "task.extra_config"
    q5 = audit(evs[0], ref).question("acceptance")
    assert q5.status == "ok"
    assert q5.figures["al"] == 2.61 and q5.figures["window"] == 4


@pytest.mark.parametrize(("extra", "runtime"), [
    ({"max_num_seqs": 256, "speculative_config": None}, {"mean_accepted_tokens": 2.61}),
    ({"max_num_seqs": 256, "speculative_algorithm": "none"}, {"mean_accepted_tokens": 2.61}),
    ({"speculative_algorithm": "EAGLE"}, None),  # named, never measured
    ({"enforce_eager": False, "max_num_seqs": 512}, {"mean_accepted_tokens": 2.61}),
])
def test_without_a_named_and_measured_method_the_blocks_stay_plain_decode(extra: object,
                                                                         runtime: object) -> None:
    claims = parse(_without_speculative_block(extra, runtime))
    assert claims and all(c.speculative is False for c in claims)
