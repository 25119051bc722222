"""A model's parameter count read from its name, for models with no reference row.

Model names carry their size the way their authors publish them: "Llama-3.1-8B", "Qwen3-30B-A3B"
(30B total, 3B active: Qwen's MoE naming, https://huggingface.co/Qwen/Qwen3-30B-A3B),
"Mixtral-8x7B" (eight experts of a 7B-class shape, https://huggingface.co/mistralai/Mixtral-8x7B-v0.1),
"gpt-oss-120b". A size read this way is a label, not a count: the caller says it was inferred.

For an `NxM B` name only the expert count and shape are known: the total is at most N × M (shared
attention and embeddings are counted once in the real model, so the true total is lower) and the
active share depends on the routing, so it is left unknown.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

__all__ = ["NameSize", "size_from_name"]

# Linear-time on any input: each alternative is anchored on a digit run bounded by non-digits,
# and no two adjacent quantifiers can match the same characters.
_NUM = r"(\d{1,4}(?:\.\d{1,3})?)"
_ACTIVE = re.compile(r"(?<![\w.])" + _NUM + r"[bB][-_ ]?[aA]" + _NUM + r"[bB](?![a-zA-Z])")
_EXPERTS = re.compile(r"(?<![\w.])(\d{1,3})\s?[xX×]\s?" + _NUM + r"[bB](?![a-zA-Z])")
_PLAIN = re.compile(r"(?<![\w.])" + _NUM + r"[bB](?![a-zA-Z])")
_MILLIONS = re.compile(r"(?<![\w.])" + _NUM + r"[mM](?![a-zA-Z])")


class NameSize(BaseModel):
    """Billions of parameters as a model's name states them."""

    model_config = ConfigDict(frozen=True)

    total_b: float
    active_b: float | None = None
    is_moe: bool = False
    span: str  # the part of the name it was read from


def size_from_name(name: str | None) -> NameSize | None:
    """'Qwen3-30B-A3B' → 30B total, 3B active; 'Llama 3 70B' → 70B; 'Mixtral 8x7B' → ≤ 56B MoE."""
    if not name:
        return None
    text = name[:200]
    if m := _ACTIVE.search(text):
        total, active = float(m.group(1)), float(m.group(2))
        if 0 < active < total:
            return NameSize(total_b=total, active_b=active, is_moe=True, span=m.group(0))
    if m := _EXPERTS.search(text):
        experts, each = int(m.group(1)), float(m.group(2))
        if experts > 1 and each > 0:
            return NameSize(total_b=experts * each, is_moe=True, span=m.group(0))
    if m := _PLAIN.search(text):
        total = float(m.group(1))
        if total > 0:
            return NameSize(total_b=total, span=m.group(0))
    if m := _MILLIONS.search(text):
        total = float(m.group(1)) / 1000
        if total > 0:
            return NameSize(total_b=total, span=m.group(0))
    return None
