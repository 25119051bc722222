"""The one table of checks: the eight questions and the extra findings (seed, sections 4 and 8).

Each line names a check's key (stable: the JSON, docs and tests use it), the question it answers
(None for an extra finding) and its pure function `run(evidence, ref, prior) -> Answer`. `prior`
holds the answers of the checks listed above it, so a check may read an earlier verdict (Q7 reads
Q5's, Q8 reads them all). A duplicate key or a question number outside 1-8 fails at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from checks.models import Answer, Evidence
from checks.reference import Reference
from checks.rules.acceptance import acceptance
from checks.rules.arithmetic import arithmetic
from checks.rules.cell import cell
from checks.rules.compute_ceiling import compute_ceiling
from checks.rules.config import config
from checks.rules.drafter_regime import drafter_regime
from checks.rules.evidence import evidence
from checks.rules.field_conflict import field_conflict
from checks.rules.fits_memory import fits_memory
from checks.rules.forced_acceptance import forced_acceptance
from checks.rules.fork import fork
from checks.rules.full_ratio import full_ratio
from checks.rules.lossy_acceptance import lossy_acceptance
from checks.rules.machine_outlier import machine_outlier
from checks.rules.measure import measure
from checks.rules.param_count import param_count
from checks.rules.peer_outlier import peer_outlier
from checks.rules.power import power
from checks.rules.prefill_excluded import prefill_excluded
from checks.rules.roofline import roofline
from checks.rules.suspect_field import suspect_field
from checks.rules.token_accounting import token_accounting
from checks.rules.window_curve import window_curve

__all__ = ["CHECKS", "PLAUSIBILITY_KEYS", "PROVENANCE_FINDINGS", "QUESTION_KEYS", "Check", "CheckFn"]

CheckFn = Callable[[Evidence, Reference, Mapping[str, Answer]], Answer]


@dataclass(frozen=True)
class Check:
    key: str
    run: CheckFn
    question: int | None = None


# Run order matters: Q7 reads Q5, and Q8 (last) reads every earlier answer.
CHECKS: tuple[Check, ...] = (
    Check("evidence", question=1, run=evidence),
    Check("config", question=2, run=config),
    Check("cell", question=3, run=cell),
    Check("fork", question=4, run=fork),
    Check("acceptance", question=5, run=acceptance),
    Check("power", question=6, run=power),
    Check("roofline", question=7, run=roofline),
    Check("arithmetic", run=arithmetic),
    Check("forced_acceptance", run=forced_acceptance),
    Check("lossy_acceptance", run=lossy_acceptance),
    Check("full_ratio", run=full_ratio),
    Check("prefill_excluded", run=prefill_excluded),
    Check("window_curve", run=window_curve),
    Check("fits_memory", run=fits_memory),
    Check("compute_ceiling", run=compute_ceiling),
    Check("drafter_regime", run=drafter_regime),
    Check("token_accounting", run=token_accounting),
    Check("field_conflict", run=field_conflict),
    Check("param_count", run=param_count),
    Check("suspect_field", run=suspect_field),
    Check("peer_outlier", run=peer_outlier),
    Check("machine_outlier", run=machine_outlier),
    Check("measure", question=8, run=measure),
)

QUESTION_KEYS = ("evidence", "config", "cell", "fork", "acceptance", "power", "roofline", "measure")
# Findings about the record's provenance, not the number: a record that contradicts itself, a
# parameter count against its model's row, and a field 10x off its sourced figure (a units slip). Their docstrings say why; the headline names them.
PROVENANCE_FINDINGS = frozenset({"field_conflict", "param_count", "suspect_field"})
# Answers that speak to the number's plausibility; provenance answers (Q1, Q2, Q4 and the findings
# above) never do.
PLAUSIBILITY_KEYS = frozenset(
    {"cell", "acceptance", "power", "roofline"}
    | {c.key for c in CHECKS if c.question is None and c.key not in PROVENANCE_FINDINGS}
)


def _validate(checks: tuple[Check, ...]) -> None:
    keys = [c.key for c in checks]
    dupes = {k for k in keys if keys.count(k) > 1}
    if dupes:
        raise RuntimeError(f"duplicate check keys: {sorted(dupes)}")
    numbered = {c.question: c.key for c in checks if c.question is not None}
    if sorted(numbered) != list(range(1, 9)):
        raise RuntimeError(f"questions must be numbered 1-8 exactly once, got {sorted(numbered)}")
    if tuple(numbered[n] for n in range(1, 9)) != QUESTION_KEYS:
        raise RuntimeError(f"question keys must be {QUESTION_KEYS} in order")


_validate(CHECKS)
