"""Build a Claim field by field, recording where each value came from."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from checks.models import Claim, Provenance, built
from checks.text import sanitise

__all__ = ["ClaimBuilder", "PresenceBuilder"]

_FIELDS = frozenset(Claim.model_fields)
_TEXT_FIELDS = {"notes", "model", "hardware", "engine", "engine_version", "submitter",
                "launch_command", "container_image", "drafter_model", "spec_method",
                "weight_format", "kv_dtype", "power_method", "power_profile", "record_id",
                "source_url", "date"}


# Provenance is frozen, and a reader sets the same (source, field, span) over and over (every
# record of a board names its fields the same way): one instance per distinct triple, the table
# bounded.
@lru_cache(maxsize=8192)
def _provenance(source: str, field: str | None, span: str | None) -> Provenance:
    # Every value already has its field's type: no validation (the readers set ~80 per record),
    # and `built`, not model_construct, which resolves each unset default through pydantic's
    # per-field machinery (a record's spans differ, so most triples are new).
    return built(Provenance, source=source, field=field, span=span)


def _clean(text: str, limit: int) -> str:
    """`sanitise`, without its passes over text they cannot change: printable ASCII within the
    limit is left as it is by each of them (NFC, the control and bidi strip, the cap)."""
    if isinstance(text, str) and len(text) <= limit and text.isascii() and text.isprintable():
        return text
    return sanitise(text, limit=limit)


class ClaimBuilder:
    """`b.set("tok_s", 2103.6, field="tok_s")`; the first value set for a field wins."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.values: dict[str, Any] = {}
        self.provenance: dict[str, Provenance] = {}

    def _takes(self, name: str, value: Any, overwrite: bool) -> bool:
        """Whether `set` keeps this value: the first non-empty one wins unless `overwrite`."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return False
        if name in self.values and not overwrite:
            return False
        if name not in _FIELDS:
            raise KeyError(f"Claim has no field {name!r}")
        return True

    def set(self, name: str, value: Any, *, field: str | None = None, span: str | None = None,
            overwrite: bool = False) -> None:
        if not self._takes(name, value, overwrite):
            return
        if name in _TEXT_FIELDS and isinstance(value, str):
            value = _clean(value, 20000 if name in ("notes", "launch_command") else 500)
        self.values[name] = value
        clean_span = _clean(span, 200) if span else None
        if isinstance(self.source, str) and (field is None or isinstance(field, str)):
            self.provenance[name] = _provenance(self.source, field, clean_span)
        else:
            self.provenance[name] = Provenance(source=self.source, field=field, span=clean_span)

    def has(self, name: str) -> bool:
        return name in self.values

    def build(self) -> Claim:
        try:
            return Claim(**self.values, provenance=self.provenance)
        except ValidationError as exc:
            # A value of the wrong type is dropped, not guessed: keep every field that validates.
            bad = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
            vals = {k: v for k, v in self.values.items() if k not in bad}
            prov = {k: v for k, v in self.provenance.items() if k not in bad}
            return Claim(**vals, provenance=prov)


class PresenceBuilder(ClaimBuilder):
    """A builder that only notes which fields a reading would set, for sniffing a document's
    shape: `has` answers as `ClaimBuilder`'s would (the same first-wins and empty-value rules),
    without cleaning values or recording where they came from."""

    def set(self, name: str, value: Any, *, field: str | None = None, span: str | None = None,
            overwrite: bool = False) -> None:
        if self._takes(name, value, overwrite):
            self.values[name] = value
