"""The `claimcheck` command line, end to end: what a user types and what they read."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from checks.models import Report

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def run(*argv: str, stdin: bytes | None = None, monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> dict[str, Any]:
    code, out, err = run(*argv, "--json")
    assert code == 0, err
    return json.loads(out)


def q(report: dict[str, Any], key: str) -> dict[str, Any]:
    return next(x for x in report["questions"] if x["key"] == key)


def f(report: dict[str, Any], key: str) -> dict[str, Any]:
    return next(x for x in report["findings"] if x["key"] == key)


# --- the seed's headline claim (the method's worked figures) -------------------------------------------------------


def test_example_is_the_seed_headline_and_comes_out_implausible() -> None:
    r = run_json("audit", "--example")
    assert r["schema"] == "claimcheck.report/5"
    assert r["verdict"] == "implausible"
    assert r["claim"]["tok_s"] == pytest.approx(2103.6)
    assert [x.n for x in Report.model_validate(r).questions] == list(range(1, 9))  # /5: each its place
    assert [x["key"] for x in r["questions"]] == [
        "evidence", "config", "cell", "fork", "acceptance", "power", "roofline", "measure"]
    acc = q(r, "acceptance")
    assert acc["status"] == "stop" and acc["figures"]["ratio"] == pytest.approx(1.0)
    assert acc["figures"]["al"] == 56 and acc["figures"]["window"] == 56
    power = q(r, "power")
    assert power["status"] == "flag" and power["figures"]["ratio"] == pytest.approx(0.17, abs=0.005)
    roof = q(r, "roofline")
    assert roof["figures"]["ceiling_tok_s"] == pytest.approx(129, abs=1)
    assert roof["figures"]["ratio"] == pytest.approx(16.3, abs=0.1)
    assert 300 <= roof["figures"]["honest_low_tok_s"] <= 350
    assert 690 <= roof["figures"]["honest_high_tok_s"] <= 710
    assert roof["figures"]["realistic_ceiling_tok_s"] < roof["figures"]["ceiling_tok_s"]
    assert f(r, "prefill_excluded")["status"] == "flag"
    assert f(r, "arithmetic")["figures"]["computed_tok_s"] == pytest.approx(2113.5, abs=0.1)
    assert f(r, "window_curve")["status"] == "flag"
    assert r["siblings"] == 3
    assert q(r, "fork")["status"] == "flag" and "+dflash.a91f3e" in q(r, "fork")["summary"]
    assert q(r, "evidence")["status"] == "ok"
    assert q(r, "measure")["status"] == "plan"
    assert any("control character" in w for w in r["warnings"])
    assert r["caveat"].startswith("Circumstantial")


def test_every_figure_has_a_basis() -> None:
    r = run_json("audit", "--example")
    for answer in [*r["questions"], *r["findings"]]:
        if answer.get("figures"):  # /3 leaves an empty member out
            assert answer["basis"], f"{answer['key']} prints figures without saying where they come from"
    for a in r["assumptions"]:
        assert a["source"]


def test_human_output_reads_top_down_and_has_no_colour_in_a_pipe() -> None:
    code, out, err = run("audit", "--example")
    assert code == 0 and not err
    first = out.splitlines()[0]
    assert first.startswith("implausible — 2103.6 tok/s is 16.3×")
    assert "\x1b[" not in out
    assert "5 AL / window" in out and "stop" in out
    assert "Circumstantial" in out.splitlines()[-1]


def test_markdown_output_has_the_question_table() -> None:
    code, out, _ = run("audit", "--example", "--markdown")
    assert code == 0
    assert "| 5 | AL / window | `stop` |" in out


def test_real_decode_text_is_consistent() -> None:
    r = run_json("audit", "Qwen3.6-27B NVFP4 on one RTX 5090, batch 1, plain autoregressive decode: 79 tok/s")
    roof = q(r, "roofline")
    assert roof["status"] == "ok"
    assert roof["figures"]["ratio"] == pytest.approx(0.61, abs=0.01)
    assert r["verdict"] == "consistent"


def test_pasted_number_with_no_setup_is_insufficient() -> None:
    r = run_json("audit", "my rig does 2103.6 tok/s")
    assert r["verdict"] == "insufficient"
    assert q(r, "roofline")["status"] == "unanswerable"
    assert q(r, "evidence")["status"] == "flag"


def test_stdin_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run("audit", "--json", "-", stdin=b"Llama 3.1 8B BF16 on one H100 SXM, batch 1: 158 tok/s",
                         monkeypatch=monkeypatch)
    assert code == 0, err
    r = json.loads(out)
    assert q(r, "roofline")["status"] == "ok"


# --- unusable input: exit 2, one line, no traceback ---------------------------------------------


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["audit", "results.json"], "no such file"),
        (["audit", "/"], "is a directory"),
        (["audit", "hello there, nice weather"], "no speed claim"),
        (["audit"], "nothing to audit"),
        (["reference", "gpu", "Voodoo 5"], "no gpu named"),
        (["sweep", "just some text"], "sweep needs a file"),
    ],
)
def test_unusable_input_exits_2_with_one_clear_line(argv: list[str], needle: str) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unrecognised_json_names_the_known_formats(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text('{"hello": [1, 2, 3]}')
    code, _, err = run("audit", str(p))
    assert code == 2 and "not a format claimcheck reads" in err and "llama_bench" in err


def test_a_broken_reference_file_is_exit_2(tmp_path: Path) -> None:
    p = tmp_path / "ref.json"
    p.write_text("{not json")
    code, _, err = run("audit", "--example", "--reference", str(p))
    assert code == 2 and str(p) in err


def test_a_reference_file_changes_the_figures(tmp_path: Path) -> None:
    p = tmp_path / "ref.json"
    row = {"name": "RTX 5090", "kind": "consumer", "memory_gb": 32, "bandwidth_gbs": 896,
           "tdp_w": 575, "source": "test: a half-bandwidth card", "checked": "2026-11-29"}
    p.write_text(json.dumps({"hardware": [row]}))
    r = run_json("audit", "--example", "--reference", str(p))
    assert q(r, "roofline")["figures"]["ceiling_tok_s"] == pytest.approx(64.5, abs=0.5)


# --- compare, sweep, reference ------------------------------------------------------------------


def test_compare_lists_the_four_differing_knobs() -> None:
    a = "Qwen3.6-27B NVFP4 on RTX 5090, batch 1, MTP speculative, 32k context, prefix caching on, FP8 KV: 212.7 tok/s"
    b = "Qwen3.6-27B NVFP4 on RTX 5090, batch 1, no speculative decoding, 4k context, prefix caching off, BF16 KV: 70 tok/s"
    code, out, err = run("compare", "--json", a, b)
    assert code == 0, err
    c = json.loads(out)
    assert c["comparable"] is False
    assert sorted(c["differing"]) == sorted(["spec_method", "context_length", "prefix_caching", "kv_dtype"])
    assert {row["knob"] for row in c["rows"]} >= {"hardware", "model", "weight_format", "batch", "date"}


def test_compare_human_output_says_not_comparable() -> None:
    a = "Qwen3.6-27B NVFP4 on RTX 5090, batch 1, MTP speculative: 212.7 tok/s"
    b = "Qwen3.6-27B NVFP4 on RTX 5090, batch 1, no speculative decoding: 70 tok/s"
    code, out, _ = run("compare", a, b)
    assert code == 0 and "not comparable" in out


def test_sweep_ranks_the_bundled_board() -> None:
    board = Path(__file__).resolve().parents[2] / "bot" / "examples" / "headline_board.json"
    code, out, err = run("sweep", "--json", str(board))
    assert code == 0, err
    s = json.loads(out)
    assert s["records"] == 5
    assert s["by_verdict"]["implausible"] >= 2
    assert s["ranked"][0]["verdict"] == "implausible"
    assert s["ranked"][-1]["record_id"] == "q-1" and s["ranked"][-1]["verdict"] == "consistent"
    assert len(s["reports"]) == 5


def test_reference_shows_the_source() -> None:
    code, out, _ = run("reference", "gpu", "NVIDIA GeForce RTX 5090")
    assert code == 0 and "1792" in out and "575" in out and "source" in out


def test_reference_lists_a_table() -> None:
    code, out, _ = run("reference", "method")
    assert code == 0 and "DFlash" in out and "official AL 4.39–5.46" in out


def test_help_is_there_for_a_newcomer() -> None:
    code, out, _ = run()
    assert code == 2 and "audit --example" in out


@pytest.mark.parametrize("url", ["file:///etc/passwd", "gopher://example.com/", "ftp://example.com/x.json"])
def test_other_schemes_are_refused_as_urls_not_read_as_text(url: str) -> None:
    code, _, err = run("audit", "--no-cache", url)
    assert code == 3
    assert "only http and https" in err


def test_a_boards_mapping_file_reads_a_local_dump_with_unusual_field_names(tmp_path: Path) -> None:
    mapping = {"boards": [{
        "name": "oddboard", "url_pattern": "oddboard", "records_path": "entries",
        "fields": {"tok_s": "speed.gen", "hardware": "box.card", "model": "llm",
                   "batch": "bs_", "weight_format": "q"}}]}
    (tmp_path / "boards.json").write_text(json.dumps(mapping))
    dump = {"entries": [{"speed": {"gen": 141.9}, "box": {"card": "RTX 4090"}, "llm": "Qwen3-8B",
                         "bs_": 1, "q": "Q4_K_M"}]}
    (tmp_path / "dump.json").write_text(json.dumps(dump))
    code, out, err = run("audit", "--json", "--boards", str(tmp_path / "boards.json"), str(tmp_path / "dump.json"))
    assert code == 0, err
    r = json.loads(out)
    assert r["sources"][0]["format"] == "generic_board:oddboard"
    assert r["claim"]["tok_s"] == 141.9 and r["claim"]["hardware"] == "RTX 4090"
    assert q(r, "roofline")["status"] == "ok"


# --- facts the user adds (--set) ------------------------------------------------------------------------------------

def test_set_fills_what_the_claim_leaves_out_stated_by_the_user() -> None:
    report = run_json("audit", "Llama 3.1 8B BF16 at 158 tok/s", "--set", "hardware=1x H100 SXM",
                      "--set", "batch=1")
    claim = report["claim"]
    assert (claim["hardware"], claim["hardware_count"], claim["batch"]) == ("H100 SXM", 1, 1)
    assert claim["provenance"]["batch"] == {"source": "stated by the user", "field": "--set batch",
                                            "kind": "user"}
    assert q(report, "roofline")["status"] == "ok"
    assert report["sources"][-1]["url"] == "stated by the user"


def test_set_never_overrides_the_record_a_conflict_shows_both() -> None:
    report = run_json("audit", "--example", "--set", "hardware=H100 SXM")
    assert report["claim"]["hardware"] == "NVIDIA GeForce RTX 5090"
    conflict = f(report, "field_conflict")
    assert conflict["status"] == "flag"
    assert any(line.startswith("hardware: NVIDIA GeForce RTX 5090 (") and
               line.endswith("vs H100 SXM (stated by the user (--set hardware))")
               for line in (Report.model_validate(report).finding("field_conflict").lines()))
    roof = q(report, "roofline")["figures"]
    assert (round(roof["ceiling_tok_s"]), round(roof["ratio"], 1)) == (129, 16.3)


@pytest.mark.parametrize(("fact", "message"), [
    ("gpu=H100", "unknown fact 'gpu'"),
    ("batch=one", "batch='one' is not a whole number"),
    ("batch", "a fact is key=value, got 'batch'"),
])
def test_a_bad_fact_is_one_line_and_exit_2(fact: str, message: str) -> None:
    code, out, err = run("audit", "150 tok/s", "--set", fact)
    assert (code, out) == (2, "")
    assert err == (f"claimcheck: {message}; valid keys: hardware, hardware_count, model, params_b, "
                   "active_params_b, format, batch, concurrency, context, engine, power_w, "
                   "spec_method, window, acceptance_length\n")
