"""The benchmark's pool of arranged hands: disjoint means no shared card, layouts are the solver's."""

from __future__ import annotations

import numpy as np

from benchmarks import opponent_pool
from benchmarks.arrange_quality import solver_layouts
from scoring.rules import PRESETS


def test_disjoint_hands_share_no_card_and_all_are_found():
    rng = np.random.default_rng(3)
    codes = opponent_pool.deal(rng, 3000)
    pool = opponent_pool.Pool(codes, opponent_pool.card_mask(codes), np.zeros((3000, 3), int),
                              np.zeros((3000, 3), int))
    hand = opponent_pool.deal(rng, 1)[0]
    found = pool.disjoint(hand)
    shares = np.array([len(np.intersect1d(c, hand)) > 0 for c in codes])
    assert (np.flatnonzero(~shares) == found).all() and 0 < len(found) < 200


def test_pool_layouts_are_the_solvers_and_are_cached(tmp_path):
    rules = PRESETS["luosong"]
    pool = opponent_pool.load_or_build(rules, 24, 5, tmp_path)
    values, _ = solver_layouts(pool.codes, rules, 1)
    assert (pool.values == values).all()
    again = opponent_pool.load_or_build(rules, 24, 5, tmp_path)
    assert len(list(tmp_path.iterdir())) == 1
    assert (again.codes == pool.codes).all() and (again.values == pool.values).all()
