"""What launch flags mean: one table from flag (or server setting) to claim field.

Shared by launch commands and by logs that print the server's settings (SGLang `ServerArgs(...)`,
vLLM `non-default args: {...}`), so a setting means the same wherever it was read. Flag spellings
are the engines' own argparse definitions (sgl-project/sglang `python/sglang/srt/server_args.py`,
vllm-project/vllm `vllm/engine/arg_utils.py`, ggml-org/llama.cpp `common/arg.cpp`).

Quirks, each for a reason:
- Flag names are folded (`--tp_size` = `--tp-size`) because argparse front-ends accept both
  spellings, but provenance keeps the flag as written.
- The draft window is the most tokens one verify pass can emit: SGLang
  `--speculative-num-draft-tokens N` = N, but an EAGLE tree's N (more than
  `--speculative-num-steps S` + 1) counts its nodes, and one pass accepts one path: S + 1; DFlash
  `--speculative-dflash-block-size N` = N and wins when both are given (the difference is
  noted); vLLM/ATOM `num_speculative_tokens N` = N + 1 (the bonus token); llama.cpp
  `--draft-max N` = N + 1; SGLang with a top-k and no draft-token flag = steps + 1 (SGLang
  adjusts it so for top-k 1; a tree accepts one path of its depth). The convention applied is written into
  `spec_window_convention`.
- `--speculative-config` JSON may come in a Python-dict spelling or be broken; a broken one still
  says speculative decoding was configured, and a warning says the rest was not read.
- Of the two SGLang accept thresholds the lower is kept: either below 1.0 makes it lossy.
- llama.cpp's tensor overrides to the CPU (`-ot exps=CPU`), `--cpu-moe` and `--n-cpu-moe N` (N > 0)
  keep MoE expert weights in system RAM: the run is offloaded, whatever `-ngl` says.
- llama-server's `-np N` is how many sequences it decodes at once (`server_slots`), not a
  client's concurrency: it says how many streams a figure may sum, not how many were running.
- vLLM's and SGLang's `--dtype float16|bfloat16|float32` is the weights' format when nothing
  else names one and the model's name names no quantisation (an AWQ or FP8 checkpoint keeps its own).
- Forced-acceptance switches (`--spec-decode-acceptance-length`, `rejection_sample_method:
  synthetic`) are not interpreted: they stay in the raw `launch_command`, where the
  forced_acceptance check looks for them. A configured AL is not a measured one.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from checks.reference import Reference
from checks.text import sanitise
from extractors.builder import ClaimBuilder
from extractors.text.lazyre import lazy
from extractors.text.units import GGUF_QUANT, parse_int, parse_number

__all__ = ["Flag", "Program", "apply_flags", "canonical_method", "parse_flags"]

# Builtin method spellings, used when the reference table has no row for the name.
_METHOD_NAMES = [
    (lazy(r"^eagle[-_ ]?3$", re.IGNORECASE), "EAGLE-3"),
    (lazy(r"^eagle[-_ ]?2$", re.IGNORECASE), "EAGLE-2"),
    (lazy(r"^eagle(?:[-_ ]?1)?$", re.IGNORECASE), "EAGLE"),
    (lazy(r"^dflash\d?$", re.IGNORECASE), "DFlash"),
    # SGLang's NEXTN (and vLLM's *_mtp methods) run a model's own multi-token-prediction layers.
    (lazy(r"^(?:mtp|nextn|\w+_mtp|multi[- ]token[- ]prediction)$", re.IGNORECASE),
     "MTP"),
    (lazy(r"^medusa$", re.IGNORECASE), "Medusa"),
    (lazy(r"^(?:n-?gram|prompt[-_ ]lookup)$", re.IGNORECASE), "n-gram"),
    (lazy(r"^(?:standalone|draft[-_ ]model)$", re.IGNORECASE), "draft model"),
    (lazy(r"^lookahead$", re.IGNORECASE), "lookahead"),
    (lazy(r"^suffix$", re.IGNORECASE), "suffix decoding"),
    (lazy(r"^dspark$", re.IGNORECASE), "DSpark"),
]


def canonical_method(raw: str, ref: Reference | None) -> str:
    """'DFLASH' -> 'DFlash', 'eagle3' -> 'EAGLE-3': the reference row's name, else a builtin one."""
    raw = raw.strip()
    if ref is not None:
        row = ref.method(raw)
        if row is not None:
            return row.name
    for pattern, name in _METHOD_NAMES:
        if pattern.match(raw):
            if ref is not None and (row := ref.method(name)) is not None:
                return row.name
            return name
    return raw


@dataclass(frozen=True)
class Program:
    """Which program the flags were given to: it decides what some flags mean."""

    engine: str  # "sglang", "vllm", "llama.cpp", "tensorrt-llm", "atom" or "" for a client
    role: str = "server"  # "server", "bench" or "client"
    program: str = ""  # the program words, e.g. "python -m dflash.benchmark"


_BOOL_FLAGS = {
    "--disable-radix-cache", "--enable-prefix-caching", "--no-enable-prefix-caching",
    "--trust-remote-code", "--enforce-eager", "--enable-torch-compile", "--enable-tbo",
    "--enable-dp-attention", "--disable-cuda-graph", "--enable-thinking", "--no-mmap", "--mlock",
    "--cont-batching", "--no-cont-batching", "--jinja", "--verbose", "--cpu-moe", "-cmoe",
}


def _fold(flag: str) -> str:
    if flag.startswith("--"):
        return "--" + flag[2:].replace("_", "-").lower()
    return flag


Flag = tuple[str, str, str | None, str]  # (flag as written, folded flag, value, span)


def parse_flags(args: list[str]) -> tuple[list[Flag], list[str]]:
    """[(flag as written, folded flag, value, span)], positionals."""
    words = tuple(args)
    flags, positionals = _parsed(words) if sum(map(len, words)) <= _MEMO_WORDS else _parsed.__wrapped__(words)
    return list(flags), list(positionals)


_MEMO_WORDS = 2000  # characters of words memoised at most: the memo stays small


@lru_cache(maxsize=2048)  # by the words: a board's commands repeat their templates
def _parsed(args: tuple[str, ...]) -> tuple[tuple[Flag, ...], tuple[str, ...]]:
    flags: list[Flag] = []
    positionals: list[str] = []
    i = 0
    while i < len(args):
        tok = args[i]
        if tok.startswith("-") and len(tok) > 1 and parse_number(tok) is None:
            name, eq, value = tok.partition("=")
            folded = _fold(name)
            val: str | None = value if eq else None
            if not eq and folded not in _BOOL_FLAGS and i + 1 < len(args):
                nxt = args[i + 1]
                if not nxt.startswith("-") or parse_number(nxt) is not None:
                    val = nxt
                    i += 1
            flags.append((name, folded, val, f"{name} {val}" if val is not None else name))
        else:
            positionals.append(tok)
        i += 1
    return tuple(flags), tuple(positionals)


class _Spec:
    """Window candidates and speculative settings collected from one command."""

    def __init__(self) -> None:
        self.windows: dict[str, tuple[int, str, str]] = {}  # kind -> (value, field, span)
        self.steps: tuple[int, str, str] | None = None
        self.topk: int | None = None


def apply_flags(b: ClaimBuilder, ref: Reference | None, prog: Program,
                flags: list[Flag]) -> list[str]:
    """Fill `b` from parsed flags (or settings spelled as flags); returns warnings."""
    warnings: list[str] = []
    spec = _Spec()
    llama = prog.engine == "llama.cpp"
    dtype: Flag | None = None
    for f in flags:
        written, flag, value, span = f
        if flag == "--dtype" and not llama:
            dtype = f
        _flag(b, ref, spec, prog, written, flag, value, span, llama, warnings)
    _window(b, spec, prog.engine)
    if dtype is not None:
        _unquantised(b, dtype)
    return warnings


# vLLM's and SGLang's `--dtype` is the dtype unquantised weights are loaded in; a checkpoint
# quantised ahead (AWQ, GPTQ, FP8, NVFP4, a GGUF) keeps its own format whatever it says.
_UNQUANTISED = {"float16": "FP16", "half": "FP16", "fp16": "FP16", "bfloat16": "BF16", "bf16": "BF16",
                "float32": "FP32", "float": "FP32", "fp32": "FP32"}
_QUANTISED_NAME = lazy(r"(?i)awq|gptq|fp8|fp4|int[248]|\d[-_]?bit|w\d+a\d+|bnb|exl[23]|gguf|marlin|"
                       r"hqq|aqlm|quant|mxfp|nvfp|" + GGUF_QUANT)


def _unquantised(b: ClaimBuilder, dtype: Flag) -> None:
    """The weights' format from `--dtype`, where nothing else named one and the model's name
    names no quantisation ("--model meta-llama/Llama-2-7b-chat-hf --dtype float16": FP16)."""
    written, _, value, span = dtype
    fmt = _UNQUANTISED.get((value or "").lower())
    model = b.values.get("model")
    if fmt is None or b.has("weight_format") or (isinstance(model, str) and _QUANTISED_NAME.search(model)):
        return
    b.set("weight_format", fmt, field=written, span=span)


def _int(value: str | None) -> int | None:
    n = parse_int(value)
    return n if n is not None and n > 0 else None


def _context(value: str | None) -> int | None:
    """vLLM accepts '32k' (x1000) and '32K' (x1024) for --max-model-len."""
    if value is None:
        return None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*", value)
    if not m:
        return None
    num = parse_number(m.group(1))
    if num is None:
        return None
    mult = {"": 1, "k": 1000, "K": 1024, "m": 1000**2, "M": 1024**2}[m.group(2)]
    out = num * mult
    return int(out) if 0 < out < 1e12 and out == int(out) else None


def _flag(b: ClaimBuilder, ref: Reference | None, spec: _Spec, prog: Program, written: str,
          flag: str, value: str | None, span: str, llama: bool, warnings: list[str]) -> None:
    def put(name: str, val: Any) -> None:
        b.set(name, val, field=written, span=span)

    if flag in ("--model-path", "--model") or (llama and flag in ("-m", "-hf", "--hf-repo")):
        put("model", value)
        quant = re.search(GGUF_QUANT, value or "", re.IGNORECASE) if llama else None
        if quant:
            b.set("weight_format", quant.group(0), field=f"{written} (file name)", span=span)
    elif flag in ("--quantization", "-q") and not llama:
        put("weight_format", value)
    elif flag in ("--kv-cache-dtype", "-ctk", "--cache-type-k"):
        if value and value.lower() != "auto":
            put("kv_dtype", value)
    elif llama and flag in ("-ngl", "--n-gpu-layers", "--gpu-layers"):
        n = parse_int(value)  # 0 is meaningful: every layer on the CPU
        put("gpu_layers", n if n is not None and n >= 0 else None)
    elif llama and flag in ("-ot", "--override-tensor") and "=cpu" in (value or "").lower():
        # A tensor pattern sent to the CPU ("exps=CPU": the MoE experts) sits in system RAM.
        put("offload", True)
    elif llama and (flag in ("--cpu-moe", "-cmoe") or (
            flag in ("--n-cpu-moe", "-ncmoe") and (parse_int(value) or 0) > 0)):
        put("offload", True)  # "keep the MoE weights (of the first N layers) in the CPU"
    elif flag in ("--tp", "--tp-size", "--tensor-parallel-size", "-tp"):
        put("hardware_count", _int(value))
    elif flag in ("--context-length", "--max-model-len", "--max-seq-len", "--ctx-size") or (
            llama and flag == "-c"):
        put("context_length", _context(value))
    elif flag in ("--temperature", "--temp"):
        t = parse_number(value)
        put("temperature", t if t is not None and 0 <= t <= 100 else None)
    elif flag == "--disable-radix-cache":
        put("prefix_caching", False)
    elif flag == "--enable-prefix-caching":
        put("prefix_caching", True)
    elif flag == "--no-enable-prefix-caching":
        put("prefix_caching", False)
    elif flag in ("--batch-size",) and prog.role == "bench" and not llama:
        put("batch", _int(value))
    elif flag in ("--max-concurrency", "--concurrency") and prog.role == "client":
        put("concurrency", _int(value))
    elif llama and prog.role == "server" and flag in ("-np", "--parallel"):
        # llama-server decodes up to N slots in one batch (ggml-org/llama.cpp tools/server
        # README: "-np, --parallel N | number of parallel sequences to decode"): a figure may sum them.
        put("server_slots", _int(value))
    elif flag in ("--input-len", "--random-input-len") and prog.role != "server":
        put("input_tokens", _int(value))
    elif flag in ("--output-len", "--random-output-len") and prog.role != "server":
        put("output_tokens", _int(value))
    elif flag == "--backend" and "dflash.benchmark" in prog.program and value:
        put("engine", {"sglang": "sglang", "vllm": "vllm"}.get(value.lower(), value))
    elif value and (flag in ("--speculative-algorithm", "--speculative-algo") or (
            flag == "--method" and prog.engine == "atom")):
        put("speculative", True)
        put("spec_method", canonical_method(value, ref))
    elif flag in ("--speculative-draft-model-path", "--speculative-draft", "--draft-model",
                  "--speculative-model", "-md", "--model-draft", "-hfd", "--hf-repo-draft"):
        put("speculative", True)
        put("drafter_model", value)
        if value and llama:
            _method_from_name(b, ref, value, written, span)
    elif flag == "--speculative-num-steps":
        spec.steps = (n, written, span) if (n := _int(value)) else spec.steps
        put("draft_steps", n)
    elif flag == "--speculative-eagle-topk":
        spec.topk = _int(value)
        put("draft_topk", spec.topk)
    elif flag in ("--speculative-accept-threshold-single", "--speculative-accept-threshold-acc"):
        t = parse_number(value)
        if t is not None and 0 <= t <= 1:
            if b.has("accept_threshold") and b.values["accept_threshold"] <= t:
                return
            b.set("accept_threshold", t, field=written, span=span, overwrite=True)
    elif flag == "--speculative-config" or flag.startswith("--speculative-config."):
        _spec_config(b, ref, spec, written, flag, value, span, warnings)
    elif (n := _int(value)) is not None:
        _window_flag(spec, prog, written, flag, n, span)


def _window_flag(spec: _Spec, prog: Program, written: str, flag: str, n: int, span: str) -> None:
    kind = None
    if flag == "--speculative-dflash-block-size" or (
            flag == "--block-size" and "dflash.benchmark" in prog.program):
        kind = "block"
    elif flag == "--speculative-num-draft-tokens":
        kind = "draft_tokens"
    elif flag == "--num-speculative-tokens":
        kind = "spec_tokens"
    elif prog.engine == "llama.cpp" and flag in ("--draft-max", "--draft", "--draft-n",
                                                 "--spec-draft-n-max"):
        kind = "draft_max"
    if kind:
        spec.windows.setdefault(kind, (n, written, span))


def _method_from_name(b: ClaimBuilder, ref: Reference | None, name: str, written: str,
                      span: str) -> None:
    """llama.cpp has no method flag: a drafter file named for its method ('...-DFlash-Q5_K_M')."""
    m = re.search(r"(?i)(?<![a-z])(dflash\d?|eagle[-_]?3|eagle|medusa|mtp)(?![a-z])", name)
    if m:
        b.set("spec_method", canonical_method(m.group(1), ref), field=f"{written} (file name)",
              span=span)


def _spec_config(b: ClaimBuilder, ref: Reference | None, spec: _Spec, written: str, flag: str,
                 value: str | None, span: str, warnings: list[str]) -> None:
    b.set("speculative", True, field=written, span=span)
    if flag != "--speculative-config":  # dotted form: --speculative-config.method dflash
        config: Any = {flag.split(".", 1)[1].replace("-", "_"): value}
    else:
        config = _load_config(value)
    if not isinstance(config, dict):
        warnings.append(f"{written} is not readable JSON; kept in the launch command as written")
        return
    method = config.get("method")
    if isinstance(method, str) and method.strip():
        b.set("spec_method", canonical_method(method, ref), field=f"{written}.method",
              span=f'"method": "{method}"')
    drafter = config.get("model")
    if isinstance(drafter, str) and drafter.strip():
        b.set("drafter_model", drafter, field=f"{written}.model", span=f'"model": "{drafter}"')
    raw = config.get("num_speculative_tokens")
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    n = _int(str(raw)) if isinstance(raw, (int, str)) and not isinstance(raw, bool) else None
    if n is not None:
        spec.windows.setdefault("spec_tokens", (n, f"{written}.num_speculative_tokens",
                                                f'"num_speculative_tokens": {n}'))


def _load_config(value: str | None) -> Any:
    if not value or len(value) > 20000:
        return None
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        pass
    try:  # a Python-dict spelling: {'method': 'dflash', ...}
        return ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _window(b: ClaimBuilder, spec: _Spec, engine: str) -> None:
    w = spec.windows
    if "block" in w:
        n, field_, span = w["block"]
        conv = f"DFlash block size ({span}) = window {n}"
        if "draft_tokens" in w and w["draft_tokens"][0] != n:
            conv += f"; {w['draft_tokens'][2]} differs, block size kept"
        _set_window(b, n, conv, field_, span)
    elif "draft_tokens" in w:
        n, field_, span = w["draft_tokens"]
        if spec.steps is not None and n > spec.steps[0] + 1:
            # An EAGLE tree: num_draft_tokens counts the nodes verified across its topk branches,
            # and one pass accepts one root-to-leaf path, at most num_steps (the tree's depth)
            # drafted tokens + the bonus token (EAGLE-2, arXiv 2406.16858: `total_token` draft
            # tokens over `depth` levels; SGLang's flags are those two and the branching).
            steps, steps_field, steps_span = spec.steps
            _set_window(b, steps + 1, f"SGLang tree: {steps_span} + 1 = window {steps + 1} ({span} counts "
                        "the tree's nodes, not the tokens one pass accepts)", steps_field, steps_span)
        else:
            _set_window(b, n, f"SGLang {span} = window {n}", field_, span)
    elif "spec_tokens" in w:
        n, field_, span = w["spec_tokens"]
        name = {"atom": "ATOM", "vllm": "vLLM"}.get(engine, engine or "vLLM")
        key = "num_speculative_tokens" if "." in field_ else field_
        _set_window(b, n + 1, f"{name} {key} {n} + 1 = window {n + 1}", field_, span)
    elif "draft_max" in w:
        n, field_, span = w["draft_max"]
        _set_window(b, n + 1, f"llama.cpp {span} + 1 = window {n + 1}", field_, span)
    elif spec.steps is not None and spec.topk is not None:
        n, field_, span = spec.steps
        how = "with --speculative-eagle-topk 1" if spec.topk == 1 else "+ 1 (a tree accepts one path of its depth)"
        _set_window(b, n + 1, f"SGLang {span} {how} = window {n + 1}", field_, span)


def _set_window(b: ClaimBuilder, n: int, convention: str, field_: str, span: str) -> None:
    if b.has("spec_window"):
        return
    b.set("spec_window", n, field=field_, span=span)
    b.set("spec_window_convention", sanitise(convention, limit=300), field=field_, span=span)
    b.set("speculative", True, field=field_, span=span)
