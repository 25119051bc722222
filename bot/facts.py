"""Facts the user adds: what the record leaves out, stated by the person asking.

`claimcheck audit --set hardware="8x B200" --set batch=1 …` and `/audit facts:"hardware=8x B200;
batch=1"` fill claim fields the record leaves empty, each with provenance "stated by the user"
(`Provenance.kind == "user"`), so every figure resting on one says so. A user fact never
silently overrides what a record says: where the record has a different value, the record's
value is kept and the disagreement becomes a `FieldConflict` (the `field_conflict` check shows
both values and where each came from).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from checks.models import Claim, Evidence, FieldConflict, Provenance, Source
from extractors.errors import UsageError

__all__ = ["FACT_KEYS", "USER_SOURCE", "UserFacts", "apply_facts", "parse_facts", "split_facts"]

USER_SOURCE = "stated by the user"
MAX_FACTS = 16
MAX_VALUE = 200


def _positive_int(text: str) -> int:
    value = int(text.replace(",", "").replace("_", ""))
    if value < 1:
        raise ValueError("must be at least 1")
    return value


def _positive_float(text: str) -> float:
    value = float(text.replace(",", "").replace("_", ""))
    if not value > 0 or value == float("inf"):
        raise ValueError("must be a positive number")
    return value


def _name(text: str) -> str:
    if not text:
        raise ValueError("must not be empty")
    return text


# key -> (what it sets, how its value is read, the value's description for the error line)
FACT_KEYS: dict[str, tuple[str, Any, str]] = {
    "hardware": ("hardware", _name, 'an accelerator, optionally with a count: "8x B200"'),
    "hardware_count": ("hardware_count", _positive_int, "a whole number of cards"),
    "model": ("model", _name, "a model name"),
    "params_b": ("params_total_b", _positive_float, "parameters in billions"),
    "active_params_b": ("params_active_b", _positive_float, "active parameters in billions"),
    "format": ("weight_format", _name, "a weight format (NVFP4, Q4_K_M, BF16, …)"),
    "batch": ("batch", _positive_int, "a whole number"),
    "concurrency": ("concurrency", _positive_int, "a whole number"),
    "context": ("context_length", _positive_int, "tokens"),
    "engine": ("engine", _name, "an engine name"),
    "power_w": ("power_w", _positive_float, "watts"),
    "spec_method": ("spec_method", _name, "a speculative method (EAGLE-3, DFlash, …)"),
    "window": ("spec_window", _positive_int, "draft window, tokens"),
    "acceptance_length": ("acceptance_length", _positive_float, "mean tokens per verify step"),
}
_COUNT = re.compile(r"(\d{1,4})\s*[x×*]\s*(\S.*)", re.IGNORECASE)


class UserFacts(BaseModel):
    """Claim fields the user stated, by Claim field name, already checked."""

    model_config = ConfigDict(frozen=True)

    values: dict[str, str | int | float] = Field(default_factory=dict)
    keys: dict[str, str] = Field(default_factory=dict)  # Claim field -> the key as the user gave it
    given: tuple[str, ...] = ()  # each `key=value` as the user wrote it

    def __bool__(self) -> bool:
        return bool(self.values)


def _error(message: str) -> UsageError:
    return UsageError(f"{message}; valid keys: {', '.join(FACT_KEYS)}")


def parse_facts(items: Iterable[str]) -> UserFacts:
    """`key=value` items (the CLI's `--set`, or one `/audit facts:` string split on `;`) read
    into UserFacts. An unknown key or a bad value raises UsageError in one line that lists the
    valid keys."""
    values: dict[str, str | int | float] = {}
    keys: dict[str, str] = {}
    given: list[str] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        if len(values) >= MAX_FACTS:
            raise _error(f"at most {MAX_FACTS} facts")
        key, sep, raw = item.partition("=")
        key, raw = key.strip().lower().replace("-", "_"), raw.strip().strip("\"'").strip()
        if not sep:
            raise _error(f"a fact is key=value, got {item[:60]!r}")
        if key not in FACT_KEYS:
            raise _error(f"unknown fact {key[:40]!r}")
        if len(raw) > MAX_VALUE:
            raise _error(f"the value of {key} is longer than {MAX_VALUE} characters")
        target, read, what = FACT_KEYS[key]
        if key == "hardware" and (m := _COUNT.fullmatch(raw)):
            count, raw = int(m[1]), m[2].strip()
            if count < 1:
                raise _error("hardware: the count must be at least 1")
            values["hardware_count"] = count
            keys["hardware_count"] = key
        try:
            value = read(raw)
        except ValueError:
            raise _error(f"{key}={raw[:60]!r} is not {what}") from None
        values[target] = value
        keys[target] = key
        given.append(f"{key}={raw}" if key != "hardware" or "hardware_count" not in values
                     else f"{key}={values['hardware_count']}x {raw}")
    return UserFacts(values=values, keys=keys, given=tuple(given))


def split_facts(text: str) -> list[str]:
    """One `/audit facts:` string: `key=value; key=value`."""
    return [part for part in text.split(";") if part.strip()]


def _same(a: object, b: object) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(a)))
    return str(a).strip().lower() == str(b).strip().lower()


def apply_facts(ev: Evidence, facts: UserFacts) -> Evidence:
    """The evidence with the user's facts filled in where the claim is empty; where the claim
    already says something else, the claim's value stays and a conflict shows both."""
    if not facts:
        return ev
    claim = ev.claim
    update: dict[str, Any] = {}
    provenance = dict(claim.provenance)
    conflicts = list(claim.conflicts)
    for name, value in facts.values.items():
        said = f"--set {facts.keys.get(name, name)}"
        current = getattr(claim, name)
        if current is None:
            update[name] = value
            provenance[name] = Provenance(source=USER_SOURCE, field=said, kind="user")
        elif not _same(current, value):
            conflicts.append(FieldConflict(field=name, structured=str(current),
                                           structured_from=claim.source_of(name),
                                           text=str(value), text_from=f"{USER_SOURCE} ({said})"))
    filled = Claim.model_validate({**claim.model_dump(), **update, "provenance": provenance,
                                   "conflicts": conflicts})
    # The report's source list names the user as a source, with what they said.
    source = Source(url=USER_SOURCE, kind="text", format="facts", note="; ".join(facts.given))
    used = [f"{name} = {update[name]}: stated by the user ({provenance[name].field}), not in the "
            "record" for name in update]
    return ev.model_copy(update={"claim": filled, "sources": [*ev.sources, source],
                                 "warnings": [*ev.warnings, *used]})
