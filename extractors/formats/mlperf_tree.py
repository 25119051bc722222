"""Where an MLPerf result sits in its results tree: system, benchmark and scenario from the path,
the hardware from `systems/<system>.json` beside it or from the system's name; part of the
`mlperf` adapter.

Shape (mlcommons/inference `tools/submission/submission_checker`, the layout every results round
uses; e.g. mlcommons/inference_results_v4.1@a2f5d66d17e8f75c02fd74dfe810ecca6a046696
`closed/AMD/results/8xMI300X_2xEPYC-9374F/llama2-70b-99/Server/performance/run_1/mlperf_log_summary.txt`
and `closed/AMD/systems/8xMI300X_2xEPYC-9374F.json`):
`<division>/<org>/results/<system>/<benchmark>/<scenario>/performance/run_1/mlperf_log_summary.txt`,
and `<division>/<org>/systems/<system>.json` (`accelerator_model_name`, `accelerators_per_node`,
`number_of_nodes`, `framework`, …). `mlperf_log_summary.txt` itself names neither.

Quirks, each with its reason:
- The system description is read only when the log is a local file and the description sits in
  the same tree (a URL or an upload names no file of this machine); it is capped at 1 MiB.
- Without the description, the system's name carries card and count the way submitters write it:
  `XE9680_MI300X_192GBx8`, `8xMI300X_2xEPYC-9374F`, `DGX-H100_H100-SXM-80GBx8_TRT` — the first
  card found by shape, and the count written next to it (`8x` before, `x8` after). A host CPU
  count (`2xEPYC`) is not next to the card.
- The benchmark id ("llama2-70b-99", "mixtral-8x7b") is the model as MLPerf names it; the
  accuracy target suffix is part of the id, and the model table reads it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractors.builder import ClaimBuilder
from extractors.text.lazyre import lazy
from extractors.text.names import Name, find_gpus

__all__ = ["TreePlace", "card_name", "set_from_system_name", "system_beside", "tree_place"]

_SCENARIOS = "SingleStream|MultiStream|Offline|Server|Interactive"
# Each segment is one path component ([^/]), so the pattern is linear in the path.
_TREE = lazy(r"(?:^|/)(open|closed|network|preview)/([^/]{1,200})/results/([^/]{1,200})/"
                   r"([^/]{1,200})/(" + _SCENARIOS + r")(?=/|$)", re.IGNORECASE)
_MAX_SYSTEM_BYTES = 1 << 20
_COUNT_BEFORE = lazy(r"(?<![0-9])(\d{1,3})\s?[xX×]\s?$")
_COUNT_AFTER = lazy(r"^[A-Za-z0-9 \-]{0,40}?(?<=[A-Za-z0-9])[xX×](\d{1,3})(?![0-9])")
_FORM = lazy(r"(?:[\s\-](?:SXM\d?|NVL|PCIe|OAM)(?![A-Za-z]))*")  # "-SXM", "-NVL" after a card
_MAX_PER_NODE = 72  # the largest NVLink domain sold as one system (GB200 NVL72)


@dataclass(frozen=True)
class TreePlace:
    """A result's place in an MLPerf results tree."""

    root: str  # the path up to and including <division>/<org>
    division: str
    org: str
    system: str
    benchmark: str
    scenario: str
    span: str  # the part of the path it was read from


def tree_place(source: str) -> TreePlace | None:
    path = source.replace("\\", "/")
    m = _TREE.search(path)
    if m is None or m.group(3).startswith("."):
        return None
    root = path[: m.start()] + ("/" if m.group(0).startswith("/") else "") + \
        f"{m.group(1)}/{m.group(2)}"
    return TreePlace(root=root, division=m.group(1), org=m.group(2), system=m.group(3),
                     benchmark=m.group(4), scenario=m.group(5), span=m.group(0).strip("/"))


def system_beside(source: str, place: TreePlace) -> tuple[str, dict[str, Any]] | None:
    """`<root>/systems/<system>.json` when the log is a local file and the description exists."""
    try:
        if not Path(source).is_file():
            return None
        path = Path(place.root) / "systems" / f"{place.system}.json"
        if not path.is_file() or path.stat().st_size > _MAX_SYSTEM_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    return (str(path), data) if isinstance(data, dict) else None


def _form(text: str, end: int) -> str:
    m = _FORM.match(text, end)
    return m.group(0).replace("-", " ") if m else ""


def _card(text: str) -> tuple[Name, str] | None:
    """The most specific card mention and its name: "H200-NVL" over "H200", the second
    "H100-SXM" of "DGX-H100_H100-SXM"."""
    cards = find_gpus(text, None)
    if not cards:
        return None
    named = [(c, (c.raw + _form(text, c.end)).strip()) for c in cards]
    return max(named, key=lambda cn: (len(cn[1]), -cn[0].start))


def card_name(text: str) -> str:
    """The card an MLPerf accelerator name describes ("AMD Instinct MI300X-NPS1-SPX-192GB-750W"
    → "AMD Instinct MI300X"): the partition mode, memory and power suffixes are not the card's
    name; a text with no card shape in it is kept whole."""
    found = _card(text[:200])
    return found[1] if found is not None else text


def set_from_system_name(b: ClaimBuilder, system: str, field: str) -> None:
    """Card and count from a system name ("XE9680_MI300X_192GBx8" → MI300X × 8)."""
    text = re.sub(r"[_]+", " ", system)[:200]
    found = _card(text)
    if found is None:
        return
    card, name = found
    b.set("hardware", name, field=field, span=system)
    before = _COUNT_BEFORE.search(text[: card.start])
    after = _COUNT_AFTER.match(text[card.end:])
    count = int(before.group(1)) if before else int(after.group(1)) if after else None
    if count is not None and 0 < count <= _MAX_PER_NODE:
        b.set("hardware_count", count, field=field, span=system)
