"""The assignment solver against brute force."""

from itertools import permutations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.assign import assign


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.integers(n, 6).flatmap(
    lambda m: arrays(np.float64, (n, m), elements=st.floats(0, 100, allow_nan=False)))))
def test_matches_brute_force(cost):
    n, m = cost.shape
    cols = assign(cost)
    assert len(set(cols.tolist())) == n and cols.min() >= 0
    best = min(sum(cost[i, c] for i, c in enumerate(perm)) for perm in permutations(range(m), n))
    assert abs(cost[np.arange(n), cols].sum() - best) < 1e-6


def test_card_sized_problem_is_fast():
    rng = np.random.default_rng(0)
    cost = rng.random((65, 108))
    cols = assign(cost)
    assert len(set(cols.tolist())) == 65
