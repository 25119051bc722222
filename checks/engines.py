"""Inference engines by name: the known upstreams, their official hardware plugins, public forks.

A record names its engine the way its tool prints it ("vLLM", "vllm-ascend", "1Cat-vLLM",
"llama-server", "ik_llama.cpp"). Q4 (fork) and the comparisons need to know which of those are the
upstream project's own builds and which are somebody else's code. Each entry names the public
source that says what it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "BATCHING_ENGINES",
    "KNOWN_ENGINES",
    "PLAIN_DECODE_TOOLS",
    "PUBLIC_FORKS",
    "UPSTREAM_STEMS",
    "VENDOR_PLUGINS",
    "batches_by_default",
    "cannot_speculate",
    "canonical_engine",
    "classify_engine",
    "split_engine",
]

# Known upstream engines and their well-known downstream packagings (not private forks: each
# publishes releases from a public repository). Canonical name -> aliases.
KNOWN_ENGINES: dict[str, tuple[str, ...]] = {
    "vLLM": ("vllm", "vllm-openai", "vllm serve"),  # github.com/vllm-project/vllm
    "vllm-metal": ("vllm-metal",),  # github.com/vllm-project/vllm-metal (the project's own plugin)
    "SGLang": ("sglang", "sgl"),  # github.com/sgl-project/sglang
    "llama.cpp": (  # github.com/ggml-org/llama.cpp: its binaries are the same project
        "llama.cpp",
        "llamacpp",
        "llama-server",
        "llama-bench",
        "llama-cli",
        "llama-speculative",
        "ggml",
    ),
    "llamafile": ("llamafile",),  # github.com/Mozilla-Ocho/llamafile (LocalScore's runtime)
    "Ollama": ("ollama",),  # github.com/ollama/ollama
    "LM Studio": ("lm studio", "lmstudio", "lms"),  # lmstudio.ai: published llama.cpp/MLX runtimes
    "TensorRT-LLM": ("tensorrt-llm", "trtllm", "trt-llm"),  # github.com/NVIDIA/TensorRT-LLM
    "TGI": ("tgi", "text-generation-inference"),  # github.com/huggingface/text-generation-inference
    "ExLlamaV2": ("exllamav2", "exl2"),  # github.com/turboderp-org/exllamav2
    "ExLlamaV3": ("exllamav3", "exl3"),  # github.com/turboderp-org/exllamav3
    "TabbyAPI": ("tabbyapi",),  # github.com/theroyallab/tabbyAPI (ExLlama server)
    "MLX": ("mlx", "mlx-lm", "mlx_lm"),  # github.com/ml-explore/mlx-lm
    "ATOM": ("atom", "rocm atom"),  # github.com/ROCm/ATOM
    "LMDeploy": ("lmdeploy", "turbomind"),  # github.com/InternLM/lmdeploy
    "DeepSpeed-MII": ("deepspeed-mii", "mii"),  # github.com/deepspeedai/DeepSpeed-MII
    "MLC LLM": ("mlc-llm", "mlc llm", "mlc"),  # github.com/mlc-ai/mlc-llm
    "Transformers": ("transformers", "hf transformers"),  # github.com/huggingface/transformers
    "DFlash reference": ("dflash", "z-lab/dflash"),  # github.com/z-lab/dflash benchmark harness
    # Engines of their own with public repositories and releases, named in public speed posts (an
    # unknown name is Q4's flag, so a published engine missing here would be called a fork):
    "KTransformers": ("ktransformers", "kt-kernel"),  # github.com/kvcache-ai/ktransformers
    "PowerInfer": ("powerinfer",),  # github.com/SJTU-IPADS/PowerInfer
    "mistral.rs": ("mistral.rs", "mistralrs"),  # github.com/EricLBuehler/mistral.rs
    "distributed-llama": ("distributed-llama", "dllama"),  # github.com/b4rtaz/distributed-llama
    "llama-cpp-python": ("llama-cpp-python", "llama_cpp_python"),  # github.com/abetlen/llama-cpp-python
    "CTranslate2": ("ctranslate2",),  # github.com/OpenNMT/CTranslate2
    "OpenVINO GenAI": ("openvino", "openvino genai", "openvino.genai"),  # github.com/openvinotoolkit/openvino.genai
    "IPEX-LLM": ("ipex-llm", "ipex_llm"),  # github.com/intel/ipex-llm
    "ONNX Runtime GenAI": ("onnxruntime-genai", "onnxruntime genai", "ort genai"),  # github.com/microsoft/onnxruntime-genai
    "LightLLM": ("lightllm",),  # github.com/ModelTC/lightllm
    "LocalAI": ("localai",),  # github.com/mudler/LocalAI
    "GPT4All": ("gpt4all",),  # github.com/nomic-ai/gpt4all
    "candle": ("candle",),  # github.com/huggingface/candle
    "bitnet.cpp": ("bitnet.cpp", "bitnet"),  # github.com/microsoft/BitNet
}

# Public forks with their own releases: the code is published (not private), but a number from
# one says nothing about the upstream. Decision: `ok` with that note, not `flag`.
PUBLIC_FORKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ik_llama.cpp": (
        "llama.cpp",
        ("ik_llama.cpp", "ik-llama.cpp", "ikllama"),
    ),  # github.com/ikawrakow/ik_llama.cpp
    "KoboldCpp": ("llama.cpp", ("koboldcpp",)),  # github.com/LostRuins/koboldcpp
    # Moore Threads' own open-source port of vLLM 0.4.2 to its MUSA GPUs (github.com/MooreThreads/
    # vllm_musa README: "we launched the vllm_musa open-source project to provide MUSA acceleration
    # for vllm"), built by porting the official code with the musify tool: the vendor's public fork.
    "vllm_musa": ("vLLM", ("vllm-musa", "vllm musa")),
    "Aphrodite Engine": (
        "vLLM",
        ("aphrodite", "aphrodite-engine"),
    ),  # github.com/aphrodite-engine/aphrodite-engine
}

# A name containing one of these stems without being a known engine is a renamed upstream
# (renamed forks seen in public posts: BeeLlama.cpp by Anbeeld, dflash-mlx).
UPSTREAM_STEMS: dict[str, str] = {
    "llama.cpp": "llama.cpp",
    "llamacpp": "llama.cpp",
    "vllm": "vLLM",
    "sglang": "SGLang",
    "tensorrt": "TensorRT-LLM",
    "exllama": "ExLlama",
    "mlx": "MLX",
    "lmdeploy": "LMDeploy",
}

# Hardware plugins that the engine's own project publishes: official builds for other hardware, not
# forks. Canonical name -> (upstream, source that says so); aliases below.
VENDOR_PLUGINS: dict[str, tuple[str, str]] = {
    "vllm-ascend": ("vLLM", "docs.vllm.ai/projects/ascend: 'a community-maintained hardware plugin for "
                    "running vLLM on the Ascend NPU ... the recommended approach for supporting the "
                    "Ascend backend within the vLLM community'; repository github.com/vllm-project/vllm-ascend"),
    "tpu-inference": ("vLLM", "docs.vllm.ai/projects/tpu: 'vLLM TPU is now powered by tpu-inference, ... a "
                      "new hardware plugin ... within the vLLM project', installed as `pip install "
                      "vllm-tpu`; repository github.com/vllm-project/tpu-inference"),
    "vllm-torchtpu": ("vLLM", "github.com/vllm-project/vllm-torchtpu README: 'the PyTorch-native TPU backend "
                      "for vLLM ... an out-of-tree vLLM platform plugin'"),
}
_PLUGIN_ALIASES: dict[str, tuple[str, ...]] = {
    "vllm-ascend": ("vllm-ascend", "vllm_ascend", "vllm ascend"),
    "tpu-inference": ("tpu-inference", "tpu_inference", "vllm-tpu", "vllm tpu", "vllm_tpu"),
    "vllm-torchtpu": ("vllm-torchtpu", "vllm_torchtpu", "vllm-torchtpu-core"),
}

# Tools that measure plain decode only: they have no way to run a draft model or a speculative
# method, so a figure from one is a plain-decode figure whatever else the record says.
PLAIN_DECODE_TOOLS: dict[str, str] = {
    # ggml-org/llama.cpp tools/llama-bench/README.md: its options (-p, -n, -pg, -b, -ngl, ...) have
    # no draft model; speculative decoding lives in llama-speculative and llama-server -md.
    "llama-bench": "llama-bench has no draft-model option (ggml-org/llama.cpp tools/llama-bench)",
    # cjpais/LocalScore and Mozilla-Ocho/llamafile localscore/: the benchmark times plain llamafile
    # prompt processing and generation.
    "localscore": "LocalScore times plain llamafile generation (cjpais/LocalScore)",
    "llamafile": "llamafile's benchmark and chat run plain generation (Mozilla-Ocho/llamafile)",
    # ollama/ollama docs/modelfile.md and docs/api.md list no draft-model or speculative parameter;
    # `ollama run --verbose` prints the plain "eval rate".
    "ollama": "Ollama has no speculative decoding option (ollama/ollama docs/modelfile.md, docs/api.md)",
}
_PLAIN_KEYS = {re.sub(r"[^a-z0-9.]", "", k): why for k, why in PLAIN_DECODE_TOOLS.items()}

# Serving engines that batch the requests they hold by default: a figure from one of them may count
# many streams even when nothing says so. Each engine's own README names the scheduler.
BATCHING_ENGINES: dict[str, str] = {
    "vLLM": "vllm-project/vllm README: 'Continuous batching of incoming requests'",
    "SGLang": "sgl-project/sglang README: continuous batching among its runtime's features",
    "TensorRT-LLM": "NVIDIA/TensorRT-LLM README: 'in-flight batching'",
    "TGI": "huggingface/text-generation-inference README: 'Continuous batching of incoming requests'",
    "LMDeploy": "InternLM/lmdeploy README: 'persistent batch (a.k.a. continuous batching)'",
    "DeepSpeed-MII": "deepspeedai/DeepSpeed-MII README: continuous batching with blocked KV caching and Dynamic SplitFuse",
    "LightLLM": "ModelTC/lightllm README: 'Dynamic Batch: enables dynamic batch scheduling of requests'",
}


@lru_cache(maxsize=256)  # a pure function of the name; a board repeats its few engines
def cannot_speculate(name: str | None) -> str | None:
    """Why the named tool measures plain decode only, or None when it can speculate (or is unknown)."""
    base, _ = split_engine(name)
    if base is None:
        return None
    return _PLAIN_KEYS.get(_norm(base))


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9.]", "", s.lower())


_ALIASES = {_norm(a): name for name, aliases in KNOWN_ENGINES.items() for a in (name, *aliases)}
_PLUGINS = {_norm(a): name for name, aliases in _PLUGIN_ALIASES.items() for a in (name, *aliases)}
_FORK_ALIASES = {
    _norm(a): name for name, (_, aliases) in PUBLIC_FORKS.items() for a in (name, *aliases)
}


@lru_cache(maxsize=256)  # a pure function of the name; a board repeats its few engines
def split_engine(raw: str | None) -> tuple[str | None, str | None]:
    """'sglang 0.5.4' -> ('sglang', '0.5.4'); 'llama.cpp b9251' -> ('llama.cpp', 'b9251')."""
    raw = re.sub(r"\([^)]*\)", " ", raw or "")  # "vLLM (V1 engine)": a qualifier, not a new name
    if not raw.strip():
        return None, None
    words = raw.strip().split()
    for i, w in enumerate(words[1:], start=1):
        if re.match(r"v?\d|b\d{3,}", w, re.IGNORECASE):
            return " ".join(words[:i]), " ".join(words[i:])
    return raw.strip(), None


@lru_cache(maxsize=256)  # a pure function of the name; a board repeats its few engines
def classify_engine(name: str) -> tuple[str, str]:
    """-> (kind, canonical or upstream): kind is known / plugin / public_fork / renamed / unknown.

    For a plugin the second item is the plugin's canonical name (its upstream is VENDOR_PLUGINS').
    """
    key = _norm(name)
    if key in _ALIASES:
        return "known", _ALIASES[key]
    if key in _PLUGINS:
        return "plugin", _PLUGINS[key]
    if key in _FORK_ALIASES:
        fork_name = _FORK_ALIASES[key]
        return "public_fork", PUBLIC_FORKS[fork_name][0]
    for stem, upstream in UPSTREAM_STEMS.items():
        if stem in key:
            return "renamed", upstream
    return "unknown", name


@lru_cache(maxsize=256)  # a pure function of the name; a board repeats its few engines
def batches_by_default(name: str | None) -> str | None:
    """Why the named engine may count many streams in one figure (its scheduler batches every
    request it holds), or None: the engine, its public forks and its vendor plugins alike."""
    base, _ = split_engine(name)
    if base is None:
        return None
    kind, canonical = classify_engine(base)
    upstream = (VENDOR_PLUGINS[canonical][0] if kind == "plugin" and canonical in VENDOR_PLUGINS
                else PUBLIC_FORKS[_FORK_ALIASES[_norm(base)]][0] if kind == "public_fork" else canonical)
    return BATCHING_ENGINES.get(upstream) if kind in ("known", "plugin", "public_fork") else None


def canonical_engine(name: str | None) -> str | None:
    """The canonical engine name, or the raw name folded when it is not in the table."""
    base, _ = split_engine(name)
    if base is None:
        return None
    kind, canonical = classify_engine(base)
    if kind in ("known", "plugin"):
        return canonical
    if kind == "public_fork":
        return _FORK_ALIASES[_norm(base)]
    return _norm(base)


