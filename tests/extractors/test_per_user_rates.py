"""Every record that carries a per-request decode rate fills `per_user_tok_s`, with its source."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.formats import detect

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.mark.parametrize(("fixture", "index", "rate", "field"), [
    ("vllm_bench/llama31_8b_eagle3_conc4.json", 0, 123.41, "median_tpot_ms"),
    ("vllm_bench/inferencex_processed_qwen35.json", 0, 29.06, "median_tpot"),
    ("inferencex/agg_bmk.json", 0, 33.1, "[0].median_intvty"),
    ("inferencex/benchmarks_h200.json", 1, 46.1, "[1].metrics.median_intvty"),
    ("mlperf/result_summary.json", 0, 30.4, "1 ÷ tpot.median (ns)"),
    ("mlperf/mlperf_log_summary.txt", 0, 8.32, "1 ÷ 50.00 percentile time to output token (ns)"),
    ("llama_bench/rtx4090_qwen2_7b_q4km.json", 1, 141.88, "[1].avg_ts"),
    ("aiperf/profile_export_aiperf.json", 0, 118.33, "output_token_throughput_per_user.avg"),
    ("sglang_bench_serving/llama31_8b_eagle3_two_runs.jsonl", 1, 147.71, "[1].median_tpot_ms"),
    ("guidellm/benchmarks.json", 0, 121.1,
     "benchmarks[0].metrics.inter_token_latency_ms.successful.mean"),
    ("localscore/results_list.json", 1, 151.37, "[1].avg_gen_tps"),
    ("accelmark/result_a100_sglang.json", 8, 77.34, "1000 ÷ metrics.interactive.tpot_ms_p50"),
])
def test_per_request_rate_is_filled_with_its_source(fixture: str, index: int, rate: float, field: str) -> None:
    path = FIXTURES / fixture
    doc = RawDocument(path.read_bytes(), source=path.name)
    fmt = detect(doc)
    assert fmt is not None
    claim = fmt.parse(doc)[index]
    assert claim.per_user_tok_s == pytest.approx(rate, abs=0.01)
    assert claim.provenance["per_user_tok_s"].field == field


def test_prefill_row_has_no_per_user_rate() -> None:
    path = FIXTURES / "llama_bench" / "rtx4090_qwen2_7b_q4km.json"
    doc = RawDocument(path.read_bytes(), source=path.name)
    fmt = detect(doc)
    assert fmt is not None
    pp = fmt.parse(doc)[0]
    assert pp.tok_s_kind == "prefill" and pp.per_user_tok_s is None


def test_headline_stays_the_adapters_figure() -> None:
    path = FIXTURES / "vllm_bench" / "llama31_8b_eagle3_conc4.json"
    doc = RawDocument(path.read_bytes(), source=path.name)
    fmt = detect(doc)
    assert fmt is not None
    claim = fmt.parse(doc)[0]
    assert claim.provenance["tok_s"].field == "output_throughput"
    assert claim.tok_s != claim.per_user_tok_s
