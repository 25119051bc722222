"""The scenario blocks of an AccelMark submission's `metrics`, each read into its own claims.

What each scenario runs is in the suite files (FreedomIntelligence/AccelMark@5797fc42745be2494e6213938d9e5afa0c6c5bef
suites/suite_A/suite.json … suites/suite_G/suite.json) and the schema (same commit,
schema/result.schema.json):
- `offline`, `speculative`: `results_by_concurrency[]`, a client concurrency per entry; "the
  inference engine batches internally" (`_concurrency_levels_note`), so offline throughput is an
  aggregate at an unknown batch. Speculative decoding runs only in the `speculative` scenario
  (`speculative_draft_model_id`, `speculative_num_tokens` are its settings).
- `online`: `results_by_qps[]` at a target QPS, with TTFT and TPOT percentiles; 1000 / TPOT p50 is
  the per-request decode rate.
- `interactive`: requests sent one at a time ("each request ~15s sequential", suite_B
  `_request_count_note`): batch 1, and 1000 / TPOT p50 is the single stream's decode rate.
- `sustained`: `sustained_concurrency` requests in flight for `duration_minutes`;
  `sustained_throughput_tokens_per_sec` is the output throughput over the run.
- `quantization` / `quantization_online` / `quantization_sustained` (suite_C):
  `results_by_precision[]`, the offline / online / sustained shapes per precision, each with the
  checkpoint it loaded (`precision_model_map`).
- `scaling` (suite_E): `results_by_chip_count[]`, the offline shape per chip count.
- `burst` reports TTFT only and `derived` restates the others: neither gives a claim.

Quirks:
- Offline, the engine batches internally and ignores the client concurrency (throughput is flat
  from 8 to 128), but it cannot batch more requests than the run sends: each offline run sends the
  suite's `request_count` requests (100 in suites A, B, C, G; 50 in D; 150 in E; 200 in F), so that
  is the offline claims' concurrency, with the suite file as its source.
- A `power_watts_avg` of 0 means the runner had no power reading (AccelMark writes null or 0):
  the field is dropped and the drop is noted on the document.
- Entries that ran out of memory (`oom: true`) or have no throughput are not claims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from extractors.builder import ClaimBuilder
from extractors.formats.values import BadValue, read_key, to_float, to_int, to_rate, to_text

__all__ = ["Block", "blocks", "suite_drafter"]

SUITES = "FreedomIntelligence/AccelMark@5797fc42745be2494e6213938d9e5afa0c6c5bef suites"
# `request_count` of each suite: the requests one offline run sends.
# The speculative scenario's drafter (`speculative_draft_model_id`, suites A and D: EAGLE heads).
SPEC_DRAFTER = {"suite_A": "yuhuili/EAGLE-LLaMA3-Instruct-8B",
                "suite_D": "yuhuili/EAGLE-LLaMA3.1-Instruct-8B"}
REQUEST_COUNT = {"suite_A": 100, "suite_B": 100, "suite_C": 100, "suite_D": 50, "suite_E": 150,
                 "suite_F": 200, "suite_G": 100}
Fill = Callable[[ClaimBuilder], None]


@dataclass
class Block:
    """One claim's worth of a scenario block: its cell, whether it ran speculative decoding, and
    how to fill a builder with the entry's own fields (set before the submission's shared ones)."""

    scenario: str  # the metrics key: "offline", "quantization", …
    cell: str  # "quantization W4A16, offline, client concurrency 16"
    path: str  # JSON path of the entry
    speculative: bool
    fill: Fill


def _put(b: ClaimBuilder, obj: dict[str, Any], key: str, field: str, conv: Any, path: str,
         span: str | None = None) -> Any:
    out = read_key(obj, key, conv, f"{path}.{key}")
    b.set(field, out, field=f"{path}.{key}", span=span)
    return out


def _list(obj: Any, key: str, path: str) -> list[tuple[str, dict[str, Any]]]:
    rows = obj.get(key) if isinstance(obj, dict) else None
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise BadValue(f"'{path}.{key}' should be a list")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise BadValue(f"'{path}.{key}[{i}]' should be an object")
        out.append((f"{path}.{key}[{i}]", row))
    return out


def _power(b: ClaimBuilder, e: dict[str, Any], path: str, dropped: list[str]) -> None:
    avg = e.get("power_watts_avg")
    if avg is not None and to_float(avg) == 0:
        dropped.append(f"{path}.power_watts_avg")  # 0.0 W is "not measured", not a reading
        return
    if _put(b, e, "power_watts_avg", "power_w", to_rate, path) is not None:
        b.set("power_method", "AccelMark runner power sampling (power_watts_avg)",
              field=f"{path}.power_watts_avg")
        _put(b, e, "power_watts_peak", "power_w_high", to_rate, path)


def _throughput(e: dict[str, Any], path: str, dropped: list[str], aggregate: bool,
                suite: str) -> Fill:
    def fill(b: ClaimBuilder) -> None:
        note = str(e.get("_throughput_note") or "")
        kind = ("aggregate" if aggregate else "output") if "output" in note.lower() else "total"
        span = f"throughput_tokens_per_sec ({note or 'input + output per the schema'})"
        if aggregate and e.get("client_concurrency") is not None:
            span += (f", offline at client_concurrency {e.get('client_concurrency')} "
                     "(not the engine's batch)")
        _put(b, e, "throughput_tokens_per_sec", "tok_s", to_rate, path, span=span)
        b.set("tok_s_kind", kind, field=f"{path}._throughput_note" if note else
              f"{path}.throughput_tokens_per_sec")
        # Offline, the engine batches internally: client_concurrency does not bound the batch,
        # the number of requests the run sends does.
        if not aggregate:
            _put(b, e, "client_concurrency", "concurrency", to_int, path)
        elif suite in REQUEST_COUNT:
            n = REQUEST_COUNT[suite]
            b.set("concurrency", n, field=f"{SUITES}/{suite}/suite.json request_count",
                  span=f"{n} requests per offline run: no more can be in flight")
        _power(b, e, path, dropped)
    return fill


def _measured(e: dict[str, Any]) -> bool:
    return e.get("oom") is not True and e.get("throughput_tokens_per_sec") not in (None, 0)


def _by_concurrency(scenario: str, cell: str, block: Any, path: str, speculative: bool,
                    dropped: list[str], suite: str, extra: Fill | None = None) -> Iterator[Block]:
    if not isinstance(block, dict):
        raise BadValue(f"'{path}' should be an object")
    entries = block.get("results_by_concurrency")
    if not isinstance(entries, list):
        raise BadValue(f"'{path}.results_by_concurrency' should be a list of per-concurrency results")
    for epath, e in _list(block, "results_by_concurrency", path):
        if not _measured(e):
            continue
        fill = _throughput(e, epath, dropped, aggregate=not speculative, suite=suite)
        yield Block(scenario, f"{cell}, client concurrency {e.get('client_concurrency')}", epath,
                    speculative, _both(extra, fill))


def _both(first: Fill | None, then: Fill) -> Fill:
    def fill(b: ClaimBuilder) -> None:
        if first is not None:
            first(b)
        then(b)
    return fill


def _per_user(e: dict[str, Any], path: str, *, interactive: bool) -> Fill | None:
    tpot = e.get("tpot_ms_p50")
    if tpot in (None, 0):
        return None

    def fill(b: ClaimBuilder) -> None:
        ms = read_key(e, "tpot_ms_p50", to_rate, f"{path}.tpot_ms_p50")
        rate = round(1000 / ms, 2)
        span = f"tpot_ms_p50 {ms:g} ms → 1000 / {ms:g} = {rate:g} tok/s per request"
        for name in ("tok_s", "per_user_tok_s"):
            b.set(name, rate, field=f"1000 ÷ {path}.tpot_ms_p50", span=span)
        b.set("tok_s_kind", "decode" if interactive else "per_user", field=f"{path}.tpot_ms_p50")
        _put(b, e, "ttft_ms_p50", "ttft_ms", to_rate, path)
        if interactive:
            where = f"{SUITES}/suite_B/suite.json _request_count_note"
            for name in ("batch", "concurrency"):
                b.set(name, 1, field=where, span="interactive requests run one at a time")
    return fill


def _online(scenario: str, cell: str, block: Any, path: str,
            extra: Fill | None = None) -> Iterator[Block]:
    for epath, e in _list(block, "results_by_qps", path):
        fill = _per_user(e, epath, interactive=False)
        if fill is not None:
            qps = e.get("target_qps")
            yield Block(scenario, f"{cell} at {qps} QPS", epath, False, _both(extra, fill))


def _sustained(scenario: str, cell: str, block: Any, path: str,
               extra: Fill | None = None) -> Iterator[Block]:
    if not isinstance(block, dict) or block.get("sustained_throughput_tokens_per_sec") in (None, 0):
        return

    def fill(b: ClaimBuilder) -> None:
        _put(b, block, "sustained_throughput_tokens_per_sec", "tok_s", to_rate, path,
             span="sustained_throughput_tokens_per_sec (output tokens, all streams)")
        b.set("tok_s_kind", "aggregate", field=f"{path}.sustained_throughput_tokens_per_sec")
        _put(b, block, "sustained_concurrency", "concurrency", to_int, path)
    conc = block.get("sustained_concurrency")
    yield Block(scenario, f"{cell} at concurrency {conc}", path, False, _both(extra, fill))


def _precision(p: dict[str, Any], path: str, models: dict[str, tuple[str, str]]) -> Fill:
    """The precision's weight format and checkpoint; the online and sustained entries name only
    the precision, so the checkpoint comes from the offline entry of the same precision."""
    def fill(b: ClaimBuilder) -> None:
        prec = _put(b, p, "precision", "weight_format", to_text, path)
        if p.get("model_id") is not None:
            _put(b, p, "model_id", "model", to_text, path)
        elif prec in models:
            where, model = models[prec]
            b.set("model", model, field=where, span=f"precision {prec}")
    return fill


def _chips(p: dict[str, Any], path: str) -> Fill:
    def fill(b: ClaimBuilder) -> None:
        _put(b, p, "chip_count", "hardware_count", to_int, path)
    return fill


def blocks(metrics: dict[str, Any], base: str, *, only_spec: bool, dropped: list[str],
           suite: str = "") -> Iterator[Block]:
    """Every claim-bearing entry of every scenario block, in the order the schema lists them."""
    def p(key: str) -> str:
        return f"{base}.metrics.{key}" if base else f"metrics.{key}"

    for scenario in ("offline", "speculative"):
        if metrics.get(scenario) is not None:
            spec = scenario == "speculative" or only_spec
            yield from _by_concurrency(scenario, scenario, metrics[scenario], p(scenario), spec,
                                       dropped, suite)
    if isinstance(metrics.get("online"), dict):
        yield from _online("online", "online", metrics["online"], p("online"))
    inter = metrics.get("interactive")
    if isinstance(inter, dict) and (fill := _per_user(inter, p("interactive"), interactive=True)):
        yield Block("interactive", "interactive, one request at a time", p("interactive"), False,
                    fill)
    yield from _sustained("sustained", "sustained", metrics.get("sustained"), p("sustained"))
    quant = _list(metrics.get("quantization"), "results_by_precision", p("quantization"))
    models = {str(q["precision"]): (f"{path}.model_id", str(q["model_id"])) for path, q in quant
              if isinstance(q.get("precision"), str) and isinstance(q.get("model_id"), str)}
    for ppath, prec in quant:
        cell = f"quantization {prec.get('precision')}, offline"
        yield from _by_concurrency("quantization", cell, prec, ppath, False, dropped, suite,
                                   _precision(prec, ppath, models))
    for ppath, prec in _list(metrics.get("quantization_online"), "results_by_precision",
                             p("quantization_online")):
        yield from _online("quantization_online", f"quantization {prec.get('precision')}, online",
                           prec, ppath, _precision(prec, ppath, models))
    for ppath, prec in _list(metrics.get("quantization_sustained"), "results_by_precision",
                             p("quantization_sustained")):
        yield from _sustained("quantization_sustained",
                              f"quantization {prec.get('precision')}, sustained", prec, ppath,
                              _precision(prec, ppath, models))
    for cpath, chips in _list(metrics.get("scaling"), "results_by_chip_count", p("scaling")):
        yield from _by_concurrency("scaling", f"scaling {chips.get('chip_count')} chips, offline",
                                   chips, cpath, False, dropped, suite, _chips(chips, cpath))


def suite_drafter(b: ClaimBuilder, suite: str, runner: str = "", extra: Any = None) -> None:
    """The drafter the suite runs in its speculative scenario, when the record does not say; and
    the window its runner sets (`_runner_window`)."""
    if suite in SPEC_DRAFTER:
        where = f"{SUITES}/{suite}/suite.json speculative_draft_model_id"
        b.set("drafter_model", SPEC_DRAFTER[suite], field=where)
        b.set("spec_method", "EAGLE", field=where, span=SPEC_DRAFTER[suite])
    window = _runner_window(suite, runner, extra) or _sglang_window(runner, extra)
    if window is not None:
        k, where, convention = window
        b.set("spec_window", k + 1, field=where, span=str(k))
        b.set("spec_window_convention", convention, field=where)


# The vLLM runners (FreedomIntelligence/AccelMark@5797fc42745be2494e6213938d9e5afa0c6c5bef
# runners/<id>/runner.py) merge the benchmark runner's engine kwargs into `LLM(**extra_kwargs)`;
# for the speculative scenario runners/benchmark_runner.py sets
# `setdefault("num_speculative_tokens", suite.get("speculative_num_tokens", 4))`, the runner's
# YAML `engine_kwargs` (the record's `task.extra_config`) winning on conflict. vLLM proposes that
# many draft tokens per step and verifies them in one pass: at most k + 1 tokens per sequence
# per pass. The SGLang runner drops the key (its own EAGLE defaults run) and the TPU runner passes
# no drafter: neither is listed (the SGLang runner's window is `_sglang_window`'s).
VLLM_RUNNERS = frozenset({"nvidia_vllm_47f5d58e", "nvidia_vllm020_0f6c56e4", "nvidia_onecat_vllm_12a253c2",
                          "amd_vllm_rocm_6c18cd8f", "ascend_vllm_ascend_d4aa9fda",
                          "moorethreads_vllm_musa_f2f6f965"})
# `speculative_num_tokens` of the suites with a speculative scenario (suites/suite_A, suite_D).
SPEC_NUM_TOKENS = {"suite_A": 4, "suite_D": 4}
_DEFAULT_K = 4  # benchmark_runner.py: suite.get("speculative_num_tokens", 4)


_VLLM_CONVENTION = "num_speculative_tokens {k} + 1 bonus token = window (vLLM convention)"


def _runner_window(suite: str, runner: str, extra: Any) -> tuple[int, str, str] | None:
    """(k, where it comes from, how it makes the window) for a vLLM runner's speculative
    scenario: the record's own `num_speculative_tokens` in `task.extra_config` (also inside
    `speculative_config`), else the suite's; None for another runner or a speculative setting
    whose k cannot be read."""
    if runner not in VLLM_RUNNERS:
        return None
    if isinstance(extra, dict):
        for obj, path in ((extra, "task.extra_config"),
                          (extra.get("speculative_config"), "task.extra_config.speculative_config")):
            for key in ("num_speculative_tokens", "speculative_num_tokens"):
                if isinstance(obj, dict) and key in obj:
                    try:
                        k = to_int(obj[key])
                    except BadValue:
                        return None
                    return (k, f"{path}.{key}", _VLLM_CONVENTION.format(k=k)) if k >= 1 else None
        if "speculative_config" in extra:
            return None  # the user's own config, and no k in it
    k = SPEC_NUM_TOKENS.get(suite, _DEFAULT_K)
    return (k, f"{SUITES}/{suite}/suite.json speculative_num_tokens (runners/benchmark_runner.py)",
            _VLLM_CONVENTION.format(k=k))


# The SGLang runner (FreedomIntelligence/AccelMark@5797fc42745be2494e6213938d9e5afa0c6c5bef
# runners/nvidia_sglang_c43a8309/runner.py load_model) pops the benchmark runner's
# `num_speculative_tokens`, sets `speculative_algorithm="EAGLE"` with the suite's draft model and
# passes its YAML `engine_kwargs` (the record's `task.extra_config`) to `sgl.Engine`. With no
# `speculative_num_steps` given, SGLang picks its EAGLE defaults (sgl-project/sglang
# python/sglang/srt/server_args.py `auto_choose_speculative_params`: (num_steps, eagle_topk,
# num_draft_tokens) = (5, 4, 8) for LlamaForCausalLM and every other architecture but DeepSeek's
# (3, 1, 4)). An EAGLE verify pass accepts one path of the draft tree, at most num_steps drafted
# tokens deep, plus the bonus token (its accept length "with bonus" is at most
# speculative_num_steps + 1): the run emits at most num_steps + 1 tokens per sequence per pass.
SGLANG_RUNNERS = frozenset({"nvidia_sglang_c43a8309"})
SGLANG_DEFAULT_STEPS = 5  # the largest of SGLang's EAGLE defaults (Llama and all others; DeepSeek 3)
_SGLANG_CONVENTION = "speculative_num_steps {k} + 1 bonus token = the most an EAGLE verify pass accepts (SGLang)"


def _sglang_window(runner: str, extra: Any) -> tuple[int, str, str] | None:
    """(num_steps, where it comes from, how it makes the window) for the SGLang runner's
    speculative scenario: the record's own `speculative_num_steps` in `task.extra_config`, else
    SGLang's most generous default; None for another runner or a step count that cannot be read."""
    if runner not in SGLANG_RUNNERS:
        return None
    if isinstance(extra, dict) and "speculative_num_steps" in extra:
        try:
            k = to_int(extra["speculative_num_steps"])
        except BadValue:
            return None
        return (k, "task.extra_config.speculative_num_steps", _SGLANG_CONVENTION.format(k=k)) if k >= 1 else None
    return (SGLANG_DEFAULT_STEPS,
            "runners/nvidia_sglang_c43a8309/runner.py (EAGLE, no num_steps set: SGLang server_args.py "
            "auto_choose_speculative_params default)", _SGLANG_CONVENTION.format(k=SGLANG_DEFAULT_STEPS))
