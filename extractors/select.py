"""Picking the record a claim is about, and the submitter's other runs (SPEC §8).

A file or endpoint often holds many records (a llama-bench array, a leaderboard dump). The
primary is the record whose tok/s matches a number quoted in the post (within 0.5%); failing
that, a decode row over a prefill row; failing that, the first. Siblings are the same
submitter's runs on the same setup: the window-curve check lines them up.
"""

from __future__ import annotations

from collections.abc import Sequence

from checks.models import Claim
from checks.reference import normalise_name

__all__ = [
    "MATCH_TOLERANCE",
    "matching_number",
    "pick_primary",
    "same_setup",
    "siblings_by_record",
    "siblings_of",
]

MATCH_TOLERANCE = 0.005  # SPEC §8: "matches the post's number (within 0.5%)"


def matching_number(claim: Claim, numbers: Sequence[float]) -> float | None:
    """The quoted number this record's tok/s matches, if any."""
    if claim.tok_s is None:
        return None
    for n in numbers:
        if n > 0 and abs(claim.tok_s - n) / n <= MATCH_TOLERANCE:
            return n
    return None


def pick_primary(claims: Sequence[Claim], numbers: Sequence[float] = ()) -> int:
    """Index of the record the claim is about."""
    if not claims:
        raise ValueError("no records to choose from")
    matched = [i for i, c in enumerate(claims) if matching_number(c, numbers) is not None]
    if matched:
        # The closest match to the first quoted number that any record matches.
        def distance(i: int) -> float:
            n = matching_number(claims[i], numbers) or 0.0
            return numbers.index(n) + abs((claims[i].tok_s or 0.0) - n) / n
        return min(matched, key=distance)
    decode = [i for i, c in enumerate(claims) if c.tok_s is not None and c.tok_s_kind != "prefill"]
    if decode:
        return decode[0]
    with_number = [i for i, c in enumerate(claims) if c.tok_s is not None]
    return with_number[0] if with_number else 0


def _same(a: str | None, b: str | None) -> bool | None:
    if a is None or b is None:
        return None
    return normalise_name(a) == normalise_name(b)


def same_setup(a: Claim, b: Claim) -> bool:
    """Same submitter (when both are known), same hardware and same model."""
    if _same(a.submitter, b.submitter) is False:
        return False
    for left, right in ((a.hardware, b.hardware), (a.model, b.model)):
        if _same(left, right) is not True:
            return False
    if a.submitter is None or b.submitter is None:
        # Without a submitter, only a fully matching setup counts as the same author's batch.
        return bool(_same(a.engine_version, b.engine_version)) and bool(
            _same(a.weight_format, b.weight_format)
        )
    return True


def siblings_of(primary: Claim, others: Sequence[Claim]) -> list[Claim]:
    return [c for c in others if c is not primary and same_setup(primary, c)]


def _setup_key(c: Claim) -> tuple[str, str] | None:
    if not c.hardware or not c.model:
        return None
    return normalise_name(c.hardware), normalise_name(c.model)


def siblings_by_record(claims: Sequence[Claim]) -> list[list[Claim]]:
    """`siblings_of` for every record of a dump at once. Records are first grouped by hardware
    and model (siblings must share both), so a sweep of n records costs about n × group size,
    not n²."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, c in enumerate(claims):
        key = _setup_key(c)
        if key is not None:
            groups.setdefault(key, []).append(i)
    out: list[list[Claim]] = []
    for i, c in enumerate(claims):
        key = _setup_key(c)
        members = groups.get(key, []) if key is not None else []
        out.append([claims[j] for j in members if j != i and same_setup(c, claims[j])])
    return out
