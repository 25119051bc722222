"""bot/render/reference.py: `claimcheck reference`, one row with its source or a whole table."""

from __future__ import annotations

import pytest

from bot.render.reference import render_reference
from checks.reference import Reference
from extractors.errors import UsageError


def test_a_board_spelling_shows_the_row_and_says_how_it_was_read(ref: Reference) -> None:
    text, data = render_reference(ref, "gpu", "Apple M4 Max 12P+4E+40GPU")
    lines = text.splitlines()
    assert lines[0] == "Apple M4 Max: 546 GB/s, 128 GB, no board power, unified"
    assert lines[1] == "  matched: 'Apple M4 Max 12P+4E+40GPU' read as Apple M4 Max (words that only describe the build set aside)"
    assert data["name"] == "Apple M4 Max" and "goodnewsapodcast" in data["source"]


def test_an_exact_name_has_no_matched_line(ref: Reference) -> None:
    text, _ = render_reference(ref, "gpu", "M4 Max")
    assert "matched:" not in text


def test_a_card_with_a_raised_limit_shows_both_powers(ref: Reference) -> None:
    text, data = render_reference(ref, "gpu", "NVIDIA GeForce RTX 4090")
    assert text.splitlines()[0] == "RTX 4090: 1008 GB/s, 24 GB, 450 W (boards up to 600 W), consumer"
    assert data["max_power_w"] == 600 and "techpowerup.com/309370" in data["source"]


def test_a_cpu_row_shows_its_channel_arithmetic(ref: Reference) -> None:
    text, _ = render_reference(ref, "gpu", "AMD EPYC 9654 96-Core Processor")
    assert text.startswith("AMD EPYC 9004 (Genoa): 460.8 GB/s, 6144 GB, no board power, cpu")
    assert "bandwidth_derivation: 768-bit bus (12 channels of 64 bits) / 8 x 4.8 GT/s DDR5-4800" in text


def test_a_hugging_face_id_finds_its_model(ref: Reference) -> None:
    text, _ = render_reference(ref, "model", "Qwen/Qwen2.5-0.5B-Instruct")
    assert text.startswith("Qwen2.5 0.5B: 0.494B params, dense")


def test_the_table_listing_counts_every_row(ref: Reference) -> None:
    text, rows = render_reference(ref, "gpu", None)
    assert text.splitlines()[0] == f"{len(ref.hardware)} hardware rows (sources: claimcheck reference gpu NAME)"
    assert len(rows) == len(ref.hardware)


def test_an_unknown_card_is_a_usage_error(ref: Reference) -> None:
    with pytest.raises(UsageError, match="no gpu named 'Voodoo 5'"):
        render_reference(ref, "gpu", "Voodoo 5")
