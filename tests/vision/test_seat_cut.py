"""The vectorised seat cut (`geometry._best_cut`) chooses exactly what trying every cut one by one does.

The reference below is the straightforward version it replaced: for each choice of k-1 links among
the candidates, join the rest with a union-find and score the groups.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from vision.geometry import SEAT_SIZE, GeometryConfig
from vision.geometry.seats import _best_cut, _components, _mst


def reference_cut(n, edges, stray_cuts, k, candidates, labels, cfg):
    cand = edges[: min(len(edges), k - 1 + candidates)]
    best = None
    for combo in combinations(range(len(cand)), max(0, k - 1)):
        cut = {cand[c] for c in combo} | set(stray_cuts)
        groups = _components(n, [e for e in edges if e not in cut])
        big = [g for g in groups if len(g) >= cfg.seat_min]
        if len(big) != k:
            continue
        count = [len({labels[i] for i in g}) if labels is not None else len(g) for g in big]
        err = sum(abs(c - SEAT_SIZE) for c in count) + sum(len(g) for g in groups if len(g) < cfg.seat_min)
        score = cfg.seat_size_weight * err - sum(cand[c][0] for c in combo)
        if best is None or score < best[0]:
            best = (score, err, groups)
    return best


def scene(rng: np.random.Generator, seats: int):
    """Seats of 11-15 cards in loose clusters, a few strays, a few labels repeated across seats."""
    pts, labels = [], []
    names = [f"{r}{s}" for r in "23456789TJQKA" for s in "shdc"]
    for _ in range(seats):
        centre = rng.uniform(0, 60, 2)
        m = int(rng.integers(11, 16))
        pts.append(centre + rng.normal(0, 2.5, (m, 2)))
        labels += list(rng.choice(names, m))
    strays = int(rng.integers(0, 3))
    pts.append(rng.uniform(-20, 80, (strays, 2)))
    labels += list(rng.choice(names, strays))
    return np.concatenate(pts), labels


@pytest.mark.parametrize("seed", range(60))
def test_vectorised_cut_matches_one_by_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 6))
    points, labels = scene(rng, k)
    cfg = GeometryConfig()
    edges = sorted(_mst(points), reverse=True)
    stray_cuts = [e for e in edges if e[0] > float(rng.choice([cfg.stray_link, 6.0, 3.0]))]
    for use_labels in (None, labels):
        for want in {k, max(1, k - 1), min(5, k + 1)}:
            for candidates in (cfg.seat_cut_candidates, cfg.seat_cut_more):
                got = _best_cut(len(points), edges, stray_cuts, want, candidates, use_labels, cfg)
                ref = reference_cut(len(points), edges, stray_cuts, want, candidates, use_labels, cfg)
                if ref is None:
                    assert got is None
                    continue
                assert got is not None
                assert got[0] == pytest.approx(ref[0], abs=1e-9)
                assert got[1] == ref[1]
                assert got[2] == ref[2]
