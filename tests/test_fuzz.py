"""Fuzzing every parser: no input makes one raise anything but a user-facing ExtractError.

In the suite each parser meets CI_EXAMPLES inputs from `tests.fuzzing`. The deep run,

    pytest -m fuzz

meets DEEP_EXAMPLES per parser and writes the table `docs/fuzz.md` (parser → inputs → escapes,
with its date), which the README's hostile-input table shows. Both are derandomised: the same
inputs every run.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TypedDict

import pytest
from hypothesis import HealthCheck, given, settings

from extractors.errors import ExtractError
from tests.fuzzing import PARSERS, Parser

CI_EXAMPLES = 150
DEEP_EXAMPLES = 10_000
DOCS = Path(__file__).parents[1] / "docs"


class FuzzRow(TypedDict):
    """One parser's line in docs/fuzz.json."""

    parser: str
    inputs: int
    escapes: int
    first: list[str]


def fuzz(parser: Parser, examples: int) -> tuple[int, list[str]]:
    """(inputs tried, escapes): an escape is any exception but ExtractError."""
    seen = 0
    escapes: list[str] = []

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(parser.inputs)
    def one(value: object) -> None:
        nonlocal seen
        seen += 1
        try:
            parser.run(value)
        except ExtractError:
            pass
        except Exception as exc:  # noqa: BLE001 - that is what is being counted
            escapes.append(f"{type(exc).__name__}: {str(exc)[:160]} <- {repr(value)[:200]}")

    one()
    return seen, escapes


@pytest.mark.parametrize("parser", PARSERS, ids=lambda p: p.name)
def test_no_fuzzed_input_escapes_the_parser(parser: Parser) -> None:
    seen, escapes = fuzz(parser, CI_EXAMPLES)
    assert seen >= CI_EXAMPLES and escapes == []


def _board_with(key: str, value: int) -> bytes:
    rows = json.loads((Path(__file__).parent / "fixtures/inferencex/agg_bmk.json").read_text())
    rows[0][key] = value
    return json.dumps(rows).encode()


# Escapes the fuzzing found, kept as fixed inputs: each crashed its parser before the fix.
FOUND = [
    ("format inferencex", _board_with("conc", 10**400)),  # OverflowError: int too large for float
    ("format generic_board", _board_with("conc", -(10**400))),
    ("json document", b'{"a": ' + b"1" * 400 + b"}"),
    ("read_page", ("<html><body>150 tok/s <a href='http://[::1</script>x'>y</a></body></html>",
                   "text/html")),  # ValueError: Invalid IPv6 URL from urljoin
    ("read_page", (json.dumps({"code": 200, "tweet": {"text": "150 tok/s", "raw_text": {
        "facets": float("nan")}, "media": {"photos": 1.5}}}), "application/json")),  # not iterable
]
BY_NAME = {p.name: p for p in PARSERS}


@pytest.mark.parametrize(("name", "value"), FOUND, ids=[f"{n}-{i}" for i, (n, _) in enumerate(FOUND)])
def test_inputs_the_fuzzing_found_are_read(name: str, value: object) -> None:
    assert BY_NAME[name].run(value)  # read (records, a page, a document), not raised


@pytest.mark.fuzz
def test_deep_fuzz_writes_the_table() -> None:
    rows: list[FuzzRow] = []
    for parser in PARSERS:
        seen, escapes = fuzz(parser, DEEP_EXAMPLES)
        rows.append({"parser": parser.name, "inputs": seen, "escapes": len(escapes),
                     "first": escapes[:3]})
    today = datetime.now(UTC).date().isoformat()
    DOCS.mkdir(exist_ok=True)
    (DOCS / "fuzz.json").write_text(json.dumps({"date": today, "rows": rows}, indent=2) + "\n")
    lines = [f"Deep fuzz run of {today} (`pytest -m fuzz`, derandomised, {DEEP_EXAMPLES:,} "
             "examples asked per parser):", "", "| parser | inputs | escapes |", "|---|---:|---:|"]
    lines += [f"| {r['parser']} | {r['inputs']:,} | {r['escapes']} |" for r in rows]
    (DOCS / "fuzz.md").write_text("\n".join(lines) + "\n")
    assert all(r["inputs"] >= DEEP_EXAMPLES for r in rows)
    assert [r for r in rows if r["escapes"]] == []
