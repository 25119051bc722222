"""Q4 fork: is the engine a private fork?"""

from __future__ import annotations

import pytest

from checks.models import Claim, Evidence
from checks.reference import Reference
from checks.rules.fork import fork
from tests.seed_claims import headline_evidence


def _ev(**fields: object) -> Evidence:
    return Evidence(claim=Claim(**fields), kind="record")


def test_local_build_suffix_is_flagged(ref: Reference) -> None:
    a = fork(headline_evidence(), ref, {})
    assert a.status == "flag"
    assert 'local build suffix "+dflash.a91f3e"' in a.summary


def test_cu128_suffix_is_not_a_fork(ref: Reference) -> None:
    a = fork(_ev(engine="vllm", engine_version="0.11.0+cu128"), ref, {})
    assert a.status == "ok"
    assert '"+cu128"' in a.summary


@pytest.mark.parametrize(
    "suffix", ["+cu126", "+cpu", "+rocm6.2", "+rocm624", "+xpu", "+tpu", "+cu128.torch2.7.0"]
)
def test_official_build_variants_are_not_forks(ref: Reference, suffix: str) -> None:
    assert fork(_ev(engine="vllm", engine_version=f"0.11.0{suffix}"), ref, {}).status == "ok"


@pytest.mark.parametrize("version", ["0.5.4", "v0.5.4", "0.5.4.post1", "1.1.0rc2"])
def test_plain_release_is_ok(ref: Reference, version: str) -> None:
    a = fork(_ev(engine="sglang", engine_version=version), ref, {})
    assert a.status == "ok"
    assert "a known release" in a.summary


@pytest.mark.parametrize("version, suffix", [("0.5.4-fork", "-fork"), ("0.5.4-custom", "-custom")])
def test_fork_and_custom_suffixes_are_flagged(ref: Reference, version: str, suffix: str) -> None:
    a = fork(_ev(engine="sglang", engine_version=version), ref, {})
    assert a.status == "flag"
    assert suffix in a.summary


def test_unknown_local_segment_is_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="vllm", engine_version="0.9.0+v100"), ref, {})
    assert a.status == "flag"
    assert '"+v100"' in a.summary


def test_bare_git_hash_as_version_is_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="sglang", engine_version="a91f3e7c"), ref, {})
    assert a.status == "flag"
    assert "bare git hash" in a.summary


def test_branch_name_as_version_is_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="sglang", engine_version="feature-dflash-wide"), ref, {})
    assert a.status == "flag"
    assert "branch name" in a.summary


@pytest.mark.parametrize(
    "version", ["0.6.4.dev12+g1a2b3c4", "2.8.0.dev20250501+cu128", "0.6.4+g1a2b3c4d"]
)
def test_dev_build_is_flagged_as_development_build(ref: Reference, version: str) -> None:
    a = fork(_ev(engine="vllm", engine_version=version), ref, {})
    assert a.status == "flag"
    assert "development build" in a.summary


def test_precompiled_source_build_is_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="vllm", engine_version="0.10.1+precompiled"), ref, {})
    assert a.status == "flag"
    assert "source build" in a.summary


def test_llama_cpp_build_string_is_official(ref: Reference) -> None:
    a = fork(_ev(engine="llama.cpp", engine_version="b9251-e2b129e1b"), ref, {})
    assert a.status == "ok"
    assert "build 9251" in a.summary


def test_renamed_llama_cpp_is_flagged_as_a_fork(ref: Reference) -> None:
    a = fork(_ev(engine="BeeLlama.cpp", engine_version="b9251-e2b129e1b"), ref, {})
    assert a.status == "flag"
    assert "fork of llama.cpp" in a.summary


def test_llama_server_is_llama_cpp_not_a_fork(ref: Reference) -> None:
    assert fork(_ev(engine="llama-server", engine_version="b9251"), ref, {}).status == "ok"


def test_parenthetical_qualifier_is_not_a_renamed_engine(ref: Reference) -> None:
    assert fork(_ev(engine="vLLM (V1 engine)", engine_version="0.11.0"), ref, {}).status == "ok"


def test_public_fork_is_ok_with_a_note(ref: Reference) -> None:
    a = fork(_ev(engine="ik_llama.cpp", engine_version="b3800"), ref, {})
    assert a.status == "ok"
    assert "public fork of llama.cpp" in a.summary


def test_unknown_engine_name_is_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="TurboServe", engine_version="1.0.0"), ref, {})
    assert a.status == "flag"
    assert "not a known upstream engine" in a.summary


@pytest.mark.parametrize("engine", ["KTransformers", "PowerInfer", "mistral.rs", "llama-cpp-python",
                                    "distributed-llama", "bitnet.cpp"])
def test_published_engines_of_their_own_are_not_forks(ref: Reference, engine: str) -> None:
    # each publishes releases from its own public repository (checks/engines.py names it)
    a = fork(_ev(engine=engine, engine_version="0.2.1"), ref, {})
    assert (a.status, a.summary) == ("ok", f"{engine} 0.2.1: a known release.")


def test_renamed_engine_without_a_version_is_still_flagged(ref: Reference) -> None:
    assert fork(_ev(engine="BeeLlama.cpp"), ref, {}).status == "flag"


def test_unofficial_container_image_is_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="sglang", container_image="ghcr.io/someone/sglang:dflash-wide"), ref, {})
    assert a.status == "flag"
    assert "ghcr.io/someone/sglang" in a.summary


def test_official_image_tag_gives_the_version(ref: Reference) -> None:
    a = fork(_ev(engine="sglang", container_image="lmsysorg/sglang:v0.5.4-cu129"), ref, {})
    assert a.status == "ok"
    assert "0.5.4" in a.summary


def test_inferencex_amd_image_is_official(ref: Reference) -> None:
    image = "rocm/sgl-dev:v0.5.8.post1-rocm720-mi35x-20260218"
    assert fork(_ev(engine="sglang", container_image=image), ref, {}).status == "ok"


def test_official_image_with_latest_tag_is_unanswerable(ref: Reference) -> None:
    a = fork(_ev(engine="vllm", container_image="vllm/vllm-openai:latest"), ref, {})
    assert a.status == "unanswerable"


def test_no_version_anywhere_is_unanswerable(ref: Reference) -> None:
    a = fork(_ev(engine="sglang", tok_s=100.0), ref, {})
    assert a.status == "unanswerable"
    assert a.missing


def test_version_in_the_engine_string_is_found(ref: Reference) -> None:
    assert fork(_ev(engine="sglang 0.5.4"), ref, {}).status == "ok"


def test_version_in_notes_is_found_and_judged(ref: Reference) -> None:
    a = fork(_ev(engine="sglang", notes="ran on sglang 0.5.4+dflash.a91f3e, cache warm"), ref, {})
    assert a.status == "flag"
    assert "+dflash.a91f3e" in a.summary


def test_version_in_pip_install_line_is_found(ref: Reference) -> None:
    assert (
        fork(
            _ev(engine="vllm", launch_command="pip install vllm==0.11.0 && vllm serve m"), ref, {}
        ).status
        == "ok"
    )


def test_llama_cpp_log_banner_gives_the_build(ref: Reference) -> None:
    a = fork(_ev(engine="llama.cpp", notes="build: 9251 (e2b129e1b) with cc for x86_64"), ref, {})
    assert a.status == "ok"
    assert "9251" in a.summary


@pytest.mark.parametrize(
    ("engine", "version", "plugin", "source"),
    [
        ("vllm-ascend", "0.18.0rc1", "vllm-ascend", "github.com/vllm-project/vllm-ascend"),  # AccelMark
        ("vllm_ascend", "0.11.0", "vllm-ascend", "github.com/vllm-project/vllm-ascend"),
        ("vllm-tpu", "0.13.3", "tpu-inference", "github.com/vllm-project/tpu-inference"),  # AccelMark
        ("tpu-inference", "0.13.3", "tpu-inference", "github.com/vllm-project/tpu-inference"),
        ("vllm-torchtpu", "0.2.0", "vllm-torchtpu", "github.com/vllm-project/vllm-torchtpu"),
    ],
)
def test_vendor_plugins_of_vllm_are_official_builds_not_forks(
    ref: Reference, engine: str, version: str, plugin: str, source: str
) -> None:
    a = fork(_ev(engine=engine, engine_version=version), ref, {})
    assert a.status == "ok"
    assert f"{plugin} is an official hardware plugin of vLLM, not a fork" in a.summary
    assert source in a.summary


def test_a_plugin_with_a_private_suffix_is_still_flagged(ref: Reference) -> None:
    a = fork(_ev(engine="vllm-ascend", engine_version="0.18.0rc1+mybranch"), ref, {})
    assert a.status == "flag"
    assert 'local build suffix "+mybranch"' in a.summary


def test_the_vendors_own_vllm_port_is_a_public_fork(ref: Reference) -> None:
    a = fork(_ev(engine="vllm-musa", engine_version="0.4.2"), ref, {})  # AccelMark, MTT S4000
    assert a.status == "ok"
    assert "public fork of vLLM" in a.summary


def test_a_renamed_vllm_is_still_a_fork(ref: Reference) -> None:
    a = fork(_ev(engine="1Cat-vLLM", engine_version="1.0.0+flash_attn_v100-1.0.0"), ref, {})  # AccelMark
    assert a.status == "flag"
    assert "renamed vLLM" in a.summary


def test_plugins_keep_their_own_canonical_name() -> None:
    from checks.engines import canonical_engine, classify_engine

    assert classify_engine("vllm-tpu") == ("plugin", "tpu-inference")
    assert canonical_engine("vllm-ascend 0.18.0rc1") == "vllm-ascend"
    assert canonical_engine("vLLM 0.7.3") == "vLLM"
