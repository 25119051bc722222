"""llama.cpp `llama-bench -o json` (a JSON array, one object per test) and `-o jsonl`.

Documented in ggml-org/llama.cpp `tools/llama-bench/README.md` ("Output formats": JSON, JSONL,
with a real two-row example) and in `scripts/compare-llama-bench.py` (DB_FIELDS). Keys per row: `build_commit`, `build_number`, `cpu_info`,
`gpu_info`, `backends`, `model_filename`, `model_type` (e.g. "qwen2 7B Q4_K - Medium"),
`model_size` (bytes), `model_n_params`, `n_batch`, `n_ubatch`, `n_threads`, `type_k`,
`type_v`, `n_gpu_layers`, `split_mode`, `flash_attn`, ..., `n_prompt`, `n_gen`, `n_depth`,
`test_time`, `avg_ns`, `stddev_ns`, `avg_ts`, `stddev_ts`, `samples_ns[]`, `samples_ts[]`.

Mapping, each with its reason:
- Each row is one Claim. A pp row (`n_prompt` > 0, `n_gen` 0) is prompt processing, kind
  "prefill"; a tg row (`n_prompt` 0, `n_gen` > 0) is decode of one sequence, kind "decode" with
  batch 1; a pg row (both > 0, `-pg`) times prompt and generation together, kind "total".
- `avg_ns` is the mean time of one repetition of the test, so tg rows give
  tokens_generated = `n_gen` over wall_seconds = `avg_ns` / 1e9 (pp rows: input_tokens only).
- `model_type` is "<arch> <size label> <file type>": the first two words are the model
  ("qwen2 7B"), the rest the weight format ("Q4_K - Medium"; old builds prefix "mostly ").
  A size label like "30B.A3B" or "8x7B", or an arch ending in "moe", marks an MoE; the "A3B"
  part gives the active parameters (llama.cpp's rounded label, stated in the notes).
- `model_size` is the file's own byte count (the roofline prefers it to params x bits);
  `model_n_params` / 1e9 is params_total_b.
- engine_version is "b<build_number>-<build_commit>", the same spelling llama.cpp itself uses
  for its build info (llama-server's `system_fingerprint`, e.g. "b9251-e2b129e1b").
- `gpu_info` is the hardware; a comma-separated list of identical cards gives the count (one
  card when `split_mode` is "none"), the machine's own CPU in it (Vulkan lists every device) left
  out, `cpu_info` then the host; an empty `gpu_info` or `n_gpu_layers` 0 means a CPU run, and
  `cpu_info` is used.
- `type_k` is the KV-cache dtype, `n_depth` the context already in the KV cache,
  `len(samples_ts)` the repetitions.
- llama-bench has no speculative decoding (no draft-model option in its README): `speculative` False.
- Keys only the ik_llama.cpp fork's llama-bench writes (`mla_attn`, `fused_moe`, ...) are named
  in the notes; the engine name is not changed on that evidence alone.
"""

from __future__ import annotations

from typing import Any, ClassVar

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.base import ToolOutputFormat
from extractors.formats.common import (
    Notes,
    count,
    fmt,
    has_any,
    join_path,
    number,
    positive,
    record_list,
    text,
)
from extractors.text.lazyre import lazy

__all__ = ["LlamaBench", "split_model_type"]

_MODEL_TYPE = lazy(r"^(?P<arch>\S+)\s+(?P<size>\S*\d\S*|\?B)\s+(?P<ftype>.+)$")
_ACTIVE = lazy(r"(?:^|[.\-_])A(\d+(?:\.\d+)?)B$")
_EXPERTS = lazy(r"^\d+x\d+(?:\.\d+)?[BM]$")
_IK_KEYS = ("mla_attn", "fused_moe", "attn_max_batch", "ser", "rtr", "fused_up_gate")


def split_model_type(model_type: str) -> tuple[str, str | None, bool | None, float | None]:
    """("qwen3moe 30B.A3B Q4_K - Medium") -> ("qwen3moe 30B.A3B", "Q4_K - Medium", True, 3.0)."""
    m = _MODEL_TYPE.match(model_type.strip())
    if not m:
        return model_type.strip(), None, None, None
    arch, size, ftype = m["arch"], m["size"], m["ftype"].strip()
    if ftype.lower().startswith("mostly "):
        ftype = ftype[len("mostly "):].strip()
    active = _ACTIVE.search(size)
    moe = True if (active or _EXPERTS.match(size) or arch.lower().endswith("moe")) else None
    return f"{arch} {size}", ftype or None, moe, float(active[1]) if active else None


class LlamaBench(ToolOutputFormat):
    name: ClassVar[str] = "llama_bench"
    label: ClassVar[str] = "llama-bench"

    def _is_record(self, rec: Any) -> bool:
        return isinstance(rec, dict) and "avg_ts" in rec and has_any(rec, ("n_prompt", "n_gen")) \
            and has_any(rec, ("model_type", "build_commit", "model_filename"))

    def _why_not(self, data: Any) -> str:
        if isinstance(data, list) and not data:
            return "llama-bench output holds no test rows"
        got = record_list(data)
        if got is None:
            return "not llama-bench JSON output"
        i = next(i for i, row in enumerate(got[0]) if not self._is_record(row))
        return (f"llama-bench row {i + 1} is not a test result "
                "(needs avg_ts, n_prompt/n_gen and model_type)")

    def _claim(self, doc: RawDocument, row: dict[str, Any], prefix: str, i: int,
               total: int) -> Claim:
        b = ClaimBuilder(doc.source)
        notes = Notes()

        def p(key: str) -> str:
            return join_path(prefix, key)

        def bad(key: str) -> InvalidInput:
            return InvalidInput(f"{doc.source}: llama-bench row {i + 1} has no usable {key} "
                                f"(got {row.get(key)!r})")

        tok_s = positive(row.get("avg_ts"))
        if tok_s is None:
            raise bad("avg_ts")
        n_prompt = count(row.get("n_prompt", 0))
        n_gen = count(row.get("n_gen", 0))
        if n_prompt is None:
            raise bad("n_prompt")
        if n_gen is None:
            raise bad("n_gen")
        if n_prompt == 0 and n_gen == 0:
            raise InvalidInput(f"{doc.source}: llama-bench row {i + 1} has n_prompt 0 and n_gen 0")

        b.set("tok_s", tok_s, field=p("avg_ts"))
        seconds = positive(row.get("avg_ns"))
        wall = seconds / 1e9 if seconds is not None else None
        if n_gen == 0:
            b.set("tok_s_kind", "prefill", field=p("n_gen"))
            b.set("input_tokens", n_prompt, field=p("n_prompt"))
            b.set("wall_seconds", wall, field=p("avg_ns"))
        elif n_prompt == 0:
            b.set("tok_s_kind", "decode", field=p("n_prompt"))
            # A tg test decodes one sequence: its rate is one user's rate.
            b.set("per_user_tok_s", tok_s, field=p("avg_ts"), span="tg row: one sequence")
            b.set("batch", 1, field=p("n_gen"))
            b.set("concurrency", 1, field=p("n_gen"))
            b.set("output_tokens", n_gen, field=p("n_gen"))
            b.set("tokens_generated", n_gen, field=p("n_gen"))
            b.set("wall_seconds", wall, field=p("avg_ns"))
        else:
            b.set("tok_s_kind", "total", field=f"{p('n_prompt')}, {p('n_gen')}")
            b.set("input_tokens", n_prompt, field=p("n_prompt"))
            b.set("output_tokens", n_gen, field=p("n_gen"))
            notes.add(f"pp{n_prompt}+tg{n_gen} test: avg_ts counts prompt and generated tokens "
                      "over the whole test", p("avg_ts"))
        b.set("context_length", count(row.get("n_depth")), field=p("n_depth"))
        depth = count(row.get("n_depth"))
        if depth:
            notes.add(f"measured at depth {depth} (KV cache prefilled with {depth} tokens)",
                      p("n_depth"))

        self._model(b, row, p, notes)
        self._hardware(b, row, p, notes)
        b.set("engine", "llama.cpp", field=f"({self.name})")
        commit, number_ = text(row.get("build_commit")), count(row.get("build_number"))
        if commit and number_ is not None:
            b.set("engine_version", f"b{number_}-{commit}",
                  field=f"{p('build_number')}, {p('build_commit')}")
        elif commit:
            b.set("engine_version", commit, field=p("build_commit"))
        elif number_ is not None:
            b.set("engine_version", f"b{number_}", field=p("build_number"))
        b.set("speculative", False, field=f"({self.name})")
        b.set("kv_dtype", text(row.get("type_k")), field=p("type_k"))
        type_v = text(row.get("type_v"))
        if type_v and type_v != text(row.get("type_k")):
            notes.add(f"type_v {type_v}", p("type_v"))
        samples = row.get("samples_ts")
        if isinstance(samples, list) and samples:
            b.set("repeats", len(samples), field=p("samples_ts"))
        b.set("date", text(row.get("test_time")), field=p("test_time"))

        spread = number(row.get("stddev_ts"))
        if spread is not None:
            notes.add(f"± {fmt(spread)} t/s", p("stddev_ts"))
        for key in ("backends", "n_batch", "n_ubatch", "n_threads", "flash_attn"):
            value = row.get(key)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool) \
                    and str(value).strip():
                notes.add(f"{key} {value}", p(key))
        ik = [k for k in _IK_KEYS if k in row]
        if ik:
            notes.add("keys only ik_llama.cpp's llama-bench writes (" + ", ".join(ik)
                      + "): likely the ik_llama.cpp fork", *(p(k) for k in ik))
        notes.apply(b)
        return b.build()

    @staticmethod
    def _model(b: ClaimBuilder, row: dict[str, Any], p: Any, notes: Notes) -> None:
        model_type = text(row.get("model_type"))
        if model_type:
            model, ftype, moe, active = split_model_type(model_type)
            b.set("model", model, field=p("model_type"))
            b.set("weight_format", ftype, field=p("model_type"))
            b.set("is_moe", moe, field=p("model_type"))
            if active is not None:
                b.set("params_active_b", active, field=p("model_type"))
                notes.add(f"active parameters {fmt(active)}B from llama.cpp's size label "
                          "(rounded)", p("model_type"))
        filename = text(row.get("model_filename"))
        if filename:
            notes.add(f"model file {filename}", p("model_filename"))
        b.set("model_size_bytes", positive(row.get("model_size")), field=p("model_size"))
        params = positive(row.get("model_n_params"))
        if params is not None:
            b.set("params_total_b", params / 1e9, field=p("model_n_params"))

    @staticmethod
    def _hardware(b: ClaimBuilder, row: dict[str, Any], p: Any, notes: Notes) -> None:
        gpu_info = text(row.get("gpu_info"))
        ngl = number(row.get("n_gpu_layers"), allow_negative=True)
        cpu = text(row.get("cpu_info"))
        if gpu_info and ngl != 0:
            # Vulkan builds list every device they see, the CPU among them ("AMD Radeon RX 7900
            # XTX, AMD Ryzen 9 7950X 16-Core Processor", Orion-zhen/llama-bench-dashboard's
            # results): the machine's own CPU there is the host, not a card.
            # RADV names the CPU's own graphics after it ("AMD Ryzen 9 7950X 16-Core Processor
            # (RADV RAPHAEL_MENDOCINO)"): a device named for the CPU is the host's too.
            names = [s.strip() for s in gpu_info.split(",")
                     if s.strip() and not (cpu and s.strip().startswith(cpu))] or [gpu_info]
            if names and len(set(names)) == 1:
                b.set("hardware", names[0], field=p("gpu_info"))
                single = text(row.get("split_mode")) == "none"
                b.set("hardware_count", 1 if single else len(names),
                      field=p("split_mode") if single else p("gpu_info"))
            else:
                b.set("hardware", ", ".join(names), field=p("gpu_info"))
            if cpu and cpu not in names:
                b.set("host", cpu, field=p("cpu_info"))
            if ngl is not None:
                notes.add(f"n_gpu_layers {int(ngl)}", p("n_gpu_layers"))
        else:
            b.set("hardware", text(row.get("cpu_info")), field=p("cpu_info"))
            if b.has("hardware"):
                notes.add("CPU run (no GPU in gpu_info or n_gpu_layers 0)",
                          p("gpu_info"), p("n_gpu_layers"))
