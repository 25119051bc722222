"""Properties every tool-output adapter keeps, whatever JSON it is handed.

- `sniff` never raises;
- `parse` either returns Claims whose numbers are all finite, or raises an ExtractError;
- each tool-output fixture is recognised by exactly one of these adapters.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checks.models import Claim
from extractors.document import RawDocument
from extractors.errors import ExtractError
from extractors.formats.aiperf import AiPerf
from extractors.formats.guidellm import GuideLLM
from extractors.formats.llama_bench import LlamaBench
from extractors.formats.llama_server import LlamaServerTimings
from extractors.formats.sglang_bench_one_batch import SglangBenchOneBatch
from extractors.formats.sglang_bench_serving import SglangBenchServing
from extractors.formats.vllm_bench import VllmBench

FIXTURES = Path(__file__).parents[1] / "fixtures"
ADAPTERS = [VllmBench(), SglangBenchServing(), SglangBenchOneBatch(), LlamaBench(),
            LlamaServerTimings(), AiPerf(), GuideLLM()]
BY_NAME = {a.name: a for a in ADAPTERS}
FIXTURE_FILES = sorted(
    p for name in BY_NAME for p in (FIXTURES / name).glob("*") if p.suffix in (".json", ".jsonl")
)

# Key names the adapters look for, so random objects sometimes take a recognised shape.
KEYS = ["output_throughput", "request_throughput", "model_id", "mean_ttft_ms", "median_tpot_ms",
        "max_concurrency", "total_output_tokens", "completed", "duration", "accept_length",
        "total_output_tokens_retokenized", "spec_decode_acceptance_rate", "spec_decode_num_drafts",
        "batch_size", "input_len", "median_decode_throughput", "median_decode_latency",
        "avg_ts", "avg_ns", "n_prompt", "n_gen", "model_type", "gpu_info", "samples_ts",
        "timings", "predicted_per_second", "predicted_n", "predicted_ms", "prompt_n", "cache_n",
        "draft_n", "draft_n_accepted", "output_token_throughput", "avg", "unit",
        "time_to_first_token", "input_config", "benchmarks", "metrics", "successful", "mean",
        "output_tokens_per_second", "config", "strategy", "type_", "streams"]

scalars = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.text(max_size=12) | st.sampled_from(["inf", "NaN", "1e400", "abc", "", "12.5"]))
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), children, max_size=6),
    max_leaves=25,
)


def check_claims(claims: list[Claim]) -> None:
    assert isinstance(claims, list)
    for claim in claims:
        assert isinstance(claim, Claim)
        for name, value in claim:
            if isinstance(value, float):
                assert math.isfinite(value), name
        for a, b in claim.ratios:
            assert isinstance(a, int) and isinstance(b, int)
        if claim.tok_s is not None:
            assert claim.tok_s > 0


def run_adapters(doc: RawDocument) -> None:
    for adapter in ADAPTERS:
        adapter.sniff(doc)  # must not raise
        try:
            claims = adapter.parse(doc)
        except ExtractError:
            continue
        check_claims(claims)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_value_never_breaks_an_adapter(value: Any) -> None:
    run_adapters(RawDocument.from_text(json.dumps(value), source="x.json"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=8),
                min_size=2, max_size=4))
def test_any_json_lines_never_break_an_adapter(rows: list[dict[str, Any]]) -> None:
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    run_adapters(RawDocument.from_text(text, source="x.jsonl"))


def _records(path: Path) -> list[dict[str, Any]]:
    text = path.read_text()
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    data = json.loads(text)
    return data if isinstance(data, list) else [data]


def _paths(obj: Any, prefix: tuple = (), depth: int = 0) -> list[tuple]:
    """Every key path in a fixture object, down to three levels."""
    out = []
    if isinstance(obj, dict) and depth < 4:
        for key, value in obj.items():
            out.append(prefix + (key,))
            out.extend(_paths(value, prefix + (key,), depth + 1))
    elif isinstance(obj, list) and obj and depth < 4:
        out.extend(_paths(obj[0], prefix + (0,), depth + 1))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fixtures_with_one_value_replaced_never_break_an_adapter(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(FIXTURE_FILES))
    records = copy.deepcopy(_records(path))
    i = data.draw(st.integers(0, len(records) - 1))
    key_path = data.draw(st.sampled_from(_paths(records[i])))
    target = records[i]
    for step in key_path[:-1]:
        target = target[step]
    target[key_path[-1]] = data.draw(json_values)
    if path.suffix == ".jsonl" or len(records) > 1:
        text = "\n".join(json.dumps(r) for r in records) + "\n"
        if path.suffix == ".json":
            text = json.dumps(records)
    else:
        text = json.dumps(records[0])
    run_adapters(RawDocument.from_text(text, source=path.name))


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_fixture_is_recognised_by_exactly_its_own_adapter(path: Path) -> None:
    doc = RawDocument(path.read_bytes(), source=path.name)
    yes = [a.name for a in ADAPTERS if a.sniff(doc)]
    assert yes == [path.parent.name]
    check_claims(BY_NAME[path.parent.name].parse(doc))


OTHER_FIXTURES = sorted(
    p for p in FIXTURES.glob("*/*")
    if p.parent.name not in BY_NAME and p.suffix in (".json", ".jsonl")
)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_formats_fixtures_are_not_claimed(path: Path) -> None:
    doc = RawDocument(path.read_bytes(), source=path.name)
    assert [a.name for a in ADAPTERS if a.sniff(doc)] == []


def test_every_adapter_has_a_fixture() -> None:
    assert {p.parent.name for p in FIXTURE_FILES} == set(BY_NAME)
