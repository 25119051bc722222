"""AccelMark (FreedomIntelligence) `result.json` submissions.

Shape (FreedomIntelligence/AccelMark@5797fc42745be2494e6213938d9e5afa0c6c5bef
schema/result.schema.json): `schema_version, suite_id, implementation_id, chip{name, vendor, count,
memory_gb, …}, software{framework, framework_version, …}, model{model_id, model_name,
parameter_count_b, architecture, precision, quantization_method, …}, task{scenarios_run | scenario,
parallelism{…}, num_runs, extra_config, runtime_metrics}, metrics{offline, speculative, online,
interactive, sustained, quantization, quantization_online, quantization_sustained, scaling, burst,
derived}, accuracy{…}, meta{submitted_by, date, run_id, run_name, flagged, reproduce_script,
notes, …}`.

One claim per measured entry of every scenario block (`accelmark_blocks` reads the blocks and says
what each scenario runs, per the suite files), each with its scenario's cell in `Claim.cell`; the
submission's chip, software, model and meta fields are shared by all of them (they are siblings).

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
- Only the `speculative` scenario runs speculative decoding; every other block's claim is plain
  decode — unless the submission has no `speculative` block and its `task.extra_config` names a
  speculative algorithm that `task.runtime_metrics.mean_accepted_tokens` measured: then the engine
  ran it in every block, and each claim carries the AL (and the window, when the config gives one)
  for Q5. The runner's status line in `meta.notes` ("Partial run: … ['speculative'] failed.") is
  not read as a method statement; the rest of the notes, a reproduce command and
  `task.extra_config` are read like a post (`record_text`).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from checks.models import Claim, SourceKind
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.accelmark_blocks import blocks, suite_drafter
from extractors.formats.record_text import read_record_text
from extractors.formats.records import find_records
from extractors.formats.values import BadValue, read_key, to_float, to_int, to_text
from extractors.text.lazyre import lazy

__all__ = ["AccelMark"]

_REQUIRED = ("schema_version", "suite_id", "chip", "metrics", "meta")
_COMMAND = lazy(r"^\s*(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:python3?|bash|sh|vllm|sglang|"
                      r"torchrun|trtllm-serve|llama-server|docker)\s+\S")
_SPEC_KEYS = ("speculative_method", "speculative_algorithm", "spec_method", "method")
# The runner's own status line ("Partial run: ['offline'] succeeded, ['speculative'] failed.") names
# scenarios, not the method the submission used.
_SPEC_KEY = lazy(r"spec|draft|eagle|mtp", re.IGNORECASE)
_RUNNER_STATUS = lazy(r"Partial run:[^.]*\.")


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
        dropped: list[str] = []
        errors: list[str] = []
        for base, result in results:
            try:
                claims.extend(_parse_result(doc.source, result, base, dropped))
            except BadValue as exc:
                errors.append(f"AccelMark result{f' {base}' if base else ''}: {exc}")
        if errors and not claims:
            raise InvalidInput(f"{doc.source}: {errors[0]}")
        if errors:  # one broken submission in a list must not hide the others
            doc.warnings.append(f"{doc.source}: skipped {len(errors)} unreadable AccelMark "
                                f"result(s), e.g. {errors[0]}")
        if not claims:
            raise InvalidInput(f"{doc.source}: AccelMark result has no throughput or TPOT in any "
                               "scenario block (offline, speculative, online, interactive, "
                               "sustained, quantization, scaling)")
        if dropped:
            doc.warnings.append(f"{doc.source}: {len(dropped)} power reading(s) of 0 W are 'not "
                                f"measured' and were dropped, e.g. {dropped[0]}")
        return claims


_NOT_A_METHOD = {"", "none", "off", "no", "false", "0", "null", "disabled", "n/a", "-"}


def _names_method(value: Any, depth: int = 0) -> bool:
    """A speculative-decoding setting with a value: `speculative_config: {method: eagle3}`,
    `speculative_algorithm: "EAGLE"`, `num_speculative_tokens: 3` (not `null`, not "none")."""
    if depth > 3 or not isinstance(value, dict):
        return False
    for key, v in value.items():
        if _SPEC_KEY.search(str(key)):
            if isinstance(v, dict):
                if any(x not in (None, False) and str(x).strip().lower() not in _NOT_A_METHOD
                       for x in v.values() if not isinstance(x, (dict, list))):
                    return True
            elif v not in (None, False) and str(v).strip().lower() not in _NOT_A_METHOD:
                return True
        if isinstance(v, dict) and _names_method(v, depth + 1):
            return True
    return False


def _speculative_run(task: dict[str, Any]) -> bool:
    """The whole submission ran speculative decoding: `task.extra_config` names a speculative
    algorithm and `task.runtime_metrics` measured its mean accepted tokens. The engine was
    launched that way, so every scenario block ran it, not only a `speculative` one."""
    rt = task.get("runtime_metrics")
    measured = isinstance(rt, dict) and rt.get("mean_accepted_tokens") not in (None, "", 0)
    return measured and _names_method(task.get("extra_config"))


def _parse_result(source: str, r: dict[str, Any], base: str,
                  dropped: list[str]) -> list[Claim]:
    metrics = r["metrics"]
    task = r["task"] if isinstance(r.get("task"), dict) else {}
    # With a `speculative` block of its own, the config and metrics are that block's settings.
    spec_run = metrics.get("speculative") is None and _speculative_run(task)
    only_spec = task.get("scenario") == "speculative"  # the blocks keep their own cells
    claims = []
    suite = str(r.get("suite_id") or "")
    for block in blocks(metrics, base, only_spec=only_spec, dropped=dropped, suite=suite):
        b = ClaimBuilder(source)
        block.fill(b)
        b.set("cell", block.cell, field=block.path)
        speculative = block.speculative or spec_run
        if not speculative:
            b.set("speculative", False, field=_p(base, f"metrics.{block.scenario}"),
                  span="AccelMark runs speculative decoding only in its 'speculative' scenario")
        _shared(b, r, base, speculative=speculative,
                explicit=block.scenario == "speculative" and not spec_run)
        if speculative:
            suite_drafter(b, suite, str(r.get("implementation_id") or ""), task.get("extra_config"))
        claims.append(b.build())
    return claims


def _put(b: ClaimBuilder, obj: Any, key: str, field: str, conv: Any, path: str,
         span: str | None = None) -> Any:
    if not isinstance(obj, dict):
        return None
    out = read_key(obj, key, conv, f"{path}.{key}")
    b.set(field, out, field=f"{path}.{key}", span=span)
    return out


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
        where = ("metrics.speculative" if explicit else "task.scenario"
                 if task.get("scenario") == "speculative" else "task.extra_config")
        b.set("speculative", True, field=_p(base, where))
        for obj, where in ((rt, "task.runtime_metrics"), (extra, "task.extra_config")):
            for key in _SPEC_KEYS:
                _put(b, obj, key, "spec_method", to_text, _p(base, where))
        _put(b, rt, "mean_accepted_tokens", "acceptance_length", to_float,
             _p(base, "task.runtime_metrics"))
        # "mean accepted tokens per verification step" counts the accepted drafts only
        # (runners/benchmark_runner.py get_runtime_metrics: 2.96 = 0.74 × 4): the speculative
        # bound adds the bonus token every pass emits.
        _put(b, rt, "mean_accepted_tokens", "accepted_per_pass", to_float,
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
    texts: list[tuple[str, Any]] = []
    if isinstance(script, str) and _COMMAND.match(script):
        b.set("launch_command", script, field=f"{mpath}.reproduce_script")
        texts.append((f"{mpath}.reproduce_script", script))
    if isinstance(extra, dict):
        # Its speculative settings are the speculative scenario's, not every block's.
        own_extra = extra if speculative else {k: v for k, v in extra.items()
                                               if not _SPEC_KEY.search(str(k))}
        texts.append((_p(base, "task.extra_config"), own_extra))
    notes = [str(meta["notes"])] if meta.get("notes") else []
    if meta.get("flagged"):
        notes.append(f"[flagged by AccelMark: {meta['flagged']}]")
    if notes:
        b.set("notes", " ".join(notes), field=f"{mpath}.notes" if meta.get("notes") else
              f"{mpath}.flagged")
        own = _RUNNER_STATUS.sub("", str(meta.get("notes") or "")).strip()
        texts.append((f"{mpath}.notes", own))
    engine = sw.get("framework") if isinstance(sw, dict) else None
    read_record_text(b, texts, engine=str(engine or ""))


def _fraction(value: Any) -> float:
    x = to_float(value)
    x = x / 100 if x > 1 else x
    if not 0 <= x <= 1:
        raise BadValue(f"{value!r} is not an acceptance rate")
    return x


def _p(base: str, key: str) -> str:
    return f"{base}.{key}" if base else key
