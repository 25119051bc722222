"""A model joined by "+" to a much smaller one is a target and its draft model."""

from __future__ import annotations

import pytest

from checks.reference import Reference
from extractors.document import RawDocument
from extractors.text import parse_text


@pytest.mark.parametrize(("text", "model", "drafter"), [
    ("Qwen2.5-14B Q8_0 + Qwen2.5-0.5B Q4_K_M: 137.5 tok/s on a 3090 24GB", "Qwen2.5 14B", "Qwen2.5 0.5B"),
    ("Llama 3.1 70B + Llama 3.2 1B on 2x 3090: 31 tok/s", "Llama 3.1 70B", "Llama 3.2 1B"),
])
def test_a_small_model_after_a_plus_is_the_draft_model(ref: Reference, text: str, model: str,
                                                        drafter: str) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert (c.model, c.speculative, c.spec_method, c.drafter_model) == (
        model, True, "Draft model (SpS)", drafter)


@pytest.mark.parametrize("text", [
    "Llama 3 8B + Llama 3 70B at 20 tok/s",  # the second is larger: two models, not a pair
    "Qwen3 8B at 90 tok/s\nQwen3 0.6B + something else",  # not on one line
    "Qwen3 32B vs Qwen3 0.6B: 40 tok/s",  # no "+"
])
def test_other_model_pairs_say_nothing_about_speculation(ref: Reference, text: str) -> None:
    c = parse_text(RawDocument.from_text(text), ref).claim
    assert c.spec_method is None and c.drafter_model is None
