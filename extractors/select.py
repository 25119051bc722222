"""Picking the record a claim is about, and the submitter's other runs.

A file or endpoint often holds many records (a llama-bench array, a leaderboard dump). The
primary is the record whose tok/s matches a number quoted in the post (within 0.5%); failing
that, a decode row over a prefill row; failing that, the first. Siblings are the same
submitter's runs on the same setup: the window-curve check lines them up.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

from checks.models import Claim
from checks.reference import normalise_name

__all__ = [
    "MATCH_TOLERANCE",
    "SetupKey",
    "SiblingIndex",
    "matching_number",
    "pick_primary",
    "same_setup",
    "setup_key",
    "siblings_by_record",
    "siblings_of",
]

MATCH_TOLERANCE = 0.005  # a quoted figure rounded to 3 significant digits is within 0.5%


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


@dataclass(frozen=True)
class SetupKey:
    """A record's setup, its names normalised once: what `same_setup` compares, as dict keys.

    `same_setup` is not one equivalence (a run without a submitter may pair with two runs by
    different submitters), so a record carries two keys: `base` + `submitter` groups the same
    author's runs; `base` + `build` (engine version and weight format) pairs runs where a
    submitter is missing."""

    base: tuple[str, str] | None  # hardware, model; None: the record has no siblings
    submitter: str | None
    build: tuple[str, str] | None  # engine version, weight format; None when either is missing

    def pairs_with(self, other: SetupKey) -> bool:
        """Same submitter (when both are known), same hardware and same model; without a
        submitter, only a fully matching setup counts as the same author's batch."""
        if self.base is None or self.base != other.base:
            return False
        if self.submitter is not None and other.submitter is not None:
            return self.submitter == other.submitter
        return self.build is not None and self.build == other.build


def setup_key(c: Claim) -> SetupKey:
    def norm(name: str | None) -> str | None:
        return None if name is None else normalise_name(name)

    hardware, model = norm(c.hardware), norm(c.model)
    version, fmt = norm(c.engine_version), norm(c.weight_format)
    return SetupKey(
        base=None if hardware is None or model is None else (hardware, model),
        submitter=norm(c.submitter),
        build=None if version is None or fmt is None else (version, fmt),
    )


class SiblingIndex:
    """Every record's siblings by `same_setup`, from dict groups filled in one pass: a record's
    siblings are its groups minus itself, so a sweep costs n + the sum of group sizes, never n².
    Records are added in dump order with increasing numbers; siblings come back in that order."""

    def __init__(self) -> None:
        self._canon: dict[SetupKey, SetupKey] = {}  # one object per distinct setup, not per record
        self._keys: dict[int, SetupKey] = {}
        self._by_author: dict[tuple[tuple[str, str], str], list[int]] = {}
        self._unsigned: dict[tuple[tuple[str, str], tuple[str, str]], list[int]] = {}
        self._by_build: dict[tuple[tuple[str, str], tuple[str, str]], list[int]] = {}

    def add(self, i: int, key: SetupKey) -> None:
        base = key.base
        if base is None:
            return
        self._keys[i] = self._canon.setdefault(key, key)
        if key.submitter is not None:
            self._by_author.setdefault((base, key.submitter), []).append(i)
        if key.build is not None:
            self._by_build.setdefault((base, key.build), []).append(i)
            if key.submitter is None:
                self._unsigned.setdefault((base, key.build), []).append(i)

    def siblings(self, i: int) -> list[int]:
        key = self._keys.get(i)
        if key is None or key.base is None:
            return []
        build = (key.base, key.build) if key.build is not None else None
        if key.submitter is None:
            # No author: any run of the same hardware, model, engine version and weight format.
            groups = [self._by_build.get(build, [])] if build else []
        else:
            # The author's own runs, and unsigned runs of the very same build.
            groups = [self._by_author.get((key.base, key.submitter), []),
                      self._unsigned.get(build, []) if build else []]
        return [j for j in heapq.merge(*groups) if j != i]


def same_setup(a: Claim, b: Claim) -> bool:
    """Same submitter (when both are known), same hardware and same model (see `SetupKey`)."""
    return setup_key(a).pairs_with(setup_key(b))


def siblings_of(primary: Claim, others: Sequence[Claim]) -> list[Claim]:
    key = setup_key(primary)
    return [c for c in others if c is not primary and key.pairs_with(setup_key(c))]


def siblings_by_record(claims: Sequence[Claim]) -> list[list[Claim]]:
    """`siblings_of` for every record of a dump at once, through a `SiblingIndex`."""
    index = SiblingIndex()
    for i, c in enumerate(claims):
        index.add(i, setup_key(c))
    return [[claims[j] for j in index.siblings(i)] for i in range(len(claims))]
