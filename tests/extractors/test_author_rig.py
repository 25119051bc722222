"""A post that names no machine ran on the one its author names elsewhere in the same thread
(extractors/post_rig.py `post_rigs`), when that author names exactly one machine there and the
post says nothing of another.

The shape is ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/357 (Qwen3 - early
performance comparisons): AesSedai's first comment pastes a spec list ("56 threads of a AMD EPYC 9355
(64t total)", "2x 24GB Nvidia 3090"), a later comment of theirs holds sweep-bench tables and no words
about the machine.
"""

from __future__ import annotations

import pytest

from checks.reference import Reference
from extractors.post_rig import post_rigs

_SWEEP = """|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    4.591 |   111.51 |   14.650 |     {tg} |"""

THREAD = f"""### 🗣️ [#357](https://github.com/ikawrakow/ik_llama.cpp/discussions/357) - Qwen3 - early performance comparisons

| **Author** | `ikawrakow` |
| :--- | :--- |
| **Created** | 2025-04-29 |

---

#### Description

Benchmarks are run on a Ryzen-7950X system with an RTX-4080 GPU.

---

#### 🗣️ Discussion

👤 **AesSedai** replied the **2025-05-02** at **04:11:27**:<br>

Here's my results, for the hardware:
```
56 threads of a AMD EPYC 9355 (64t total)
512GB of 12 channel DDR5 6000 ECC RAM (768GB total)
2x 24GB Nvidia 3090
```

👤 **ikawrakow** replied the **2025-05-02** at **05:00:00**:<br>

On my M2-Max it is slower.

👤 **AesSedai** replied the **2025-05-03** at **06:18:41**:<br>

ik_llama.cpp CPU only
{_SWEEP.format(tg="8.74")}

👤 **ikawrakow** replied the **2025-05-03** at **08:00:00**:<br>

Mine:
{_SWEEP.format(tg="25.26")}
"""


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize(("figure", "rig"), [
    # AesSedai names one machine in the thread: their table with no words of a machine ran on it.
    ("8.74 |", "AesSedai's machine, named by them in this thread: 56 threads of a AMD EPYC 9355 (64t total). "
               "2x 24GB Nvidia 3090."),
    # ikawrakow names two machines in the thread (a Ryzen-7950X box, an M2-Max): no guessing which.
    ("25.26 |", ""),
])
def test_a_post_with_no_machine_inherits_its_authors_one_machine(ref: Reference, figure: str, rig: str) -> None:
    assert post_rigs(THREAD, ref)(_line_of(THREAD, figure)) == rig


def test_an_author_who_speaks_of_another_machine_has_no_rig_to_carry(ref: Reference) -> None:
    """'on my other machine': two machines, so none of their unnamed tables is placed on either."""
    other = ("👤 **AesSedai** replied the **2025-05-03** at **07:04:12**:<br>\n\n"
             "The same again on my other machine:\n" + _SWEEP.format(tg="9.01") + "\n\n")
    text = THREAD.replace("👤 **ikawrakow** replied the **2025-05-03**", other + "👤 **ikawrakow** replied the **2025-05-03**")
    at = post_rigs(text, ref)
    assert at(_line_of(text, "8.74 |")) == at(_line_of(text, "9.01 |")) == ""


def test_a_log_listing_another_card_than_the_authors_keeps_the_rows_unnamed(ref: Reference) -> None:
    log = ("ggml_cuda_init: found 1 CUDA devices:\n"
           "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n")
    text = THREAD.replace("ik_llama.cpp CPU only\n", f"ik_llama.cpp CPU only\n```\n{log}```\n")
    assert post_rigs(text, ref)(_line_of(text, "8.74 |")) == ""


def test_the_authors_own_cards_in_the_log_keep_the_rig(ref: Reference) -> None:
    log = ("ggml_cuda_init: found 2 CUDA devices:\n"
           "  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
           "  Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
           "llm_load_tensors:  CUDA_Host buffer size = 203017.61 MiB\n")
    text = THREAD.replace("ik_llama.cpp CPU only\n", f"ik_llama.cpp CPU only\n```\n{log}```\n")
    assert post_rigs(text, ref)(_line_of(text, "8.74 |")).startswith("AesSedai's machine, named by them")


_CPU_THREAD = """#### Description

Some numbers.

👤 **createthis** replied the **2025-03-20** at **10:00:00**:<br>

I have a dual EPYC 9355 system which normally has 768gb of RAM across 24 channels.

👤 **createthis** replied the **2025-03-21** at **10:00:00**:<br>

mla 3
main: n_kv_max = 163840, n_batch = 2048, n_ubatch = 512, flash_attn = 1, n_gpu_layers = {ngl}, n_threads = 32

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    3.677 |   139.23 |   12.996 |     9.85 |
"""


@pytest.mark.parametrize(("ngl", "carried"), [("0", True), ("62", False)])
def test_a_cpu_only_rig_is_carried_only_to_a_run_with_no_card_at_work(ref: Reference, ngl: str,
                                                                      carried: bool) -> None:
    """ik_llama.cpp #258's shape: the author names a dual EPYC 9355 box and no card; a later table
    printed with n_gpu_layers = 62 had a card at work, which streams faster than the host."""
    text = _CPU_THREAD.format(ngl=ngl)
    rig = post_rigs(text, ref)(_line_of(text, "9.85 |"))
    assert rig == ("createthis's machine, named by them in this thread: I have a dual EPYC 9355 system which "
                   "normally has 768gb of RAM across 24 channels." if carried else "")
