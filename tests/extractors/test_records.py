"""The records finder, the field alias table and the board mapping loader."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import ExtractError
from extractors.formats.accelmark import AccelMark
from extractors.formats.aliases import ALIAS_INDEX, FIELD_ALIASES, TARGETS, fold
from extractors.formats.base import Format
from extractors.formats.board_mapping import BoardMapping, BoardMappingError, load_board_mappings
from extractors.formats.generic_board import GenericBoard
from extractors.formats.inferencex import InferenceX
from extractors.formats.localscore import LocalScore
from extractors.formats.mlperf import MLPerf
from extractors.formats.records import find_records, get_path, looks_like_claim, map_record
from extractors.formats.values import BadValue, to_float


def claim_of(record: dict, prefix: str = "records[0]") -> tuple[Claim, list[str]]:
    problems: list[str] = []
    b = ClaimBuilder("test")
    map_record(record, prefix, b, problems)
    return b.build(), problems


# ---------------------------------------------------------------------------- finding records

def test_top_level_list_is_the_records_array() -> None:
    found = find_records([{"gpu": "RTX 4090", "tok_s": 100}])
    assert found is not None
    assert found.path == "" and found.row_path(3) == "[3]"


@pytest.mark.parametrize("key", ["results", "data", "runs", "records", "items", "benchmarks",
                                 "rows", "entries", "submissions", "Records"])
def test_records_under_an_ordinary_key(key: str) -> None:
    found = find_records({"count": 1, key: [{"gpu": "RTX 4090", "tok_s": 100}]})
    assert found is not None
    assert found.path == key and found.row_path(0) == f"{key}[0]"


def test_records_nested_two_levels_down() -> None:
    found = find_records({"meta": {"page": 1}, "payload": {"page": {"items": [{"a": 1}]}}})
    assert found is not None
    assert found.path == "payload.page.items"


def test_known_key_wins_over_a_longer_unknown_list() -> None:
    doc = {"tags": [{"t": i} for i in range(9)], "results": [{"gpu": "x", "tok_s": 1}]}
    found = find_records(doc)
    assert found is not None and found.path == "results"


def test_single_record_endpoint_is_a_board_of_one() -> None:
    found = find_records({"record": {"id": "r-56", "gpu": "RTX 5090", "tok_s": 2103.6}})
    assert found is not None and found.single and found.path == "record" and found.row_path(0) == "record"
    bare = find_records({"id": "r-56", "gpu": "RTX 5090", "tok_s": 2103.6})
    assert bare is not None and bare.single and bare.row_path(0) == ""


@pytest.mark.parametrize("doc", [{"a": 1}, [1, 2, 3], "text", None, {"results": []}])
def test_no_records_array_is_none(doc: object) -> None:
    assert find_records(doc) is None


def test_get_path_reads_dotted_and_indexed_paths() -> None:
    doc = {"data": {"items": [{"perf": {"rates": [5, 6]}}]}}
    assert get_path(doc, "data.items[0].perf.rates[1]") == 6
    assert get_path(doc, "data.nope", default="x") == "x"
    assert get_path(doc, "") is doc


# ----------------------------------------------------------------------------- the alias table

def test_alias_table_targets_exist_and_spellings_are_unique() -> None:
    assert set(FIELD_ALIASES) <= set(TARGETS)
    spellings = [fold(s) for group in FIELD_ALIASES.values() for s in group]
    assert len(spellings) == len(set(spellings))


@pytest.mark.parametrize("spelling,target", [
    ("gpu", "hardware"), ("Hardware", "hardware"), ("accelerator", "hardware"),
    ("device", "hardware"), ("gpu_name", "hardware"),
    ("tokens_per_second", "tok_s"), ("tok_s", "tok_s"), ("Tok/s", "tok_s"), ("tps", "tok_s"),
    ("throughput", "tok_s"), ("decode_tps", "decode_tok_s"), ("gen_tps", "decode_tok_s"),
    ("output_tok_s", "output_tok_s"),
    ("power_w", "power_w"), ("power-watts", "power_w"), ("watts", "power_w"),
    ("avg_power_w", "power_w"), ("ttft_ms", "ttft_ms"), ("TTFT", "ttft_ms"),
    ("time_to_first_token_ms", "ttft_ms"), ("engine", "engine"), ("framework", "engine"),
    ("runtime", "engine"), ("engine_version", "engine_version"), ("version", "engine_version"),
    ("framework_version", "engine_version"), ("launch_command", "launch_command"),
    ("command", "launch_command"), ("cmd", "launch_command"), ("launch", "launch_command"),
    ("notes", "notes"), ("note", "notes"), ("comments", "notes"), ("runtime_notes", "notes"),
    ("model", "model"), ("model_name", "model"), ("model_id", "model"),
    ("quant", "weight_format"), ("quantization", "weight_format"), ("precision", "weight_format"),
    ("weight_format", "weight_format"), ("dtype", "weight_format"),
    ("kv_dtype", "kv_dtype"), ("kv_cache_dtype", "kv_dtype"),
    ("batch", "batch"), ("batch_size", "batch"), ("bs", "batch"),
    ("concurrency", "concurrency"), ("conc", "concurrency"), ("max_concurrency", "concurrency"),
    ("context", "context_length"), ("context_length", "context_length"), ("ctx", "context_length"),
    ("isl", "input_tokens"), ("output_len", "output_tokens"), ("osl", "output_tokens"),
    ("n_gen", "output_tokens"), ("spec_method", "spec_method"),
    ("speculative_method", "spec_method"), ("spec_decoding", "spec_method"),
    ("draft_method", "spec_method"), ("window", "spec_window"),
    ("num_draft_tokens", "num_draft_tokens"), ("block_size", "num_draft_tokens"),
    ("spec_window", "spec_window"), ("num_speculative_tokens", "num_speculative_tokens"),
    ("al", "acceptance_length"), ("acceptance_length", "acceptance_length"),
    ("accept_len", "acceptance_length"), ("mean_accepted_tokens", "acceptance_length"),
    ("acceptance_rate", "acceptance_rate"), ("accept_rate", "acceptance_rate"),
    ("submitter", "submitter"), ("user", "submitter"), ("author", "submitter"),
    ("submitted_by", "submitter"), ("date", "date"), ("created_at", "date"),
    ("timestamp", "date"), ("id", "record_id"), ("record_id", "record_id"),
    ("run_id", "record_id"), ("url", "source_url"), ("run_url", "source_url"),
    ("source_url", "source_url"), ("tokens", "tokens_generated"),
    ("tokens_generated", "tokens_generated"), ("seconds", "wall_seconds"),
    ("wall_seconds", "wall_seconds"), ("elapsed_s", "wall_seconds"), ("duration", "wall_seconds"),
    ("temperature", "temperature"), ("temp", "temperature"), ("image", "container_image"),
    ("container_image", "container_image"), ("tp", "hardware_count"),
    ("tensor_parallel", "hardware_count"), ("hardware_count", "hardware_count"),
    ("num_gpus", "hardware_count"), ("gpu_count", "hardware_count"), ("repeats", "repeats"),
    ("runs", "repeats"), ("num_runs", "repeats"), ("cooldown", "cooldown_s"),
    ("cooldown_s", "cooldown_s"), ("prefix_caching", "prefix_caching"),
    ("prefix_cache", "prefix_caching"), ("prefill_cached", "prefill_cached"),
    ("prefill_from_cache", "prefill_cached"),
])
def test_ordinary_spelling_maps_to_its_claim_field(spelling: str, target: str) -> None:
    assert ALIAS_INDEX[fold(spelling)] == target


def test_seed_record_reads_through_the_alias_table() -> None:
    claim, problems = claim_of({
        "id": "r-56", "submitter": "speedrunner", "gpu": "RTX 5090", "model": "Qwen3.6-27B",
        "quant": "NVFP4", "engine": "sglang", "engine_version": "0.5.4+dflash.a91f3e",
        "batch": 1, "tokens": 2048, "seconds": 0.969, "tok_s": 2103.6, "ttft_ms": None,
        "power_w": 99.6, "spec_method": "DFlash", "num_draft_tokens": 56, "al": 56.0,
    })
    assert problems == []
    assert (claim.hardware, claim.model, claim.weight_format) == ("RTX 5090", "Qwen3.6-27B", "NVFP4")
    assert (claim.tokens_generated, claim.wall_seconds, claim.tok_s) == (2048, 0.969, 2103.6)
    assert claim.ttft_empty is True and claim.ttft_ms is None
    assert claim.speculative is True and claim.spec_method == "DFlash"
    assert claim.spec_window == 56 and claim.acceptance_length == 56.0
    assert claim.provenance["tok_s"].field == "records[0].tok_s"
    assert claim.provenance["spec_window"].field == "records[0].num_draft_tokens"


@pytest.mark.parametrize("al,low,high", [("231–292", 231, 292), ("174-240", 174, 240),
                                         ("3.1 to 3.6", 3.1, 3.6), ("292~231", 231, 292)])
def test_al_range_fills_low_and_high_not_the_point_value(al: str, low: float, high: float) -> None:
    claim, _ = claim_of({"gpu": "x", "tok_s": 1, "al": al})
    assert (claim.acceptance_length_low, claim.acceptance_length_high) == (low, high)
    assert claim.acceptance_length is None


def test_num_speculative_tokens_adds_the_bonus_token() -> None:
    claim, _ = claim_of({"gpu": "x", "tok_s": 1, "num_speculative_tokens": 3})
    assert claim.spec_window == 4
    assert claim.spec_window_convention is not None
    assert "+ 1 bonus token" in claim.spec_window_convention


@pytest.mark.parametrize("key", ["block_size", "num_draft_tokens"])
def test_block_size_and_draft_tokens_are_the_window(key: str) -> None:
    claim, _ = claim_of({"gpu": "x", "tok_s": 1, key: 16})
    assert claim.spec_window == 16
    assert claim.spec_window_convention is not None and key in claim.spec_window_convention


def test_explicit_window_wins_over_a_derived_one_whatever_the_key_order() -> None:
    claim, _ = claim_of({"gpu": "x", "tok_s": 1, "num_speculative_tokens": 3, "window": 8})
    assert claim.spec_window == 8 and claim.provenance["spec_window"].field == "records[0].window"


@pytest.mark.parametrize("rate,expected", [(0.74, 0.74), (74, 0.74), ("100%", 1.0), ("62.5 %", 0.625)])
def test_acceptance_rate_percent_or_fraction(rate: float | str, expected: float) -> None:
    claim, _ = claim_of({"gpu": "x", "tok_s": 1, "acceptance_rate": rate})
    assert claim.acceptance_rate == pytest.approx(expected)


def test_present_but_empty_ttft_is_a_finding_and_absent_ttft_is_not() -> None:
    empty, _ = claim_of({"gpu": "x", "tok_s": 1, "ttft": ""})
    absent, _ = claim_of({"gpu": "x", "tok_s": 1})
    given_s, _ = claim_of({"gpu": "x", "tok_s": 1, "ttft_s": 0.25})
    assert empty.ttft_empty is True
    assert absent.ttft_empty is None
    assert given_s.ttft_ms == 250.0 and given_s.ttft_empty is False


@pytest.mark.parametrize("value", ["none", "None", "off", "", False])
def test_no_speculation_spelled_any_way_is_speculative_false(value: str | bool) -> None:
    claim, _ = claim_of({"gpu": "x", "tok_s": 1, "spec_method": value})
    assert claim.speculative is (False if value != "" else None)
    assert claim.spec_method is None


def test_kind_hint_comes_from_the_spelling() -> None:
    claim, _ = claim_of({"gpu": "x", "gen_tps": 55.2})
    assert (claim.tok_s, claim.tok_s_kind) == (55.2, "decode")


def test_numbers_in_strings_with_units_are_read() -> None:
    claim, problems = claim_of({"gpu": "x", "tok_s": "4,691 tok/s", "power_w": "99–100 W"})
    assert claim.tok_s == 4691 and (claim.power_w, claim.power_w_high) == (99, 100)
    assert problems == []


def test_unreadable_values_are_skipped_and_reported() -> None:
    claim, problems = claim_of({"gpu": "x", "tok_s": "fast", "batch": [1, 2], "power_w": -5})
    assert claim.tok_s is None and claim.power_w is None
    assert any("records[0].tok_s" in p and "'fast' is not a number" in p for p in problems)
    assert any("power_w" in p and "positive" in p for p in problems)


def test_nested_objects_give_names_and_unambiguous_fields_only() -> None:
    claim, _ = claim_of({"model": {"name": "Qwen3-8B", "quant": "Q4_K_M"},
                         "runtime": {"name": "llamafile", "version": "0.9.1"},
                         "system": {"version": "#53-Ubuntu", "id": 7},
                         "metrics": {"tok_s": 42.0}})
    assert (claim.model, claim.weight_format) == ("Qwen3-8B", "Q4_K_M")
    assert (claim.engine, claim.engine_version) == ("llamafile", "0.9.1")
    assert claim.record_id is None
    assert claim.tok_s == 42.0 and claim.provenance["tok_s"].field == "records[0].metrics.tok_s"


def test_looks_like_claim_needs_throughput_and_a_name() -> None:
    assert looks_like_claim({"gpu": "RTX 4090", "tokens_per_second": 100})
    assert looks_like_claim({"model": "Qwen3-8B", "throughput": "100"})
    assert not looks_like_claim({"gpu": "RTX 4090"})
    assert not looks_like_claim({"tok_s": 100})
    assert not looks_like_claim({"gpu": "RTX 4090", "tok_s": "fast"})


@pytest.mark.parametrize("value", [True, None, "abc", "1e400", float("nan"), {"a": 1}, [1]])
def test_to_float_refuses_what_is_not_a_finite_number(value: object) -> None:
    with pytest.raises(BadValue):
        to_float(value)


# ---------------------------------------------------------------------------- board mappings

def entry(**over: object) -> dict[str, object]:
    base: dict[str, object] = {"name": "myboard", "records_path": "data.rows",
            "fields": {"tok_s": "speed", "hardware": "card"}}
    base.update(over)
    return base


def write(tmp_path: Path, boards: object) -> Path:
    p = tmp_path / "boards.json"
    p.write_text(json.dumps({"boards": boards}))
    return p


def test_packaged_mapping_loads_and_names_the_example_board() -> None:
    names = [m.name for m in load_board_mappings()]
    assert "tokenarena" in names


def test_extra_mapping_file_adds_and_replaces_by_name(tmp_path: Path) -> None:
    replaced = entry(name="tokenarena", records_path="rows")
    boards = load_board_mappings(write(tmp_path, [entry(), replaced]))
    by_name = {m.name: m for m in boards}
    assert by_name["myboard"].records_path == "data.rows"
    assert by_name["tokenarena"].records_path == "rows"


@pytest.mark.parametrize("bad,message", [
    (entry(fields={"tok_s": "speed", "gpu_model": "card"}), "unknown target(s) gpu_model"),
    (entry(fields={"hardware": "card"}), "needs a throughput field"),
    (entry(fields={"tok_s": "speed"}), "needs a 'hardware' or a 'model' field"),
    (entry(fields={"tok_s": "", "hardware": "card"}), "needs a non-empty path"),
    (entry(url_pattern="([unclosed"), "not a valid regex"),
    (entry(constants={"tok_s_kind": "sideways"}), "'tok_s_kind' = 'sideways' is not a valid"),
    (entry(constants={"colour": "red"}), "constant 'colour' is not a claim field"),
    (entry(extra_key=1), "extra_key"),
])
def test_invalid_mapping_entry_is_refused_with_its_reason(tmp_path: Path, bad: dict[str, object], message: str) -> None:
    with pytest.raises(BoardMappingError, match="myboard") as err:
        load_board_mappings(write(tmp_path, [bad]))
    assert message in str(err.value)


def test_mapping_file_that_is_not_json_or_not_there(tmp_path: Path) -> None:
    broken = tmp_path / "b.json"
    broken.write_text("{boards: [")
    with pytest.raises(BoardMappingError, match="not valid JSON"):
        load_board_mappings(broken)
    with pytest.raises(BoardMappingError, match="cannot read board mapping file"):
        load_board_mappings(tmp_path / "missing.json")
    broken.write_text(json.dumps({"board": []}))
    with pytest.raises(BoardMappingError, match="unknown key"):
        load_board_mappings(broken)


def test_mapping_matches_by_shape_whatever_the_host() -> None:
    m = BoardMapping.model_validate(entry(url_pattern=r"myboard\.example"))
    data = {"data": {"rows": [{"speed": 12.5, "card": "RTX 3090"}]}}
    assert m.matches_shape(data)
    assert m.matches_url("https://myboard.example/api") and not m.matches_url("http://10.0.0.9/")
    assert not m.matches_shape({"data": {"rows": [{"speed": "n/a", "card": "RTX 3090"}]}})


# ------------------------------------------------------------------ properties of the adapters

ADAPTERS: list[Format] = [InferenceX(), LocalScore(), AccelMark(), MLPerf(), GenericBoard()]
KEYS = ["hardware", "framework", "precision", "conc", "metrics", "hw", "tput_per_gpu",
        "output_tput_per_gpu", "spec_decoding", "median_ttft", "avg_gen_tps", "accelerator",
        "model", "runtime", "results", "results_summary", "accelerator_info", "gen_tps",
        "n_gen", "power_watts", "schema_version", "suite_id", "chip", "meta", "offline",
        "results_by_concurrency", "throughput_tokens_per_sec", "tps", "ttft", "tpot",
        "run_config", "Organization", "SystemName", "Scenario", "Result", "Units",
        "accelerator_model_name", "accelerators_per_node", "records", "gpu", "tok_s", "al",
        "num_draft_tokens", "ttft_ms", "power_w", "payload", "submissions", "perf", "gen_rate",
        "rig", "card"]
scalars = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.text(max_size=10) | st.sampled_from(["inf", "NaN", "1e400", "abc", "", "12.5",
                                                     "231–292", "Tokens/s", "none"]))
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), children, max_size=6),
    max_leaves=30,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(json_values)
def test_adapters_never_trace_back_on_any_json(value: object) -> None:
    doc = RawDocument(json.dumps(value).encode(), source="prop")
    for adapter in ADAPTERS:
        adapter.sniff(doc)  # must not raise
        try:
            claims = adapter.parse(doc)
        except ExtractError:
            continue
        for claim in claims:
            assert isinstance(claim, Claim)
            for name, v in claim:
                if isinstance(v, float):
                    assert math.isfinite(v), name
            if claim.tok_s is not None:
                assert claim.tok_s > 0
