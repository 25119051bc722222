"""Structured input formats (tool outputs, leaderboard records), one module per format.

`detect(doc)` returns the first format whose `sniff` accepts the document's shape. Order matters:
specific shapes first, the generic leaderboard adapter (which accepts any list of records with
ordinary field names) last. Free text, launch commands and engine log lines are not here: they
are read by `extractors.text`, which runs when no structured format matches.
"""

from __future__ import annotations

from extractors.document import RawDocument
from extractors.formats.accelmark import AccelMark
from extractors.formats.aiperf import AiPerf
from extractors.formats.base import Format
from extractors.formats.csv_board import CsvBoard
from extractors.formats.generic_board import GenericBoard
from extractors.formats.guidellm import GuideLLM
from extractors.formats.inferencex import InferenceX
from extractors.formats.llama_bench import LlamaBench
from extractors.formats.llama_server import LlamaServerTimings
from extractors.formats.localscore import LocalScore
from extractors.formats.mlperf import MLPerf
from extractors.formats.ollama import OllamaResponse
from extractors.formats.sglang_bench_one_batch import SglangBenchOneBatch
from extractors.formats.sglang_bench_serving import SglangBenchServing
from extractors.formats.tsv_board import TsvBoard
from extractors.formats.vllm_bench import VllmBench

__all__ = ["FORMATS", "Format", "detect", "format_named"]


def detect(doc: RawDocument) -> Format | None:
    """The format that recognises this document's shape, or None."""
    for fmt in FORMATS:
        try:
            if fmt.sniff(doc):
                return fmt
        except Exception:  # noqa: BLE001 - a sniff that trips on odd input just says no
            continue
    return None


def format_named(name: str) -> Format:
    return next(f for f in FORMATS if f.name == name)


# Most specific first; the generic board adapter accepts almost any list of records, so it is last
# among the JSON formats; the delimited-text dumps (never JSON) follow it.
FORMATS: tuple[Format, ...] = (
    VllmBench(),
    SglangBenchServing(),
    SglangBenchOneBatch(),
    LlamaBench(),
    LlamaServerTimings(),
    OllamaResponse(),
    AiPerf(),
    GuideLLM(),
    InferenceX(),
    LocalScore(),
    AccelMark(),
    MLPerf(),
    GenericBoard(),
    CsvBoard(),
    TsvBoard(),
)
