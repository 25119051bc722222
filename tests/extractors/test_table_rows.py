"""Table rows pasted as text: llama-bench, llama-sweep-bench and llama-batched-bench rows, column
headers that say which rate a figure is, a family word with a row's size, and the rig written in
a row's context. The rows are in the shapes the public tables print (ik_llama.cpp discussions,
GPU-Benchmarks-on-LLM-Inference, the ExLlamaV2 README, an M4 Max LM Studio table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document
from extractors.text import parse_text
from extractors.text.names import find_gpus

FIXTURES = Path(__file__).parent.parent / "fixtures" / "text"

LLAMA_BENCH_TG = ("ik_llama.cpp, Benchmarking DeepSeek R1 - 16x3090 / Description: model: deepseek2 671B "
                  "Q8_0; size: 307.20 GiB; params: 672.05 B; backend: CUDA; ngl: 63; n_batch: 2048; "
                  "test: tg512; t/s: 18.10 ± 0.00")
LLAMA_BENCH_PP = ("ik_llama.cpp, AVX2: model: llama 8B BF16; size: 14.96 GiB; backend: CPU; threads: 16; "
                  "test: pp512; t/s: 256.90 ± 0.36")
SWEEP = ("ik_llama.cpp, gemma-3-27B-it-qat-iq3_k.gguf: PP: 512; TG: 128; N_KV: 10240; T_PP s: 0.582; "
         "S_PP t/s: 880.17; T_TG s: 5.299; S_TG t/s: 24.16")
BATCHED = ("ik_llama.cpp, Prompt processing champion: PP: 128; TG: 128; B: 2; N_KV: 384; T_PP s: 19.332; "
           "S_PP t/s: 6.62; T_TG s: 92.578; S_TG t/s: 2.77; T s: 111.910; S t/s: 3.43")
M4MAX = ("Inference Benchmarks (Apple M4 Max 48GB 16 Core 16-inch using LM Studio): Size (B): 14; "
         "Speed (T/s): 55; Model: qwen 2.5; Type: MLX; Quant: 4; Spec Dec (B): {spec}; Spec Quant: 4")
GPU_BENCH = ("llama.cpp on LLaMA 3, average speed in tokens/s (TG = text generation, PP = prompt "
             "processing), GPU-Benchmarks-on-LLM-Inference / LLaMA 3: / NVIDIA Gaming GPUs, {test}, "
             "{card}, 8B F16: {figure} tokens/s")
OVERVIEW = ("llama.cpp on LLaMA 3, average speed in tokens/s (TG = text generation, PP = prompt "
            "processing), GPU-Benchmarks-on-LLM-Inference / Overview (Average 1024 tokens prompt eval "
            "speed (tokens/s) by GPUs on LLaMA 3.), 8B Q4_K_M, 3070 8GB: 2283.62 tokens/s")
EXLLAMA = ("ExLlamaV2 / Performance (Some quick tests to compare performance with ExLlama V1.), "
           "{card}, {family}, GPTQ, {size}: {figure} t/s")


def claim(text: str, ref: Reference) -> Claim:
    return parse_text(RawDocument.from_text(text), ref).claim


def verdict(text: str, ref: Reference) -> str:
    reading = read_document(RawDocument.from_text(text), ref)
    return audit(build_evidence([reading], ref), ref).verdict


# ---- llama-bench ----------------------------------------------------------------------------

def test_llama_bench_tg_row_is_plain_decode_with_the_files_own_size(ref: Reference) -> None:
    c = claim(LLAMA_BENCH_TG, ref)
    assert (c.tok_s, c.tok_s_kind, c.batch, c.speculative) == (18.1, "decode", 1, False)
    assert (c.params_total_b, c.model_size_bytes) == (672.05, 307.20 * 2**30)
    assert (c.gpu_layers, c.tokens_generated, c.weight_format) == (63, 512, "Q8_0")
    assert (c.hardware, c.hardware_count) == ("RTX 3090", 16)
    assert c.provenance["tok_s"].span == "t/s: 18.10 ± 0.00"
    assert c.provenance["speculative"].span == "llama-bench row: the tool has no speculative decoding"


def test_llama_bench_pp_row_is_prefill(ref: Reference) -> None:
    c = claim(LLAMA_BENCH_PP, ref)
    assert (c.tok_s, c.tok_s_kind, c.speculative) == (256.9, "prefill", None)


def test_llama_bench_tg_row_times_ten_is_implausible(ref: Reference) -> None:
    """Plain decode above the ceiling is a stop: 181 tok/s of 307 GiB on 16 RTX 3090s."""
    assert verdict(LLAMA_BENCH_TG.replace("18.10", "1810.0"), ref) == "implausible"


@pytest.mark.parametrize("text", [
    (FIXTURES / "llama_bench_table.md").read_text(encoding="utf-8"),
    (FIXTURES / "llama_bench_table.md").read_text(encoding="utf-8").replace("```\n", ""),
], ids=["in a code block", "bare"])
def test_pasted_llama_bench_markdown_table_reads_its_tg_row(text: str, ref: Reference) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind, c.speculative, c.tokens_generated) == (127.45, "decode", False, 128)
    assert (c.model, c.weight_format, c.params_total_b) == ("Llama 3.1 8B", "Q4_K_M", 8.03)
    assert (c.model_size_bytes, c.gpu_layers, c.hardware) == (4.58 * 2**30, 99, "RTX 4090")


def test_a_table_in_a_tools_shape_only(ref: Reference) -> None:
    """An essay's comparison table is the prose readers' to weigh (baselines, controls)."""
    text = ("Claimed 2103.6 tok/s on one RTX 5090.\n\n| Window | AL | tok/s |\n|---|---|---|\n"
            "| 512 | 231 | 4691 |\n")
    assert claim(text, ref).tok_s == 2103.6


# ---- sweep-bench and batched-bench ----------------------------------------------------------

def test_sweep_bench_row_reads_s_tg_as_decode(ref: Reference) -> None:
    c = claim(SWEEP, ref)
    assert (c.tok_s, c.tok_s_kind, c.batch, c.speculative) == (24.16, "decode", 1, False)
    assert (c.tokens_generated, c.wall_seconds) == (128, 5.299)
    assert c.provenance["tok_s"].field == "S_TG t/s"


def test_batched_bench_row_counts_every_sequence(ref: Reference) -> None:
    """S_TG = B × TG / T_TG: 2 × 128 ÷ 92.578 s = 2.77 tok/s over two sequences."""
    c = claim(BATCHED, ref)
    assert (c.tok_s, c.tok_s_kind, c.batch) == (2.77, "aggregate", 2)
    assert (c.tokens_generated, c.wall_seconds) == (256, 92.578)


# ---- headers and headings name the figure ---------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("rig A: prompt eval t/s: 300; eval t/s: 40", (40.0, "decode")),
    ("rig A: pp t/s: 300; tg t/s: 40", (40.0, "decode")),
    ("rig A: model: x; prefill tok/s: 900", (900.0, "prefill")),
    ("rig A: Speed (T/s): 36; Model: qwen 2.5", (36.0, None)),
    # a serving run's "Output tok/s" sums every request's output (docs.vultr.com MI325X stress
    # tests: "Concurrency: 500; Throughput: 15,944 tok/s; Output tok/s: 3,673"), not one request's
    ("8x MI325X, Llama 3.1 405B: Concurrency: 500; Output tok/s: 3,673", (3673.0, "output")),
    # the rate's own noun first: "with a prompt of N tokens" is the cell
    ("rig A: model: x; generation t/s at prompt 1024: 36", (36.0, "decode")),
    ("rig A: model: x; prompt eval t/s before gen 128: 300", (300.0, "prefill")),
], ids=["prompt eval vs eval", "pp vs tg", "prefill alone", "no kind word", "output of a serving run",
        "generation with a prompt's length", "prompt eval first"])
def test_header_words_say_which_rate(text: str, want: tuple[float, str | None], ref: Reference) -> None:
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind) == want


def test_a_caption_naming_prompt_eval_makes_the_figure_prefill(ref: Reference) -> None:
    """The legend "TG = text generation, PP = prompt processing" names both and decides nothing."""
    c = claim(OVERVIEW, ref)
    assert (c.tok_s, c.tok_s_kind) == (2283.62, "prefill")
    # Compute-bound: never judged as decode, but against the compute roof (RTX 3070: Q4_K_M is
    # weight-only, so its INT8 162.6 TOPS dense, recalled; 2283.62 × 2 × 8.03e9 = 36.7 TFLOPS, 0.23).
    reading = read_document(RawDocument.from_text(OVERVIEW), ref)
    q7 = audit(build_evidence([reading], ref), ref).question("roofline")
    assert (q7.status, q7.figures["compute_roof"]) == ("ok", 1.0)
    assert q7.figures["ratio"] == pytest.approx(2283.62 * 2 * 8.03e9 / 162.6e12, rel=1e-9)
    assert verdict(OVERVIEW, ref) == "consistent"


@pytest.mark.parametrize(("spec", "want"), [("1.5", True), ("-", False)])
def test_size_in_billions_and_a_drafter_column(spec: str, want: bool, ref: Reference) -> None:
    c = claim(M4MAX.format(spec=spec), ref)
    assert (c.params_total_b, c.speculative, c.model, c.hardware) == (14.0, want, "Qwen2.5 14B", "Apple M4 Max")


# ---- a family word with a size is that family's model -----------------------------------------

@pytest.mark.parametrize(("family", "size", "model"), [
    ("Llama", "7B", "Llama 2 7B"),
    ("Llama2", "13B", "Llama 2 13B"),
])
def test_family_word_and_row_size_name_the_model(family: str, size: str, model: str,
                                                 ref: Reference) -> None:
    c = claim(EXLLAMA.format(card="3090Ti", family=family, size=size, figure="181"), ref)
    assert (c.model, c.hardware) == (model, "RTX 3090 Ti")


@pytest.mark.parametrize(("figure", "want"), [("181", "consistent"), ("1810", "suspicious")])
def test_a_dense_family_row_is_judged(figure: str, want: str, ref: Reference) -> None:
    """Known dense: x10 is caught instead of "could be a MoE"."""
    assert verdict(EXLLAMA.format(card="3090Ti", family="Llama", size="7B", figure=figure), ref) == want


def test_an_unknown_name_is_not_given_a_family(ref: Reference) -> None:
    assert claim(EXLLAMA.format(card="3090Ti", family="Lodestar", size="12B", figure="50"), ref).model is None


def test_llama_cpp_is_a_program_not_the_family(ref: Reference) -> None:
    c = claim("llama.cpp on my RTX 4090, 7B Q4_0: 150 tok/s", ref)
    assert c.model is None and c.params_total_b == 7.0


@pytest.mark.parametrize(("test", "card", "figure", "want"), [
    ("tg 512", "3090 24GB * 2", "43.61", ("decode", "RTX 3090", 2, "Llama 3 8B")),
    ("pp 1024", "4090 24GB * 8", "11818.92", ("prefill", "RTX 4090", 8, "Llama 3 8B")),
])
def test_gpu_benchmarks_rows(test: str, card: str, figure: str, want: tuple[object, ...],
                             ref: Reference) -> None:
    c = claim(GPU_BENCH.format(test=test, card=card, figure=figure), ref)
    assert (c.tok_s_kind, c.hardware, c.hardware_count, c.model) == want


# ---- names as rows write them -----------------------------------------------------------------

@pytest.mark.parametrize(("text", "name"), [
    ("on a Ryzen-7950X CPU", "Ryzen 9 7950X"),
    ("Ryzen 5800X3D box", "Ryzen 7 5800X3D"),
    ("a Ryzen 3600", "Ryzen 5 3600"),
    ("I also have an M2-Max laptop", "Apple M2 Max"),
    ("backend: M2-Max CPU", "Apple M2 Max"),
    ("RTX 4090 laptop", "RTX 4090 Laptop"),
    ("AMD RX 6500 XT1", "RX 6500 XT"),  # a README footnote mark glued on
    ("AMD RX 76001", "RX 7600"),
    ("AMD Pro W77001", "Radeon PRO W7700"),
    ("Pi 400 - 4GB", "Raspberry Pi 400"),
    ("Raspberry Pi CM5 Cluster", "Raspberry Pi CM5"),
    ("AmpereOne A192-32X (512GB)", "AmpereOne A192-32X"),
])
def test_names_in_rows(text: str, name: str, ref: Reference) -> None:
    assert [n.name for n in find_gpus(text, ref)] == [name]


@pytest.mark.parametrize(("cells", "want"), [
    ("Size (B): 30 - A3; Speed (T/s): 93; Model: qwen 3; Type: MLX; Quant: 4",
     (30.0, 3.0, True, "MLX 4-bit")),
    ("Size (B): 12; Speed (T/s): 45; Model: wayfarer; Type: MLX; Quant: 6",
     (12.0, None, None, "MLX 6-bit")),
    ("Size (B): 12; Speed (T/s): 35; Model: wayfarer; Type: GUFF; Quant: Q6_K",
     (12.0, None, None, "Q6_K")),
], ids=["MoE total and active", "MLX bits", "GGUF quant"])
def test_size_and_quant_columns(cells: str, want: tuple[object, ...], ref: Reference) -> None:
    c = claim(f"Inference Benchmarks (Apple M4 Max 48GB using LM Studio): {cells}", ref)
    assert (c.params_total_b, c.params_active_b, c.is_moe, c.weight_format) == want


def test_a_name_without_a_size_takes_the_rows_size(ref: Reference) -> None:
    """"qwen 2.5 coder" with "Size (B): 32" is the Qwen2.5 Coder 32B row (dense)."""
    c = claim("M4 Max: Size (B): 32; Speed (T/s): 22; Model: qwen 2.5 coder; Type: MLX; Quant: 4", ref)
    assert (c.model, c.params_total_b) == ("Qwen2.5 32B", 32.0)


OLLAMA = ("ollama-benchmark (Ollama), ollama-benchmark / Findings / Llama 3.2:3b: System: {system}; "
          "CPU/GPU: GPU; Eval Rate: {figure} Tokens/s; Power (Peak): 145 W")


@pytest.mark.parametrize(("system", "hardware"), [
    ("Pi 5 - 8GB (AMD Pro W77001)", "Radeon PRO W7700"),
    ("Pi 5 - 8GB (AMD RX 76001)", "RX 7600"),
    ("Ryzen 9 7950X (Nvidia 4080)", "RTX 4080"),
    ("Pi 5 - 8GB (AMD Mystery 9000)", None),  # the host is never taken for the card it hosts
])
def test_the_card_in_brackets_after_a_machine_is_the_device(system: str, hardware: str | None,
                                                           ref: Reference) -> None:
    assert claim(OLLAMA.format(system=system, figure="56.14"), ref).hardware == hardware


def test_a_chips_gpu_cores_are_no_card_count(ref: Reference) -> None:
    c = claim(OLLAMA.format(system="M1 Ultra (48 GPU Core) 64GB", figure="108.67"), ref)
    assert (c.hardware, c.hardware_count) == ("Apple M1 Ultra", None)


# ---- llama-bench's older test names and its prompt+generation test ---------------------------

_OLD_LLAMA_BENCH = """Radeon RX 6700 XT, ROCm 6.0.
| model                          |       size |     params | backend    | ngl | test       |              t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | ---------- | ---------------: |
| llama 7B Q4_0                  |   3.83 GiB |     7.24 B | ROCm       |  99 | pp 512     |   1017.28 ± 5.60 |
| llama 7B Q4_0                  |   3.83 GiB |     7.24 B | ROCm       |  99 | tg 128     |     79.12 ± 0.20 |
"""


def test_llama_bench_test_names_with_a_space_are_its_tests(ref: Reference) -> None:
    # builds before mid-2024 printed "pp 512" / "tg 128" (a table in llama.cpp discussion #3847's
    # shape): the prompt row had been the claim, judged against the decode ceiling (`suspicious`)
    c = claim(_OLD_LLAMA_BENCH, ref)
    assert (c.tok_s, c.tok_s_kind, c.tokens_generated) == (79.12, "decode", 128)
    pp_only = _OLD_LLAMA_BENCH.rsplit("\n", 2)[0] + "\n"
    c = claim(pp_only, ref)
    assert (c.tok_s, c.tok_s_kind) == (1017.28, "prefill")
    assert audit(build_evidence([read_document(RawDocument.from_text(pp_only), ref)], ref), ref).verdict != "suspicious"


def test_a_prompt_plus_generation_test_is_a_total_labelled_as_one(ref: Reference) -> None:
    # llama-bench -pg 4096,128 ("pp4096+tg128", geerlingguy/ai-benchmarks issue #23's RX 7900 XT
    # table): prompt and generated tokens over their time together, and the label says so
    text = ("RX 7900 XT, Vulkan\n| model | size | params | backend | ngl | test | t/s |\n| --- | --: | --: | --- "
            "| --: | --: | --: |\n| qwen2 14B Q4_K - Medium | 8.37 GiB | 14.77 B | Vulkan | 99 | pp4096+tg128 | "
            "65.65 ± 0.00 |\n")
    report = audit(build_evidence([read_document(RawDocument.from_text(text), ref)], ref), ref)
    assert report.claim.tok_s_kind == "total"
    tokens = next(a for a in report.findings if a.key == "token_accounting")
    assert tokens.status == "ok" and "labelled so" in tokens.summary
    assert report.verdict == "insufficient"


def test_a_one_dash_rule_under_a_narrow_column_is_still_the_tables_rule(ref: Reference) -> None:
    # llama-bench prints its `fa` column's rule as "-:" (kyuz0/amd-strix-halo-toolboxes@d1a34bee
    # benchmark/results/, its stock logs): the whole table had been refused
    text = ("Strix Halo, llama.cpp:\n\n"
            "| model                          |       size |     params | backend    | ngl | fa |            test |"
            "                  t/s |\n"
            "| ------------------------------ | ---------: | ---------: | ---------- | --: | -: | --------------: |"
            " -------------------: |\n"
            "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | Vulkan     |  99 |  1 |           pp512 |"
            "       1216.56 ± 6.83 |\n"
            "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | Vulkan     |  99 |  1 |           tg128 |"
            "         46.68 ± 0.23 |\n")
    c = claim(text, ref)
    assert (c.tok_s, c.tok_s_kind, c.hardware, c.engine) == (46.68, "decode", "Strix Halo (Ryzen AI Max+ 395)",
                                                             "llama.cpp")


@pytest.mark.parametrize(("text", "batch", "kind", "verdict"), [
    # ggml-org/llama.cpp benches/dgx-spark.md, a batched-bench row as a member retells it: 593.27
    # t/s over 32 sequences is 18.5 each, under one stream's 35.8 (273 GB/s ÷ 7.6 GB of Q8_0)
    ("DGX Spark, Qwen2.5-Coder-7B Q8_0, llama-batched-bench B=32: S_TG 593.27 t/s", 32, "aggregate", "consistent"),
    ("DGX Spark, Qwen2.5-Coder-7B Q8_0, llama-batched-bench -npl 32: 593.27 t/s text generation", 32, "aggregate",
     "consistent"),
    ("DGX Spark, Qwen2.5-Coder-7B Q8_0, llama-batched-bench: S_TG 593.27 t/s", None, "aggregate", "consistent"),
    # ×10 beyond 32 streams' ceiling, and the tool has no draft option
    ("DGX Spark, Qwen2.5-Coder-7B Q8_0, llama-batched-bench B=32: S_TG 5932.7 t/s", 32, "aggregate", "implausible"),
    # llama-bench's b=512 is its n_batch, the prompt's chunk: no stream count
    ("M3 Max 40-core, llama-bench fa=1 b=512: Llama 3.1 8B Q4_K_M tg128 80 tok/s", None, "decode", "consistent"),
])
def test_batched_bench_counts_its_sequences(text: str, batch: int | None, kind: str, verdict: str,
                                            ref: Reference) -> None:
    c = claim(text, ref)
    assert (c.batch, c.tok_s_kind) == (batch, kind)
    report = audit(build_evidence([read_document(RawDocument.from_text(text), ref)], ref), ref)
    assert report.verdict == verdict


def test_a_flags_value_is_no_model_size(ref: Reference) -> None:
    # "fa=1 b=512" had been read as a 1B model (0.5 GB at Q4_K_M), so dots1 at 80 tok/s (or ×10)
    # sat far under an M3 Max's ceiling; the model's size is unknown, and the report says so
    c = claim("M3 Max 40-core, llama.cpp fa=1 b=512: dots1 Q4_K_M decode 80 tok/s", ref)
    assert c.params_total_b is None and c.batch is None


def test_a_markdown_rows_other_cells_are_left_to_the_prose_readers(ref: Reference) -> None:
    # a llamafile README's llama-bench table (Mozilla/Mistral-7B-Instruct-v0.3-llamafile, its
    # README at HF commit 3b8b17a): blanking the t/s cell had blanked the whole row, so the
    # `hardware` column's card was never read ("missing: hardware")
    text = ("| hardware | model\\\\_filename | size | test | t/s |\n"
            "| :--- | :--- | ---: | ---: | ---: |\n"
            "| NVIDIA GeForce RTX 4090 (cuBLAS) | Mistral-7B-Instruct-v0.3.F16 | 13.50 GiB | tg16 | 58.27 |\n")
    c = claim(text, ref)
    assert (c.hardware, c.model, c.tok_s, c.tokens_generated) == ("RTX 4090", "Mistral 7B", 58.27, 16)
    assert verdict(text, ref) == "consistent"


def test_a_prompt_plus_generation_row_after_its_command_is_labelled_by_its_test(ref: Reference) -> None:
    # geerlingguy/ai-benchmarks issue #23 pasted with its llama-bench command and Vulkan banner: the
    # text is a config, not a post, so the total's label is the row's own test name
    text = ("$ ./build/bin/llama-bench -m models/Qwen2.5-14B-Instruct-Q4_K_M.gguf -n 128 -p 512,4096 -pg 4096,128 "
            "-ngl 99 -r 2\nggml_vulkan: 0 = AMD Radeon RX 7900 XT (RADV NAVI31) (radv) | uma: 0 | fp16: 1\n"
            "| model | size | params | backend | ngl | test | t/s |\n| --- | --: | --: | --- | --: | --: | --: |\n"
            "| qwen2 14B Q4_K - Medium | 8.37 GiB | 14.77 B | Vulkan | 99 | pp4096+tg128 | 65.65 ± 0.00 |\n")
    report = audit(build_evidence([read_document(RawDocument.from_text(text), ref)], ref), ref)
    assert report.claim.provenance["tok_s_kind"].span == "test: pp4096+tg128"
    assert report.verdict == "insufficient"
