"""Pumped input: the chat readers and every pattern they use run in linear time.

Each reader and each compiled pattern of the modules below reads one text made of adversarial
shapes (runs of spaces after a number, digit and letter runs, near-misses of a unit, a count,
a card, a model family, a window, an offload phrase), at two sizes eight times apart. The time
ratio is measured within one run (best of three at each size, the garbage collector paused).
Linear work shows as 8× (up to about 2× more where the larger text leaves the CPU caches),
quadratic work as 64×; the bound is 32×.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable

import pytest

import extractors.text.cards as cards
import extractors.text.freetext as freetext
import extractors.text.models as models
import extractors.text.names as names
import extractors.text.quants as quants
import extractors.text.specwords as specwords
import extractors.text.units as units
from checks.reference import Reference, load_reference
from extractors.builder import ClaimBuilder
from extractors.text.scan import Scan

REF: Reference = load_reference()
SHAPES: list[Callable[[int], str]] = [
    lambda n: "1" + " " * n + "x",  # a number then spaces: the 30 s case
    lambda n: "9" * n,
    lambda n: "a" * n,
    lambda n: "12 tok/ " * (n // 8),
    lambda n: "2x 3090 on RTX 4090\n" * (n // 20),
    lambda n: "my 3090 does 120 t/s on llama3 8b q4_k_m\n" * (n // 42),  # 20k claim lines
    lambda n: "llama " * (n // 6),
    lambda n: "Qwen3-" * (n // 6),
    lambda n: "8x" * (n // 2),
    lambda n: "no draft " * (n // 9),
    lambda n: "DDR" * (n // 3) + " 5 GB/s offload",
    lambda n: "power limit" + " " * n + "x",
    lambda n: "with " * (n // 5) + "draft",
    lambda n: "M4 " * (n // 3),
    lambda n: "1-" * (n // 2),
    lambda n: "1,2" * (n // 3),
    lambda n: "NVIDIA" + " " * n,
    lambda n: "k=" * (n // 2),
    lambda n: "-ngl " * (n // 5),
]
SMALL = 1000
FACTOR = 8
BOUND = 32


def pumped(n: int) -> str:
    return "\n".join(shape(n) for shape in SHAPES)


def ratio(fn: Callable[[str], object]) -> float:
    def best(text: str) -> float:
        times = []
        for _ in range(3):
            gc.collect()
            gc.disable()  # a collection mid-run costs with the objects alive, not the input
            try:
                start = time.perf_counter()
                fn(text)
                times.append(time.perf_counter() - start)
            finally:
                gc.enable()
        return min(times)

    small, large = pumped(SMALL), pumped(FACTOR * SMALL)
    return best(large) / max(best(small), 1e-4)


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = [("units.NUM", re.compile(units.NUM))]
    for mod in (freetext, names, cards, models, quants, specwords):
        short = mod.__name__.rsplit(".", 1)[-1]
        for key, value in vars(mod).items():
            if isinstance(value, re.Pattern):
                out.append((f"{short}.{key}", value))
            elif isinstance(value, list):
                out += [(f"{short}.{key}[{i}]", item[0]) for i, item in enumerate(value)
                        if isinstance(item, tuple) and isinstance(item[0], re.Pattern)]
    return out


@pytest.mark.parametrize(("name", "pattern"), _patterns(), ids=[n for n, _ in _patterns()])
def test_pattern_time_grows_with_the_input_not_its_square(name: str,
                                                          pattern: re.Pattern[str]) -> None:
    assert ratio(lambda text: sum(1 for _ in pattern.finditer(text))) < BOUND


def _reader(fn: Callable[[Scan], object]) -> Callable[[str], object]:
    return lambda text: fn(Scan(text, ClaimBuilder("text"), REF))


READERS: dict[str, Callable[[str], object]] = {
    "find_gpus": lambda text: names.find_gpus(text, REF),
    "find_models": lambda text: models.find_models(text, REF),
    "read_cards": _reader(lambda s: cards.read_cards(s, len(s.text) // 2)),
    "read_model": _reader(models.read_model),
    "infer_size": _reader(models.infer_size),
    "read_formats": _reader(quants.read_formats),
    "read_spec_words": _reader(specwords.read_spec_words),
    "read_spec_after": _reader(specwords.read_spec_after),
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_reader_time_grows_with_the_input_not_its_square(name: str) -> None:
    assert ratio(READERS[name]) < BOUND


def test_twenty_thousand_claim_lines_name_their_cards_in_one_pass() -> None:
    text = "my 3090 does 120 t/s on llama3 8b q4_k_m\n" * 20000
    found = names.find_gpus(text, REF)
    assert len(found) == 20000 and {n.name for n in found} == {"RTX 3090"}
