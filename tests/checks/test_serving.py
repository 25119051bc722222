"""Aggregates at an unknown batch meet the serving roofline, never the batch-1 ceiling; tools that
cannot speculate measure plain decode; the headline tells the same story as the verdict.

Real shapes: NVIDIA's TensorRT-LLM performance overview (tests/fixtures/trtllm/perf_overview.md,
NVIDIA/TensorRT-LLM@00f37686aa854010d68bcbd0f4ab000221541ca6 docs/source/performance/perf-overview.md)
and vLLM's `bench throughput` printout (tests/fixtures/vllm/benchmark_throughput.txt, the line
printed by vllm-project/vllm benchmarks/benchmark_throughput.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.engines import batches_by_default
from checks.models import Answer, Claim, Evidence, Question
from checks.reference import Reference
from checks.rules.acceptance import acceptance
from checks.rules.full_ratio import full_ratio
from checks.rules.roofline import roofline
from checks.runner import audit
from checks.verdict import headline, verdict
from extractors.document import RawDocument
from extractors.text import parse_text
from tests.serving_rows import perf_overview_rows

VLLM = Path(__file__).parents[1] / "fixtures" / "vllm" / "benchmark_throughput.txt"


def _q7(ref: Reference, claim: Claim) -> Answer:
    ev = Evidence(claim=claim)
    return roofline(ev, ref, {"acceptance": acceptance(ev, ref, {})})


def _text(ref: Reference, text: str) -> Claim:
    return parse_text(RawDocument.from_text(text), ref).claim


# ---- the vendor's table: every honest row consistent, ×10 beyond compute caught --------------


def test_every_row_of_the_trtllm_performance_overview_is_consistent(ref: Reference) -> None:
    rows = perf_overview_rows()
    assert len(rows) == 289
    verdicts = {c.record_id: audit(Evidence(claim=c, kind="record"), ref).verdict for c in rows}
    assert [k for k, v in verdicts.items() if v != "consistent"] == []


def test_every_trtllm_row_is_judged_against_the_serving_bound_not_batch_1(ref: Reference) -> None:
    for c in perf_overview_rows():
        q7 = _q7(ref, c)
        assert q7.status == "ok" and q7.figures["serving"] == 1.0, c.record_id
        assert q7.figures["max_batch"] >= q7.figures["required_batch"], c.record_id


def test_trtllm_rows_times_ten_beyond_the_compute_bound_are_implausible(ref: Reference) -> None:
    beyond = []
    for c in perf_overview_rows():
        compute = _q7(ref, c).figures["compute_bound_tok_s"]
        if 10 * c.tok_s > compute:  # type: ignore[operator]
            fake = c.model_copy(update={"tok_s": 10 * c.tok_s})  # type: ignore[operator]
            beyond.append((c.record_id, audit(Evidence(claim=fake, kind="record"), ref).verdict))
    assert len(beyond) == 83
    assert {v for _, v in beyond} == {"implausible"}


def test_trtllm_row_times_ten_headline_names_the_compute_bound(ref: Reference) -> None:
    row = next(c for c in perf_overview_rows() if c.record_id == "Llama 3.1 8B 128/128 H100 SXM ×1")
    report = audit(Evidence(claim=row.model_copy(update={"tok_s": 283120.0}), kind="record"), ref)
    assert report.verdict == "implausible"
    assert report.headline.startswith("implausible — 283120.0 tok/s is 2.3× the compute bound of "
                                      "123225.4 tok/s at any batch of one H100 SXM")


# ---- the words of a serving benchmark -------------------------------------------------------


@pytest.mark.parametrize(("text", "tok_s", "io"), [
    ("Llama 3.1 8B FP8 on one H100, 128/128 in/out: 28,312 output tokens/sec total", 28312.0, (128, 128)),
    ("Llama 3.1 8B FP8 on one H100 (ISL/OSL 128/128): 28,312 output tokens/sec", 28312.0, (128, 128)),
    ("Llama 3.3 70B FP8 on one H200: 3,803 total output tok/s at 1000/1000 ISL/OSL", 3803.0, (1000, 1000)),
    ("Llama 3.1 8B FP8 on one H100, input 2048 / output 128: 3,450 tok/s at max load", 3450.0, (2048, 128)),
])
def test_serving_wording_reads_an_aggregate_and_the_length_pair(ref: Reference, text: str, tok_s: float,
                                                                 io: tuple[int, int]) -> None:
    c = _text(ref, text)
    assert (c.tok_s, c.tok_s_kind) == (tok_s, "aggregate")
    assert (c.input_tokens, c.output_tokens) == io
    assert c.ratios == []  # two lengths, never an acceptance ratio
    report = audit(Evidence(claim=c), ref)
    assert report.verdict == "consistent"
    assert report.finding("full_ratio").status != "flag"


@pytest.mark.parametrize(("text", "kind"), [
    ("trtllm-bench throughput, Llama 3.1 8B FP8 on one H100: 28312 tok/s", "aggregate"),
    ("With vLLM bench throughput, Llama 3.1 8B on one H100: 10552 tok/s", "aggregate"),
    ("SGLang bench_offline_throughput, Llama 3.1 8B on one H100: 10552 tok/s", "aggregate"),
    ("Llama 3.1 8B on one H100 at infinite request rate: 10552 tok/s", "aggregate"),
    ("Llama 3.1 8B on one H100, 12.3 requests/s: 10552 tok/s", "aggregate"),
    ("MLPerf Offline, Llama 3.1 8B on one H100: 10552 tok/s", "aggregate"),
    ("Total Token Throughput (tok/s): 94022.5", "total"),
    ("Llama 3.1 8B on one H100: 5678.90 total tokens/s", "total"),
])
def test_throughput_tools_and_words_mark_the_figure(ref: Reference, text: str, kind: str) -> None:
    assert _text(ref, text).tok_s_kind == kind


def test_a_plain_per_stream_line_stays_unlabelled(ref: Reference) -> None:
    """Negative control: no serving word, no aggregate."""
    c = _text(ref, "Llama 3.1 8B on one H100: 158 tok/s")
    assert c.tok_s_kind is None and c.input_tokens is None


def test_vllm_throughput_printout_reads_the_output_figure_as_the_aggregate(ref: Reference) -> None:
    c = _text(ref, VLLM.read_text(encoding="utf-8"))
    assert (c.tok_s, c.tok_s_kind) == (10552.22, "aggregate")
    assert (c.input_tokens, c.output_tokens) == (1000, 1000)
    assert audit(Evidence(claim=c), ref).verdict == "consistent"
    fake = audit(Evidence(claim=c.model_copy(update={"tok_s": 10 * c.tok_s})), ref)  # type: ignore[operator]
    assert fake.verdict == "implausible"  # 105522 tok/s > 989 TFLOPS ÷ (2 × 8.03e9) = 61582


def test_an_io_pair_in_notes_is_no_full_ratio(ref: Reference) -> None:
    for notes in ("ISL/OSL 128/128, 30000 requests", "run at 1000/1000 in/out"):
        assert full_ratio(Evidence(claim=Claim(notes=notes, speculative=False)), ref, {}).status == "ok"
    flagged = full_ratio(Evidence(claim=Claim(notes="accepted 383/383 draft tokens")), ref, {})
    assert flagged.status == "flag"  # positive control: an acceptance count in its context


def test_aggregate_with_unknown_kv_is_bounded_by_compute_alone(ref: Reference) -> None:
    c = Claim(model="Llama 3.1 8B", weight_format="FP8", hardware="H100 SXM", hardware_count=1,
              tok_s=5530.7, tok_s_kind="aggregate")
    a = _q7(ref, c)
    assert a.status == "ok" and "memory_bound_tok_s" not in a.figures
    assert a.figures["ceiling_tok_s"] == pytest.approx(1979e12 / (2 * 8.03e9), rel=1e-3)
    assert "the most generous reading is no KV" in a.summary


# ---- plain decode ---------------------------------------------------------------------------


@pytest.mark.parametrize("update", [{"tok_s_kind": "decode"}, {"batch": 1}, {"tok_s_kind": "per_user"}])
def test_900_tok_s_per_stream_on_dense_70b_with_one_4090_is_stop(ref: Reference,
                                                                 update: dict[str, object]) -> None:
    c = Claim(model="70B", params_total_b=70.0, is_moe=False, hardware="RTX 4090", hardware_count=1,
              tok_s=900.0, **update)
    assert _q7(ref, c).status == "stop"
    assert audit(Evidence(claim=c), ref).verdict == "implausible"


@pytest.mark.parametrize(("hardware", "engine", "count", "status"), [
    # 300 tok/s of TinyLlama 1.1B at 4 bits on a Pi 5 (17.1 GB/s ÷ 0.55 GB = 31.1 tok/s) is 9.6×,
    # above the 8.24 best AL any method published: one user's board counts one stream
    ("Raspberry Pi 5", None, None, "stop"), ("RTX 4090", None, None, "stop"),
    # what may sum streams keeps the 3× room for an unlabelled aggregate
    ("H100 SXM", None, None, "flag"), ("RTX 4090", "vLLM", None, "flag"), ("RTX 4090", None, 4, "flag"),
])
def test_an_unlabelled_figure_from_one_users_setup_is_one_stream(ref: Reference, hardware: str, engine: str | None,
                                                                 count: int | None, status: str) -> None:
    c = Claim(model="TinyLlama 1.1B", params_total_b=1.1, is_moe=False, hardware=hardware, engine=engine,
              hardware_count=count)
    ceiling = _q7(ref, c.model_copy(update={"tok_s": 1.0})).figures["ceiling_tok_s"]
    a = _q7(ref, c.model_copy(update={"tok_s": 9.6 * ceiling}))
    assert a.status == status


@pytest.mark.parametrize(("engine", "status"), [
    ("llama-bench", "stop"), ("LocalScore", "stop"), ("llamafile 0.9.3", "stop"), ("ollama", "stop"),
    ("vLLM", "flag"), ("llama.cpp", "flag"),  # negative controls: these can speculate
])
def test_tools_that_cannot_speculate_measure_plain_decode(ref: Reference, engine: str, status: str) -> None:
    c = Claim(model="Llama 3.1 8B", weight_format="Q4_K_M", hardware="RTX 4090", hardware_count=1,
              batch=1, tok_s=400.0, engine=engine)  # 1008 GB/s ÷ 4.8 GB = 209 tok/s: 1.9×
    a = _q7(ref, c)
    assert a.status == status
    if status == "stop":
        assert "plain decode:" in a.summary


# ---- one story per report -------------------------------------------------------------------


def _roof(status: str, **figures: float) -> Question:
    return Question(n=7, key="roofline", status=status, summary="roofline", figures=figures)


def test_an_unanswerable_q7_above_a_dense_reading_is_never_consistent() -> None:
    ev = Evidence(claim=Claim(tok_s=900.0, hardware="RTX 4090"))
    qs = [Question(n=5, key="acceptance", status="ok", summary="ok"),
          _roof("unanswerable", dense_ratio=6.42, dense_ceiling_tok_s=140.0, claimed_tok_s=900.0)]
    v = verdict(qs, [], ev)
    assert v == "insufficient"
    assert "6.42" not in headline(v, qs, [], ev)


def test_a_consistent_figure_above_the_plain_ceiling_names_the_bound_that_holds_it() -> None:
    ev = Evidence(claim=Claim(tok_s=900.0))
    qs = [_roof("ok", ratio=6.42, ceiling_tok_s=140.2, claimed_tok_s=900.0, bound_tok_s=1155.0)]
    text = headline("consistent", qs, [], ev)
    assert text == ("consistent — 900.0 tok/s is within the speculative bound of 1155.0 tok/s, 6.4× the "
                    "plain-decode batch-1 ceiling")
    assert "of the generous" not in text


# 1008 GB/s ÷ 35 GB = 28.8 tok/s read as dense; ÷ (5.71 ÷ 116.83), gpt-oss-120b's share, the
# sparsest MoE of 35-140B total in the table = 589.3 tok/s read as the most generous plausible MoE.
_MOE_70B_ON_4090 = 1008 / 35 / (5.71 / 116.83)


def test_q7_unanswerable_for_a_possible_moe_keeps_its_figures_under_dense_names(ref: Reference) -> None:
    """300 tok/s is above the dense reading but within the most generous MoE reading: the
    architecture decides, so no flag is raised."""
    a = _q7(ref, Claim(params_total_b=70.0, hardware="RTX 4090", hardware_count=1, batch=1, tok_s=300.0))
    assert a.status == "unanswerable"
    assert "ratio" not in a.figures and a.figures["dense_ratio"] == pytest.approx(300 / 28.8)


def test_above_the_most_generous_moe_reading_is_flagged_as_above_any_ceiling(ref: Reference) -> None:
    """1800 tok/s is 3.05× even the sparsest MoE of its size: above the plain-decode ceiling under
    every reading, only speculative decoding (not mentioned) could reach it."""
    a = _q7(ref, Claim(params_total_b=70.0, hardware="RTX 4090", hardware_count=1, batch=1, tok_s=1800.0))
    assert (a.status, a.reason) == ("flag", "needs_unstated_speculation")
    assert a.figures["ceiling_tok_s"] == pytest.approx(_MOE_70B_ON_4090, rel=1e-9)
    assert a.figures["dense_ceiling_tok_s"] == pytest.approx(28.8)
    assert a.figures["moe_reading"] is True
    assert "even if the model were a MoE as sparse as any published of its size" in a.summary


def test_a_possible_moe_is_no_way_out_for_a_figure_impossible_under_every_reading(ref: Reference) -> None:
    """30000 tok/s is 51× the most generous MoE reading, beyond the best AL any method has published."""
    a = _q7(ref, Claim(params_total_b=70.0, hardware="RTX 4090", hardware_count=1, batch=1, tok_s=30000.0))
    assert a.status == "stop"
    assert a.figures["ceiling_tok_s"] == pytest.approx(_MOE_70B_ON_4090, rel=1e-9)
    assert "even if the model were a MoE" in a.summary


# ---- MLPerf Offline / Server: aggregates through the serving bounds --------------------------


def test_mlperf_offline_aggregate_meets_the_serving_bounds_not_a_missing_batch(ref: Reference) -> None:
    from extractors.formats.mlperf import MLPerf

    fixture = Path(__file__).parents[1] / "fixtures" / "mlperf" / "summary.csv"
    claims = MLPerf().parse(RawDocument(fixture.read_bytes(), source="summary.csv"))
    offline = next(c for c in claims if c.tok_s_kind == "aggregate" and c.tok_s == 34029.38)
    report = audit(Evidence(claim=offline, kind="record"), ref)
    q7 = report.question("roofline")
    assert q7.status == "ok" and q7.figures["serving"] == 1.0 and "batch size" not in q7.missing
    assert report.verdict == "consistent"
    assert report.headline.startswith("consistent — 34029.4 tok/s is 0.30 of the compute bound at any "
                                      "batch of 8× H200 SXM")


# ---- the older TensorRT-LLM tables: batch stated, per-GPU figures, TP in a column -------------


@pytest.mark.parametrize(("text", "count", "kind", "tok_s"), [
    # NVIDIA/TensorRT-LLM docs/source/performance.md (v0.9.0 "Peak Throughput", H200 FP8) row shape
    ("TensorRT-LLM performance overview, H200 GPUs (FP8): Model: Mistral 7B; Batch Size: 896; TP (1): 1; "
     "Input Length: 128; Output Length: 128; Throughput (out tok/s/GPU): 20,460", 1, "per_gpu", 20460.0),
    ("Azure ND H100 v5, TensorRT-LLM, LLAMA 3 (405B) with FP8 quantization, 1000 requests: tp size: 8; "
     "input len: 128; output len: 128; throughput(tokens/sec): 2515", 8, "aggregate", 2515.0),
])
def test_serving_table_rows_read_their_count_and_figure(ref: Reference, text: str, count: int, kind: str,
                                                         tok_s: float) -> None:
    c = _text(ref, text)
    assert (c.hardware_count, c.tok_s_kind, c.tok_s) == (count, kind, tok_s)
    assert (c.input_tokens, c.output_tokens) == (128, 128)
    assert audit(Evidence(claim=c), ref).verdict == "consistent"


def test_a_stated_batch_reads_each_sequence_at_its_average_context(ref: Reference) -> None:
    """Batch 120 of GPT-J-sized FP8 weights on one H200 at 128 in / 2048 out: each sequence holds
    128 + 2048 ÷ 2 = 1152 tokens of KV on average while it decodes, not the final 2176."""
    c = Claim(model="Llama 3.1 8B", weight_format="FP8", hardware="H200 SXM", hardware_count=1, batch=120,
              input_tokens=128, output_tokens=2048, tok_s=8348.0, tok_s_kind="aggregate")
    a = _q7(ref, c)
    kv = 131072 / 2 * 1152 / 1e9  # FP8 KV of Llama 3.1 8B at the average context
    assert a.figures["ceiling_tok_s"] == pytest.approx(120 * 4800 / (8.03 + 120 * kv), rel=1e-3)


# ---- an unlabelled figure above every one-stream bound ----------------------------------------

_UNLABELLED = {"model": "Llama 3.1 8B", "weight_format": "BF16", "hardware": "H100 SXM", "hardware_count": 1,
               "engine": "vLLM"}


def test_an_unlabelled_figure_possible_only_as_an_aggregate_is_a_flag_not_a_stop(ref: Reference) -> None:
    # 20000 tok/s is 96× one stream's 208.6 (3350 GB/s ÷ 16.06 GB), above 3 × that × the best
    # published AL; nothing says one stream, and the compute bound (989 TFLOPS ÷ (2 × 8.03e9) =
    # 61582 tok/s) allows it as a batch: which cell (Q3) decides, not the physics.
    c = Claim(tok_s=20000.0, **_UNLABELLED)
    a = _q7(ref, c)
    assert (a.status, a.reason) == ("flag", "unlabelled_aggregate")
    assert a.figures["aggregate_possible"] is True
    assert a.figures["compute_bound_tok_s"] == pytest.approx(989e12 / (2 * 8.03e9), rel=1e-3)
    report = audit(Evidence(claim=c), ref)
    assert report.verdict == "suspicious"
    assert "possible only as an aggregate of many streams" in report.headline


@pytest.mark.parametrize(("update", "status"), [
    ({"tok_s": 200000.0}, "stop"),  # beyond the compute bound at any batch: no cell explains it
    ({"tok_s": 20000.0, "batch": 1}, "stop"),  # one stream stated
    ({"tok_s": 20000.0, "tok_s_kind": "decode"}, "stop"),  # one request's rate
])
def test_a_figure_no_cell_explains_is_still_a_stop(ref: Reference, update: dict[str, object], status: str) -> None:
    c = Claim(**{**_UNLABELLED, **update})
    assert _q7(ref, c).status == status


def test_an_unlabelled_figure_one_stream_reaches_only_by_speculation_names_both_ways(ref: Reference) -> None:
    # 8 × 3350 GB/s over DeepSeek V3's 37.6B active at 4 bits is 1426 tok/s for one stream;
    # 20000 is 14× that, within 3 × the best AL: speculation or many streams, the post says neither.
    c = _text(ref, "SGLang on 8x H100 serves DeepSeek V3 at 20000 tok/s")
    a = _q7(ref, c)
    assert (a.status, a.reason) == ("flag", "unlabelled_above_one_stream")
    report = audit(Evidence(claim=c), ref)
    assert report.verdict == "suspicious"
    assert "only speculative decoding or many streams could reach it" in report.headline



@pytest.mark.parametrize(("text", "verdict"), [
    ("Llama 3 8B fp16 on one H100 at 20000 tok/s with vLLM", "suspicious"),  # a batching engine
    ("Llama 3 8B fp16 on one H100 at 20000 tok/s", "suspicious"),  # a datacenter card is served
    ("llama-bench on one H100: Llama 3 8B fp16 20000 t/s", "implausible"),  # one stream, measured
    ("Llama 3 8B fp16 on one RTX 4090 at 20000 tok/s", "implausible"),  # one user's card, no engine
])
def test_only_a_setup_that_batches_gets_the_aggregate_reading(ref: Reference, text: str, verdict: str) -> None:
    assert audit(Evidence(claim=_text(ref, text)), ref).verdict == verdict


@pytest.mark.parametrize(("engine", "batches"), [
    ("vLLM 0.6.3", True), ("vllm-ascend", True), ("Aphrodite Engine", True), ("trtllm", True),
    ("SGLang", True), ("llama.cpp", False), ("ollama", False), (None, False),
])
def test_serving_engines_batch_by_default(engine: str | None, batches: bool) -> None:
    assert (batches_by_default(engine) is not None) == batches


# ---- a llama-server launched with N slots (-np N) sums up to N streams ------------------------

_SERVER = "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 {np}on my 3090 gets {tok_s} t/s"


def test_np_is_the_servers_slot_count_not_a_concurrency(ref: Reference) -> None:
    c = _text(ref, _SERVER.format(np="-np 4 ", tok_s=380))
    assert (c.server_slots, c.concurrency, c.batch, c.tok_s_kind) == (4, None, None, None)
    assert c.provenance["server_slots"].span == "-np 4"
    assert _text(ref, "llama-server --parallel 8 -m m.gguf on a 4090: 600 t/s").server_slots == 8
    # llama-bench has no slots; its `-np` would be another tool's flag
    assert _text(ref, "llama-bench -m m.gguf -np 4 on a 4090: 150 t/s").server_slots is None


@pytest.mark.parametrize(("np", "tok_s", "verdict", "status", "reason"), [
    # 380 t/s is 1.55× one stream's 245.7 (936 GB/s ÷ 3.81 GB of Q4_K_M weights): the sum of four
    # slots is possible (0.39 of 4 × 245.7 = 982.7), one stream without a draft model is not
    ("-np 4 ", 380, "consistent", "ok", "slots_aggregate"),
    ("", 380, "implausible", "stop", "above_ceiling"),
    ("-np 1 ", 380, "implausible", "stop", "above_ceiling"),
    # 1200 is 1.22× the four slots' 982.7 and 4.9× one stream: no reading holds it
    ("-np 4 ", 1200, "implausible", "stop", "above_ceiling"),
])
def test_a_figure_from_a_server_with_slots_may_be_their_sum(ref: Reference, np: str, tok_s: int, verdict: str,
                                                          status: str, reason: str) -> None:
    c = _text(ref, _SERVER.format(np=np, tok_s=tok_s))
    a = _q7(ref, c)
    assert (a.status, a.reason) == (status, reason)
    assert audit(Evidence(claim=c), ref).verdict == verdict


def test_the_slots_bound_is_the_batch_of_slots_and_the_headline_names_it(ref: Reference) -> None:
    c = _text(ref, _SERVER.format(np="-np 4 ", tok_s=380))
    a = _q7(ref, c)
    assert a.figures["server_slots"] == 4 and a.figures["max_batch"] == 4
    assert a.figures["ceiling_tok_s"] == pytest.approx(4 * 936 / 3.81, rel=1e-3)
    assert a.figures["one_stream_ratio"] == pytest.approx(380 / (936 / 3.81), rel=1e-3)
    assert a.figures["ratio"] == pytest.approx(380 / (4 * 936 / 3.81), rel=1e-3)
    report = audit(Evidence(claim=c), ref)
    assert report.headline.startswith("consistent — 380.0 tok/s is 0.39 of the generous serving "
                                      "(4 parallel slots) ceiling of one RTX 3090")
    cell = next(q for q in report.questions if q.key == "cell")
    assert cell.figures["server_slots"] == 4
    assert "the sum of up to 4" in cell.summary


def test_each_slot_holds_its_share_of_the_context(ref: Reference) -> None:
    # -c 32768 over 4 slots: 8192 tokens each; Qwen2.5 7B's KV is 57344 B/token at BF16, 28672 at
    # the generous 1 byte per element: 0.23 GB per slot in the serving bound
    c = _text(ref, "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 -np 4 -c 32768 on my 3090 "
                   "gets 380 t/s")
    a = _q7(ref, c)
    assert a.figures["ceiling_tok_s"] == pytest.approx(4 * 936 / (3.81 + 4 * 28672 * 8192 / 1e9), rel=2e-3)
    assert "context per slot = claim.context_length (text: -c) 32768 ÷ 4 slots = 8192 tokens" in [
        b.states for b in a.basis]


def test_a_suspicious_headline_names_the_figure_its_ratio_is_over(ref: Reference) -> None:
    # 322 tok/s per user at concurrency 10 on 8x MI325X is 3220 tok/s together, 2.7× the batch-10
    # ceiling of 1182.7 (10 × 48000 GB/s ÷ 405.9 GB): the headline had printed "322.0 tok/s: 2.7×
    # the generous ceiling of 1182.7", a ratio over another figure than the one it named
    c = Claim(model="Llama 3.1 405B", weight_format="FP8", hardware="MI325X", hardware_count=8, engine="vllm",
              concurrency=10, tok_s=322.0, tok_s_kind="per_user")
    report = audit(Evidence(claim=c), ref)
    assert report.verdict == "suspicious"
    assert report.headline.startswith("suspicious — the aggregate 3220.0 tok/s: 2.7× the generous ceiling of "
                                      "1182.7 tok/s")
