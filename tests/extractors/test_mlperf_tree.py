"""MLPerf as published: hardware and count from the results tree, LLM summary rows in tokens/s.

Fixtures, in the exact published format:
- `tests/fixtures/mlperf/tree/closed/AMD/…`: mlcommons/inference_results_v4.1@a2f5d66d17e8f75c02fd74dfe810ecca6a046696
  `closed/AMD/results/8xMI300X_2xEPYC-9374F/llama2-70b-99/{Server,Offline}/performance/run_1/mlperf_log_summary.txt`
  and `closed/AMD/systems/8xMI300X_2xEPYC-9374F.json`, copied verbatim.
- `summary_llm_units.csv`: the submission checker's summary header (mlcommons/inference
  `tools/submission/submission_checker/results.py` `ResultExporter.head`), Dell's
  XE9680_MI300X_192GBx8 llama2-70b results of round v5.1 (Offline 27,325.9, Server 24,747.6,
  Interactive 8,455.1 tokens/s), with the Units the checker writes for a benchmark id its
  SPECIAL_UNIT_DICT lacks (the UNIT_DICT fallback: Queries/s, Samples/s).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.reference import load_reference
from checks.runner import audit
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import NoClaimFound
from extractors.evidence import evidence_per_record, read_document
from extractors.formats.mlperf import MLPerf
from extractors.formats.mlperf_tree import card_name, set_from_system_name, tree_place

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mlperf"
RESULTS = FIXTURES / "tree" / "closed" / "AMD" / "results" / "8xMI300X_2xEPYC-9374F" / "llama2-70b-99"
LOG = "performance/run_1/mlperf_log_summary.txt"
URL = ("https://github.com/mlcommons/inference_results_v5.0/blob/main/closed/Dell/results/"
       "XE9680_MI300X_192GBx8/llama2-70b-99/Server/performance/run_1/mlperf_log_summary.txt")
REF = load_reference()


def _log(scenario: str, source: str | None = None) -> RawDocument:
    path = RESULTS / scenario / LOG
    return RawDocument(path.read_bytes(), source=source or str(path))


def test_the_server_log_gets_system_and_count_from_the_json_beside_it() -> None:
    (c,) = MLPerf().parse(_log("Server"))
    assert (c.hardware, c.hardware_count, c.model, c.submitter) == ("MI300X", 8, "llama2-70b-99", "AMD")
    assert (c.engine, c.engine_version) == ("vLLM", "0.4.3+rocm614")
    assert (c.tok_s, c.tok_s_kind, c.cell, c.serving_claim) == (21028.23, "aggregate",
                                                                 "MLPerf Server", True)
    assert (c.tpot_target_ms, c.ttft_target_ms) == (200.0, 2000.0)
    assert c.per_user_tok_s == 6.95  # 1 / 143.9 ms median time to output token
    prov = c.provenance["hardware"]
    assert prov.field is not None and prov.field.endswith("8xMI300X_2xEPYC-9374F.json: accelerator_model_name")
    assert prov.span == "AMD Instinct MI300X-NPS1-SPX-192GB-750W"


def test_the_offline_log_is_an_aggregate_with_every_sample_in_one_query() -> None:
    (c,) = MLPerf().parse(_log("Offline"))
    assert (c.hardware, c.hardware_count, c.tok_s, c.tok_s_kind) == ("MI300X", 8, 23514.8, "aggregate")
    assert (c.cell, c.serving_claim, c.concurrency) == ("MLPerf Offline", True, 52800)
    # Offline prints loadgen's default latency targets; they bound nothing
    assert c.tpot_target_ms is None and c.ttft_target_ms is None


def test_a_log_served_from_a_url_reads_card_and_count_from_the_system_name() -> None:
    (c,) = MLPerf().parse(_log("Server", URL))
    assert (c.hardware, c.hardware_count, c.model, c.submitter) == ("MI300X", 8, "llama2-70b-99", "Dell")
    assert c.provenance["hardware"].field == "(results path: system name)"


def test_a_log_outside_a_results_tree_names_no_system() -> None:
    (c,) = MLPerf().parse(_log("Server", "mlperf_log_summary.txt"))
    assert c.hardware is None and c.model is None


@pytest.mark.parametrize("scenario", ["Server", "Offline"])
def test_the_published_logs_are_answered_not_insufficient(scenario: str) -> None:
    reading = read_document(_log(scenario), REF)
    (ev,) = evidence_per_record(reading, REF)
    report = audit(ev, REF)
    assert report.question("roofline").status == "ok"
    assert report.verdict == "consistent"


@pytest.mark.parametrize(("system", "card", "count"), [
    ("XE9680_MI300X_192GBx8", "MI300X", 8),
    ("8xMI300X_2xEPYC-9374F", "MI300X", 8),  # the host CPU count is not the card count
    ("1xMI300X_2xEPYC-9374F", "MI300X", 1),
    ("DGX-H100_H100-SXM-80GBx8_TRT", "H100 SXM", 8),
    ("D75E-4U_H200-NVL-141GBx4_TRT", "H200 NVL", 4),
    ("GIGABYTE_G593_SD1_H200_SXM_141GBx8", "H200 SXM", 8),
])
def test_system_names_carry_card_and_count(system: str, card: str, count: int) -> None:
    b = ClaimBuilder("t")
    set_from_system_name(b, system, "path")
    assert (b.values["hardware"], b.values["hardware_count"]) == (card, count)
    row = REF.gpu(card)
    assert row is not None


@pytest.mark.parametrize(("name", "card"), [
    ("AMD Instinct MI300X-NPS1-SPX-192GB-750W", "MI300X"),
    ("NVIDIA H200-SXM-141GB", "H200 SXM"),
    ("N/A", "N/A"),
])
def test_accelerator_names_lose_their_partition_memory_and_power_suffixes(name: str, card: str) -> None:
    assert card_name(name) == card


def test_the_tree_place_is_read_from_a_path_or_a_url() -> None:
    place = tree_place(URL)
    assert place is not None
    assert (place.division, place.org, place.system, place.benchmark, place.scenario) == (
        "closed", "Dell", "XE9680_MI300X_192GBx8", "llama2-70b-99", "Server")
    assert tree_place("results/x/llama2-70b-99/Server/log.txt") is None


def test_llm_summary_rows_are_tokens_per_second_whatever_the_units_column_fell_back_to() -> None:
    doc = RawDocument((FIXTURES / "summary_llm_units.csv").read_bytes(), source="summary.csv")
    claims = MLPerf().parse(doc)
    got = [(c.model, c.cell, c.tok_s, c.tok_s_kind, c.hardware, c.hardware_count) for c in claims]
    assert got == [
        ("llama2-70b-99", "MLPerf Offline", 27325.9, "aggregate", "MI300X", 8),
        ("llama2-70b-99", "MLPerf Server", 24747.6, "aggregate", "MI300X", 8),
        ("llama2-70b-interactive-99", "MLPerf Interactive", 8455.1, "aggregate", "MI300X", 8),
        ("mixtral-8x7b", "MLPerf Offline", 6666.7, "aggregate", "MI300X", 8),
    ]
    assert all(c.serving_claim for c in claims)
    span = claims[2].provenance["tok_s"].span
    assert span is not None and "Units column 'Queries/s'" in span
    assert any("2 MLPerf record(s) not in tokens/s skipped" in w for w in doc.warnings)


def test_a_summary_of_only_vision_rows_is_still_no_claim() -> None:
    text = (FIXTURES / "summary_llm_units.csv").read_text().splitlines()
    only = "\n".join([text[0], *[line for line in text[1:] if '"resnet"' in line]]) + "\n"
    with pytest.raises(NoClaimFound):
        MLPerf().parse(RawDocument(only.encode(), source="summary.csv"))


def test_gptj_logs_give_loadgens_inferred_token_rate() -> None:
    # mlcommons/inference_results_v4.1@198fc46799b3328b36ee4bcbdebfa2db5a8e6183
    # closed/ASUSTeK/results/ESC4000A_E12_4XH100_TRT/gptj-99/Offline/performance/run_1/mlperf_log_summary.txt
    path = (FIXTURES / "tree" / "closed" / "ASUSTeK" / "results" / "ESC4000A_E12_4XH100_TRT" /
            "gptj-99" / "Offline" / LOG)
    (c,) = MLPerf().parse(RawDocument(path.read_bytes(), source=str(path)))
    assert (c.tok_s, c.tok_s_kind, c.cell) == (6985.51, "aggregate", "MLPerf Offline")
    assert (c.hardware, c.hardware_count, c.model) == ("H100", 4, "gptj-99")
    assert c.provenance["tok_s"].field == "Tokens per second (inferred)"


def test_a_cpu_only_system_names_its_host_processors_as_the_hardware() -> None:
    # mlcommons/inference_results_v4.1@198fc46799b3328b36ee4bcbdebfa2db5a8e6183
    # closed/Quanta_Cloud_Technology/systems/1-node-2S-EMR-PyTorch.json: accelerators "N/A"
    doc = RawDocument((FIXTURES / "system_cpu_only_emr.json").read_bytes(), source="system.json")
    (c,) = MLPerf().parse(doc)
    assert (c.hardware, c.hardware_count) == ("Intel(R) Xeon(R) Platinum 8592+", 2)
    assert c.provenance["hardware"].field == "host_processor_model_name"


def test_a_cpu_only_summary_row_names_its_host_processors() -> None:
    text = (FIXTURES / "summary_llm_units.csv").read_text().splitlines()
    row = text[1].replace('"AMD Instinct MI300X 192GB HBM3","8","8"', '"N/A","N/A","0"')
    row = row.replace('"XE9680_MI300X_192GBx8"', '"1-node-2S-EMR-PyTorch"')
    (c,) = MLPerf().parse(RawDocument(("\n".join([text[0], row]) + "\n").encode(),
                                      source="summary.csv"))
    assert (c.hardware, c.hardware_count) == ("Intel(R) Xeon(R) Platinum 8460Y+", 2)
