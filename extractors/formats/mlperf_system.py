"""MLPerf system descriptions (`closed/<Submitter>/systems/<system>.json`) and the engine named
in an MLPerf software stack; part of the `mlperf` adapter.

Shape (mlcommons/inference `tools/submission/directory_structure_samples/`; a real file:
intel-ai-tce/inference_results_v6.1 `closed/Atlas_Inference/systems/DGX_Spark_GB10.json`):
`system_name, submitter, accelerator_model_name, accelerators_per_node, number_of_nodes,
framework, other_software_stack, hw_notes, sw_notes, …` — a configuration with no number.

Quirks:
- `accelerator_model_name` carries partition mode, memory and power after the card ("AMD
  Instinct MI300X-NPS1-SPX-192GB-750W"): the card's name is read from it, the whole kept as the span.
- A CPU-only system writes "N/A" (or 0) for its accelerators: its host processors are the
  hardware, one per socket (`host_processors_per_node` × nodes).
- Free text (`sw_notes`, `other_software_stack`, `hw_notes`) is where submitters state speculative
  settings ("chain-widened MTP verify K=4 (3 drafts)"): it is read by the record-text readers.
"""

from __future__ import annotations

import re
from typing import Any

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.formats.mlperf_tree import card_name
from extractors.formats.record_text import read_record_text
from extractors.formats.values import read_key, to_int, to_text
from extractors.text.lazyre import lazy

__all__ = ["count_or_none", "is_none", "parse_system", "set_engine"]

# MLPerf's framework field lists the whole stack ("TensorRT 10.11, CUDA 12.9, TensorRT-LLM 1.0.0");
# the inference engine is the part that names one, not the first library mentioned.
_ENGINE_IN_STACK = lazy(
    r"\b(tensorrt-llm|trt-llm|vllm|sglang|llama\.cpp|lmdeploy|text-generation-inference|mlc-llm)"
    r"(?:\s+v?(\d[\w.+-]*))?", re.IGNORECASE)


def set_engine(b: ClaimBuilder, framework: str | None, field: str) -> None:
    if not framework:
        return
    for part in framework.split(","):
        m = _ENGINE_IN_STACK.search(part)
        if m:
            b.set("engine", m.group(1), field=field, span=framework)
            b.set("engine_version", m.group(2), field=field, span=part.strip())
            return
    b.set("engine", framework, field=field)


_NONE = {"", "n/a", "na", "none", "-", "0"}


def is_none(value: Any) -> bool:
    """An MLPerf field that says "none": "N/A", "", "0"."""
    return value is None or str(value).strip().lower() in _NONE


def count_or_none(s: dict[str, Any], key: str) -> int | None:
    """A count, where "N/A" (CPU-only systems write it for their accelerators) is none."""
    if str(s.get(key, "")).strip().lower() in _NONE:
        return None
    return read_key(s, key, to_int, key)


def parse_system(source: str, s: dict[str, Any]) -> Claim:
    b = ClaimBuilder(source)
    accel = read_key(s, "accelerator_model_name", to_text, "accelerator_model_name")
    per_node = count_or_none(s, "accelerators_per_node")
    nodes = count_or_none(s, "number_of_nodes") or 1
    if accel and accel.strip().lower() not in _NONE and per_node != 0:
        b.set("hardware", card_name(accel), field="accelerator_model_name", span=accel)
        if per_node is not None:
            b.set("hardware_count", per_node * nodes,
                  field="accelerators_per_node×number_of_nodes")
    else:
        # A CPU-only submission (accelerator "N/A", 0 per node): the host processors decode.
        host = read_key(s, "host_processor_model_name", to_text, "host_processor_model_name")
        sockets = count_or_none(s, "host_processors_per_node")
        b.set("hardware", host, field="host_processor_model_name",
              span=f"accelerator_model_name {accel!r}: CPU-only system")
        if host and sockets:
            b.set("hardware_count", sockets * nodes,
                  field="host_processors_per_node×number_of_nodes")
    set_engine(b, read_key(s, "framework", to_text, "framework"), "framework")
    b.set("submitter", read_key(s, "submitter", to_text, "submitter"), field="submitter")
    notes = [str(s[k]) for k in ("sw_notes", "hw_notes") if s.get(k)]
    if notes:
        b.set("notes", " | ".join(notes), field="sw_notes")
    read_record_text(b, [(k, s[k]) for k in ("sw_notes", "other_software_stack", "hw_notes")
                         if isinstance(s.get(k), str)], engine=str(b.values.get("engine") or ""))
    return b.build()
