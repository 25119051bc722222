"""The pure core of claimcheck: models, reference data and checks. No network, no disk beyond
the packaged reference tables, no clock: the same Evidence always gives the same Report."""

from checks.models import (
    Answer,
    Assumption,
    Claim,
    Evidence,
    PostInfo,
    Provenance,
    Question,
    Report,
    Source,
)
from checks.reference import Reference, ReferenceError, load_reference
from checks.runner import audit

__all__ = [
    "Answer",
    "Assumption",
    "Claim",
    "Evidence",
    "PostInfo",
    "Provenance",
    "Question",
    "Reference",
    "ReferenceError",
    "Report",
    "Source",
    "audit",
    "load_reference",
]
