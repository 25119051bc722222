"""Launch commands and env prefixes: fields, provenance and the draft-window conventions."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Claim
from checks.reference import Reference
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.text import parse_text
from extractors.text.flags import canonical_method
from extractors.text.launch import (
    find_commands,
    parse_launch_command,
    read_launch,
    split_command,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "text"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def prov(claim: Claim, name: str) -> tuple[str | None, str | None]:
    p = claim.provenance[name]
    return p.field, p.span


# ---- SGLang -----------------------------------------------------------------------------------

def test_sglang_fixture_fields_and_provenance(ref: Reference) -> None:
    c = parse_launch_command(read("sglang_launch.sh"), ref)
    assert c.engine == "sglang"
    assert c.model == "nvidia/Qwen3.6-27B-NVFP4"
    assert c.weight_format == "modelopt_fp4"  # raw string; the checks resolve it by alias
    assert c.kv_dtype == "fp8_e4m3"
    assert c.hardware_count == 1
    assert c.context_length == 32768
    assert c.speculative is True
    assert c.spec_method == "DFlash"
    assert c.drafter_model == "z-lab/Qwen3.6-27B-DFlash"
    assert c.prefix_caching is False
    assert prov(c, "model") == ("--model-path", "--model-path nvidia/Qwen3.6-27B-NVFP4")
    assert prov(c, "spec_method") == ("--speculative-algorithm", "--speculative-algorithm DFLASH")
    assert prov(c, "prefix_caching") == ("--disable-radix-cache", "--disable-radix-cache")
    assert prov(c, "hardware_count") == ("--tp", "--tp 1")


def test_sglang_block_size_56_is_window_56(ref: Reference) -> None:
    c = parse_launch_command(read("sglang_launch.sh"), ref)
    assert c.spec_window == 56
    assert c.spec_window_convention == (
        "DFlash block size (--speculative-dflash-block-size 56) = window 56")
    assert prov(c, "spec_window") == ("--speculative-dflash-block-size",
                                      "--speculative-dflash-block-size 56")


def test_sglang_env_prefixes_and_export_land_in_env(ref: Reference) -> None:
    c = parse_launch_command(read("sglang_launch.sh"), ref)
    assert c.env == {
        "SGLANG_ENABLE_SPEC_V2": "1",
        "SGLANG_ENABLE_DFLASH_SPEC_V2": "1",
        "CUDA_VISIBLE_DEVICES": "0",
        "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN": "1",
    }
    assert c.provenance["env"].field == "env"
    assert c.launch_command is not None
    assert c.launch_command.startswith("SGLANG_ENABLE_SPEC_V2=1 SGLANG_ENABLE_DFLASH_SPEC_V2=1")
    assert "--speculative-dflash-block-size 56" in c.launch_command


def test_sglang_num_draft_tokens_56_is_window_56(ref: Reference) -> None:
    c = parse_launch_command("python -m sglang.launch_server --model-path m --speculative-"
                             "algorithm EAGLE3 --speculative-num-draft-tokens 56", ref)
    assert c.spec_window == 56
    assert c.spec_window_convention == "SGLang --speculative-num-draft-tokens 56 = window 56"
    assert c.spec_method == "EAGLE-3"


def test_dflash_block_size_wins_over_draft_tokens_and_the_difference_is_noted(
        ref: Reference) -> None:
    c = parse_launch_command("python3 -m sglang.launch_server --model-path m "
                             "--speculative-algorithm DFLASH --speculative-num-draft-tokens 16 "
                             "--speculative-dflash-block-size 56", ref)
    assert c.spec_window == 56
    assert c.spec_window_convention is not None
    assert "--speculative-num-draft-tokens 16 differs, block size kept" in (
        c.spec_window_convention)


def test_sglang_topk_one_without_draft_tokens_is_steps_plus_one(ref: Reference) -> None:
    c = parse_launch_command("python -m sglang.launch_server --model-path m "
                             "--speculative-algorithm EAGLE --speculative-num-steps 3 "
                             "--speculative-eagle-topk 1", ref)
    assert (c.spec_window, c.draft_steps, c.draft_topk) == (4, 3, 1)
    assert c.spec_window_convention is not None and "steps" in c.spec_window_convention


@pytest.mark.parametrize(("flags", "window"), [
    ("--speculative-num-steps 3 --speculative-eagle-topk 4", 4),
    # the SGLang docs' own EAGLE command: 32 draft tokens are the tree's nodes over 8 branches;
    # one pass accepts a path of at most 5 + 1 (read as window 32, an honest 373 tok/s had been
    # 3.6× the largest published window, `suspicious`)
    ("--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32", 6),
    ("--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4", 4),
])
def test_an_eagle_trees_window_is_its_depth_plus_one(ref: Reference, flags: str, window: int) -> None:
    c = parse_launch_command(f"python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE {flags}", ref)
    assert c.spec_window == window
    assert c.draft_steps == window - 1


def test_lossy_threshold_keeps_the_lower_of_single_and_acc(ref: Reference) -> None:
    c = parse_launch_command("python -m sglang.launch_server --model-path m "
                             "--speculative-accept-threshold-single 1.0 "
                             "--speculative-accept-threshold-acc 0.3", ref)
    assert c.accept_threshold == 0.3
    assert prov(c, "accept_threshold") == ("--speculative-accept-threshold-acc",
                                           "--speculative-accept-threshold-acc 0.3")


def test_underscore_and_equals_spellings_are_folded(ref: Reference) -> None:
    c = parse_launch_command("python -m sglang.launch_server --model_path=m --tp_size=4 "
                             "--speculative_num_draft_tokens=8", ref)
    assert (c.model, c.hardware_count, c.spec_window) == ("m", 4, 8)
    assert c.provenance["hardware_count"].field == "--tp_size"


def test_sglang_serve_spelling_is_recognised(ref: Reference) -> None:
    c = parse_launch_command("sglang serve --model-path Qwen/Qwen3-8B --tp 2", ref)
    assert (c.engine, c.model, c.hardware_count) == ("sglang", "Qwen/Qwen3-8B", 2)


# ---- vLLM -------------------------------------------------------------------------------------

def test_vllm_fixture_num_speculative_tokens_15_is_window_16(ref: Reference) -> None:
    c = parse_launch_command(read("vllm_serve.sh"), ref)
    assert c.engine == "vllm"
    assert c.model == "Qwen/Qwen3.5-27B"
    assert c.spec_method == "DFlash"
    assert c.drafter_model == "z-lab/Qwen3.5-27B-DFlash"
    assert c.spec_window == 16
    assert c.spec_window_convention == "vLLM num_speculative_tokens 15 + 1 = window 16"
    assert prov(c, "spec_window") == ("--speculative-config.num_speculative_tokens",
                                      '"num_speculative_tokens": 15')
    assert prov(c, "spec_method") == ("--speculative-config.method", '"method": "dflash"')
    assert prov(c, "model") == ("vllm serve MODEL", "vllm serve Qwen/Qwen3.5-27B")
    assert (c.hardware_count, c.context_length, c.kv_dtype) == (1, 32768, "fp8")
    assert c.prefix_caching is False
    assert c.env == {"VLLM_USE_V1": "1"}


def test_vllm_enable_prefix_caching_is_true(ref: Reference) -> None:
    c = parse_launch_command("vllm serve m --enable-prefix-caching", ref)
    assert c.prefix_caching is True


def test_vllm_python_dict_spelling_of_speculative_config(ref: Reference) -> None:
    c = parse_launch_command("""vllm serve m --speculative-config "{'method': 'eagle3', """
                             """'model': 'd', 'num_speculative_tokens': 3}" """, ref)
    assert (c.spec_method, c.drafter_model, c.spec_window) == ("EAGLE-3", "d", 4)


def test_vllm_dotted_speculative_config_flags(ref: Reference) -> None:
    c = parse_launch_command("vllm serve m --speculative-config.method mtp "
                             "--speculative-config.num_speculative_tokens 2", ref)
    assert (c.spec_method, c.spec_window) == ("MTP", 3)


def test_vllm_older_speculative_model_flags(ref: Reference) -> None:
    c = parse_launch_command("python -m vllm.entrypoints.openai.api_server --model big "
                             "--speculative-model small --num-speculative-tokens 5 -tp 2", ref)
    assert (c.engine, c.model, c.drafter_model) == ("vllm", "big", "small")
    assert (c.spec_window, c.hardware_count) == (6, 2)
    assert c.spec_window_convention == "vLLM --num-speculative-tokens 5 + 1 = window 6"


def test_vllm_bad_json_still_marks_speculative_and_warns(ref: Reference) -> None:
    b = ClaimBuilder("text")
    reading = read_launch("vllm serve m --speculative-config '{bad json", b, ref)
    c = b.build()
    assert c.speculative is True and c.spec_window is None
    assert any("not readable JSON" in w for w in reading.warnings)
    assert any("unbalanced quotes" in w for w in reading.warnings)


def test_synthetic_rejection_sampler_stays_in_the_raw_command(ref: Reference) -> None:
    cmd = ("vllm serve m --speculative-config '{\"method\": \"eagle3\", \"model\": \"d\", "
           "\"num_speculative_tokens\": 3, \"rejection_sample_method\": \"synthetic\", "
           "\"synthetic_acceptance_length\": 3.5}'")
    c = parse_launch_command(cmd, ref)
    assert c.launch_command is not None and "synthetic_acceptance_length" in c.launch_command
    assert c.acceptance_length is None  # configured, not measured


# ---- llama.cpp, TensorRT-LLM, ATOM ------------------------------------------------------------

def test_llama_server_fixture_draft_max_7_is_window_8(ref: Reference) -> None:
    c = parse_launch_command(read("llama_server.sh"), ref)
    assert c.engine == "llama.cpp"
    assert c.spec_window == 8
    assert c.spec_window_convention == "llama.cpp --draft-max 7 + 1 = window 8"
    assert c.drafter_model == "models/Qwen3.6-27B-DFlash-Q5_K_M.gguf"
    assert prov(c, "drafter_model") == ("-md", "-md models/Qwen3.6-27B-DFlash-Q5_K_M.gguf")
    assert c.spec_method == "DFlash"
    assert c.provenance["spec_method"].field == "-md (file name)"
    assert (c.kv_dtype, c.context_length) == ("q8_0", 32768)
    assert c.weight_format == "UD-Q4_K_XL"
    assert c.provenance["weight_format"].field == "-m (file name)"


def test_llama_draft_spelling_and_plain_drafter(ref: Reference) -> None:
    c = parse_launch_command("llama-server -m big.gguf -md small.gguf --draft 15", ref)
    assert (c.spec_window, c.spec_method, c.speculative) == (16, None, True)


def test_llama_bench_sets_engine_and_command(ref: Reference) -> None:
    c = parse_launch_command("./llama-bench -m qwen2-7b-Q4_K_M.gguf -p 512 -n 128", ref)
    assert (c.engine, c.model, c.weight_format) == ("llama.cpp", "qwen2-7b-Q4_K_M.gguf", "Q4_K_M")
    assert c.launch_command == "./llama-bench -m qwen2-7b-Q4_K_M.gguf -p 512 -n 128"


def test_trtllm_serve_positional_model_and_tp(ref: Reference) -> None:
    c = parse_launch_command("TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS=3 trtllm-serve "
                             "nvidia/Llama-3.3-70B-FP8 --tp_size 4 --max_seq_len 8192", ref)
    assert (c.engine, c.model, c.hardware_count) == ("tensorrt-llm", "nvidia/Llama-3.3-70B-FP8", 4)
    assert c.context_length == 8192
    assert c.env == {"TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS": "3"}


def test_atom_num_speculative_tokens_is_window_plus_one(ref: Reference) -> None:
    c = parse_launch_command("python3 -u -m atom.entrypoints.openai_server --model ds "
                             "--method mtp --num-speculative-tokens 3 "
                             "--spec-decode-acceptance-length 2.49", ref)
    assert (c.engine, c.spec_method, c.spec_window) == ("atom", "MTP", 4)
    assert c.spec_window_convention == "ATOM --num-speculative-tokens 3 + 1 = window 4"
    assert c.acceptance_length is None
    assert c.launch_command is not None and "--spec-decode-acceptance-length 2.49" in (
        c.launch_command)


# ---- finding commands in posts ----------------------------------------------------------------

def test_command_in_inline_backticks_inside_prose(ref: Reference) -> None:
    text = "I ran `vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2` and got 300 tok/s."
    (cmd,) = find_commands(text)
    assert cmd.raw == "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2"
    assert text[cmd.start:cmd.end] == "`vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2`"


def test_command_in_a_markdown_fence_with_a_prompt(ref: Reference) -> None:
    text = "Config:\n```bash\n$ python -m sglang.launch_server --model-path m --tp 2\n```\n"
    reading = parse_text(RawDocument.from_text(text), ref)
    assert reading.claim.launch_command == "python -m sglang.launch_server --model-path m --tp 2"
    assert reading.claim.hardware_count == 2
    assert reading.kind == "config"


def test_docker_run_env_and_image(ref: Reference) -> None:
    c = parse_launch_command("docker run --gpus all -e SGLANG_SIMULATE_ACC_LEN=56 "
                             "lmsysorg/sglang:v0.5.4 python3 -m sglang.launch_server "
                             "--model-path m", ref)
    assert c.env == {"SGLANG_SIMULATE_ACC_LEN": "56"}
    assert c.container_image == "lmsysorg/sglang:v0.5.4"


def test_servers_are_read_before_benchmark_clients(ref: Reference) -> None:
    text = ("python -m sglang.bench_serving --model client-model --max-concurrency 8\n"
            "python -m sglang.launch_server --model-path server-model\n")
    c = parse_launch_command(text, ref)
    assert c.model == "server-model"
    assert c.concurrency == 8
    assert c.launch_command == "python -m sglang.launch_server --model-path server-model"


def test_shell_redirections_and_comments_end_the_arguments(ref: Reference) -> None:
    c = parse_launch_command("vllm serve m --max-model-len 4096 2>&1 | tee log.txt # note", ref)
    assert c.context_length == 4096


def test_prose_without_a_program_is_not_a_command() -> None:
    assert find_commands("We serve vllm users daily; python is great.") == []


# ---- helpers ----------------------------------------------------------------------------------

def test_split_command_falls_back_on_unbalanced_quotes() -> None:
    assert split_command("a 'b c") == (["a", "b c"], True)
    assert split_command('a "b c d') == (["a", "b c d"], True)
    assert split_command("a b # comment") == (["a", "b"], False)


@pytest.mark.parametrize(("raw", "name"), [
    ("DFLASH", "DFlash"), ("dflash", "DFlash"), ("EAGLE3", "EAGLE-3"), ("eagle", "EAGLE"),
    ("NEXTN", "MTP"), ("deepseek_mtp", "MTP"), ("ngram", "n-gram"), ("STANDALONE", "draft model"),
    ("something_new", "something_new"),
])
def test_builtin_method_names_without_a_reference(raw: str, name: str) -> None:
    assert canonical_method(raw, None) == name


@pytest.mark.parametrize("raw", ["DFLASH", "EAGLE3", "NEXTN", "STANDALONE", "ngram"])
def test_reference_row_name_wins_when_the_table_knows_the_method(ref: Reference,
                                                                raw: str) -> None:
    row = ref.method(raw) or ref.method(canonical_method(raw, None))
    expected = row.name if row else canonical_method(raw, None)
    assert canonical_method(raw, ref) == expected


@pytest.mark.parametrize("text", [
    "ik_llama.cpp, Benchmarking / llama-bench (rig named in the post: RTX A6000 48GB VRAM.): model: DS-R1 671B "
    "unsloth UD-Q2_K_XL; size: 211.03 GiB; test: tg128; t/s: 13.13 ± 0.07",
    "llama-bench: model: DS-R1 671B unsloth UD-Q2_K_XL; test: tg128; t/s: 13.13 ± 0.07",
])
def test_a_tool_named_as_a_label_is_no_command_and_its_row_is_read(text: str) -> None:
    from checks.reference import load_reference
    from extractors.evidence import build_evidence, read_document
    from extractors.inputs import InputSpec, read_local

    ref = load_reference()
    c = build_evidence([read_document(read_local(InputSpec("text", text)), ref)], ref).claim
    assert (c.tok_s, c.tok_s_kind, c.model) == (13.13, "decode", "DeepSeek V3")


def test_a_tool_named_mid_sentence_leaves_the_sentence_to_the_other_readers(ref: Reference) -> None:
    # The words before "llama-bench" were taken as its command and blanked from the readers of
    # the model and the format, so the claim below was `insufficient` for want of a model size.
    c = parse_text(RawDocument.from_text(
        "Llama 3.3 70B Q4_K_M with llama-bench on an RTX 4090: 400 t/s"), ref).claim
    assert (c.model, c.weight_format, c.hardware, c.launch_command) == (
        "Llama 3.1 70B", "Q4_K_M", "RTX 4090", "llama-bench")


@pytest.mark.parametrize("text", [
    "Llama 3.3 70B Q4_K_M with llama-bench on an RTX 4090: 400 t/s",
    "llama-bench says 158 t/s on my 3090 for Llama 3 8B Q4_K_M",
])
def test_a_tool_that_cannot_speculate_measures_plain_decode(ref: Reference, text: str) -> None:
    # ggml-org/llama.cpp tools/llama-bench has no draft-model option (checks/engines.py)
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert c.speculative is False
    assert c.provenance["speculative"].field == "llama-bench"


@pytest.mark.parametrize(("text", "tok_s"), [
    ("RTX 4090: 150 tok/s llama-bench", 150.0),
    ("Llama 3 8B Q4_K_M on an RTX 4090 at 127 tok/s with llama-bench", 127.0),
])
def test_a_tool_that_ends_the_sentence_is_named_in_prose(ref: Reference, text: str, tok_s: float) -> None:
    # The line was taken whole as llama-bench's command and blanked from the free-text reader,
    # so the claim was refused as "no speed claim found".
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.hardware, c.launch_command, c.speculative) == ("RTX 4090", "llama-bench", False)
    assert c.tok_s == tok_s


def test_an_env_prefix_before_a_bare_program_is_still_its_command(ref: Reference) -> None:
    c = parse_text(RawDocument.from_text("CUDA_VISIBLE_DEVICES=0 llama-bench"), ref).claim
    assert c.launch_command == "CUDA_VISIBLE_DEVICES=0 llama-bench"


@pytest.mark.parametrize(("text", "command", "hardware", "tok_s"), [
    # the sentence goes on after the command's options: the card and the figure are the post's
    ("llama-server -np 8 on a 4090, Llama 3 8B Q4: 600 t/s", "llama-server -np 8", "RTX 4090", 600.0),
    ("llama-server -m llama-3-8b.Q4_K_M.gguf -ngl 99 on my 3090 gets 110 t/s",
     "llama-server -m llama-3-8b.Q4_K_M.gguf -ngl 99", "RTX 3090", 110.0),
    ("vllm serve meta-llama/Llama-3.1-8B --max-num-seqs 64 on one H100 gives 9000 tok/s total",
     "vllm serve meta-llama/Llama-3.1-8B --max-num-seqs 64", "H100 SXM", 9000.0),
])
def test_a_command_ends_where_its_sentence_goes_on(ref: Reference, text: str, command: str, hardware: str,
                                                   tok_s: float) -> None:
    # before, the whole line was the command and its "600 t/s" an argument: no speed claim found
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.launch_command, c.hardware, c.tok_s) == (command, hardware, tok_s)


def test_a_quoted_prompt_that_reads_like_prose_stays_in_its_command(ref: Reference) -> None:
    text = 'llama-cli -m llama-3-8b.Q4_K_M.gguf -p "run on a Pi at 5 t/s" -n 128'
    cmd = find_commands(text)
    assert len(cmd) == 1 and cmd[0].end == len(text)


@pytest.mark.parametrize("text", [
    # "on localhost", "with another": lower-case words with no determiner are no sentence going on
    "vllm serve meta-llama/Llama-3.1-8B --served-model-name on localhost --tp 2: 9000 tok/s",
    "llama-server -m m.gguf --alias with another --port 8080: 90 t/s",
])
def test_an_option_value_that_reads_like_a_word_does_not_end_the_command(text: str) -> None:
    (cmd,) = find_commands(text)
    assert cmd.end == len(text)


@pytest.mark.parametrize(("command", "fmt"), [
    # the SGLang docs' EAGLE command loads Llama-2-7b-chat-hf in float16: 13.5 GB, not an assumed 4 bits
    ("python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf --dtype float16", "FP16"),
    ("vllm serve meta-llama/Llama-3.1-8B-Instruct --dtype bfloat16", "BF16"),
    ("vllm serve --dtype float32 --model facebook/opt-125m", "FP32"),
    # a checkpoint quantised ahead keeps its own format, whatever --dtype says
    ("vllm serve TheBloke/Llama-2-7B-AWQ --dtype float16", None),
    ("vllm serve neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8 --dtype auto", None),
    ("vllm serve m --quantization fp8 --dtype bfloat16", "fp8"),
])
def test_dtype_is_the_unquantised_weights_format(ref: Reference, command: str, fmt: str | None) -> None:
    assert parse_launch_command(command, ref).weight_format == fmt
