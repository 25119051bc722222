"""The table of text readers and patterns the linear-time property test pumps.

Add a reader here (a name and a function of one string) and the test pumps it with every shape in
`tests.pumping.SHAPES`. Patterns are collected from the modules in PATTERN_MODULES.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType

from checks.parsing import accept_ratios, version_in_text
from checks.physics.weights import family_row
from checks.reference import Reference, load_reference
from checks.switches import forced_hits, lossy_mentions, prefill_phrases
from checks.text import one_line, sanitise
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import UnusableInput
from extractors.formats import units
from extractors.formats.mlperf import MLPerf
from extractors.formats.mlperf_tree import set_from_system_name, tree_place
from extractors.image.layout import split_cells
from extractors.image.printouts import vllm_serve_record
from extractors.links import find_links
from extractors.pasted import is_tool_output, pasted_documents
from extractors.post_rig import (
    labelled_rig,
    log_rig,
    model_sentences,
    post_rigs,
    posts,
    rig_sentences,
)
from extractors.text import parse_text
from extractors.text.freetext import read_free_text
from extractors.text.launch import read_launch, split_command
from extractors.text.lines import LogReading
from extractors.text.logs import read_logs
from extractors.text.names import find_gpus
from extractors.text.printouts import read_bench_one_batch, read_dflash_benchmark
from extractors.text.rows import read_rows
from extractors.text.scan import Scan
from extractors.text.statements import read_statements
from extractors.web.html_page import parse_html
from extractors.web.huggingface import parse_model_card
from extractors.web.post import header_unit, table_sentences

__all__ = ["LEFT_OUT", "PATTERN_MODULES", "READERS", "pattern_modules", "pumped_readers"]

REF: Reference = load_reference()
URL = "https://example.com/post"


def _prefilter(text: str) -> object:
    from bot.cogs.watch import prefilter

    return prefilter(text)


def _numbered(text: str) -> str:
    return "\n".join(f"{k} {line}" for k, line in enumerate(text.split("\n")))


def _b() -> ClaimBuilder:
    return ClaimBuilder("pumped")


def _mlperf(text: str) -> object:
    doc = RawDocument.from_text("MLPerf Results Summary\nScenario : Offline\n" + text)
    fmt = MLPerf()
    try:
        return fmt.parse(doc) if fmt.sniff(doc) else None
    except UnusableInput:
        return None


READERS: dict[str, Callable[[str], object]] = {
    "pasted_documents": pasted_documents,
    "is_tool_output": is_tool_output,
    "watch_prefilter": lambda t: _prefilter(t),
    "parse_text": lambda t: parse_text(RawDocument.from_text(t), REF),
    "statements": lambda t: read_statements(Scan(t, _b(), REF)),
    "logs": lambda t: read_logs(t, _b(), REF),
    "printouts.dflash": lambda t: read_dflash_benchmark(t, _b(), REF, LogReading()),
    "printouts.bench_one_batch": lambda t: read_bench_one_batch(t, _b(), REF, LogReading()),
    "launch": lambda t: read_launch(t, _b(), REF),
    "split_command": split_command,
    "free_text": lambda t: read_free_text(t, _b(), REF),
    # A pumped text's lines repeat, and the prose readers read a repeated line once: numbered,
    # every line is distinct and each is read, as in a log whose lines all differ.
    "free_text.distinct_lines": lambda t: read_free_text(_numbered(t), _b(), REF),
    "table_rows": lambda t: read_rows(t, _b(), REF),
    "table_rows.pairs": lambda t: read_rows("ctx: test: tg128; t/s: " + t + "; " + t, _b(), REF),
    "table_rows.pipes": lambda t: read_rows("| model | test | t/s |\n|---|---|---|\n| " + t + " |", _b(), REF),
    "gpu_names": lambda t: find_gpus(t, REF),
    "links": find_links,
    "html_page": lambda t: parse_html(t, URL),
    "model_card": lambda t: parse_model_card(t, URL),
    "table_header": header_unit,
    "table_sentences": lambda t: table_sentences([["x", "y t/s"], ["a", t]]),
    "ocr_cells": lambda t: split_cells(t, in_table=True),
    "ocr_vllm_printout": lambda t: vllm_serve_record("Serving Benchmark Result\n" + t),
    "mlperf_log": _mlperf,
    "units.split_unit": lambda t: units.with_unit(t, "gb"),
    "units.header_unit": units.header_unit,
    "mlperf_tree.place": tree_place,
    "mlperf_tree.system_name": lambda t: set_from_system_name(_b(), t, "pumped"),
    "units.record_units": lambda t: units.record_units({t: "x", t + " unit": "GB"}),
    "sanitise": lambda t: sanitise(t, limit=10**7),
    "one_line": one_line,
    "family_row": lambda t: family_row(t, REF),
    "parsing.accept_ratios": accept_ratios,
    "parsing.version_in_text": version_in_text,
    "switches.forced": lambda t: forced_hits([("launch_command", t), ("notes", t)]),
    "switches.lossy": lambda t: lossy_mentions([("launch_command", t), ("notes", t)]),
    "switches.prefill": prefill_phrases,
    "post_rig.posts": posts,
    "post_rig.rig": lambda t: rig_sentences(t, REF),
    "post_rig.model": lambda t: model_sentences(t, REF),
    "post_rig.log": lambda t: log_rig(t.splitlines()),
    "post_rig.rigs": lambda t: post_rigs(t, REF)(max(1, t.count("\n"))),
    "post_rig.labelled": lambda t: labelled_rig(t, "AVX2 ARM", REF),
}

# Readers left out of the pumping, with the reason; empty since the free-text and GPU-name
# readers became linear (a pumped 4 KB audit costs 4.0× a 1 KB one: benchmarks/pumped_audit.py).
LEFT_OUT: dict[str, str] = {}

PATTERN_MODULES: tuple[str, ...] = (
    "extractors.text.statements",
    "extractors.text.flags",
    "extractors.text.lines",
    "extractors.text.logs",
    "extractors.text.scan",
    "extractors.text.printouts",
    "extractors.text.launch",
    "extractors.text.names",
    "extractors.text.freetext",
    "extractors.text.units",
    "extractors.text.cards",
    "extractors.text.models",
    "extractors.text.quants",
    "extractors.text.specwords",
    "extractors.text.rows",
    "extractors.links",
    "extractors.formats.mlperf",
    "extractors.formats.units",
    "extractors.formats.mlperf_tree",
    "extractors.formats.common",
    "extractors.inputs",
    "extractors.pasted",
    "extractors.post_rig",
    "bot.cogs.watch",
    "extractors.fetch.url_policy",
    "extractors.web.html_page",
    "extractors.web.huggingface",
    "extractors.web.reddit",
    "extractors.web.twitter",
    "extractors.web.github",
    "extractors.web.post",
    "checks.text",
    "checks.parsing",
    "checks.switches",
    "checks.physics.offload",
    "bot.render.escape",
)


def pattern_modules() -> list[ModuleType]:
    return [import_module(m) for m in PATTERN_MODULES if m not in LEFT_OUT]


def pumped_readers() -> list[str]:
    return sorted(name for name in READERS if name not in LEFT_OUT)
