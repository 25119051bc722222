"""Table names in prose (extractors/text/names.py): longest alias, word bounds, shapes, speed."""

from __future__ import annotations

from checks.reference import Reference
from extractors.text.names import NameFinder, find_gpus, finder


def test_longest_alias_wins_at_a_position() -> None:
    f = NameFinder([("NVIDIA GeForce RTX 5090", "RTX 5090"), ("RTX 5090", "RTX 5090"),
                    ("5090", "RTX 5090")], tail=r"(?![A-Za-z0-9])")
    (name,) = f.finditer("on an NVIDIA GeForce RTX 5090 today")
    assert (name.raw, name.name) == ("NVIDIA GeForce RTX 5090", "RTX 5090")


def test_space_in_an_alias_matches_a_hyphen_and_any_case() -> None:
    f = NameFinder([("RTX 5090", "RTX 5090")], tail=r"(?![A-Za-z0-9])")
    assert [n.name for n in f.finditer("rtx-5090 and RTX  5090")] == ["RTX 5090", "RTX 5090"]


def test_alias_inside_a_longer_word_is_not_a_mention() -> None:
    f = NameFinder([("A10", "A10")], tail=r"(?![A-Za-z0-9])")
    assert list(f.finditer("A100 and XA10 and A10G")) == []


def test_bare_number_alias_needs_no_unit_after_it() -> None:
    f = NameFinder([("5090", "RTX 5090")], tail=r"(?![A-Za-z0-9])")
    assert list(f.finditer("5090 tokens, 5090 W, 5090.5")) == []
    assert [n.name for n in f.finditer("dual 5090 box")] == ["RTX 5090"]


def test_gpu_shapes_outside_the_table_are_kept_as_written(ref: Reference) -> None:
    # none of these has a reference row (the table gained the 4070 Ti SUPER, MI250X and M1 Max)
    names = [n.name for n in find_gpus("an RTX 3050, an MI100 and an M5 Max", ref)]
    assert names == ["RTX 3050", "MI100", "Apple M5 Max"]


def test_table_alias_resolves_to_the_row_name(ref: Reference) -> None:
    (name,) = find_gpus("GeForce RTX 5090", ref)
    assert name.name == "RTX 5090"


def test_finder_is_built_once_per_reference(ref: Reference) -> None:
    assert finder(ref, "models") is finder(ref, "models")
    assert list(finder(None, "models").finditer("Qwen3.6-27B")) == []


def test_long_text_without_a_name_finds_none(ref: Reference) -> None:
    text = "the quick brown fox 1234 " * 40000  # 1 MB without a single name (timed in benchmarks/)
    assert list(finder(ref, "hardware").finditer(text)) == []


def test_memory_after_a_card_picks_the_board_with_that_memory(ref: Reference) -> None:
    (name,) = find_gpus("4060 Ti 16GB does 55 tok/s", ref)
    assert (name.raw, name.name) == ("4060 Ti 16GB", "RTX 4060 Ti 16GB")
    (plain,) = find_gpus("4060 Ti does 55 tok/s", ref)
    assert plain.name == "RTX 4060 Ti"  # the 8 GB board, the table's row for the bare name
