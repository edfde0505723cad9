"""Hand categories for millions of rows at once (numpy), for census checks and statistics.

`hands.evaluate` is the reference and is per-row Python; checking it over all C(52,5) = 2,598,960
five-card rows that way takes minutes.  This module categorises a whole array of natural rows in
one pass (sort, neighbour equalities, flush and straight masks), so the exhaustive count test runs
in seconds.  It covers natural cards only: wild cards are `hands.evaluate`'s job.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from scoring.categories import Category
from scoring.rules import Wheel


def combinations_array(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) as an (C(n,k), k) int array, lexicographic, built without a Python
    loop per row: each round appends every larger index to every partial row."""
    rows = np.arange(n, dtype=np.int16).reshape(n, 1)
    for _ in range(k - 1):
        last = rows[:, -1].astype(np.int64)
        counts = n - 1 - last
        rep = np.repeat(np.arange(len(rows)), counts)
        # offsets 1..count for each repeated row
        starts = np.cumsum(counts) - counts
        offs = np.arange(counts.sum()) - np.repeat(starts, counts) + 1
        rows = np.concatenate([rows[rep], (last[rep] + offs).astype(np.int16)[:, None]], axis=1)
    return rows


def categorise(ranks: np.ndarray, suits: np.ndarray | None = None, wheel: Wheel = Wheel.LOW) -> np.ndarray:
    """Category numbers (`Category` values) of natural rows.

    `ranks`: (N, 3) or (N, 5) ints 2..14; `suits`: same shape, any integer codes (ignored for heads).
    A 3-card head is only high card, pair or trips."""
    r = np.sort(np.asarray(ranks), axis=1)
    eq = r[:, 1:] == r[:, :-1]
    n_eq = eq.sum(axis=1)
    if r.shape[1] == 3:
        return np.select([n_eq == 2, n_eq == 1], [Category.TRIPS, Category.PAIR], Category.HIGH_CARD)
    if r.shape[1] != 5:
        raise ValueError("rows must have 3 or 5 cards")
    s = np.asarray(suits)
    flush = (s == s[:, :1]).all(axis=1)
    run3 = eq[:, :-1] & eq[:, 1:]                # three equal in a row somewhere
    quads = (run3[:, :-1] & run3[:, 1:]).any(axis=1)
    trips = run3.any(axis=1)
    distinct = n_eq == 0
    straight = distinct & (r[:, 4] - r[:, 0] == 4)
    if wheel != Wheel.NONE:
        straight |= distinct & (r[:, 4] == 14) & (r[:, 3] == 5)
    conds = [
        n_eq == 4,
        straight & flush,
        quads,
        (n_eq == 3) & ~quads,
        flush,
        straight,
        trips,
        n_eq == 2,
        n_eq == 1,
    ]
    cats = [Category.FIVE_KIND, Category.STRAIGHT_FLUSH, Category.QUADS, Category.FULL_HOUSE, Category.FLUSH,
            Category.STRAIGHT, Category.TRIPS, Category.TWO_PAIR, Category.PAIR]
    return np.select(conds, cats, Category.HIGH_CARD)


def deck_arrays() -> tuple[np.ndarray, np.ndarray]:
    """Ranks (2..14) and suits (0..3) of the 52-card deck, indexed like `combinations_array(52, k)`."""
    idx = np.arange(52)
    return (idx % 13 + 2).astype(np.int8), (idx // 13).astype(np.int8)


@lru_cache(maxsize=2)
def all_rows(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Ranks and suits of every k-card row of the 52-card deck (cached: 26 MB for k = 5)."""
    ranks, suits = deck_arrays()
    combos = combinations_array(52, k)
    return ranks[combos], suits[combos]


def census(k: int, wheel: Wheel = Wheel.LOW) -> dict[Category, int]:
    """How many of the C(52, k) rows fall in each category (k = 3 or 5)."""
    ranks, suits = all_rows(k)
    cats = categorise(ranks, suits, wheel)
    values, counts = np.unique(cats, return_counts=True)
    return {Category(int(v)): int(c) for v, c in zip(values, counts, strict=True)}
