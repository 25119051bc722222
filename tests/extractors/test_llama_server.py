"""llama-server responses with `timings` -> Claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.llama_server import LlamaServerTimings

FIXTURES = Path(__file__).parents[1] / "fixtures" / "llama_server"
COMPLETION = "completion_speculative.json"
CHAT = "chat_completion_cached.json"


def load(name: str) -> RawDocument:
    return RawDocument((FIXTURES / name).read_bytes(), source=name)


def obj(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


@pytest.mark.parametrize("name", [COMPLETION, CHAT])
def test_fixture_is_detected_as_llama_server(name: str) -> None:
    found = detect(load(name))
    assert found is not None and found.name == "llama_server"


def test_completion_with_draft_model() -> None:
    (claim,) = LlamaServerTimings().parse(load(COMPLETION))
    assert claim.tok_s == pytest.approx(512 / 2981.407 * 1000)
    assert claim.tok_s_kind == "decode"
    assert (claim.tokens_generated, claim.wall_seconds) == (512, pytest.approx(2.981407))
    assert claim.input_tokens == 45
    assert claim.ttft_ms == pytest.approx(21.362)
    assert claim.prefill_cached is False
    assert claim.speculative is True
    assert (claim.drafted_tokens, claim.accepted_tokens) == (640, 431)
    assert claim.acceptance_rate == pytest.approx(431 / 640)
    assert claim.ratios == [(431, 640)]
    assert claim.acceptance_length is None
    assert claim.spec_window == 17
    assert claim.spec_window_convention == "llama.cpp draft max + 1"
    assert claim.temperature == 0.0
    assert claim.model == "Qwen3-8B-Q4_K_M.gguf"
    assert claim.engine == "llama.cpp"
    prov = claim.provenance
    assert prov["tok_s"].field == "timings.predicted_per_second"
    assert prov["drafted_tokens"].field == "timings.draft_n"
    assert prov["acceptance_rate"].field == "timings.draft_n_accepted/timings.draft_n"
    assert prov["spec_window"].field == "generation_settings.speculative.n_max"
    assert set(claim.filled()) - {"notes"} <= set(prov)


def test_chat_completion_from_prompt_cache() -> None:
    (claim,) = LlamaServerTimings().parse(load(CHAT))
    assert claim.engine_version == "b9251-e2b129e1b"
    assert claim.provenance["engine_version"].field == "system_fingerprint"
    assert claim.prefill_cached is True
    assert claim.input_tokens == 808
    assert claim.provenance["input_tokens"].field == "timings.prompt_n+timings.cache_n"
    assert claim.acceptance_rate == pytest.approx(515 / 604)
    assert claim.spec_window is None  # no generation_settings on the OpenAI route
    assert claim.notes is not None
    assert "804 of 808 prompt tokens came from the prompt cache" in claim.notes


def test_bare_timings_object() -> None:
    timings = obj(COMPLETION)["timings"]
    (claim,) = LlamaServerTimings().parse(RawDocument.from_text(json.dumps(timings)))
    assert claim.provenance["tok_s"].field == "predicted_per_second"
    assert claim.speculative is True


def test_no_draft_keys_leave_speculative_unknown() -> None:
    data = obj(COMPLETION)
    for key in ("draft_n", "draft_n_accepted"):
        data["timings"].pop(key)
    (claim,) = LlamaServerTimings().parse(RawDocument.from_text(json.dumps(data)))
    assert claim.speculative is None
    assert claim.spec_window is None


def test_bad_predicted_per_second_is_invalid_input() -> None:
    data = obj(CHAT)
    data["timings"]["predicted_per_second"] = "n/a"
    with pytest.raises(InvalidInput, match=r"resp\.json: llama-server timings have no usable "
                                           r"predicted_per_second \(got 'n/a'\)"):
        LlamaServerTimings().parse(RawDocument.from_text(json.dumps(data), source="resp.json"))
