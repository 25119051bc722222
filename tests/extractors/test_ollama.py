"""Ollama API responses (`/api/generate`, `/api/chat`; ollama/ollama docs/api.md): durations in
nanoseconds, the generation rate eval_count / eval_duration * 10^9, one request per response."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.reference import Reference
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.evidence import read_document
from extractors.formats import detect
from extractors.formats.ollama import OllamaResponse

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "ollama"


def _doc(name: str) -> RawDocument:
    return RawDocument((FIX / name).read_bytes(), source=name)


def test_a_generate_response_is_its_decode_rate_from_nanoseconds() -> None:
    (c,) = OllamaResponse().parse(_doc("generate.json"))
    assert c.tok_s == pytest.approx(290 / 4.709213)  # 61.58 tok/s: ns, not ms or s
    assert (c.tok_s_kind, c.tokens_generated, c.input_tokens, c.engine, c.model) == (
        "decode", 290, 26, "ollama", "llama3.1:8b")
    assert c.wall_seconds == pytest.approx(4.709213)
    assert c.ttft_ms == pytest.approx(325.953)
    assert c.provenance["tok_s"].field == "eval_count/(eval_duration ns)"
    assert c.notes == ("TTFT is the prompt_eval_duration (the prompt's processing time); prompt processing "
                       "79.77 tok/s over 26 tokens; model load 0.005026 s, not in the rate")


def test_a_streamed_chat_is_read_at_its_final_line() -> None:
    doc = _doc("chat_stream.ndjson")
    assert isinstance(detect(doc), OllamaResponse)
    (c,) = OllamaResponse().parse(doc)
    assert c.tok_s == pytest.approx(182 / 3.921)
    assert c.provenance["tok_s"].field == "[2].eval_count/([2].eval_duration ns)"


@pytest.mark.parametrize("body", [
    {"model": "llama3.1:8b", "created_at": "2024-08-04T19:22:45Z", "response": "The", "done": False},
    {"eval_count": 290, "eval_duration": 4709213000},  # no done: some other tool's counters
    [{"model": "m", "created_at": "t", "done": False}],  # a stream cut before its last line
])
def test_what_is_no_final_response_is_not_ollama(body: object) -> None:
    assert not OllamaResponse().sniff(RawDocument(json.dumps(body).encode(), source="x.json"))


def test_a_zero_duration_is_refused_by_name() -> None:
    body = {"model": "m", "done": True, "eval_count": 290, "eval_duration": 0}
    with pytest.raises(InvalidInput, match="no usable eval_count and eval_duration \\(got 290, 0\\)"):
        OllamaResponse().parse(RawDocument(json.dumps(body).encode(), source="x.json"))


def test_the_model_tag_is_read_and_the_record_judged(ref: Reference) -> None:
    reading = read_document(_doc("generate.json"), ref)
    assert reading.source.format == "ollama"
    row = ref.model(reading.records[0].model)
    assert row is not None and row.name == "Llama 3.1 8B"  # the tag "llama3.1:8b" names its row
