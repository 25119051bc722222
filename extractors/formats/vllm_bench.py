"""vLLM `vllm bench serve --save-result` (formerly `benchmarks/benchmark_serving.py`) JSON.

Shape: one JSON object per run (`--append-result` appends further objects, one per line, which
`RawDocument` reads as a list). Documented by the code that writes it,
vllm-project/vllm `vllm/benchmarks/serve.py` (`main()` builds `result_json`, `benchmark()` the
metrics). Setup keys: `date` ("%Y%m%d-%H%M%S"),
`endpoint_type`/`backend`, `label`, `model_id`, `tokenizer_id`, `num_prompts`, any
`--metadata KEY=VALUE` pairs flattened to the top level, `request_rate` (the string "inf" when
unlimited), `burstiness`, `max_concurrency` (null when uncapped). Results: `duration` (s),
`completed`, `failed`, `total_input_tokens`, `total_output_tokens`, `request_throughput`,
`output_throughput`, `total_token_throughput`, `max_concurrent_requests`, per-metric stats
`mean_/median_/std_/pNN_{ttft,tpot,itl,e2el}_ms`, and, when the server exposes speculative
decoding counters, `spec_decode_acceptance_rate` (percent 0-100), `spec_decode_acceptance_length`,
`spec_decode_num_drafts`, `spec_decode_draft_tokens`, `spec_decode_accepted_tokens`,
`spec_decode_per_position_acceptance_rates`.

Quirks, each with its reason:
- InferenceX post-processes these files (`utils/process_result.py`): every `*_ms` key becomes
  seconds with `_ms` dropped (`median_ttft`, `median_tpot`). Those are read as seconds.
- `output_throughput` is total output tokens / benchmark duration, TTFT included: kind "output"
  when one stream at a time (`max_concurrency` 1, or a single prompt), otherwise "aggregate".
- Missing `output_throughput`: 1000 / `median_tpot_ms` (decode-only, first token excluded) is
  used, kind "decode" at one stream, "per_user" above; failing that `total_token_throughput`,
  kind "total". Whenever TPOT is present its per-user decode speed is also stated in the notes.
- The serving engine is only named when `backend` pins one ("vllm", "sglang", ...); the default
  "openai" backend is any OpenAI-compatible server, so the engine stays unknown.
- `per_user_tok_s` is 1000 / median TPOT (else mean TPOT, else median ITL): one request's decode
  rate, whatever the concurrency.
- `--metadata KEY=VALUE` pairs land at the top level beside the documented keys; every key that
  is not one of vLLM's own is read through the alias table (`records.map_record`) and its text
  (a launch command in the metadata) through the record-text readers.
- No `spec_decode_*` block leaves `speculative` unknown: the server may not speculate, or the
  vLLM that wrote the file may predate the block.
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
    engine_from_backend,
    fmt,
    has_any,
    is_empty,
    join_path,
    number,
    positive,
    set_request_totals,
    text,
)
from extractors.formats.record_text import read_record_text, row_texts
from extractors.formats.records import map_record
from extractors.text.lazyre import lazy

__all__ = ["VllmBench"]

_IDENTITY_KEYS = ("model_id", "endpoint_type", "ttfts", "mean_ttft_ms", "median_ttft_ms",
                  "median_ttft")
# SGLang's bench_serving writes these; vLLM's never does (sglang_bench_serving.py claims them).
_SGLANG_KEYS = ("accept_length", "total_output_tokens_retokenized", "random_input_len",
                "random_output_len", "random_range_ratio", "sharegpt_output_len",
                "fixed_output_len", "mean_e2e_latency_ms", "median_e2e_latency_ms")
# InferenceX's aggregated rows (agg_*.json) carry these; inferencex.py claims them.
_INFERENCEX_KEYS = ("tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu",
                    "infmax_model_prefix", "hw")
_DATE = lazy(r"^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$")
# Keys vLLM itself writes (vllm-project/vllm vllm/benchmarks/serve.py); the rest is --metadata.
_OWN_KEYS = frozenset((
    "date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts",
    "request_rate", "burstiness", "max_concurrency", "ramp_up_strategy", "ramp_up_start_rps",
    "ramp_up_end_rps", "duration", "completed", "failed", "total_input_tokens",
    "total_output_tokens", "request_throughput", "request_goodput", "output_throughput",
    "total_token_throughput", "max_concurrent_requests", "input_lens", "output_lens", "ttfts",
    "itls", "generated_texts", "errors", "good_completed", "input_throughput", "max_output_tokens_per_s",
))
_OWN_PATTERN = lazy(r"^(?:(?:mean|median|std|p\d+(?:\.\d+)?)_(?:ttft|tpot|itl|e2el)(?:_ms)?|"
                          r"spec_decode_\w+)$")


def _is_vllm_key(key: str) -> bool:
    return key in _OWN_KEYS or bool(_OWN_PATTERN.match(key))


def _ms(rec: dict[str, Any], stat: str, metric: str) -> tuple[float | None, str | None, bool]:
    """A latency in ms from `<stat>_<metric>_ms`, or from InferenceX's seconds `<stat>_<metric>`.
    Returns (value, key, key_present)."""
    for key, scale in ((f"{stat}_{metric}_ms", 1.0), (f"{stat}_{metric}", 1000.0)):
        if key in rec:
            value = number(rec[key])
            return (value * scale if value is not None else None), key, True
    return None, None, False


class VllmBench(ToolOutputFormat):
    name: ClassVar[str] = "vllm_bench"
    label: ClassVar[str] = "vLLM bench serve"
    not_ours: ClassVar[str] = "not a vLLM bench serve result"

    def _is_record(self, rec: Any) -> bool:
        return (
            isinstance(rec, dict)
            and "request_throughput" in rec
            and has_any(rec, ("output_throughput", "total_token_throughput"))
            and has_any(rec, _IDENTITY_KEYS)
            and not has_any(rec, _SGLANG_KEYS)
            and not has_any(rec, _INFERENCEX_KEYS)
        )

    def _claim(self, doc: RawDocument, rec: dict[str, Any], prefix: str, i: int,
               total: int) -> Claim:
        where = f"vLLM bench serve result {i + 1} of {total}" if total > 1 else \
            "vLLM bench serve result"
        b = ClaimBuilder(doc.source)
        notes = Notes()

        def p(key: str) -> str:
            return join_path(prefix, key)

        b.set("model", text(rec.get("model_id")), field=p("model_id"))
        backend_key = "backend" if "backend" in rec else "endpoint_type"
        backend = text(rec.get(backend_key))
        engine = engine_from_backend(backend)
        b.set("engine", engine, field=p(backend_key))
        if backend and engine is None:
            notes.add(f"client backend {backend!r}: an OpenAI-compatible endpoint, engine not "
                      "recorded", p(backend_key))
        self._date(b, rec, prefix)

        cap = count(rec.get("max_concurrency"), allow_zero=False)
        b.set("concurrency", cap, field=p("max_concurrency"))
        prompts = count(rec.get("num_prompts"))
        single_stream = cap == 1 or (cap is None and prompts == 1)
        if cap is None:
            rate = rec.get("request_rate")
            said = f"request_rate {rate!r}" if rate is not None else "no request_rate recorded"
            notes.add(f"no concurrency cap ({said}): up to num_prompts "
                      f"{prompts if prompts is not None else '?'} requests in flight",
                      p("max_concurrency"), p("request_rate"))
        peak = count(rec.get("max_concurrent_requests"))
        if peak is not None:
            notes.add(f"peak concurrent requests {peak}", p("max_concurrent_requests"))

        self._throughput(b, rec, prefix, where, single_stream, notes)

        set_request_totals(b, rec, prefix)
        failed = count(rec.get("failed"))
        if failed:
            notes.add(f"{failed} requests failed", p("failed"))

        self._ttft(b, rec, prefix, notes)
        self._speculative(b, rec, prefix, notes)
        label = text(rec.get("label"))
        if label:
            notes.add(f"label {label!r}", p("label"))
        metadata = {k: v for k, v in rec.items() if isinstance(k, str) and not _is_vllm_key(k)}
        if metadata:
            map_record(metadata, prefix, b)
            read_record_text(b, row_texts(metadata, prefix, b), engine=engine or "")
        notes.apply(b)
        return b.build()

    @staticmethod
    def _date(b: ClaimBuilder, rec: dict[str, Any], prefix: str) -> None:
        raw = text(rec.get("date"))
        if raw:
            m = _DATE.match(raw)
            value = f"{m[1]}-{m[2]}-{m[3]}T{m[4]}:{m[5]}:{m[6]}" if m else raw
            b.set("date", value, field=join_path(prefix, "date"))

    @staticmethod
    def _throughput(b: ClaimBuilder, rec: dict[str, Any], prefix: str, where: str,
                    single_stream: bool, notes: Notes) -> None:
        tpot, tpot_key, _ = _ms(rec, "median", "tpot")
        if tpot is None:
            tpot, tpot_key, _ = _ms(rec, "mean", "tpot")
        per_user = 1000.0 / tpot if tpot else None
        if per_user is not None and tpot_key:
            notes.add(f"per-user decode speed {fmt(per_user)} tok/s (from {tpot_key})",
                      join_path(prefix, tpot_key))
        step, step_key = (tpot, tpot_key) if tpot else _ms(rec, "median", "itl")[:2]
        if step and step_key:  # inter-token latency: the same per-request decode step
            b.set("per_user_tok_s", round(1000.0 / step, 2), field=join_path(prefix, step_key),
                  span=f"1000 / {step_key} {fmt(step)} ms")
        if tpot_key and not tpot_key.endswith("_ms"):
            notes.add("latencies in seconds (InferenceX post-processing drops _ms)",
                      join_path(prefix, tpot_key))

        raw = rec.get("output_throughput")
        if raw is not None:
            value = positive(raw)
            if value is None:
                raise InvalidInput(f"{b.source}: {where} has no usable output_throughput "
                                   f"(got {raw!r})")
            b.set("tok_s", value, field=join_path(prefix, "output_throughput"))
            b.set("tok_s_kind", "output" if single_stream else "aggregate",
                  field=join_path(prefix, "output_throughput"))
            return
        if per_user is not None and tpot_key:
            b.set("tok_s", per_user, field=join_path(prefix, tpot_key))
            b.set("tok_s_kind", "decode" if single_stream else "per_user",
                  field=join_path(prefix, tpot_key))
            notes.add(f"output_throughput is null: tok/s is the per-user decode speed from "
                      f"{tpot_key}",
                      join_path(prefix, "output_throughput"))
            return
        total = positive(rec.get("total_token_throughput"))
        if total is not None:
            b.set("tok_s", total, field=join_path(prefix, "total_token_throughput"))
            b.set("tok_s_kind", "total", field=join_path(prefix, "total_token_throughput"))
            return
        raise InvalidInput(f"{b.source}: {where} has no usable output_throughput, TPOT or "
                           "total_token_throughput")

    @staticmethod
    def _ttft(b: ClaimBuilder, rec: dict[str, Any], prefix: str, notes: Notes) -> None:
        mean, mean_key, _ = _ms(rec, "mean", "ttft")
        median, median_key, _ = _ms(rec, "median", "ttft")
        used = None
        if mean is not None and mean_key:
            used = mean_key
            b.set("ttft_ms", mean, field=join_path(prefix, mean_key))
        elif median is not None and median_key:
            used = median_key
            b.set("ttft_ms", median, field=join_path(prefix, median_key))
        if used == mean_key and median is not None and median_key:
            notes.add(f"median TTFT {fmt(median)} ms", join_path(prefix, median_key))
        if used:
            b.set("ttft_empty", False, field=join_path(prefix, used))
            return
        present = [k for k in (mean_key, median_key) if k] + (["ttfts"] if "ttfts" in rec else [])
        for key in present:
            if is_empty(rec.get(key)):
                b.set("ttft_empty", True, field=join_path(prefix, key))
                notes.add(f"{key} is present but empty", join_path(prefix, key))
                return

    @staticmethod
    def _speculative(b: ClaimBuilder, rec: dict[str, Any], prefix: str, notes: Notes) -> None:
        spec_keys = [k for k in rec if isinstance(k, str) and k.startswith("spec_decode_")]
        if not spec_keys:
            return
        b.set("speculative", True, field=join_path(prefix, min(spec_keys)))
        b.set("acceptance_length", number(rec.get("spec_decode_acceptance_length")),
              field=join_path(prefix, "spec_decode_acceptance_length"))
        rate = number(rec.get("spec_decode_acceptance_rate"))
        if rate is not None:  # vLLM writes a percentage
            b.set("acceptance_rate", rate / 100.0,
                  field=join_path(prefix, "spec_decode_acceptance_rate"))
        accepted = count(rec.get("spec_decode_accepted_tokens"))
        drafted = count(rec.get("spec_decode_draft_tokens"))
        b.set("accepted_tokens", accepted, field=join_path(prefix, "spec_decode_accepted_tokens"))
        b.set("drafted_tokens", drafted, field=join_path(prefix, "spec_decode_draft_tokens"))
        if accepted is not None and drafted is not None:
            b.set("ratios", [(accepted, drafted)],
                  field=join_path(prefix, "spec_decode_accepted_tokens") + "/"
                  + join_path(prefix, "spec_decode_draft_tokens"))
        drafts = count(rec.get("spec_decode_num_drafts"), allow_zero=False)
        if drafts is not None:
            extra = f", {fmt(drafted / drafts)} draft tokens per pass" if drafted else ""
            notes.add(f"{drafts} verify passes (spec_decode_num_drafts){extra}",
                      join_path(prefix, "spec_decode_num_drafts"))
            # vLLM drafts num_speculative_tokens per pass, so a whole quotient is that setting and
            # the window (the most tokens one pass can emit) is one more.
            if drafted and drafted % drafts == 0:
                k = drafted // drafts
                b.set("spec_window", k + 1,
                      field=join_path(prefix, "spec_decode_draft_tokens") + " ÷ "
                      + join_path(prefix, "spec_decode_num_drafts"),
                      span=f"{drafted} ÷ {drafts} = {k} draft tokens per pass")
                b.set("spec_window_convention",
                      f"vLLM num_speculative_tokens {k} (draft tokens ÷ drafts) + 1 = window {k + 1}",
                      field=join_path(prefix, "spec_decode_num_drafts"))
        per_pos = rec.get("spec_decode_per_position_acceptance_rates")
        if isinstance(per_pos, list) and per_pos:
            vals = [number(v) for v in per_pos]
            if all(v is not None for v in vals):
                notes.add("per-position acceptance " + ", ".join(fmt(v) for v in vals
                                                                 if v is not None),
                          join_path(prefix, "spec_decode_per_position_acceptance_rates"))
