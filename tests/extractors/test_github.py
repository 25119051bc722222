"""GitHub and Gist pages → raw files (extractors/web/github.py), and raw files read by content.

Raw files are served by a real aiohttp server on 127.0.0.1 as text/plain, the way
raw.githubusercontent.com and gist.githubusercontent.com serve JSON. Only that server is reached.
"""

from __future__ import annotations

import pytest

from checks.reference import Reference
from checks.runner import audit
from extractors.evidence import build_evidence
from extractors.follow import follow
from extractors.web import rewrite_url
from extractors.web.github import raw_url
from tests.fixtures.web.loopback import Loopback, loopback_fetcher


@pytest.mark.parametrize(
    ("url", "raw"),
    [
        (
            "https://github.com/FreedomIntelligence/AccelMark/blob/main/results/community/run1/result.json",
            "https://raw.githubusercontent.com/FreedomIntelligence/AccelMark/main/results/community/run1/result.json",
        ),
        (
            "https://github.com/o/r/raw/v1.2/bench/out.json",
            "https://raw.githubusercontent.com/o/r/v1.2/bench/out.json",
        ),
        (
            "https://github.com/Anbeeld/beellama.cpp",
            "https://raw.githubusercontent.com/Anbeeld/beellama.cpp/HEAD/README.md",
        ),
        ("https://github.com/o/r.git", "https://raw.githubusercontent.com/o/r/HEAD/README.md"),
        (
            "https://gist.github.com/speedrunner/4f2a9c1e7b",
            "https://gist.githubusercontent.com/speedrunner/4f2a9c1e7b/raw",
        ),
        (
            "https://gist.github.com/speedrunner/4f2a9c1e7b#file-bench_result-json",
            "https://gist.githubusercontent.com/speedrunner/4f2a9c1e7b/raw",
        ),
        (
            "https://gist.github.com/speedrunner/4f2a9c1e7b/raw/0a1b2c/bench_result.json",
            "https://gist.githubusercontent.com/speedrunner/4f2a9c1e7b/raw/0a1b2c/bench_result.json",
        ),
    ],
)
def test_github_pages_become_raw_files(url: str, raw: str) -> None:
    assert raw_url(url) == raw
    assert rewrite_url(url) == raw


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/vllm-project/vllm/issues/12345",
        "https://github.com/vllm-project/vllm/pull/6789",
        "https://github.com/vllm-project/vllm/releases/tag/v0.11.0",
        "https://github.com/vllm-project/vllm/tree/main/benchmarks",
        "https://github.com/topics/llm",
        "https://github.com/vllm-project",
        "https://gist.github.com/speedrunner",
        "https://raw.githubusercontent.com/o/r/main/x.json",
        "https://example.com/o/r/blob/main/x.json",
    ],
)
def test_other_urls_are_not_rewritten(url: str) -> None:
    assert raw_url(url) is None


async def test_a_raw_file_served_as_text_plain_is_read_by_its_json_shape(
    server: Loopback, ref: Reference
) -> None:
    url = server.file(
        "/speedrunner/4f2a9c1e7b/raw/0a1b2c/bench_result.json",
        "vllm_bench/llama31_8b_eagle3_conc4.json",
        "text/plain; charset=utf-8",
    )
    async with loopback_fetcher(server) as fetcher:
        result = await follow(url, fetcher, ref)
    (reading,) = result.readings
    assert reading.source.format == "vllm_bench" and reading.source.kind == "tool-output"
    assert reading.source.content_type == "text/plain; charset=utf-8"
    report = audit(build_evidence(result.readings, ref), ref)
    assert report.question("evidence").status == "ok"  # the input is itself a tool output
    assert report.claim.tok_s == pytest.approx(485.614154893843)
    assert server.paths() == ["/speedrunner/4f2a9c1e7b/raw/0a1b2c/bench_result.json"]


async def test_a_launch_script_in_a_gist_is_a_config(server: Loopback, ref: Reference) -> None:
    post = server.text(
        "/post",
        "<html><body><p>2103.6 tok/s on one RTX 5090. Launch script: "
        "<a href='{{BASE}}/gist/u/0a1b2c3d/raw/launch.sh'>launch.sh</a></p></body></html>",
    )
    server.text(
        "/gist/u/0a1b2c3d/raw/launch.sh",
        "SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path "
        "nvidia/Qwen3.6-27B-NVFP4 --speculative-algorithm DFLASH "
        "--speculative-num-draft-tokens 56 --tp 1\n",
        "text/plain",
    )
    async with loopback_fetcher(server) as fetcher:
        result = await follow(post, fetcher, ref)
    assert [r.source.kind for r in result.readings] == ["post", "config"]
    report = audit(build_evidence(result.readings, ref), ref)
    assert (
        report.claim.launch_command is not None
        and "--speculative-num-draft-tokens 56" in report.claim.launch_command
    )
    assert report.claim.spec_window == 56
    assert report.question("evidence").status == "ok"
    assert report.question("config").status == "ok"


async def test_a_repository_readme_gives_its_fenced_launch_command(
    server: Loopback, ref: Reference
) -> None:
    post = server.text(
        "/post",
        "<html><body><p>2103.6 tok/s on one RTX 5090. Repo: "
        "<a href='{{BASE}}/speedrunner/dflash-5090/HEAD/README.md'>code</a></p></body></html>",
    )
    server.text(
        "/speedrunner/dflash-5090/HEAD/README.md",
        "# dflash-5090\n\nOur fork of SGLang with a wide DFlash window. It is fast, and this "
        "paragraph is prose about it that is not the claim: 9999 tok/s in our dreams.\n\n"
        "```bash\npython -m sglang.launch_server --model-path nvidia/Qwen3.6-27B-NVFP4 "
        "--speculative-algorithm DFLASH --speculative-num-draft-tokens 56\n```\n",
        "text/plain",
    )
    async with loopback_fetcher(server) as fetcher:
        result = await follow(post, fetcher, ref)
    _, readme = result.readings
    assert (
        readme.source.kind == "config" and readme.source.note == "read from the page's code blocks"
    )
    report = audit(build_evidence(result.readings, ref), ref)
    assert report.claim.tok_s == 2103.6  # the README's prose is not the claim
    assert report.claim.spec_window == 56
    assert report.question("config").status == "ok"
