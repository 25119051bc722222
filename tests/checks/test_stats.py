"""Spearman's ρ with ties, for the window-curve check."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checks.stats import ranks, spearman


def test_ties_share_the_mean_of_their_ranks() -> None:
    assert ranks([10, 20, 20, 30]) == [1.0, 2.5, 2.5, 4.0]
    assert ranks([5, 5, 5]) == [2.0, 2.0, 2.0]
    assert ranks([3, 1, 2]) == [3.0, 1.0, 2.0]


def test_seed_windows_rank_perfectly_with_tok_s() -> None:
    windows = [512, 256, 56, 24]
    tok_s = [4691, 4547, 2103.6, 1074]
    assert spearman(windows, tok_s) == 1.0


def test_reversed_order_is_minus_one() -> None:
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0


def test_ties_use_average_ranks() -> None:
    # ranks y = 1, 2.5, 2.5, 4, 5: Σdxdy = 9.5, Σdx² = 10, Σdy² = 9.5 -> 9.5 / √95
    rho = spearman([1, 2, 3, 4, 5], [1, 2, 2, 3, 4])
    assert rho == pytest.approx(9.5 / math.sqrt(95))


def test_monotone_but_nonlinear_is_still_one() -> None:
    assert spearman([1, 2, 3, 4], [1, 10, 100, 10_000]) == 1.0


def test_constant_series_is_undefined() -> None:
    assert spearman([24, 56, 256], [100.0, 100.0, 100.0]) is None
    assert spearman([7, 7, 7], [1, 2, 3]) is None


def test_fewer_than_two_pairs_is_undefined() -> None:
    assert spearman([], []) is None
    assert spearman([1], [2]) is None


def test_unpaired_series_are_a_bug() -> None:
    with pytest.raises(ValueError):
        spearman([1, 2, 3], [1, 2])


@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=2, max_size=12))
def test_rho_is_bounded_and_symmetric(pairs: list[tuple[int, int]]) -> None:
    x = [p[0] for p in pairs]
    y = [p[1] for p in pairs]
    rho = spearman(x, y)
    assert rho == spearman(y, x)
    if rho is not None:
        assert -1.0 <= rho <= 1.0
