"""A table's rows inherit the rig named in the post around it (extractors/post_rig.py), and the
corpus converter carries it into each row's line (benchmarks/corpus/build.py `rig_from_post`).

The snippets keep the real shape of ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/*.md:
a "#### Description", then "👤 **name** replied the **date** at **time**:<br>" comments, replies
to replies quoted with "> ", llama-bench / sweep-bench tables under the prose.
"""

from __future__ import annotations

import pytest

from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local
from extractors.post_rig import model_sentences, post_rigs, posts, rig_sentences

_TABLE = """| model | size | params | backend | threads | test | t/s |
| --- | ---: | ---: | --- | ---: | ---: | ---: |
| llama 8B Q8_0 | 7.95 GiB | 8.03 B | CPU | 16 | tg128 | {tg} ± 0.01 |"""

DISCUSSION = f"""### 🗣️ [#999](https://github.com/ikawrakow/ik_llama.cpp/discussions/999) - CPU results

| **Author** | `someone` |
| :--- | :--- |
| **Created** | 2025-01-01 |

---

#### Description

Benchmarks are run on a Ryzen-7950X system.  Compared are the latest builds as of this morning.

{_TABLE.format(tg=12.92)}

---

#### 🗣️ Discussion

👤 **alice** replied the **2025-01-10** at **23:34:54**:<br>

I ran the same on my box. My rig: EPYC 9355, 12x DDR5-6400, RTX 5090.

Results, same command:

{_TABLE.format(tg=21.5)}

> 👤 **bob** replied the **2025-01-11** at **10:00:00**:<br>
> Here are mine, on the 3090 first and then on the 4090.
>
{chr(10).join("> " + line for line in _TABLE.format(tg=30.1).splitlines())}

👤 **carol** replied the **2025-01-12** at **09:00:00**:<br>

No hardware here, just a table.

{_TABLE.format(tg=9.9)}
"""


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_a_discussion_splits_into_its_description_and_each_comment() -> None:
    found = posts(DISCUSSION)
    starts = [DISCUSSION.splitlines()[p.first - 1][:20].strip() for p in found]
    assert starts == ["### 🗣️ [#999](https:", "#### Description", "👤 **alice** replied", "> 👤 **bob** replied",
                      "👤 **carol** replied"]


@pytest.mark.parametrize(("figure", "rig"), [
    # The description names one machine.
    ("12.92 ±", "Benchmarks are run on a Ryzen-7950X system."),
    # A comment's rig: a CPU host and one card is one machine, and only alice's words are read.
    ("21.5 ±", "My rig: EPYC 9355, 12x DDR5-6400, RTX 5090."),
    # Two different cards named apart: a comparison, so the rows get none (no guessing).
    ("30.1 ±", ""),
    # A post that names no hardware gives none, not the thread's.
    ("9.9 ±", ""),
])
def test_each_table_inherits_only_its_own_posts_rig(ref: Reference, figure: str, rig: str) -> None:
    assert post_rigs(DISCUSSION, ref)(_line_of(DISCUSSION, figure)) == rig


@pytest.mark.parametrize(("prose", "rig"), [
    ("Gaming rig 9950X + 96GB RAM + 3090TI 24GB VRAM + NVMe.", "Gaming rig 9950X + 96GB RAM + 3090TI 24GB VRAM + NVMe."),
    ("The rig is one RTX 4090 + RTX 3090 Ti.", "The rig is one RTX 4090 + RTX 3090 Ti."),
    ("AVX2 results are on a Ryzen-7950X.\nARM results are on an M2-Max.", ""),  # two machines
    ("I tried an EPYC 9355. Then a Xeon 6980P.", ""),  # two CPUs
    ("On a 3090 I get about 20 t/s.", ""),  # a sentence stating a speed is not the rig's description
    ("CUDA_VISIBLE_DEVICES=0 llama-cli -mla 2 -ngl 0 on the RTX 3090 failed.", ""),  # a pasted command
])
def test_one_machine_or_none(ref: Reference, prose: str, rig: str) -> None:
    assert rig_sentences(prose, ref) == rig


def test_a_row_line_with_its_posts_rig_is_read_on_that_machine(ref: Reference) -> None:
    line = ("ik_llama.cpp, 🗣️ #999 - CPU results / Discussion (rig named in the post: My rig: EPYC 9355, "
            "12x DDR5-6400, RTX 5090.): model: llama 8B Q8_0; size: 7.95 GiB; params: 8.03 B; backend: "
            "CUDA; threads: 16; test: tg128; t/s: 21.5 ± 0.01")
    reading = read_document(read_local(InputSpec("text", line)), ref)
    report = audit(build_evidence([reading], ref), ref)
    assert report.claim.hardware == "RTX 5090"  # the card, the EPYC being its host
    q7 = report.question("roofline")
    assert q7.status == "ok"
    assert q7.figures["ceiling_tok_s"] == pytest.approx(1792 / (7.95 * 2**30 / 1e9), rel=1e-3)


@pytest.mark.parametrize(("prose", "model"), [
    ("I experimented with Qwen3-30B-A3B, the 30B total, 3B active parameter MoE model.",
     "I experimented with Qwen3-30B-A3B, the 30B total, 3B active parameter MoE model."),
    ("First DeepSeek-V3 at IQ2_K_R4. Then Qwen3-235B-A22B on the same box.", ""),  # two models
    ("No model named here.", ""),
])
def test_a_table_without_a_model_column_inherits_the_posts_one_model(ref: Reference, prose: str,
                                                                     model: str) -> None:
    assert model_sentences(prose, ref) == model


# ik_llama.cpp@8337e4cd3861 discussions/357, a comment's shape: the machine listed in a code block
# above the runs, then the logs llama.cpp printed (devices it saw, buffers) and the table.
_SPEC_POST = """👤 **someone** replied the **2025-05-03** at **00:37:46**:<br>

Here are some sweeps for Qwen3-235B-A22B. My homelab has a server with the following allocation:
```
56 threads of a AMD EPYC 9355 (64t total)
512GB of 12 channel DDR5 6000 ECC RAM (768GB total)
2x 24GB Nvidia 3090
```

<details>
<summary>logs</summary>

```
ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes
llm_load_tensors:  CUDA_Host buffer size = 203017.61 MiB
./build/bin/llama-sweep-bench -m Qwen3-235B-A22B-mix-IQ6_K-00001-of-00005.gguf -c 16384 -t 48
```
</details>

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |   32.900 |    15.56 |    8.978 |    14.26 |
"""


def test_a_spec_list_in_a_code_block_is_the_posts_rig_and_a_log_line_is_not() -> None:
    (post,) = posts(_SPEC_POST)
    # The spec list's lines are read; the RTX 4090 llama.cpp says it saw, the buffer sizes and the
    # command are what a program printed or ran, not the post's description of the machine.
    assert post.spec == ("56 threads of a AMD EPYC 9355 (64t total).\n512GB of 12 channel DDR5 6000 ECC RAM "
                         "(768GB total).\n2x 24GB Nvidia 3090.")
    assert "EPYC" not in post.prose  # code blocks stay out of the prose (and its model sentences)


def test_a_spec_list_gives_the_rig_its_table_inherits(ref: Reference) -> None:
    assert post_rigs(_SPEC_POST, ref)(_line_of(_SPEC_POST, "14.26")) == (
        "56 threads of a AMD EPYC 9355 (64t total). 2x 24GB Nvidia 3090.")


@pytest.mark.parametrize(("prose", "rig"), [
    # ik_llama.cpp discussions/385 and /548: the OS's own spelling of the CPU, trademark marks and all.
    ("Here are my SystemInfo\n- CPU: Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz(20c, 40t) x2\n"
     "- RAM: RDIMM DDR4 2666 2Rx4 32G x16(12 Channels total)",
     "- CPU: Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz(20c, 40t) x2."),
    # discussions/164: the machine named before a command pasted inline; the words before the
    # command are the post's, the command (and its bracket) is not read.
    ("I ran some benchmarks on an AVX2 machine (Xeon E5-2683 v4, 32 core, quad channel broadwell) on an "
     "IQ4_XS via batched bench ( with arguments -pps -fa -t 32 -npp 128,256,512 -ntg 128,256 ), build 4404.",
     "I ran some benchmarks on an AVX2 machine (Xeon E5-2683 v4, 32 core, quad channel broadwell) on an "
     "IQ4_XS via batched bench."),
])
def test_cpus_as_written_in_posts(ref: Reference, prose: str, rig: str) -> None:
    assert rig_sentences(prose, ref) == rig


@pytest.mark.parametrize(("text", "name", "row"), [
    ("Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz", "Xeon Gold 6138", "Intel Xeon Scalable gen 1 (Skylake-SP)"),
    ("Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz", "Xeon E5-2697 v2", "Intel Xeon E5 v2 (Ivy Bridge-EP)"),
    ("a Xeon E5-2683 v4, 32 core", "Xeon E5-2683 v4", "Intel Xeon E5 v4 (Broadwell-EP)"),
    ("Xeon E5-2690 box", "Xeon E5-2690", "Intel Xeon E5 (Sandy Bridge-EP)"),
])
def test_xeons_are_found_as_the_os_and_posts_spell_them(ref: Reference, text: str, name: str, row: str) -> None:
    from extractors.text.names import find_gpus

    (found,) = find_gpus(text, ref)
    assert found.name == name
    hw = ref.gpu(found.name)
    assert hw is not None and hw.name == row


# ik_llama.cpp@8337e4cd3861 discussions/477, a comment with no words about its machine: llama.cpp's
# log (the devices ggml_cuda_init saw, the weights' buffers llm_load_tensors printed) and a table.
_LOG_POST = """👤 **someone** replied the **2025-07-10** at **21:20:45**:<br>

Here is a run.

```
ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no
ggml_cuda_init: found 2 CUDA devices:
  Device 0: NVIDIA RTX PRO 6000 Blackwell Workstation Edition, compute capability 12.0, VMM: yes
  Device 1: NVIDIA RTX PRO 6000 Blackwell Workstation Edition, compute capability 12.0, VMM: yes
llm_load_tensors: offloaded 62/62 layers to GPU
llm_load_tensors:        CPU buffer size =   497.11 MiB
llm_load_tensors:      CUDA0 buffer size = {cuda0} MiB
llm_load_tensors:      CUDA1 buffer size = 70014.23 MiB
llama_kv_cache_init:      CUDA0 KV buffer size =   697.50 MiB
```

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|  2048 |    512 |      0 |    1.212 |  1689.73 |    7.067 |    72.45 |
"""


@pytest.mark.parametrize(("cuda0", "cpu", "rig"), [
    # The weights sat on the two cards (the CPU buffer is the input embedding table).
    ("65593.61", "497.11", "llama.cpp's log above the table: 2x NVIDIA RTX PRO 6000 Blackwell Workstation "
                           "Edition hold 135608 MiB of the weights, 497 MiB in system memory."),
    # Most of the weights in system memory (experts kept on the CPU): the host read them, and the
    # log does not name it.
    ("17221.25", "167201.25", ""),
])
def test_a_post_naming_no_machine_gives_the_cards_llamacpp_says_held_the_weights(
        ref: Reference, cuda0: str, cpu: str, rig: str) -> None:
    text = _LOG_POST.replace("{cuda0}", cuda0).replace("497.11", cpu)
    assert post_rigs(text, ref)(_line_of(text, "72.45")) == rig


def test_the_post_words_win_over_its_log(ref: Reference) -> None:
    text = _LOG_POST.replace("{cuda0}", "65593.61").replace("Here is a run.", "My rig: one RTX 5090.")
    assert post_rigs(text, ref)(_line_of(text, "72.45")) == "My rig: one RTX 5090."
