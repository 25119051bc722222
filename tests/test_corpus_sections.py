"""A post that says which of its sections ran on which machine, and a table whose model column
writes only a size: each table's rows carry the one machine and the one model their post names
for them (extractors/post_rig.py `labelled_rig`, benchmarks/corpus/build.py `_unnamed_models`).

The snippets keep the shape of ikawrakow/ik_llama.cpp@8337e4cd3861 github-data/discussions/164 -
Latest CPU performance comparison with llama.cpp.md: a bullet list naming the machine of each
section ("`AVX2/Zen4` performance is on a Ryzen-7950X, `ARM` is on `M2-Max`"), the model used in
all cases, then "### AVX2" and "### ARM_NEON" tables whose model cells say "8B BF16" and whose rate
columns are "t/s (llama.cpp)" and "t/s (ik_llama.cpp)".
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.corpus.build import Source, _markdown_tables
from checks.reference import load_reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.evidence import build_evidence, read_document
from extractors.inputs import InputSpec, read_local
from extractors.post_rig import labelled_rig, posts
from extractors.text import parse_text
from tests.corpus_repo import MemoryRepo

REF = load_reference()

_HEADER = ("| model                    |       size | threads |          test |   t/s (llama.cpp)    "
           "| t/s (ik_llama.cpp) |  Speedup |\n"
           "| ------------------------ | ---------: | ------: | ------------: | -------------------: "
           "| -----------------: | -------: |")

_POST = f"""### 🗣️ [#164](https://github.com/ikawrakow/ik_llama.cpp/discussions/164) - Latest CPU performance comparison with llama.cpp

| **Author** | `ikawrakow` |
| :--- | :--- |
| **Created** | 2024-12-24 |

---

#### Description

* Performance is evaluated using the `llama-bench` tool for `PP-512` and `TG-128`
* `AVX2/Zen4` performance is on a Ryzen-7950X, `ARM` is on `M2-Max`
* {{model}} is used in all cases

### AVX2

{_HEADER}
| 8B BF16                  |  14.96 GiB |      16 |         pp512 |         78.58 ± 0.10 |      256.90 ± 0.36 |   3.269  |
| {{size}} BF16                  |  14.96 GiB |       2 |         tg128 |          4.05 ± 0.00 |        4.27 ± 0.00 |   1.054  |

### ARM_NEON

{_HEADER}
| 8B Q8_0                  |   7.95 GiB |       4 |         tg128 |         26.08 ± 0.07 |       27.54 ± 0.06 |   1.056  |

### Prompt processing (prefill) champion

{_HEADER}
| 8B Q8_0                  |   7.95 GiB |      16 |         pp512 |        147.92 ± 0.52 |      268.19 ± 0.19 |   1.813  |
 8B Q8_K_R8               |   7.56 GiB |   8 |         pp512 |    170.68 ± 0.56 |   170.68 ± 0.56 |   1.000  |
"""


def _lines(text: str) -> list[str]:
    src = Source(name="ik", repo="o/r", commit="0" * 40, converter="markdown_tables", paths=["d.md"],
                 licence="MIT", redistribute=True, options={"context": {"*": "ik_llama.cpp"}, "rig_from_post": True})
    repo: Any = MemoryRepo({"d.md": text})
    return [r.text or "" for r in _markdown_tables(repo, src)]


_LLAMA = "LLaMA-3.1-8B-Instruct"
_MODEL = f"(model named in the post: * {_LLAMA} is used in all cases.)"


def test_each_section_carries_the_machine_its_label_names() -> None:
    rows = _lines(_POST.format(model=_LLAMA, size="8B"))
    assert [r.split(": model: ", 1)[0] for r in rows] == [
        f"ik_llama.cpp, AVX2 (rig named in the post: AVX2/Zen4 performance is on a Ryzen-7950X.) {_MODEL}",
        f"ik_llama.cpp, AVX2 (rig named in the post: AVX2/Zen4 performance is on a Ryzen-7950X.) {_MODEL}",
        f"ik_llama.cpp, ARM_NEON (rig named in the post: ARM is on M2-Max.) {_MODEL}",
        # No label is a word of "Prompt processing (prefill) champion": no machine (no guessing).
        f"ik_llama.cpp, Prompt processing (prefill) champion {_MODEL}",
    ]
    # The row whose opening bar is missing is no prose sentence of the post.
    assert all("Q8_K_R8" not in r.split(": model: ", 1)[0] for r in rows)


def test_a_size_the_posts_model_does_not_have_gets_no_model() -> None:
    """A cell writing 70B under a post naming an 8B model: the post's model is not the table's."""
    rows = _lines(_POST.format(model=_LLAMA, size="70B"))
    assert "model named in the post" not in rows[0]
    assert "model named in the post" in rows[2]  # the ARM table's cells are all 8B


@pytest.mark.parametrize(("heading", "want"), [
    ("AVX2", "AVX2/Zen4 performance is on a Ryzen-7950X."),
    ("Zen4 results", "AVX2/Zen4 performance is on a Ryzen-7950X."),
    ("ARM_NEON", "ARM is on M2-Max."),
    ("AVX2 vs ARM", ""),  # two clauses match: which ran where is not said
    ("CPU performance", ""),  # generic words name no section
    ("", ""),
])
def test_labelled_rig_picks_the_one_clause_of_the_heading(heading: str, want: str) -> None:
    prose = posts(_POST.format(model=_LLAMA, size="8B"))[1].rig_text
    assert labelled_rig(prose, heading, REF) == want


@pytest.mark.parametrize(("line", "figure", "kind"), [(0, 78.58, "prefill"), (1, 4.05, "decode")])
def test_a_comparison_of_two_builds_reads_the_test_column(line: int, figure: float, kind: str) -> None:
    """"t/s (llama.cpp)" and "t/s (ik_llama.cpp)" beside llama-bench's test column: the test says
    which rate both are (a pp512 row is never judged against the decode ceiling)."""
    row = _lines(_POST.format(model=_LLAMA, size="8B"))[line]
    c = parse_text(RawDocument.from_text(row), REF).claim
    assert (c.tok_s, c.tok_s_kind, c.hardware, c.model) == (figure, kind, "Ryzen 9 7950X", "Llama 3.1 8B")


@pytest.mark.parametrize(("factor", "verdict", "ratio"), [
    (1, "consistent", 0.51),  # 4.05 tok/s over 128 GB/s (DDR5-8000, two channels) / 16.06 GB = 7.97
    (10, "implausible", 5.08),  # llama-bench cannot speculate: a stop
])
def test_the_zen4_decode_row_is_judged_on_the_ryzen(factor: int, verdict: str, ratio: float) -> None:
    row = _lines(_POST.format(model=_LLAMA, size="8B"))[1].replace("4.05 ± 0.00", f"{4.05 * factor:.2f} ± 0.00")
    r = audit(build_evidence([read_document(read_local(InputSpec("text", row)), REF)], REF), REF)
    assert r.verdict == verdict
    assert r.question("roofline").figures["ratio"] == pytest.approx(ratio, abs=0.01)
