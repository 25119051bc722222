"""The speculative bound from the run's own settings and acceptance (issue 13 part 3).

Shapes: FreedomIntelligence/AccelMark@5797fc42745b results/community/
nvidia_a100_sxm4_40gbx1_suite_A_nvidia_sglang_c43a8309_958afbbd/result.json (the project's fixture),
its runner id swapped for the vLLM runner's as the verified A100/H100 suite A submissions have it
(nvidia_vllm_47f5d58e): the vLLM runners pass the suite's `speculative_num_tokens` (4) to the engine,
so each verify pass emits at most 5 tokens per sequence; the SGLang runner drops it and SGLang's
own EAGLE defaults run (5 steps: at most 6 tokens a pass), unless the runner YAML sets
`speculative_num_steps`.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from checks.models import Claim, Evidence, Report
from checks.reference import Reference
from checks.rules.speculative_bound import MEASURED_AL_MARGIN, measured_al
from checks.runner import audit
from extractors.document import RawDocument
from extractors.formats.accelmark import AccelMark

_FIXTURE = Path(__file__).parents[1] / "fixtures" / "accelmark" / "result_a100_sglang.json"
_SOURCE = "results/verified/nvidia_a100_sxm4_40gbx1_suite_A_nvidia_vllm_47f5d58e_b4a92b30/result.json"
# A100 40GB SXM: 8 × 1555 GB/s ÷ 16.06 GB of BF16 Llama 3 8B = 774.6 tok/s at batch 8.
_CEIL_8 = 8 * 1555 / 16.06


def _result(runner: str, extra: Any = None, runtime: Any = None, factor: float = 1.0) -> dict[str, Any]:
    r = copy.deepcopy(json.loads(_FIXTURE.read_text()))
    r["implementation_id"] = runner
    r["task"]["extra_config"] = extra
    r["task"].pop("runtime_metrics", None)
    if runtime is not None:
        r["task"]["runtime_metrics"] = runtime
    for row in r["metrics"]["speculative"]["results_by_concurrency"]:
        for key in ("throughput_tokens_per_sec", "throughput_tokens_per_sec_per_chip"):
            row[key] = row[key] * factor
    return r


def _spec8(r: dict[str, Any]) -> Claim:
    claims = AccelMark().parse(RawDocument(json.dumps(r).encode(), source=_SOURCE))
    return next(c for c in claims if c.speculative and c.concurrency == 8)


def _audit(ref: Reference, c: Claim) -> Report:
    return audit(Evidence(claim=c), ref)


@pytest.mark.parametrize(("runner", "extra", "window"), [
    ("nvidia_vllm_47f5d58e", None, 5),  # the suite's 4 draft tokens + the bonus token
    ("ascend_vllm_ascend_d4aa9fda", {"max_num_seqs": 512}, 5),
    ("nvidia_vllm_47f5d58e", {"num_speculative_tokens": 2}, 3),  # the runner YAML wins
    ("nvidia_vllm_47f5d58e", {"speculative_config": {"method": "eagle", "num_speculative_tokens": 6}}, 7),
    ("nvidia_vllm_47f5d58e", {"speculative_config": {"method": "eagle"}}, None),  # the user's own, no k
    ("nvidia_sglang_c43a8309", None, 6),  # SGLang's runner drops the key: its EAGLE default, 5 steps + 1
    ("nvidia_sglang_c43a8309", {"speculative_num_steps": 3}, 4),  # the runner YAML's own steps
    ("nvidia_sglang_c43a8309", {"speculative_num_steps": "many"}, None),  # unreadable: no window
    ("google_vllm_tpu_68cc9ffa", None, None),  # passes no drafter at all
])
def test_the_runner_sets_the_window(runner: str, extra: Any, window: int | None) -> None:
    c = _spec8(_result(runner, extra))
    assert c.spec_window == window
    if window is not None and not extra and "vllm" in runner:
        assert c.spec_window_convention == f"num_speculative_tokens {window - 1} + 1 bonus token = window (vLLM convention)"
    if window is not None and "sglang" in runner:
        assert c.spec_window_convention == (f"speculative_num_steps {window - 1} + 1 bonus token = the most an "
                                            f"EAGLE verify pass accepts (SGLang)")


@pytest.mark.parametrize(("factor", "status", "verdict"), [
    (1.0, "ok", "consistent"),  # the record's own 705.2 tok/s: 0.91 of the batch-8 ceiling
    (7.0, "stop", "implausible"),  # 6.4 × the ceiling: more than the 6 tokens a 5-step EAGLE pass accepts
])
def test_an_sglang_speculative_run_is_bounded_by_its_default_steps(ref: Reference, factor: float, status: str,
                                                                   verdict: str) -> None:
    report = _audit(ref, _spec8(_result("nvidia_sglang_c43a8309", factor=factor)))
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == (status, verdict)
    if status == "stop":
        assert q7.reason == "above_window" and "more than the 6-token window" in q7.summary


@pytest.mark.parametrize(("factor", "status", "verdict"), [
    (1.0, "ok", "consistent"),  # the record's own 705.2 tok/s: 0.91 of the batch-8 ceiling
    (10.0, "stop", "implausible"),  # ×10 = 9.1 × the ceiling: more than 5 tokens per pass
])
def test_a_vllm_speculative_run_is_bounded_by_its_window(ref: Reference, factor: float, status: str,
                                                         verdict: str) -> None:
    report = _audit(ref, _spec8(_result("nvidia_vllm_47f5d58e", factor=factor)))
    q7 = report.question("roofline")
    assert (q7.status, report.verdict) == (status, verdict)
    assert q7.figures["ceiling_tok_s"] == pytest.approx(_CEIL_8, rel=1e-3)
    if status == "stop":
        assert q7.reason == "above_window" and "more than the 5-token window" in q7.summary


@pytest.mark.parametrize(("runtime", "al"), [
    ({"acceptance_rate": 0.74, "num_speculative_tokens": 4}, 1 + 0.74 * 4),  # vLLM: accepted ÷ proposed
    ({"mean_accepted_tokens": 2.96, "num_speculative_tokens": 4}, 3.96),  # accepted drafts + the bonus
    ({"acceptance_rate": 0.74, "mean_accepted_tokens": 2.96, "num_speculative_tokens": 4}, 3.96),
])
def test_the_run_s_own_acceptance_gives_its_tokens_per_pass(runtime: dict[str, Any], al: float) -> None:
    c = _spec8(_result("nvidia_sglang_c43a8309", runtime=runtime))
    got = measured_al(c)
    assert got is not None and got[0] == pytest.approx(al)


@pytest.mark.parametrize(("factor", "status"), [
    (4.3, "ok"),  # 4.3 × 0.91 = 3.9 × the ceiling: under 3.96 tokens per pass × 1.05
    (5.0, "stop"),  # 4.55 × the ceiling: above it, though the 5-token window would allow it
])
def test_the_measured_acceptance_bounds_the_claim(ref: Reference, factor: float, status: str) -> None:
    c = _spec8(_result("nvidia_sglang_c43a8309", factor=factor,
                       runtime={"acceptance_rate": 0.74, "num_speculative_tokens": 4}))
    q7 = _audit(ref, c).question("roofline")
    assert q7.status == status
    assert q7.figures["bound_tok_s"] == pytest.approx(_CEIL_8 * (1 + 0.74 * 4) * MEASURED_AL_MARGIN, rel=1e-3)
    if status == "stop":
        assert "the run's own acceptance gives 3.96 tokens per verify pass" in q7.summary
