"""`python -m benchmarks.calibrate DIR`: every record under a folder audited and tallied."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from benchmarks.calibrate import (
    SourceTally,
    _Pending,
    assign_machines,
    calibrate,
    is_plain_decode,
    is_stream,
    main,
    planted,
    render,
    table_row,
    why_uncaught,
)
from benchmarks.corpus.build import is_heldout
from benchmarks.corpus.build import main as build_main
from checks.models import Claim, Evidence
from checks.reference import load_reference
from checks.runner import audit
from extractors.evidence import evidence_per_record, read_document
from extractors.inputs import InputSpec, read_local

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    results = tmp_path / "results" / "community" / "a100"
    results.mkdir(parents=True)
    shutil.copy(FIXTURES / "accelmark" / "result_a100_sglang.json", results / "result.json")
    (tmp_path / "results" / "h100").mkdir()
    shutil.copy(FIXTURES / "accelmark" / "result_interactive_scaling_h100.json",
                tmp_path / "results" / "h100" / "result.json")
    shutil.copy(FIXTURES / "csv_board" / "board.csv", tmp_path / "board.csv")
    (tmp_path / "suite.json").write_text(json.dumps({"suite_id": "suite_A", "num_runs": 3}))
    broken = json.loads((FIXTURES / "accelmark" / "result_a100_sglang.json").read_text())
    broken["metrics"] = {"burst": {"sla_ttft_ms": 500}}
    (tmp_path / "results" / "broken.json").write_text(json.dumps(broken))
    return tmp_path


def test_every_record_is_tallied_by_source(folder: Path) -> None:
    cal = calibrate(folder, load_reference())
    accel, board = cal.tallies["accelmark"], cal.tallies["csv_board"]
    assert (accel.files, accel.records, board.files, board.records) == (2, 13, 1, 3)
    assert accel.q7_answered == 13 and dict(accel.q7) == {"ok": 13}
    assert dict(board.verdicts) == {"implausible": 1, "consistent": 2}


def test_implausible_headlines_are_listed_with_their_record(folder: Path) -> None:
    cal = calibrate(folder, load_reference())
    [(verdict, where, headline)] = cal.tallies["csv_board"].flagged
    assert (verdict, where) == ("implausible", "board.csv#0")
    assert headline.startswith("implausible — 2103.6 tok/s")


def test_refused_and_non_record_files_are_listed_apart(folder: Path) -> None:
    cal = calibrate(folder, load_reference())
    assert list(cal.refused) == ["results/broken.json"]
    assert "no throughput or TPOT in any scenario block" in cal.refused["results/broken.json"]
    assert cal.not_records == ["suite.json"]


def test_report_ends_with_the_totals(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert out == render(calibrate(folder, load_reference())) + "\n"
    assert out.rstrip().splitlines()[-1] == (
        "== total: 3 read, 16 claim(s) from 3 file(s); 1 refused; Q7 answered 100.0%; "
        "where the hardware has a public spec 100.0% (16/16); implausible 1; suspicious 0 (0.0%)")


def test_a_missing_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err


# --- a built corpus: index.ndjson per source, records in the shapes users hand over -----------

CORPUS = FIXTURES / "calibrate" / "corpus"


def test_a_corpus_is_tallied_by_its_own_sources() -> None:
    cal = calibrate(CORPUS, load_reference())
    got = {name: (t.entries, t.files, t.records, sum(t.refused.values()), t.q7_answered,
                  t.spec_answered, t.with_spec)
           for name, t in cal.tallies.items()}
    # (read, files read, claims, refused, Q7 answered, answered with a public spec, public spec)
    # The leaderboard's 8000 M reads as 8B and its 5950X through the AM4 platform row; the MLPerf
    # logs take their 8 H100s from systems/SYS_H100x8.json and GPT-J's size from its model row.
    assert got == {"leaderboard": (3, 3, 3, 0, 3, 3, 3),
                   "mlperf": (3, 2, 2, 1, 2, 2, 2),
                   "readme": (3, 3, 3, 0, 3, 3, 3)}
    assert dict(cal.tallies["readme"].formats) == {"text": 3}
    # a SingleStream log gives a latency, no token rate
    assert cal.tallies["mlperf"].refused == {
        "MLPerf log: no 'Tokens per second' line: the log holds no token rate": 1}
    assert dict(cal.tallies["leaderboard"].unresolved) == {}


def test_every_flagged_corpus_record_is_listed_by_its_id() -> None:
    cal = calibrate(CORPUS, load_reference())
    # Row 1 (103 tok/s, 8000 M = 8B) is honest; row 3 is the same run at 1030 tok/s, 4.4× the
    # RTX 3090's batch-1 ceiling, and LocalScore's tool cannot speculate.
    [(verdict, where, headline)] = cal.tallies["leaderboard"].flagged
    assert (verdict, where) == ("implausible", "leaderboard:3#0")
    assert headline.startswith("implausible — 1030.0 tok/s is 4.4× the batch-1 ceiling of one RTX 3090")
    assert dict(cal.tallies["leaderboard"].verdicts) == {"implausible": 1, "consistent": 2}
    assert dict(cal.tallies["readme"].verdicts) == {"consistent": 3}
    assert dict(cal.tallies["mlperf"].verdicts) == {"consistent": 2}


@pytest.mark.parametrize(("source", "factor", "n", "caught", "implausible", "plain",
                          "plain_implausible", "above", "above_caught"), [
    # both rows land above their ceilings and are caught, as `suspicious` only: the ExLlamaV2
    # row ("Llama, GPTQ, 7B": a dense Llama 7B) and the llama.cpp row, since both engines can
    # speculate
    ("readme", 3, 2, 2, 0, 1, 0, 2, 2),
    ("readme", 10, 2, 2, 0, 1, 0, 2, 2),
    # the manifest marks the leaderboard's tool as plain decode: both honest rows ×3 and ×10
    # (the RTX 3090 and the 5950X) land above their ceilings as `implausible`
    ("leaderboard", 3, 2, 2, 2, 2, 2, 2, 2),
    ("leaderboard", 10, 2, 2, 2, 2, 2, 2, 2),
    ("mlperf", 10, 0, 0, 0, 0, 0, 0, 0),  # Offline and Server aggregates are no stream: nothing planted
])
def test_planted_fakes_are_counted(source: str, factor: int, n: int, caught: int,
                                   implausible: int, plain: int, plain_implausible: int,
                                   above: int, above_caught: int) -> None:
    p = calibrate(CORPUS, load_reference()).tallies[source].planted[factor]
    assert (p.n, p.caught, p.implausible, p.plain, p.plain_implausible, p.above,
            p.above_caught) == (n, caught, implausible, plain, plain_implausible, above,
                                above_caught)


def test_a_planted_fake_scales_speeds_and_divides_durations() -> None:
    claim = Claim(tok_s=50.0, per_user_tok_s=40.0, wall_seconds=2.0, ttft_ms=300.0,
                  tokens_generated=100, baseline_tok_s=25.0, tok_s_kind="decode")
    fake = planted(Evidence(claim=claim), 10).claim
    assert (fake.tok_s, fake.per_user_tok_s, fake.baseline_tok_s, fake.wall_seconds,
            fake.ttft_ms, fake.tokens_generated) == (500.0, 400.0, 250.0, 0.2, 30.0, 100)


@pytest.mark.parametrize(("claim", "stream"), [
    (Claim(tok_s=50.0, tok_s_kind="decode"), True),
    (Claim(tok_s=50.0, tok_s_kind="per_user", concurrency=32), True),
    # a per-request rate under load at an unknown concurrency (AccelMark online at N QPS)
    (Claim(tok_s=25.7, per_user_tok_s=25.7, tok_s_kind="per_user"), False),
    (Claim(tok_s=67.3, tok_s_kind="decode", batch=1, concurrency=1), True),
    (Claim(tok_s=50.0), True),
    (Claim(tok_s=50.0, batch=64), False),
    (Claim(tok_s=5000.0, tok_s_kind="aggregate"), False),
    (Claim(tok_s=5000.0, tok_s_kind="prefill"), False),
    (Claim(tok_s=50.0, serving_claim=True), False),
    (Claim(), False),
])
def test_only_single_streams_get_planted(claim: Claim, stream: bool) -> None:
    assert is_stream(claim) is stream


@pytest.mark.parametrize(("claim", "fmt", "plain"), [
    (Claim(speculative=False), None, True),
    (Claim(), "llama_bench", True),
    (Claim(), "localscore", True),
    (Claim(engine="llama.cpp"), "text", True),
    (Claim(engine="llama.cpp", spec_method="draft model"), "text", False),
    (Claim(engine="vLLM"), "text", False),
    (Claim(speculative=True), "llama_bench", False),
])
def test_plain_decode_is_stated_or_implied_by_the_tool(claim: Claim, fmt: str | None,
                                                       plain: bool) -> None:
    assert is_plain_decode(claim, fmt) is plain


def test_the_corpus_json_carries_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(CORPUS), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    readme = data["sources"]["readme"]
    assert (readme["read"], readme["records"], readme["q7_with_public_spec"]) == (3, 3, [3, 3])
    assert readme["planted"]["x10"]["caught"] == 2
    assert data["sources"]["leaderboard"]["flagged"][0]["record"] == "leaderboard:3#0"


# --- the build script: a deterministic, disjoint held-out split ----------------------------------

def _git(*args: str, cwd: Path) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                         env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                              "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
                              "PATH": os.environ.get("PATH", "")})
    return out.stdout.strip()


@pytest.fixture()
def mirror(tmp_path: Path) -> tuple[Path, Path]:
    work = tmp_path / "work"
    work.mkdir()
    rows = "\n".join(f"{i}\t{50 + i}.0\tNVIDIA GeForce RTX 4090" for i in range(1, 61))
    (work / "board.tsv").write_text("test_num\tgen_tps\taccel_name\n" + rows + "\n")
    (work / "README.md").write_text(
        "# Bench\n\n## Results\n\nllama.cpp, Llama 3 8B Q4_K_M.\n\n| GPU | tok/s |\n|---|---|\n"
        + "".join(f"| RTX {3000 + i} | {100 + i} |\n" for i in range(20)))
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "records", cwd=work)
    commit = _git("rev-parse", "HEAD", cwd=work)
    mirrors = tmp_path / "mirrors"
    (mirrors / "o+board").mkdir(parents=True)
    _git("clone", "-q", "--bare", str(work), str(mirrors / "o+board" / "repo"), cwd=tmp_path)
    manifest = tmp_path / "sources.json"
    manifest.write_text(json.dumps({"sources": [
        {"name": "board", "repo": "o/board", "commit": commit, "licence": "MIT",
         "redistribute": True, "converter": "delimited_rows", "paths": ["board.tsv"],
         "options": {"id_column": "test_num"}},
        {"name": "readme", "repo": "o/board", "commit": commit, "licence": "none stated",
         "redistribute": False, "converter": "markdown_tables", "paths": ["README.md"]},
    ]}))
    return mirrors, manifest


def _ids(folder: Path) -> set[str]:
    return {json.loads(line)["id"] for index in folder.rglob("index.ndjson")
            for line in index.read_text().splitlines()}


def test_the_held_out_split_is_deterministic_and_disjoint(mirror: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    mirrors, manifest = mirror
    first, second = tmp_path / "a", tmp_path / "b"
    assert build_main(["--mirrors", str(mirrors), "--manifest", str(manifest), str(first)]) == 0
    assert build_main(["--mirrors", str(mirrors), "--manifest", str(manifest), str(second)]) == 0
    cal, held = _ids(first / "data"), _ids(first / "heldout")
    assert (cal, held) == (_ids(second / "data"), _ids(second / "heldout"))
    assert not cal & held
    assert len(cal | held) == 80
    assert held == {i for i in cal | held if is_heldout(i)}
    assert 8 <= len(held) <= 24  # about a fifth
    assert "/data/readme/" in (first / ".gitignore").read_text()


def test_built_records_keep_the_users_form(mirror: tuple[Path, Path], tmp_path: Path) -> None:
    mirrors, manifest = mirror
    out = tmp_path / "out"
    assert build_main(["--mirrors", str(mirrors), "--manifest", str(manifest), str(out)]) == 0
    rows = sorted((out / "data" / "board" / "files").rglob("*.tsv"))
    assert rows[0].read_text().splitlines()[0] == "test_num\tgen_tps\taccel_name"
    texts = [p.read_text() for split in ("data", "heldout")
             for p in (out / split / "readme" / "files" / "text").glob("*.txt")]
    assert "Bench / Results (llama.cpp, Llama 3 8B Q4_K_M.): GPU: RTX 3000; tok/s: 100\n" in texts
    entry = json.loads((out / "data" / "board" / "index.ndjson").read_text().splitlines()[0])
    assert entry["url"].startswith("https://github.com/o/board/blob/")
    assert calibrate(out / "data", load_reference()).tallies["board"].entries == len(rows)


def test_a_missing_mirror_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          mirror: tuple[Path, Path]) -> None:
    _, manifest = mirror
    assert build_main(["--mirrors", str(tmp_path / "none"), "--manifest", str(manifest),
                       str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err.startswith("build failed: no mirror of o/board")


@pytest.fixture()
def round_mirror(tmp_path: Path) -> tuple[Path, Path]:
    """A tiny MLPerf-shaped round and a README whose columns are models."""
    work = tmp_path / "round"
    run = work / "closed" / "Org" / "results" / "SYS_H100x8"
    log = (FIXTURES / "mlperf" / "mlperf_log_summary.txt").read_text()
    for bench in ("llama2-70b-99", "resnet50"):
        d = run / bench / "Offline" / "performance" / "run_1"
        d.mkdir(parents=True)
        (d / "mlperf_log_summary.txt").write_text(log)
    (work / "closed" / "Org" / "systems").mkdir()
    (work / "closed" / "Org" / "systems" / "SYS_H100x8.json").write_text(
        json.dumps({"system_name": "SYS", "accelerator_model_name": "NVIDIA H100-SXM-80GB",
                    "accelerators_per_node": 8}))
    (work / "closed" / "Org" / "summary.csv").write_text(
        "Organization,SystemName,Model,Scenario,Result,Units\n"
        "Org,SYS,llama2-70b-99,Offline,24525.0,Tokens/s\nOrg,SYS,resnet50,Offline,700000,Samples/s\n")
    (work / "README.md").write_text(
        "# Rigs\n\nAverage speed (tokens/s) of generating 1024 tokens.\n\n"
        "| GPU | 8B Q4_K_M | 70B Q4_K_M |\n|---|---|---|\n| 4090 24GB | 127.74 | OOM |\n"
        "| 4090 24GB * 2 | 122.56 | 19.06 |\n")
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "round", cwd=work)
    commit = _git("rev-parse", "HEAD", cwd=work)
    mirrors = tmp_path / "mirrors"
    (mirrors / "o+round").mkdir(parents=True)
    _git("clone", "-q", "--bare", str(work), str(mirrors / "o+round" / "repo"), cwd=tmp_path)
    manifest = tmp_path / "round.json"
    manifest.write_text(json.dumps({"sources": [
        {"name": "mlperf", "repo": "o/round", "commit": commit, "licence": "Apache-2.0",
         "redistribute": True, "converter": "mlperf_tree", "paths": []},
        {"name": "rigs", "repo": "o/round", "commit": commit, "licence": "MIT",
         "redistribute": True, "converter": "markdown_tables", "paths": ["README.md"],
         "options": {"split": "cells", "all_tables": True, "unit": "tokens/s",
                     "plain_decode": True, "context": {"*": "llama.cpp on LLaMA 3"}}},
    ]}))
    return mirrors, manifest


def _entries(out: Path, source: str) -> list[dict[str, Any]]:
    return [json.loads(line) for split in ("data", "heldout")
            for line in (out / split / source / "index.ndjson").read_text().splitlines()]


def test_an_mlperf_round_keeps_llm_logs_under_their_path(round_mirror: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    mirrors, manifest = round_mirror
    out = tmp_path / "out"
    assert build_main(["--mirrors", str(mirrors), "--manifest", str(manifest), str(out)]) == 0
    files = sorted(e["file"] for e in _entries(out, "mlperf"))
    assert files == [
        "closed/Org/results/SYS_H100x8/llama2-70b-99/Offline/performance/run_1/mlperf_log_summary.txt",
        "closed/Org/summary/L2.csv"]  # resnet50 left out: not an LLM benchmark
    assert all((out / split / "mlperf" / "files" / "closed" / "Org" / "systems"
                / "SYS_H100x8.json").is_file() for split in ("data", "heldout"))


def test_a_table_of_models_is_one_record_per_cell(round_mirror: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    mirrors, manifest = round_mirror
    out = tmp_path / "out"
    assert build_main(["--mirrors", str(mirrors), "--manifest", str(manifest), str(out)]) == 0
    entries = _entries(out, "rigs")
    assert all(e["plain_decode"] is True for e in entries)
    texts = sorted((out / split / "rigs" / "files" / e["file"]).read_text()
                   for e in entries for split in ("data", "heldout")
                   if (out / split / "rigs" / "files" / e["file"]).is_file())
    assert texts == [
        "llama.cpp on LLaMA 3, Rigs (Average speed (tokens/s) of generating 1024 tokens.), "
        "70B Q4_K_M, 4090 24GB * 2: 19.06 tokens/s\n",
        "llama.cpp on LLaMA 3, Rigs (Average speed (tokens/s) of generating 1024 tokens.), "
        "8B Q4_K_M, 4090 24GB * 2: 122.56 tokens/s\n",
        "llama.cpp on LLaMA 3, Rigs (Average speed (tokens/s) of generating 1024 tokens.), "
        "8B Q4_K_M, 4090 24GB: 127.74 tokens/s\n"]


# --- peers: every record of the run against the others of its setup, leave-one-out -------------

_EXPORT_HEAD = ("id\tgen_tps\tprompt_tps\tttft_ms\tmodel_name\tmodel_params\tmodel_params_unit\t"
                "model_quant\taccel_name\taccel_type\taccel_ram\taccel_ram_unit\n")


@pytest.fixture()
def slow_board(tmp_path: Path) -> Path:
    """A LocalScore export (tests/fixtures/localscore/localscore_export.tsv's columns) of four
    CPU-bound runs of Llama 3.2 1B on an RTX 4090, a thirtieth of its ceiling: a x10 fake of one
    stays below the ceiling, so only its peers can catch it."""
    rows = "".join(f"{i}\t{tok}\t21876.4\t61.2\tLlama 3.2 1B Instruct\t1200\tM\tQ4_K - Medium\t"
                   "NVIDIA GeForce RTX 4090\tGPU\t23.99\tGB\n"
                   for i, tok in ((1, 41.0), (2, 44.5), (3, 38.0), (4, 43.0)))
    (tmp_path / "export.tsv").write_text(_EXPORT_HEAD + rows)
    return tmp_path


@pytest.mark.parametrize("factor", [3, 10])
def test_fakes_below_the_ceiling_are_caught_by_their_peers(slow_board: Path, factor: int) -> None:
    t = calibrate(slow_board, load_reference()).tallies["tsv_board"]
    assert dict(t.verdicts) == {"consistent": 4}  # the honest rows: none above 2.5x its best peer
    p = t.planted[factor]
    # plain decode (the LocalScore export mapping: llamafile), but below the ceiling: suspicious
    assert (p.n, p.caught, p.by_peers, p.implausible, p.plain, p.above) == (4, 4, 4, 0, 4, 0)


def test_the_highest_honest_ratio_to_the_best_peer_is_reported(slow_board: Path) -> None:
    cal = calibrate(slow_board, load_reference())
    ratios = sorted(cal.tallies["tsv_board"].peer_ratios)
    # leave-one-out: row 2 (44.5) against its best other peer, row 4 (43.0)
    assert ratios[-1] == (pytest.approx(44.5 / 43.0), "export.tsv#1")
    assert len(ratios) == 4
    assert "peers: 4 honest record(s) with 3+ peers; the highest is 1.03× its best peer (export.tsv#1)" in render(cal)


def test_with_two_peers_only_a_wider_margin_is_judged(slow_board: Path) -> None:
    text = (slow_board / "export.tsv").read_text().splitlines()
    (slow_board / "export.tsv").write_text("\n".join(text[:4]) + "\n")  # three rows: two peers each
    cal = calibrate(slow_board, load_reference())
    t = cal.tallies["tsv_board"]
    # x10 is above 4x the better of two; x3 (at most 3.26x) is not
    assert (t.planted[10].n, t.planted[10].caught, t.planted[10].by_peers, t.peer_ratios) == (3, 3, 3, [])
    assert (t.planted[3].caught, t.planted[3].by_peers) == (0, 0)
    # the honest ratios with two peers are what FEW_PEERS_FACTOR is picked from
    assert sorted(t.few_peer_ratios) == [(2, pytest.approx(38.0 / 44.5), "export.tsv#2"),
                                         (2, pytest.approx(41.0 / 44.5), "export.tsv#0"),
                                         (2, pytest.approx(44.5 / 41.0), "export.tsv#1")]
    assert ("fewer peers (1: not judged, 2: above FEW_PEERS_FACTOR): 2 peer(s): 3 honest, ÷ the best peer "
            "median 0.92, p90 1.09, p99 1.09, highest 1.09 (export.tsv#1)") in render(cal)


# --- peers of one unnamed machine: the rows of one table that name no hardware -----------------

_SWEEP_LEAD = ("ik_llama.cpp, 🗣️ #491 - -rtr actually hurts prompt t/s for large ubatch? / Description "
               "(model named in the post: Qwen 235b command line.)")


def _sweep_row(n_kv: int, s_tg: float) -> str:
    """A sweep-bench row as the corpus writes it (ikawrakow/ik_llama.cpp discussion 491's shape):
    no hardware in the row, its heading or its post."""
    return (f"{_SWEEP_LEAD}: PP: 1024; TG: 256; N_KV: {n_kv}; T_PP s: 5.432; S_PP t/s: 188.50; "
            f"T_TG s: {256 / s_tg:.3f}; S_TG t/s: {s_tg}\n")


@pytest.fixture()
def unnamed_rig(tmp_path: Path) -> Path:
    """One post's two sweep-bench tables under one heading, no hardware named anywhere: the first
    table (4 rows, lines 10-13) and a second one further down (3 rows, lines 20-22, slower)."""
    src = tmp_path / "ik"
    (src / "files" / "text").mkdir(parents=True)
    path = "github-data/discussions/491 - rtr.md"
    rows = [(10, 0, 18.45), (11, 1024, 18.20), (12, 3072, 17.66), (13, 4096, 17.47),
            (20, 0, 6.10), (21, 1024, 6.02), (22, 2048, 5.95)]
    index = []
    for line, n_kv, s_tg in rows:
        name = f"text/L{line}.txt"
        (src / "files" / name).write_text(_sweep_row(n_kv, s_tg), encoding="utf-8")
        index.append(json.dumps({"id": f"ik_llama.cpp:{path}:L{line}", "source": "ik_llama.cpp",
                                 "url": f"https://example.invalid/{line}", "file": name}))
    (src / "index.ndjson").write_text("\n".join(index) + "\n")
    return tmp_path


@pytest.mark.parametrize("factor", [3, 10])
def test_rows_of_one_unnamed_machine_catch_a_fake_as_suspicious(unnamed_rig: Path, factor: int) -> None:
    t = calibrate(unnamed_rig, load_reference()).tallies["ik_llama.cpp"]
    assert dict(t.verdicts) == {"insufficient": 7}  # no hardware: no ceiling, honest rows untouched
    assert t.no_hardware == 7
    p = t.planted[factor]
    # the first table's four rows have three peers each and every fake is above 2.5x the best;
    # the second table's three rows have two (never the first table's: another machine as far as
    # anyone can tell): a x10 is above 4x the better of them, a x3 is not; nothing is
    # `implausible` without hardware
    assert (p.n, p.caught, p.by_peers, p.implausible) == (7, 7 if factor == 10 else 4,
                                                          7 if factor == 10 else 4, 0)
    # leave-one-out: 18.45 against 18.20, the best of the other three
    assert max(t.peer_ratios) == (pytest.approx(18.45 / 18.20), "ik_llama.cpp:github-data/discussions/491 - rtr.md:L10#0")
    assert len(t.peer_ratios) == 4


@pytest.mark.parametrize(("record_id", "text", "row"), [
    ("ik:a.md:L12", "lead (main: n_ctx = 4096): PP: 512; TG: 128; S_TG t/s: 7.29",
     ("ik:a.md | lead (main: n_ctx = 4096) | PP / TG / S_TG t/s", 12)),
    ("ik:a.md:L7", "model: 8B Q8_0; test: tg128; t/s: 4.95", ("ik:a.md |  | model / test / t/s", 7)),
    ("gpu:README.md:L40:3", "Rigs, 4090 24GB, 8B Q4_K_M: 127.74 tokens/s", None),  # a split cell
    ("localscore:assets/localscore_results.tsv:1211", "1211\t103.2", None),  # no table row
])
def test_a_pasted_table_row_names_its_table(record_id: str, text: str,
                                            row: tuple[str, int] | None) -> None:
    assert table_row(record_id, text) == row


# --- machines: a LocalScore submission, one table's rows -----------------------------------------

_INSIGHTS_HEAD = ("test_num\ttest_date\tgen_tps\tttft\tttft_unit\tprompt_tps\tlocalscore\tmodel_name\t"
                  "model_quant\tmodel_params\tmodel_params_unit\taccel_name\taccel_type\taccel_group\t"
                  "accel_ram\taccel_ram_unit\tsystem_cpu\tsystem_ram\tsystem_ram_unit\tsystem_os\n")


def _insights_row(n: int, day: str, tok_s: float, model: str, params_m: int) -> str:
    """A d893a/localscore-insights row (assets/localscore_results.tsv's columns) of an H100 box."""
    return (f"{n}\t{day} 21:50:00\t{tok_s}\t358\tms\t3552\t1008\t{model}\tQ4_K - Medium\t{params_m}\tM\t"
            "NVIDIA H100 80GB HBM3\tGPU\tNVIDIA GPU\t80\tGB\tAMD EPYC 9454 48-Core Processor (znver4)\t"
            "1511.5\tGB\tLinux\n")


@pytest.fixture()
def submissions(tmp_path: Path) -> Path:
    """One submission of three models on an H100 (slow, the way LocalScore's H100 rows ran: a
    fifth of the ceiling and less), and one row of the same box on another day (another
    submission, as far as anyone can tell)."""
    src = tmp_path / "localscore"
    (src / "files").mkdir(parents=True)
    rows = [(1, "2025.03.19", 24.1, "Qwen2.5 14B Instruct", 14800),
            (2, "2025.03.19", 41.0, "Meta Llama 3.1 8B Instruct", 8000),
            (3, "2025.03.19", 97.8, "Llama 3.2 1B Instruct", 1500),
            (4, "2025.04.02", 96.0, "Llama 3.2 1B Instruct", 1500)]
    index = []
    for n, day, tok_s, model, params in rows:
        (src / "files" / f"{n}.tsv").write_text(_INSIGHTS_HEAD + _insights_row(n, day, tok_s, model, params))
        index.append(json.dumps({"id": f"localscore:assets/localscore_results.tsv:{n}", "source": "localscore",
                                 "url": f"https://example.invalid/L{n}", "plain_decode": True,
                                 "file": f"{n}.tsv"}))
    (src / "index.ndjson").write_text("\n".join(index) + "\n")
    return tmp_path


def test_a_submission_is_one_machine_as_the_reader_names_it(submissions: Path) -> None:
    # calibrate keeps no rule of its own: the reader's Claim.machine (the board entry's columns)
    ref = load_reference()
    reading = read_document(read_local(InputSpec("file", str(submissions / "localscore" / "files" / "1.tsv"))), ref)
    assert [ev.claim.machine for ev in evidence_per_record(reading, ref)] == [
        "submission NVIDIA H100 80GB HBM3 | 80 | AMD EPYC 9454 48-Core Processor (znver4) | 1511.5 | Linux | 2025.03.19"]


def test_fakes_are_caught_by_the_other_models_of_their_submission(submissions: Path) -> None:
    cal = calibrate(submissions, load_reference())
    t = cal.tallies["localscore"]
    assert dict(t.verdicts) == {"consistent": 4}
    # the three rows of one submission bound each other; the fourth is alone on its day
    assert sorted(w for _, w in t.machine_ratios) == [
        f"localscore:assets/localscore_results.tsv:{n}#0" for n in (1, 2, 3)]
    # the most generous bound: for the 14B and the 8B the lighter 1B's speed, for the 1B the
    # bandwidth the 14B drew (24.1 tok/s x 7.385 GB) over its own 0.62 GB
    assert sorted(r for r, _ in t.machine_ratios) == pytest.approx(sorted(
        [24.1 / 97.8, 41.0 / 97.8, 97.8 / (24.1 * 7.385 / 0.62)]))
    p = t.planted[10]
    # every x10 lands under the H100's generous ceiling; the 8B's (4.2x the 1B's speed) and the
    # 1B's (3.4x the bandwidth bound) are caught by their machine; the 14B's (2.5x) is not, nor
    # the fourth row, alone on its day
    assert (p.n, p.caught, p.by_machine, p.implausible, p.above) == (4, 2, 2, 0, 0)
    # the two that passed did so under a roofline that was drawn: their records were complete
    assert dict(p.uncaught) == {"under every bound drawn": 2}
    assert "machine: 3 honest record(s) with another record of their machine" in render(cal)


def _pending(hardware: str | None, line: int) -> _Pending:
    claim = Claim(hardware=hardware, tok_s=10.0, tok_s_kind="decode")
    return _Pending(SourceTally(), f"o:README.md:L{line}#0", Evidence(claim=claim), "text", True,
                    ("o:README.md | Findings | System / Eval Rate", line))


def test_a_table_of_several_named_machines_gives_no_row_a_machine() -> None:
    # geerlingguy/ollama-benchmark's shape: one row per system, two of them with an RX 7900 XT
    rows = [_pending("RX 7900 XT", 10), _pending(None, 11), _pending("RTX 4090", 12),
            _pending("RX 7900 XT", 13)]
    assign_machines(rows)
    assert [p.ev.claim.machine for p in rows] == [None] * 4


def test_a_table_of_one_named_machine_or_none_is_one_machine() -> None:
    rows = [_pending("RTX 4090", 10), _pending(None, 11), _pending("rtx  4090", 12)]
    assign_machines(rows)
    assert {p.ev.claim.machine for p in rows} == {"o:README.md | Findings | System / Eval Rate | from line 10"}


@pytest.mark.parametrize(("claim", "why"), [
    # an RTX 4090 and Llama 3.1 8B: the roofline is drawn and 50 tok/s sits under it
    (Claim(model="Llama 3.1 8B", weight_format="Q4_K_M", hardware="NVIDIA GeForce RTX 4090", batch=1,
           tok_s=50.0, tok_s_kind="decode"), "under every bound drawn"),
    # no machine named: nothing to draw the roofline with
    (Claim(model="Llama 3.1 8B", weight_format="Q4_K_M", batch=1, tok_s=50.0, tok_s_kind="decode"),
     "no roofline: missing hardware"),
])
def test_a_fake_that_passed_is_counted_by_why(claim: Claim, why: str) -> None:
    assert why_uncaught(audit(Evidence(claim=claim), load_reference())) == why
