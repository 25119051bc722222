"""MLPerf Inference results (MLCommons): result summaries, summary records and system files.

Shapes (mlcommons/inference `tools/submission/directory_structure_samples/`):
- `…/<Scenario>/performance/result_summary.json` of the newer LLM harness: `tps, qps,
  duration_ns, ttft{median,…}, tpot{median,…}, output_sequence_lengths{total,…},
  run_config{load_pattern{type, target_concurrency}}` (intel-ai-tce/inference_results_v6.1,
  closed/Atlas_Inference/results/DGX_Spark_GB10/qwen3.6-27b/SingleStream);
- summary records, as the submission checker's CSV (`Organization, SystemName, Scenario, Result,
  Units, accelerator_model_name, accelerators_per_node, framework, notes, weight_data_types, …`)
  or `generate_final_report.py`'s `_results.json` (columns renamed: `Submitter, System,
  Accelerator, a#, Software, Notes, Model, UsedModel, Performance_Result, Performance_Units,
  Power_Result, Power_Units, …`; mlcommons/inference `tools/submission/generate_final_report.py`);
- `systems/<system>.json` (`system_name, accelerator_model_name, accelerators_per_node,
  number_of_nodes, framework, sw_notes, …`): a configuration with no number;
- loadgen's `mlperf_log_summary.txt` ("MLPerf Results Summary", `Scenario : …`,
  `Tokens per second : …` or `Completed tokens per second : …`, TTFT percentiles in ns).

Quirks:
- Latencies are nanoseconds; TTFT is stored in ms; 1 / median TPOT is the per-user rate.
- Only token-rate results are speed claims: records in samples/s, queries/s or ms are skipped
  (a summary of only those is "no claim found"). Offline and Server results are the whole
  system's tokens/s ("aggregate"); a single-stream rate is end-to-end output ("output").
- `result_summary.json` names neither model nor system; the results tree does
  (`results/<system>/<model>/<Scenario>/`), so the model is read from the source path when present.
- A loadgen log names neither system nor model: both come from its place in the results tree
  (`<division>/<org>/results/<system>/<benchmark>/<scenario>/…`) and the hardware from
  `systems/<system>.json` beside it, else from the system's name (`mlperf_tree`).
- Offline, Server and Interactive results are serving aggregates: the cell names the scenario
  and `serving_claim` is set. Server's `tpot_latency` / `ttft_latency` test parameters are the
  run's latency targets (`tpot_target_ms`): a bound on every request's rate, kept as data.
  Offline issues all `samples_per_query` samples at once: that many at most are in flight.
- An LLM benchmark's Offline / Server / Interactive `Result` is tokens/s whatever its `Units`
  column fell back to (the checker's unit table lists only some benchmark ids).
- The hardware count is `total_accelerators`, else accelerators per node × nodes; `sw_notes` is where spec decoding shows up,
  so it goes to the notes and, with the other free text, through the record-text readers.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any, ClassVar

import re2

from checks.models import Claim, SourceKind
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput, NoClaimFound
from extractors.formats.aliases import fold
from extractors.formats.mlperf_system import count_or_none, is_none, parse_system, set_engine
from extractors.formats.mlperf_tree import (
    card_name,
    set_from_system_name,
    system_beside,
    tree_place,
)
from extractors.formats.record_text import read_record_text
from extractors.formats.records import find_records
from extractors.formats.values import BadValue, read_key, to_float, to_int, to_rate, to_text
from extractors.text.lazyre import lazy

__all__ = ["MLPerf"]

_SUMMARY_KEYS = {"tps", "ttft", "tpot", "run_config"}
_SYSTEM_KEYS = {"accelerator_model_name", "accelerators_per_node"}
_LOG_HEAD = lazy(r"MLPerf Results Summary", re.IGNORECASE)
_PATH_MODEL = lazy(r"/results/([^/]+)/([^/]+)/(SingleStream|MultiStream|Offline|Server|"
                         r"Interactive)/", re.IGNORECASE)


def _is_record(row: Any) -> bool:
    if not isinstance(row, dict):
        return False
    keys = set(row)
    return (bool(keys & {"Organization", "Submitter"}) and bool(keys & {"SystemName", "System"})
            and "Scenario" in keys and bool(keys & {"Result", "Performance_Result"}))


def _is_summary(obj: Any) -> bool:
    return (isinstance(obj, dict) and obj.keys() >= _SUMMARY_KEYS
            and isinstance(obj.get("ttft"), dict) and isinstance(obj.get("run_config"), dict))


def _is_system(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.keys() >= _SYSTEM_KEYS and (
        "system_name" in obj or "submitter" in obj)


def _csv_rows(text: str) -> list[dict[str, str]] | None:
    head = text.lstrip("\ufeff").split("\n", 1)[0]
    if not all(k in head for k in ("Scenario", "Result", "Units")):
        return None
    try:
        rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    except csv.Error:
        return None
    return rows if rows and _is_record(rows[0]) else None


class MLPerf:
    name: ClassVar[str] = "mlperf"
    kind: ClassVar[SourceKind] = "record"

    def sniff(self, doc: RawDocument) -> bool:
        try:
            return self._shape(doc)[0] is not None
        except Exception:  # noqa: BLE001 - sniffing never raises
            return False

    def _shape(self, doc: RawDocument) -> tuple[str | None, Any]:
        data = doc.json() if doc.looks_like_json() else None
        if data is not None:
            if _is_summary(data):
                return "summary", data
            if _is_system(data):
                return "system", data
            found = find_records(data)
            if found and any(_is_record(r) for r in found.rows[:200]):
                return "records", found
            return None, None
        text = doc.text
        if _LOG_HEAD.search(text[:2000]) and re.search(r"^\s*Scenario\s*:", text, re.MULTILINE):
            return "log", text
        rows = _csv_rows(text)
        if rows is not None:
            return "csv", rows
        return None, None

    def parse(self, doc: RawDocument) -> list[Claim]:
        shape, data = self._shape(doc)
        try:
            if shape == "summary":
                return [_parse_summary(doc.source, data)]
            if shape == "system":
                return [parse_system(doc.source, data)]
            if shape == "log":
                return [_parse_log(doc.source, data)]
            if shape == "records":
                return _parse_records(doc, data.rows, data.row_path)
            if shape == "csv":
                return _parse_records(doc, data, lambda i: f"row {i + 2}")
        except BadValue as exc:
            raise InvalidInput(f"{doc.source}: MLPerf {shape}: {exc}") from None
        raise InvalidInput(f"{doc.source}: not an MLPerf result summary, summary table, system "
                           "description or loadgen log")


def _parse_summary(source: str, s: dict[str, Any]) -> Claim:
    b = ClaimBuilder(source)
    tps = read_key(s, "tps", to_rate, "tps")
    if tps is None:
        raise BadValue("'tps' is missing: the summary has no token rate")
    span = "output tokens per second over the run"
    tpot = s.get("tpot")
    t = read_key(tpot, "median", to_float, "tpot.median") if isinstance(tpot, dict) else None
    if t:
        span += f"; per stream 1/median TPOT = {1e9 / t:.1f} tok/s"
        b.set("per_user_tok_s", round(1e9 / t, 2), field="1 ÷ tpot.median (ns)", span=f"{t:.0f} ns")
    b.set("tok_s", tps, field="tps", span=span)
    b.set("tok_s_kind", "output", field="tps")
    osl = s.get("output_sequence_lengths")
    if isinstance(osl, dict):
        b.set("tokens_generated", read_key(osl, "total", to_int, "output_sequence_lengths.total"),
              field="output_sequence_lengths.total")
    dur = read_key(s, "duration_ns", to_float, "duration_ns")
    if dur is not None:
        b.set("wall_seconds", dur / 1e9, field="duration_ns")
    ttft = read_key(s["ttft"], "median", to_float, "ttft.median")
    if ttft is not None:
        b.set("ttft_ms", ttft / 1e6, field="ttft.median", span=f"{ttft:.0f} ns")
    lp = s["run_config"].get("load_pattern")
    if isinstance(lp, dict):
        conc = read_key(lp, "target_concurrency", to_int, "run_config.load_pattern.target_concurrency")
        if conc is not None:
            b.set("concurrency", conc, field="run_config.load_pattern.target_concurrency")
            if conc == 1:
                b.set("batch", 1, field="run_config.load_pattern.target_concurrency",
                      span="one request in flight")
    m = _PATH_MODEL.search(source.replace("\\", "/"))
    if m:
        b.set("model", m.group(2), field="(source path)", span=m.group(0))
    return b.build()


# RE2 (linear time, google/re2): with Python's engine the lazy key and the spaces around it made
# a line of spaces cost quadratic time.
_LOG_LINE = re2.compile(r"(?m)^\s*([^:\n]+?)\s*:\s*(.+?)\s*$")


def _parse_log(source: str, text: str) -> Claim:
    fields = {fold(k): (k, v) for k, v in _LOG_LINE.findall(text)}
    b = ClaimBuilder(source)
    # GPT-J's logs print loadgen's estimate, "Tokens per second (inferred)": samples/s × the
    # dataset's tokens per sample (mlcommons/inference_results_v4.1 closed/*/results/*/gptj-99/).
    for key in ("completed_tokens_per_second", "tokens_per_second",
                "completed_tokens_per_second_inferred", "tokens_per_second_inferred"):
        if key in fields:
            raw_key, value = fields[key]
            b.set("tok_s", read_key({key: value}, key, to_rate, raw_key), field=raw_key, span=value)
            break
    else:
        raise BadValue("no 'Tokens per second' line: the log holds no token rate")
    scenario = fields.get("scenario", ("", ""))[1]
    b.set("tok_s_kind", "output" if scenario.lower() == "singlestream" else "aggregate",
          field="Scenario", span=scenario)
    for key in ("50_00_percentile_first_token_latency_ns", "50_00_percentile_ttft_ns",
                "mean_first_token_latency_ns"):
        if key in fields:
            raw_key, value = fields[key]
            b.set("ttft_ms", read_key({key: value}, key, to_float, raw_key) / 1e6, field=raw_key,
                  span=value)
            break
    tpot = next((fields[k] for k in ("50_00_percentile_time_to_output_token_ns",
                                     "mean_time_to_output_token_ns") if k in fields), None)
    if tpot is not None:
        ns = read_key({"t": tpot[1]}, "t", to_rate, tpot[0])
        b.set("per_user_tok_s", round(1e9 / ns, 2), field=f"1 ÷ {tpot[0]}", span=tpot[1])
    for key, field in (("tpot_latency_ns", "tpot_target_ms"), ("ttft_latency_ns", "ttft_target_ms")):
        if key in fields and scenario.lower() in ("server", "interactive"):
            raw_key, value = fields[key]
            ns = read_key({key: value}, key, to_float, raw_key)
            if ns:  # 0 means no target (Offline runs print the default)
                b.set(field, ns / 1e6, field=raw_key, span=f"{value} ns: the run's latency target")
    if scenario.lower() == "offline" and "samples_per_query" in fields:
        # Offline: loadgen issues every sample in one query, so no more can be in flight.
        raw_key, value = fields["samples_per_query"]
        n = read_key({"n": value}, "n", to_int, raw_key)
        if n and n > 1:
            b.set("concurrency", n, field=raw_key,
                  span=f"{value} samples in one Offline query: at most this many in flight")
    _mark_scenario(b, scenario, "Scenario")
    valid = fields.get("result_is")
    sut = fields.get("sut_name")
    notes = [f"SUT {sut[1]}" if sut else "", f"{scenario} result {valid[1]}" if valid else ""]
    if any(notes):
        b.set("notes", "; ".join(n for n in notes if n), field="Result is")
    _from_tree(b, source)
    return b.build()


def _mark_scenario(b: ClaimBuilder, scenario: str, field: str) -> None:
    """Offline, Server and Interactive results are the whole system's tokens/s under load: the
    cell names the scenario, and the claim is a serving aggregate, not one stream."""
    if not scenario:
        return
    b.set("cell", f"MLPerf {scenario}", field=field, span=scenario)
    if scenario.lower() in ("offline", "server", "interactive"):
        b.set("serving_claim", True, field=field,
              span=f"MLPerf {scenario}: all requests together (loadgen scenario)")


def _from_tree(b: ClaimBuilder, source: str) -> None:
    """System, benchmark and scenario from the results path; hardware and count from
    `systems/<system>.json` beside it when it is there, else from the system's name."""
    place = tree_place(source)
    if place is None:
        return
    b.set("model", place.benchmark, field="(results path: benchmark)", span=place.span)
    b.set("submitter", place.org, field="(results path: submitter)", span=place.span)
    found = system_beside(source, place)
    if found is not None:
        path, system = found
        described = parse_system(path, system)
        for name in ("hardware", "hardware_count", "engine", "engine_version", "submitter"):
            value = getattr(described, name)
            prov = described.provenance.get(name)
            if value is not None and prov is not None:
                b.set(name, value, field=f"{path}: {prov.field}", span=prov.span)
        if described.notes:
            b.set("notes", described.notes, field=f"{path}: sw_notes")
    set_from_system_name(b, place.system, "(results path: system name)")


# MLPerf's LLM benchmarks report Offline, Server and Interactive results in tokens/s (the
# submission checker's SPECIAL_UNIT_DICT, mlcommons/inference
# tools/submission/submission_checker/constants.py: llama2-70b, mixtral-8x7b, llama3.1-8b/405b,
# deepseek-r1, gptj); the Units column falls back to Samples/s or Queries/s for a benchmark id the
# table does not list (an interactive variant, an open-division model), so the benchmark decides.
_LLM_BENCHMARK = lazy(r"^(?:llama|mixtral|gptj|gpt-j|gpt-oss|deepseek|qwen|mistral|falcon)",
                            re.IGNORECASE)
_TOKEN_SCENARIOS = ("offline", "server", "interactive")


def _in_tokens(row: dict[str, Any]) -> bool:
    units = str(row.get("Performance_Units") or row.get("Units") or "").lower()
    if "token" in units:
        return True
    if any(w in units for w in ("ms", "latency", "watt", "joule")):
        return False
    model = str(row.get("MlperfModel") or row.get("Model") or row.get("UsedModel") or "")
    return (bool(_LLM_BENCHMARK.match(model.strip()))
            and str(row.get("Scenario") or "").lower() in _TOKEN_SCENARIOS)


def _parse_records(doc: RawDocument, rows: list[Any], where: Any) -> list[Claim]:
    claims, skipped = [], 0
    for i, row in enumerate(rows):
        if not _is_record(row):
            skipped += 1
            continue
        if not _in_tokens(row):
            skipped += 1
            continue
        claims.append(_parse_record(doc.source, row, str(where(i))))
    if not claims:
        raise NoClaimFound(f"{doc.source}: {len(rows)} MLPerf record(s), none in tokens/s")
    if skipped:
        doc.warnings.append(f"{doc.source}: {skipped} MLPerf record(s) not in tokens/s skipped")
    return claims


def _parse_record(source: str, r: dict[str, Any], path: str) -> Claim:
    b = ClaimBuilder(source)

    def pick(field: str, keys: tuple[str, ...], conv: Any) -> Any:
        for key in keys:
            value = read_key(r, key, conv, f"{path}.{key}")
            if value is not None:
                b.set(field, value, field=f"{path}.{key}")
                return value
        return None

    rkey = "Performance_Result" if "Performance_Result" in r else "Result"
    ukey = "Performance_Units" if "Performance_Units" in r else "Units"
    tok_s = read_key(r, rkey, to_rate, f"{path}.{rkey}")
    if tok_s is None:
        raise BadValue(f"'{path}.{rkey}' is empty")
    scenario = str(r.get("Scenario") or "")
    units = str(r.get(ukey) or "")
    unit_words = units if "token" in units.lower() else (
        f"tokens/s (an LLM benchmark's {scenario} result; Units column '{units}')")
    b.set("tok_s", tok_s, field=f"{path}.{rkey}", span=f"{r[rkey]} {unit_words} ({scenario})")
    b.set("tok_s_kind", "output" if scenario == "SingleStream" else "aggregate",
          field=f"{path}.Scenario")
    _mark_scenario(b, scenario, f"{path}.Scenario")
    for key in ("accelerator_model_name", "Accelerator"):
        accel = read_key(r, key, to_text, f"{path}.{key}")
        if accel and not is_none(accel):
            b.set("hardware", card_name(accel), field=f"{path}.{key}", span=accel)
            break
    cpu_only = not b.has("hardware") and any(k in r for k in ("accelerator_model_name",
                                                              "Accelerator"))
    if cpu_only:  # "N/A" accelerators: the host processors decode, one per socket
        pick("hardware", ("host_processor_model_name",), to_text)
        pick("hardware_count", ("host_processors_per_node",), to_int)
    if isinstance(r.get("Platform"), str) and not cpu_only:  # the results directory's name
        set_from_system_name(b, r["Platform"], f"{path}.Platform")
    total = count_or_none(r, "total_accelerators")
    if total:
        b.set("hardware_count", total, field=f"{path}.total_accelerators")
    per_node = count_or_none(r, "accelerators_per_node")
    if per_node is None:
        per_node = count_or_none(r, "a#")
    nodes = count_or_none(r, "number_of_nodes") or count_or_none(r, "Nodes") or 1
    if per_node:
        b.set("hardware_count", per_node * nodes, field=f"{path}.accelerators_per_node",
              span=f"{per_node} per node × {nodes} node(s)")
    for key in ("framework", "Software"):
        if key in r:
            set_engine(b, read_key(r, key, to_text, f"{path}.{key}"), f"{path}.{key}")
            break
    pick("model", ("UsedModel", "Model", "MlperfModel"), to_text)
    pick("weight_format", ("weight_data_types",), to_text)
    pick("notes", ("notes", "Notes"), to_text)
    pick("submitter", ("Organization", "Submitter"), to_text)
    pick("record_id", ("ID", "PrivateID", "Unique ID (e.g. for Audit)"), to_text)
    details = r.get("Details")
    if isinstance(details, str) and details.startswith("http"):
        b.set("source_url", details, field=f"{path}.Details")
    is_watts = str(r.get("Power_Units") or "").lower() == "watts"
    if is_watts and pick("power_w", ("Power_Result",), to_rate) is not None:
        b.set("power_method", "MLPerf power measurement (whole system, at the wall)",
              field=f"{path}.Power_Units")
    if b.has("notes"):  # last: structured columns win over what the notes say
        read_record_text(b, [(b.provenance["notes"].field or "notes", b.values["notes"])])
    return b.build()
