"""Printouts in a screenshot read back into the record their tool saves.

`vllm bench serve` prints its result block with the same metrics it saves with `--save-result`
(vllm-project/vllm `vllm/benchmarks/serve.py`: `print("{:<40} {:<10}".format("Successful
requests:", metrics.completed))` … then `result_json` with the same values under `completed`,
`duration`, `output_throughput`, `mean_ttft_ms`, …). A screenshot of the block therefore holds
the record, and it is read as that record by the vLLM format (`extractors.formats.vllm_bench`),
every field's provenance the screenshot and the JSON key its label stands for.

OCR's usual slips are tolerated in labels (case, spaces, `0` for `O`: "P99 TP0T (mS)") and in
values (a space inside a number, "140 .07"); a value that is still not a number is left out.
"""

from __future__ import annotations

import json
import re

__all__ = ["VLLM_LABELS", "vllm_serve_record"]

# Label as printed -> result_json key (vllm/benchmarks/serve.py).
VLLM_LABELS = {
    "Successful requests:": "completed",
    "Failed requests:": "failed",
    "Maximum request concurrency:": "max_concurrency",
    "Benchmark duration (s):": "duration",
    "Total input tokens:": "total_input_tokens",
    "Total generated tokens:": "total_output_tokens",
    "Request throughput (req/s):": "request_throughput",
    "Request goodput (req/s):": "request_goodput",
    "Output token throughput (tok/s):": "output_throughput",
    "Peak output token throughput (tok/s):": "max_output_tokens_per_s",
    "Peak concurrent requests:": "max_concurrent_requests",
    "Total Token throughput (tok/s):": "total_token_throughput",
    **{f"{stat} {metric} (ms):": f"{key}_{metric.lower()}_ms"
       for stat, key in (("Mean", "mean"), ("Median", "median"), ("P99", "p99"))
       for metric in ("TTFT", "TPOT", "ITL", "E2EL")},
}
BANNER = "servingbenchmarkresult"
MIN_KEYS = 3  # a block with fewer readable rows is not read as a record


def _fold(label: str) -> str:
    return "".join(ch for ch in label.lower() if ch.isalnum()).replace("0", "o")


_FOLDED = {_fold(label): key for label, key in VLLM_LABELS.items()}


def _number(text: str) -> int | float | None:
    compact = "".join(text.split())
    try:
        value = float(compact)
    except ValueError:
        return None
    return int(value) if "." not in compact and value.is_integer() else value


def vllm_serve_record(text: str) -> str | None:
    """The `--save-result` JSON of a `vllm bench serve` result block found in the text, or None
    when the text holds no such block. The lines around the block (the command that ran it, "on
    1x H100 80GB") are the record's `notes`: the block itself names neither model nor card."""
    lines = text.splitlines()
    if not any(BANNER in _fold(line) for line in lines):
        return None
    record: dict[str, int | float | str] = {}
    context: list[str] = []
    for line in lines:
        label, colon, value = line.rpartition(":")
        key = _FOLDED.get(_fold(label + ":")) if colon else None
        number = _number(value) if key else None
        if key and number is not None:
            record.setdefault(key, number)
        elif key is None and line.strip(" =-") and BANNER not in _fold(line) and not _RULE.match(line):
            context.append(line.strip())
    if len(record) < MIN_KEYS:
        return None
    if context:
        record["notes"] = "\n".join(context)[:MAX_NOTES]
    return json.dumps(record)


# A section rule of the block: "---------------Time to First Token----------------".
_RULE = re.compile(r"^\s*[-=]{3,}.*[-=]{3,}\s*$")
MAX_NOTES = 20000  # what a record's notes keep (extractors.builder)
