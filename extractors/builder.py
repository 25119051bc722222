"""Build a Claim field by field, recording where each value came from."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from checks.models import Claim, Provenance
from checks.text import sanitise

__all__ = ["ClaimBuilder"]

_TEXT_FIELDS = {"notes", "model", "hardware", "engine", "engine_version", "submitter",
                "launch_command", "container_image", "drafter_model", "spec_method",
                "weight_format", "kv_dtype", "power_method", "power_profile", "record_id",
                "source_url", "date"}


class ClaimBuilder:
    """`b.set("tok_s", 2103.6, field="tok_s")`; the first value set for a field wins."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.values: dict[str, Any] = {}
        self.provenance: dict[str, Provenance] = {}

    def set(self, name: str, value: Any, *, field: str | None = None, span: str | None = None,
            overwrite: bool = False) -> None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return
        if name in self.values and not overwrite:
            return
        if name not in Claim.model_fields:
            raise KeyError(f"Claim has no field {name!r}")
        if name in _TEXT_FIELDS and isinstance(value, str):
            value = sanitise(value, limit=20000 if name in ("notes", "launch_command") else 500)
        self.values[name] = value
        clean_span = sanitise(span, limit=200) if span else None
        if isinstance(self.source, str) and (field is None or isinstance(field, str)):
            # Every value already has its field's type: skip validating one model per value set
            # (the readers set ~80 per record); anything else goes through the validator.
            self.provenance[name] = Provenance.model_construct(source=self.source, field=field,
                                                               span=clean_span)
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
