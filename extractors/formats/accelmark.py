"""AccelMark (FreedomIntelligence) `result.json` submissions.

Shape (FreedomIntelligence/AccelMark `schema/result.schema.json`, shared/research/leaderboards.md
§1.3): `schema_version, suite_id, implementation_id, chip{name, vendor, count, memory_gb, …},
software{framework, framework_version, …}, model{model_id, model_name, parameter_count_b,
architecture, precision, quantization_method, …}, task{scenarios_run | scenario, parallelism{…},
num_runs, extra_config, runtime_metrics}, metrics{offline{results_by_concurrency[…]},
speculative{results_by_concurrency[…]}, online, interactive, …}, accuracy{…}, meta{submitted_by,
date, run_id, run_name, flagged, reproduce_script, notes, …}`.

One claim per `results_by_concurrency` entry of the offline and speculative scenarios
(`client_concurrency`, `throughput_tokens_per_sec`, `power_watts_avg`); the submission's chip,
software, model and meta fields are shared by all of them (they are siblings).

Quirks:
- The schema calls `throughput_tokens_per_sec` input + output, but runners mark entries
  `"_throughput_note": "output_only"`; the note decides the kind ("output"), else "total".
- `task.runtime_metrics` (acceptance_rate, mean_accepted_tokens, num_speculative_tokens,
  draft_model_id) describes the speculative scenario; `num_speculative_tokens` is vLLM's k, so the
  window is k + 1. A submission whose only scenario is "speculative" reports it under `offline`.
- `model.model_name` is the checkpoint actually loaded when it differs from `model_id`.
- `meta.reproduce_script` is usually a path (`runners/…/runner.py`); it is a launch command only
  when it reads as one. `meta.flagged` is appended to the notes: the board's own red flag.
- Out-of-memory entries (`oom: true`, no throughput) are not claims.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from checks.models import Claim, SourceKind
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.records import find_records
from extractors.formats.values import BadValue, read_key, to_float, to_int, to_rate, to_text

__all__ = ["AccelMark"]

_REQUIRED = ("schema_version", "suite_id", "chip", "metrics", "meta")
_SCENARIOS = ("offline", "speculative")
_COMMAND = re.compile(r"^\s*(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:python3?|bash|sh|vllm|sglang|"
                      r"torchrun|trtllm-serve|llama-server|docker)\s+\S")
_SPEC_KEYS = ("speculative_method", "speculative_algorithm", "spec_method", "method")


def _is_result(obj: Any) -> bool:
    return (isinstance(obj, dict) and all(k in obj for k in _REQUIRED)
            and isinstance(obj.get("chip"), dict) and isinstance(obj.get("metrics"), dict))


def _results(data: Any) -> list[tuple[str, dict[str, Any]]]:
    if _is_result(data):
        return [("", data)]
    found = find_records(data)
    if found is None:
        return []
    return [(found.row_path(i), r) for i, r in enumerate(found.rows) if _is_result(r)]


class AccelMark:
    name: ClassVar[str] = "accelmark"
    kind: ClassVar[SourceKind] = "record"

    def sniff(self, doc: RawDocument) -> bool:
        try:
            return bool(_results(doc.json()))
        except Exception:  # noqa: BLE001 - sniffing never raises
            return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        results = _results(doc.json())
        if not results:
            raise InvalidInput(f"{doc.source}: no AccelMark result found")
        claims: list[Claim] = []
        for base, result in results:
            try:
                claims.extend(_parse_result(doc.source, result, base))
            except BadValue as exc:
                where = f" {base}" if base else ""
                raise InvalidInput(f"{doc.source}: AccelMark result{where}: {exc}") from None
        if not claims:
            raise InvalidInput(f"{doc.source}: AccelMark result has no throughput in "
                               "metrics.offline or metrics.speculative results_by_concurrency")
        return claims


def _parse_result(source: str, r: dict[str, Any], base: str) -> list[Claim]:
    metrics = r["metrics"]
    task = r["task"] if isinstance(r.get("task"), dict) else {}
    only_spec = task.get("scenario") == "speculative"
    claims = []
    for scenario in _SCENARIOS:
        block = metrics.get(scenario)
        if block is None:
            continue
        entries = block.get("results_by_concurrency") if isinstance(block, dict) else None
        spath = _p(base, f"metrics.{scenario}.results_by_concurrency")
        if not isinstance(entries, list):
            raise BadValue(f"'{spath}' should be a list of per-concurrency results")
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise BadValue(f"'{spath}[{i}]' should be an object")
            if entry.get("throughput_tokens_per_sec") in (None, 0) or entry.get("oom") is True:
                continue  # out of memory, or not measured
            b = ClaimBuilder(source)
            _entry(b, entry, f"{spath}[{i}]")
            is_spec = scenario == "speculative" or only_spec
            if not is_spec and isinstance(metrics.get("speculative"), dict):
                b.set("speculative", False, field=_p(base, f"metrics.{scenario}"),
                      span="speculative runs are reported separately under metrics.speculative")
            _shared(b, r, base, speculative=is_spec, explicit=scenario == "speculative")
            claims.append(b.build())
    return claims


def _put(b: ClaimBuilder, obj: Any, key: str, field: str, conv: Any, path: str,
         span: str | None = None) -> Any:
    if not isinstance(obj, dict):
        return None
    out = read_key(obj, key, conv, f"{path}.{key}")
    b.set(field, out, field=f"{path}.{key}", span=span)
    return out


def _entry(b: ClaimBuilder, e: dict[str, Any], path: str) -> None:
    note = str(e.get("_throughput_note") or "")
    offline = ".offline." in f"{path}."
    # Offline throughput counts every request the engine batched together: an aggregate.
    kind = ("aggregate" if offline else "output") if "output" in note.lower() else "total"
    span = f"throughput_tokens_per_sec ({note or 'input + output per the schema'})"
    if offline and e.get("client_concurrency") is not None:
        span += f", offline at client_concurrency {e.get('client_concurrency')} (not the engine's batch)"
    _put(b, e, "throughput_tokens_per_sec", "tok_s", to_rate, path, span=span)
    b.set("tok_s_kind", kind, field=f"{path}._throughput_note" if note else
          f"{path}.throughput_tokens_per_sec")
    # AccelMark's own note: in the offline scenario "the inference engine batches internally", so
    # client_concurrency does not bound the batch there (throughput is flat from 8 to 128).
    if not offline:
        _put(b, e, "client_concurrency", "concurrency", to_int, path)
    if _put(b, e, "power_watts_avg", "power_w", to_rate, path) is not None:
        b.set("power_method", "AccelMark runner power sampling (power_watts_avg)",
              field=f"{path}.power_watts_avg")
    _put(b, e, "power_watts_peak", "power_w_high", to_rate, path)


def _shared(b: ClaimBuilder, r: dict[str, Any], base: str, *, speculative: bool,
            explicit: bool) -> None:
    chip, sw, model = r.get("chip"), r.get("software"), r.get("model")
    task = r["task"] if isinstance(r.get("task"), dict) else {}
    meta = r["meta"] if isinstance(r.get("meta"), dict) else {}
    _put(b, chip, "name", "hardware", to_text, _p(base, "chip"))
    _put(b, chip, "count", "hardware_count", to_int, _p(base, "chip"))
    _put(b, sw, "framework", "engine", to_text, _p(base, "software"))
    _put(b, sw, "framework_version", "engine_version", to_text, _p(base, "software"))
    _put(b, model, "model_name", "model", to_text, _p(base, "model"))
    _put(b, model, "model_id", "model", to_text, _p(base, "model"))
    _put(b, model, "parameter_count_b", "params_total_b", to_float, _p(base, "model"))
    if isinstance(model, dict) and model.get("architecture") in ("dense", "moe"):
        b.set("is_moe", model["architecture"] == "moe", field=_p(base, "model.architecture"))
    _put(b, model, "quantization_method", "weight_format", to_text, _p(base, "model"))
    _put(b, model, "precision", "weight_format", to_text, _p(base, "model"))
    _put(b, task, "num_runs", "repeats", to_int, _p(base, "task"))
    rt = task.get("runtime_metrics")
    extra = task.get("extra_config")
    if speculative:
        b.set("speculative", True, field=_p(base, "metrics.speculative" if explicit else
                                            "task.scenario"))
        for obj, where in ((rt, "task.runtime_metrics"), (extra, "task.extra_config")):
            for key in _SPEC_KEYS:
                _put(b, obj, key, "spec_method", to_text, _p(base, where))
        _put(b, rt, "mean_accepted_tokens", "acceptance_length", to_float,
             _p(base, "task.runtime_metrics"))
        _put(b, rt, "acceptance_rate", "acceptance_rate", _fraction,
             _p(base, "task.runtime_metrics"))
        k = rt.get("num_speculative_tokens") if isinstance(rt, dict) else None
        if k is not None:
            kpath = _p(base, "task.runtime_metrics.num_speculative_tokens")
            try:
                k = to_int(k)
            except BadValue as exc:
                raise BadValue(f"'{kpath}' {exc}") from None
            b.set("spec_window", k + 1, field=kpath, span=str(k))
            b.set("spec_window_convention",
                  f"num_speculative_tokens {k} + 1 bonus token = window (vLLM convention)",
                  field=kpath)
        _put(b, rt, "draft_model_id", "drafter_model", to_text, _p(base, "task.runtime_metrics"))
    mpath = _p(base, "meta")
    _put(b, meta, "submitted_by", "submitter", to_text, mpath)
    _put(b, meta, "date", "date", to_text, mpath)
    _put(b, meta, "run_id", "record_id", to_text, mpath)
    script = meta.get("reproduce_script")
    if isinstance(script, str) and _COMMAND.match(script):
        b.set("launch_command", script, field=f"{mpath}.reproduce_script")
    notes = [str(meta["notes"])] if meta.get("notes") else []
    if meta.get("flagged"):
        notes.append(f"[flagged by AccelMark: {meta['flagged']}]")
    if notes:
        b.set("notes", " ".join(notes), field=f"{mpath}.notes" if meta.get("notes") else
              f"{mpath}.flagged")


def _fraction(value: Any) -> float:
    x = to_float(value)
    x = x / 100 if x > 1 else x
    if not 0 <= x <= 1:
        raise BadValue(f"{value!r} is not an acceptance rate")
    return x


def _p(base: str, key: str) -> str:
    return f"{base}.{key}" if base else key
