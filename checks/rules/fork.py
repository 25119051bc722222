"""Q4 fork: the private-fork check (documented on `fork`) and its engine and image tables."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from checks.basis import answer, field
from checks.engines import (
    VENDOR_PLUGINS,
    canonical_engine,
    classify_engine,
    split_engine,
)
from checks.models import Answer, Basis, Evidence
from checks.parsing import parsed
from checks.reference import Reference

__all__ = [
    "canonical_engine",
    "classify_engine",
    "classify_image",
    "classify_version",
    "fork",
    "split_engine",
]

# Local version segments the engines publish themselves. vLLM setup.py `get_vllm_version()` appends
# +cu<NNN>, +rocm<NNN>, +tpu, +cpu, +xpu, +empty (older: +neuron<NNN>, +gaudi<NNN>) and publishes
# +cu126/+cu128 wheels on its GitHub releases; PyTorch wheels use +cu128, +cpu, +rocm6.2, +xpu;
# ExLlamaV2 wheels +cu128.torch2.7.0. Read in vllm-project/vllm:setup.py via the code index, 2026.
# Not here on purpose: `+precompiled`, which the same function appends when VLLM_USE_PRECOMPILED is
# set, i.e. an install from a local source checkout (Python edits over prebuilt kernels).
_OFFICIAL_LOCAL_TOKEN = (
    r"(?:cu\d{2,3}|rocm\d+(?:\.\d+)*|cpu|xpu|tpu|hpu|empty|neuron\d*|gaudi\d*"
    r"|torch\d+(?:\.\d+)*|cxx11abi(?:true|false)?)"
)
OFFICIAL_LOCAL = re.compile(
    rf"{_OFFICIAL_LOCAL_TOKEN}(?:\.{_OFFICIAL_LOCAL_TOKEN})*", re.IGNORECASE
)

# Container image namespaces run by the engine projects or the hardware vendors
# (InferenceX rows carry `image`, e.g. rocm/sgl-dev:v0.5.8.post1-rocm720-mi35x-…, in the
# SemiAnalysisAI/InferenceX result files).
OFFICIAL_IMAGE_PREFIXES: dict[str, str] = {
    "vllm/": "vLLM (vllm/vllm-openai)",
    "lmsysorg/": "SGLang (lmsysorg/sglang)",
    "ghcr.io/ggml-org/": "llama.cpp",
    "ghcr.io/ggerganov/": "llama.cpp (the org's former name)",
    "nvcr.io/nvidia/": "NVIDIA NGC (TensorRT-LLM, Triton, Dynamo)",
    "nvcr.io/nim/": "NVIDIA NIM",
    "rocm/": "AMD ROCm (rocm/vllm, rocm/sgl-dev as used by InferenceX)",
    "ghcr.io/huggingface/": "Hugging Face (TGI)",
    "ollama/": "Ollama",
    "openmmlab/": "LMDeploy",
}
_REGISTRY_NOISE = (
    "docker.io/library/",
    "docker.io/",
    "index.docker.io/",
    "registry.hub.docker.com/",
)

_RELEASE = re.compile(
    r"v?(?P<release>\d+(?:\.\d+)*)(?P<pre>(?:a|b|rc)\d+)?(?P<post>\.?post\d+)?(?P<dev>\.?dev\d*)?(?P<rest>.*)",
    re.IGNORECASE,
)
_LLAMA_BUILD = re.compile(
    r"b?(\d{3,5})(?:[-_ ]\(?([0-9a-f]{7,40})\)?)?", re.IGNORECASE
)  # b9251-e2b129e1b
_GIT_HASH = re.compile(r"g?[0-9a-f]{7,40}", re.IGNORECASE)
_SCM_DEV_LOCAL = re.compile(
    r"g[0-9a-f]{7,40}(?:\.d\d{8})?", re.IGNORECASE
)  # setuptools-scm: +g1a2b3c4.d20250101
_TAG_VERSION = re.compile(r"(?:^|[_\-])v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?)")


@lru_cache(maxsize=256)  # a pure function of two strings; a board repeats its versions
def classify_version(version: str, engine: str | None = None) -> tuple[bool, str]:
    """-> (is_unofficial, phrase). The phrase names the suffix when there is one."""
    v = version.strip()
    m = _LLAMA_BUILD.fullmatch(v)
    is_llama = engine is not None and classify_engine(engine)[1] in ("llama.cpp",)
    if m and (is_llama or v.lower().startswith("b") or m.group(2)):
        return False, f"llama.cpp build {m.group(1)}" + (
            f" (commit {m.group(2)})" if m.group(2) else ""
        )
    if _GIT_HASH.fullmatch(v) and re.search(r"[a-f]", v, re.IGNORECASE):
        return True, f'bare git hash "{v}" as the version: an unreleased commit, no published build'
    public, _, local = v.partition("+")
    r = _RELEASE.fullmatch(public)
    if r is None:
        return True, f'"{v}" is a branch name or private label, not a release'
    if r.group("rest"):
        return True, f'unofficial suffix "{r.group("rest")}" on {r.group("release")}'
    if local and _SCM_DEV_LOCAL.match(local):
        return True, f'development build "{v}" (built from an unreleased commit, "+{local}")'
    if r.group("dev"):
        return True, f'development build "{v}" ("{r.group("dev").lstrip(".")}": not a release)'
    if local and "precompiled" in local.lower().split("."):
        return (
            True,
            f'source build "+{local}" (a local checkout over precompiled kernels, not a published wheel)',
        )
    if local and not OFFICIAL_LOCAL.fullmatch(local):
        return True, f'local build suffix "+{local}"'
    variant = f' (official build variant "+{local}")' if local else ""
    return False, f"a known release{variant}"


def classify_image(image: str) -> tuple[bool, str, str | None]:
    """-> (is_official, repository, version read from the tag)."""
    ref_ = image.strip().split("@", 1)[0]
    for noise in _REGISTRY_NOISE:
        ref_ = ref_.removeprefix(noise)
    repo, tag = ref_, ""
    head, sep, tail = ref_.rpartition(":")
    if sep and "/" not in tail:
        repo, tag = head, tail
    official = any(repo.startswith(p) for p in OFFICIAL_IMAGE_PREFIXES)
    m = _TAG_VERSION.search(tag)
    return official, repo, (m.group(1) if m else None)


def fork(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q4 fork: is the engine a private fork?

    Seed, section 8: "Four, is the engine a private fork. A version number with a suffix is a hard
    signal — there's more in there you don't know about."

    - `flag`: the version carries an unofficial suffix — a local segment other than the engine's own
      published build variants (`+dflash.a91f3e`, `+v100`), a `-fork` / `-custom` / branch-like tail,
      a bare git hash, a branch name, or a development build (`.dev`, setuptools-scm `+g<hash>`);
      or the engine name is not a known upstream (a renamed llama.cpp such as "BeeLlama.cpp"); or
      the container image is outside the official ones. The summary names the suffix.
    - `ok`: a known release of a known engine (`0.5.4`, `0.5.4.post1`, `0.11.0+cu128`, llama.cpp
      `b9251-e2b129e1b`), optionally from an official image. A vendor plugin that the engine's own
      project publishes (vllm-ascend, vllm-tpu / tpu-inference, vllm-metal…) is an official build. A known *public* fork with its own
      releases (ik_llama.cpp, KoboldCpp, Aphrodite) is `ok` with a note: its code is published, so
      nothing is hidden, but its numbers do not transfer to the upstream.
    - `unanswerable`: no version anywhere — record field, engine string, image tag, launch command
      (`pip install sglang==…`) or notes / log banner (`build: 9251 (e2b129e1b)`).

    Reads no reference rows: the engine tables are in `checks/engines.py`, the image and version
    tables below, each entry with its source.
    """
    c = ev.claim
    name, name_version = split_engine(c.engine)
    problems: list[str] = []
    notes: list[str] = []
    basis: list[Basis | str] = []

    if name:
        kind, target = classify_engine(name)
        basis.append(field(c, "engine", f"= {c.engine!r}"))
        if kind == "public_fork":
            notes.append(
                f"{name} is a public fork of {target} (code published; its numbers do not transfer to {target})"
            )
        elif kind == "plugin":
            upstream, source = VENDOR_PLUGINS[target]
            notes.append(f"{target} is an official hardware plugin of {upstream}, not a fork ({source})")
        elif kind == "renamed":
            problems.append(
                f'engine "{name}" is not a known upstream: a renamed {target}, i.e. a fork of {target}'
            )
        elif kind == "unknown":
            problems.append(f'engine "{name}" is not a known upstream engine')

    image_version = None
    if c.container_image:
        official, repo, image_version = classify_image(c.container_image)
        basis.append(field(c, "container_image", f"= {c.container_image!r}"))
        if not official:
            problems.append(f'container image "{repo}" is outside the engines\' official images')
            image_version = None  # a tag on an unofficial image says nothing about the build

    text = parsed(ev)
    found = [
        (c.engine_version, "engine_version"),
        (name_version, "engine"),
        (text.launch_version, "launch_command"),
        (text.notes_version, "notes"),
    ]
    version, where = next(((v, w) for v, w in found if v), (None, None))
    if version is not None and where is not None:
        basis.append(field(c, where, f"= {version!r}"))
        unofficial, phrase = classify_version(version, name)
        if unofficial:
            problems.append(f"{phrase} ({name or 'engine'} {version})")
        else:
            notes.insert(0, f"{name or 'engine'} {version}: {phrase}")
    elif image_version is not None:
        basis.append(f"image tag version {image_version} (official image)")
        notes.insert(
            0, f"{name or 'engine'} {image_version} from its official image: a known release"
        )

    if problems:
        return answer(
            key="fork",
            status="flag",
            reason="not_published_build",
            label=problems[0],
            summary="; ".join(problems)
            + ": not a published build, there is more in there you don't know about.",
            basis=basis,
        )
    if version is None and image_version is None:
        searched = "record field, engine string, image tag, launch command and notes"
        return answer(
            key="fork",
            status="unanswerable",
            summary=f"no engine version found ({searched} searched), so a private fork cannot be ruled out.",
            missing=["engine version (record field, image tag, launch command or log banner)"],
            basis=basis,
        )
    return answer(key="fork", status="ok", summary="; ".join(notes) + ".", basis=basis)
