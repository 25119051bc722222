"""Small, pure statistics for the checks: ranks with ties and Spearman's rank correlation.

No numpy: the series are a handful of sibling records. Spearman's ρ is Pearson's correlation of
the two series' ranks, with tied values sharing the mean of the ranks they span (the textbook
definition, e.g. `scipy.stats.spearmanr`); it is undefined when either series is constant, and
then `spearman` returns None rather than a number nobody could defend.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt

__all__ = ["ranks", "spearman"]


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of their ranks: [10, 20, 20, 30] -> [1, 2.5, 2.5, 4]."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1  # mean of the 1-based ranks start+1 .. end+1
        for k in range(start, end + 1):
            out[order[k]] = shared
        start = end + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's ρ of two paired series; None with fewer than 2 pairs or a constant series."""
    if len(x) != len(y):
        raise ValueError(f"paired series differ in length: {len(x)} and {len(y)}")
    if len(x) < 2:
        return None
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=False))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    rho = sxy / sqrt(sxx * syy)
    return max(-1.0, min(1.0, rho))  # clamp float noise such as 1.0000000000000002
