"""Every input format, audited end to end through the CLI (`claimcheck audit --json`).

Each row names fixture files in their real shape, the adapter that must read them, and the
statuses and figures the report must carry: not just "it ran".
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli import main

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def audit(*inputs: str) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["audit", "--json", *inputs], out=out, err=err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def status(report: dict[str, Any], key: str) -> str:
    for a in [*report["questions"], *report["findings"]]:
        if a["key"] == key:
            return a["status"]
    raise KeyError(key)


def figure(report: dict[str, Any], key: str, name: str) -> float:
    for a in [*report["questions"], *report["findings"]]:
        if a["key"] == key:
            return a["figures"][name]
    raise KeyError(key)


CASES: list[tuple[str, list[str], str, dict[str, str], dict[tuple[str, str], float]]] = [
    # id, inputs (fixture paths or text), adapter, statuses, figures (approx, 1%)
    ("vllm_bench", ["vllm_bench/llama31_8b_eagle3_conc4.json"], "vllm_bench",
     {"acceptance": "ok", "cell": "ok", "evidence": "ok"},
     {("acceptance", "al"): 2.873, ("acceptance", "window"): 4, ("acceptance", "ratio"): 0.718}),
    ("vllm_bench+post", ["vllm_bench/llama31_8b_eagle3_conc4.json",
                         "Llama 3.1 8B BF16 on one H100 SXM with EAGLE-3, concurrency 4: 485.6 tok/s"],
     "vllm_bench", {"acceptance": "ok", "roofline": "ok"},
     {("roofline", "claimed_tok_s"): 485.6}),
    ("sglang_bench_serving", ["sglang_bench_serving/llama31_8b_eagle3_two_runs.jsonl"],
     "sglang_bench_serving", {"acceptance": "unanswerable", "cell": "ok"}, {("acceptance", "al"): 3.12}),
    ("sglang_bench_one_batch", ["sglang_bench_one_batch/llama31_8b_h100_result.jsonl",
                                "Llama 3.1 8B BF16 on one H100 SXM"],
     "sglang_bench_one_batch", {"roofline": "ok", "acceptance": "n/a"},
     {("roofline", "claimed_tok_s"): 163.39}),
    ("llama_bench", ["llama_bench/rtx4090_qwen2_7b_q4km.json"], "llama_bench",
     {"roofline": "ok", "fork": "ok", "acceptance": "n/a"},
     {("roofline", "ratio"): 0.658, ("roofline", "ceiling_tok_s"): 215.5}),
    ("llama_server", ["llama_server/completion_speculative.json"], "llama_server",
     {"acceptance": "unanswerable", "evidence": "ok"}, {("acceptance", "window"): 17}),
    ("ollama", ["ollama/generate.json", "RTX 4080, Llama 3.1 8B Q4_K_M"], "ollama",
     {"roofline": "ok", "fork": "unanswerable", "acceptance": "n/a"},
     {("roofline", "claimed_tok_s"): 61.58, ("roofline", "ratio"): 0.345}),
    ("aiperf", ["aiperf/profile_export_aiperf.json"], "aiperf",
     {"roofline": "ok", "power": "ok"}, {("roofline", "ratio"): 0.192, ("power", "watts"): 612.38}),
    ("genai_perf", ["aiperf/profile_export_genai_perf.json"], "aiperf",
     {"roofline": "unanswerable"}, {}),
    ("guidellm", ["guidellm/benchmarks.json", "Qwen3-8B BF16 on one H100 SXM"], "guidellm",
     {"roofline": "ok", "cell": "ok"}, {("roofline", "per_user_tok_s"): 121.1, ("roofline", "aggregate_ratio"): 0.588}),
    ("inferencex", ["inferencex/benchmarks_h200.json"], "inferencex",
     {"roofline": "ok", "power": "ok", "fork": "ok"}, {("roofline", "per_user_ratio"): 0.0512, ("roofline", "aggregate_ratio"): 0.049}),
    ("localscore", ["localscore/result_detail.json"], "localscore",
     {"roofline": "ok", "power": "ok"}, {("roofline", "ratio"): 0.459, ("power", "watts"): 318.29}),
    ("accelmark", ["accelmark/result_a100_sglang.json"], "accelmark",
     {"power": "ok", "fork": "ok", "roofline": "ok"},
     {("power", "ratio"): 0.796, ("roofline", "ratio"): 0.324}),
    ("mlperf_summary", ["mlperf/summary.csv"], "mlperf", {"fork": "ok", "cell": "unanswerable"}, {}),
    ("mlperf_result_summary", ["mlperf/result_summary.json"], "mlperf", {"cell": "ok"}, {}),
    ("generic_board_mapping", ["generic_board/tokenarena_dump.json"], "generic_board",
     {"roofline": "ok", "power": "ok"}, {("roofline", "ratio"): 0.522}),
    ("vllm_log", ["text/vllm_server.log"], "text", {"acceptance": "ok", "fork": "ok"},
     {("acceptance", "al"): 4.54, ("acceptance", "window"): 16}),
    ("sglang_log", ["text/sglang_server.log"], "text", {"acceptance": "ok"},
     {("acceptance", "al"): 5.0, ("acceptance", "window"): 16}),
    # a tool's printout saved as text is read as the record the tool saves, the lines around it
    # (the command, the card) as its notes
    ("vllm_printout", ["text/vllm_bench_serve_printout.txt"], "vllm_bench",
     {"roofline": "ok", "fork": "ok", "acceptance": "n/a"},
     {("roofline", "claimed_tok_s"): 2085.19, ("roofline", "ratio"): 0.0135}),
    ("mlx_generate", ["text/mlx_generate.txt"], "text", {"roofline": "ok"},
     {("roofline", "claimed_tok_s"): 41.233, ("roofline", "bandwidth_gbs"): 409.6}),
    ("dflash_benchmark", ["text/dflash_benchmark.txt"], "text", {"acceptance": "unanswerable"},
     {("acceptance", "al"): 6.53}),
    ("launch_command+post", ["text/sglang_launch.sh",
                             "RTX 5090, batch 1, DFlash, AL 5.1: 295 tok/s"], "text",
     {"config": "ok", "acceptance": "ok", "roofline": "ok", "fork": "unanswerable",
      "drafter_regime": "flag"},
     {("acceptance", "window"): 56, ("acceptance", "al"): 5.1}),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_format_audits_end_to_end(case: tuple[str, list[str], str, dict[str, str], dict[tuple[str, str], float]]) -> None:
    _, inputs, adapter, statuses, figures = case
    args = [str(FIX / i) if (FIX / i).is_file() else i for i in inputs]
    r = audit(*args)
    assert r["sources"][0]["format"] == adapter
    assert r["sources"][0].get("sha256") is None or len(r["sources"][0]["sha256"]) == 64
    for key, want in statuses.items():
        assert status(r, key) == want, (key, r["headline"])
    for (key, name), figure_want in figures.items():
        assert figure(r, key, name) == pytest.approx(figure_want, rel=0.01), (key, name)
    for a in [*r["questions"], *r["findings"]]:
        assert a["status"] != "error", a["summary"]
        if a.get("figures"):  # /3 leaves an empty member out
            assert a["basis"], a["key"]


def test_community_board_picks_the_record_matching_the_post() -> None:
    r = audit("27B dense, batch 1, 2048 tokens in 0.969 s — 2103.6 tok/s on one RTX 5090",
              str(FIX / "generic_board" / "community_board.json"))
    assert r["claim"]["record_id"] == "r-56"
    assert r["siblings"] == 3
    assert r["verdict"] == "implausible"
    assert status(r, "window_curve") == "flag"
    assert figure(r, "roofline", "ratio") == pytest.approx(16.3, abs=0.1)
    assert any("control character" in w for w in r["warnings"])


# --- honest records must not raise false alarms ---------------------------------------------------

HONEST = [
    # An 8B model at 0.6-0.8 of its ceiling: Llama 3.1 8B BF16 on H100 SXM, ceiling 3350/16.06 = 208.6.
    ("8b_dense_at_0.7", "Llama 3.1 8B BF16 on one H100 SXM, batch 1, plain decode: 146 tok/s at 310 W, "
     "TTFT 35 ms, vLLM 0.11.0"),
    # A speculative run with an ordinary AL: EAGLE-3 AL 3.4 at window 8, well under ceiling x AL.
    ("eagle3_ordinary_al", "Llama 3.1 8B BF16 on one H100 SXM, batch 1, EAGLE-3 with 7 draft tokens "
     "(window 8), AL 3.4: 380 tok/s at 300 W, TTFT 40 ms, SGLang 0.5.4"),
    # A datacenter card at batch 1 drawing 25-40% of board power.
    ("h200_at_0.3_of_tdp", "Llama 3.1 70B FP8 on one H200, batch 1: 45 tok/s at 210 W, TTFT 90 ms, "
     "vLLM 0.11.0"),
]


@pytest.mark.parametrize("text", [h[1] for h in HONEST], ids=[h[0] for h in HONEST])
def test_honest_runs_come_out_consistent(text: str) -> None:
    r = audit(text)
    assert r["verdict"] == "consistent", r["headline"]
    assert status(r, "roofline") == "ok"
    assert status(r, "power") == "ok"


def test_honest_8b_sits_between_0_6_and_0_8_of_its_ceiling() -> None:
    r = audit(HONEST[0][1])
    assert 0.6 <= figure(r, "roofline", "ratio") <= 0.8


# --- arbitrary input never gives a traceback -------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=400) | st.text(max_size=400).map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_arbitrary_stdin_is_a_report_or_exit_2(data: bytes) -> None:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.BytesIO(data)
    import sys

    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(stdin)
    try:
        code = main(["audit", "--json", "-"], out=out, err=err)
    finally:
        sys.stdin = saved
    assert code in (0, 2)
    assert "Traceback" not in err.getvalue()
    if code == 0:
        assert json.loads(out.getvalue())["schema"] == "claimcheck.report/5"
    else:
        assert err.getvalue().startswith("claimcheck: ") and err.getvalue().count("\n") == 1
