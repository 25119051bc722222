"""The corpus converter carries each discussion table's own post's rig (and model, where the
table has no model column) into every row's line: benchmarks/corpus/build.py `rig_from_post`."""

from __future__ import annotations

from typing import Any

from benchmarks.corpus.build import Source, _markdown_tables
from tests.extractors.test_post_rig import DISCUSSION

_SWEEP = """#### Description

I experimented with Qwen3-30B-A3B, the 30B total, 3B active parameter MoE model.
Benchmarks are run on a Ryzen-7950X system with an RTX-4080 GPU.

## CPU+GPU

Here is what sweep-bench gives.

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    1.010 |   506.93 |    1.527 |    83.82 |
"""


class _Repo:
    """The two things the converter asks of a repository: a file's bytes and its permalink."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def show(self, path: str) -> bytes:
        return self.files[path].encode("utf-8")

    def url(self, path: str, line: int | None = None) -> str:
        return f"https://example.com/{path}#L{line}"


def _lines(files: dict[str, str]) -> list[str]:
    src = Source(name="ik", repo="o/r", commit="0" * 40, converter="markdown_tables", paths=list(files),
                 licence="MIT", redistribute=True, options={"context": {"*": "ik_llama.cpp"}, "rig_from_post": True})
    repo: Any = _Repo(files)
    return [r.text or "" for r in _markdown_tables(repo, src)]


def test_each_row_carries_its_own_posts_rig_and_no_one_elses() -> None:
    rows = _lines({"d.md": DISCUSSION})
    assert len(rows) == 3  # bob's quoted table ("> |") is not one the converter reads
    # The description's sentence is already the table's caption: said once.
    assert "(Benchmarks are run on a Ryzen-7950X system.  Compared are" in rows[0]
    assert "rig named in the post" not in rows[0]
    assert ("(Results, same command:) (rig named in the post: My rig: EPYC 9355, 12x DDR5-6400, "
            "RTX 5090.)") in rows[1]
    assert "rig named in the post" not in rows[2]  # no hardware in carol's post
    # A llama-bench table has its own model column: no model is carried.
    assert all("model named in the post" not in r for r in rows)


def test_a_sweep_bench_table_inherits_the_posts_rig_and_its_one_model() -> None:
    (row,) = _lines({"d.md": _SWEEP})
    assert row == ("ik_llama.cpp, CPU+GPU (Here is what sweep-bench gives.) (rig named in the post: Benchmarks are run on a Ryzen-7950X system with an "
                   "RTX-4080 GPU.) (model named in the post: I experimented with Qwen3-30B-A3B, the 30B total, "
                   "3B active parameter MoE model.): PP: 512; TG: 128; N_KV: 0; T_PP s: 1.010; S_PP t/s: 506.93; "
                   "T_TG s: 1.527; S_TG t/s: 83.82")
