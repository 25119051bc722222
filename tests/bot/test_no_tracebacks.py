"""No input or configuration ends in a traceback: one line on stderr, exit 2 or 3.

Each case is one an attacker tried ("any input, bounded"): before the fix each one printed a
Python traceback and exited 1. URLs are served by the loopback server; DNS answers nothing and the
socket factory refuses anything but 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.fixtures.web.loopback import WEB, Loopback, loopback_network

ENV = ("ALLOW_HOSTS", "TOTAL_TIMEOUT_S", "FETCH_DEADLINE_S", "FETCH_BUDGET", "BOARD_FILES",
       "CACHE_PATH", "USE_CACHE", "REFERENCE_FILES")
HUGE = "9" * 5000


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(f"CLAIMCHECK_{name}", raising=False)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err, network=loopback_network)
    return code, out.getvalue(), err.getvalue()


async def arun(*argv: str) -> tuple[int, str, str]:
    return await asyncio.to_thread(run, *argv)


def one_line(err: str) -> str:
    assert err.startswith("claimcheck: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.removeprefix("claimcheck: ").rstrip("\n")


def test_a_json_integer_over_4300_digits_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    path.write_text('{"output_throughput": ' + HUGE + "}")
    code, out, err = run("audit", "--no-cache", str(path))
    assert (code, out) == (2, "")
    assert one_line(err) == f"{path}: a number in this JSON has 5,000 digits; no figure is longer than 4,300"


async def test_a_fetched_json_integer_over_4300_digits_is_refused_in_one_line(server: Loopback) -> None:
    url = server.raw("/bench.json", ('{"output_throughput": ' + HUGE + "}").encode(), "application/json")
    code, out, err = await arun("audit", "--no-cache", "--allow-host", server.host, url)
    assert (code, out) == (2, "")
    assert one_line(err) == f"{url}: a number in this JSON has 5,000 digits; no figure is longer than 4,300"


def test_a_host_label_over_63_characters_is_refused_in_one_line() -> None:
    label = "a" * 64
    code, out, err = run("audit", "--no-cache", f"https://{label}.example.com/post")
    assert (code, out) == (3, "")
    assert one_line(err) == (
        f"that URL is not allowed: {label[:60]}… is not a valid host name: a part of it is 64 "
        "characters long (at most 63)"
    )


async def test_a_bad_host_in_a_post_is_skipped_and_the_other_links_followed(server: Loopback) -> None:
    bad = f"https://{'b' * 70}.example.com/bench.json"
    server.file("/gist/raw/bench.json", "vllm_bench/llama31_8b_eagle3_conc4.json", "text/plain")
    url = server.text("/post", "<p>EAGLE-3 on one H100: 485.6 tok/s output throughput, Llama 3.1 "
                      f"8B. <a href='{bad}'>bench</a> <a href='{{{{BASE}}}}/gist/raw/bench.json'>"
                      "raw</a></p>")
    code, out, err = await arun("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert server.paths() == ["/post", "/gist/raw/bench.json"]
    assert [s["kind"] for s in report["sources"]] == ["post", "tool-output"]
    assert any(line.startswith(f"{bad}: refused, not fetched (") for line in report["not_found"])


@pytest.mark.parametrize("stamp", [1e20, 1e13, float("nan")])
async def test_a_tweet_with_an_impossible_timestamp_is_still_read(server: Loopback, stamp: float) -> None:
    data = json.loads((WEB / "fxtwitter_status.json").read_text("utf-8"))
    data["tweet"]["created_timestamp"] = stamp
    data["tweet"]["text"] = "Llama 3.1 8B on one H100, batch 1: 150 tok/s"
    url = server.raw("/status.json", json.dumps(data).encode(), "application/json")
    code, out, err = await arun("audit", "--json", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    assert json.loads(out)["claim"]["tok_s"] == 150


@pytest.mark.parametrize("flag", ["--reference", "--boards"])
def test_a_config_file_that_is_not_utf8_is_named_in_one_line(tmp_path: Path, flag: str) -> None:
    path = tmp_path / "extra.json"
    path.write_bytes(b'{"name": "caf\xe9"}')
    code, out, err = run("audit", "--example", "--no-cache", flag, str(path))
    assert (code, out) == (2, "")
    assert one_line(err) == f"{flag} {path} is not UTF-8 text (byte 0xe9 at offset 13)"


def test_a_cache_that_is_a_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    code, out, err = run("audit", "--example", "--cache", str(tmp_path))
    assert (code, out) == (2, "")
    assert one_line(err) == f"--cache {tmp_path} is a directory; give the SQLite file to use inside it"


def test_allow_hosts_not_written_as_json_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMCHECK_ALLOW_HOSTS", "board.example:8080")
    code, out, err = run("audit", "--example", "--no-cache")
    assert (code, out) == (2, "")
    assert one_line(err) == ("CLAIMCHECK_ALLOW_HOSTS is not a value claimcheck can read (a list is "
                             "written as JSON, e.g. '[\"host:8080\"]')")


def test_a_fetch_budget_that_is_not_a_number_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMCHECK_FETCH_BUDGET", "abc")
    code, out, err = run("audit", "--example", "--no-cache")
    assert (code, out) == (2, "")
    assert one_line(err) == ("CLAIMCHECK_FETCH_BUDGET: Input should be a valid integer, unable to "
                             "parse string as an integer (got 'abc')")


def test_an_unknown_json_beside_a_claim_is_one_line_in_a_real_process(tmp_path: Path) -> None:
    # In its own interpreter: the traceback this once printed came from asyncio.run's shutdown
    # (the other input's read, cancelled at the pool's close), past `main`'s own error handling.
    import subprocess
    import sys

    path = tmp_path / "generate.json"
    path.write_text('{"id": "chatcmpl-1", "object": "chat.completion", "usage": {"completion_tokens": 290}}')
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "audit", "--no-cache", str(path),
                           "RTX 4080, Llama 3.1 8B: 100 tok/s"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert one_line(proc.stderr).startswith(f"{path}: this JSON is not a format claimcheck reads")
