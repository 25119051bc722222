"""The small types every physics figure is made of: `Derived`, `Missing` and their formatting.

A `Derived` carries the figure, the formula written out with its numbers, the reference rows it
read, the constants it assumed and the caveats a summary must carry; a `Missing` names exactly what
the record or the tables lack. Units: GB = 1e9 bytes, GB/s = 1e9 B/s, TFLOPS = 1e12 FLOP/s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, TypeVar

from checks.models import Assumption, Basis

if TYPE_CHECKING:
    from checks.reference import Reference

__all__ = ["GB", "GIB", "Derived", "Missing", "gb", "join_parts", "num", "per_reference"]

_T = TypeVar("_T")


def per_reference(draw: Callable[[Reference], _T]) -> Callable[[Reference], _T]:
    """`draw(ref)` computed once per loaded reference and kept on it (`Reference.fact`): a fact
    drawn from a whole table (the best AL anyone published, the sparsest MoE) is read by several
    rules per audit."""

    @wraps(draw)
    def once(ref: Reference) -> _T:
        return ref.fact(draw)

    return once


GB = 1e9
GIB = 2**30


@dataclass(frozen=True)
class Derived:
    """A figure with the formula, rows and constants behind it."""

    value: float
    unit: str
    basis: tuple[Basis | str, ...] = ()  # entries (checks.basis), or prose lines read as notes
    assumptions: tuple[Assumption, ...] = ()
    notes: tuple[str, ...] = ()  # caveats a summary must carry ("4-bit assumed: format not stated")


@dataclass(frozen=True)
class Missing:
    """What the record or the reference tables lack, named exactly."""

    what: tuple[str, ...]


@lru_cache(maxsize=4096)  # float -> str; an audit prints its few figures sixty times
def num(x: float) -> str:
    """Format a derived figure the way reports print it: 1792, 128.9, 13.9, 0.61."""
    if x == int(x) and abs(x) < 1e6:
        return str(int(x))
    if abs(x) >= 1000:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def gb(x: float) -> str:
    """A size in GB as reports print it, in MB below 0.1 GB (a sequence's KV cache: '12.6 MB')."""
    return f"{x * 1000:.1f} MB" if 0 < x < 0.1 else f"{num(x)} GB"


def join_parts(*parts: Derived) -> tuple[tuple[Basis | str, ...], tuple[Assumption, ...], tuple[str, ...]]:
    """The basis, assumptions and notes of several figures, each once, in order."""
    basis: list[Basis | str] = []
    assumptions: list[Assumption] = []
    notes: list[str] = []
    # Sets of what the earlier parts gave (entries, assumptions and notes hash by their fields),
    # not list scans calling each entry's __eq__; a part's own repeats stay, as they always did.
    seen_b: set[Basis | str] = set()
    seen_a: set[Assumption] = set()
    seen_n: set[str] = set()
    for p in parts:
        new_b = [b for b in p.basis if b not in seen_b]
        new_a = [a for a in p.assumptions if a not in seen_a]
        new_n = [n for n in p.notes if n not in seen_n]
        basis += new_b
        assumptions += new_a
        notes += new_n
        seen_b.update(new_b)
        seen_a.update(new_a)
        seen_n.update(new_n)
    return tuple(basis), tuple(assumptions), tuple(notes)
