"""PLACEHOLDER: measure check, to be written."""

from __future__ import annotations

from typing import Mapping

from checks.models import Answer, Evidence
from checks.reference import Reference


def measure(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    raise NotImplementedError("measure")
