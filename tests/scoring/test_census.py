"""Exhaustive category counts: all C(52,5) = 2,598,960 five-card rows and all C(52,3) = 22,100 heads.

Two independent routes: the vectorised categoriser enumerates every row (seconds), and the scalar
evaluator (`hands.evaluate`, what settlement uses) is run once per distinct class of rows (rank
multiset x flush or not), each weighted by how many rows fall in that class.  Both must give the
textbook counts, and the scalar run over all heads is direct.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import numpy as np
import pytest

from scoring import Category, RuleSet, Wheel, evaluate
from scoring.batch_categories import categorise, census, combinations_array, deck_arrays
from scoring.cards import STANDARD_DECK, Card

FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.QUADS: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.TRIPS: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
HEAD_COUNTS = {Category.TRIPS: 52, Category.PAIR: 3_744, Category.HIGH_CARD: 18_304}


def test_combinations_array_matches_itertools() -> None:
    got = combinations_array(7, 3)
    assert got.tolist() == [list(c) for c in combinations(range(7), 3)]
    assert len(combinations_array(52, 3)) == comb(52, 3)


def test_vectorised_census_of_every_five_card_row() -> None:
    counts = census(5, Wheel.LOW)
    assert counts == FIVE_CARD_COUNTS
    assert sum(counts.values()) == comb(52, 5)


def test_vectorised_census_of_every_head() -> None:
    assert census(3) == HEAD_COUNTS


def test_wheel_none_moves_wheels_out_of_straights() -> None:
    counts = census(5, Wheel.NONE)
    assert counts[Category.STRAIGHT_FLUSH] == 36 and counts[Category.STRAIGHT] == 9_180
    assert counts[Category.FLUSH] == 5_108 + 4


@pytest.mark.parametrize("wheel", [Wheel.LOW, Wheel.SECOND])
def test_scalar_evaluator_census_by_class(wheel: Wheel) -> None:
    """Every rank multiset once (and suited once when its ranks differ), weighted by its rows."""
    rules = RuleSet(wheel=wheel)
    counts = dict.fromkeys(FIVE_CARD_COUNTS, 0)
    for ranks in combinations_with_replacement(range(2, 15), 5):
        multiplicity = [ranks.count(r) for r in set(ranks)]
        if max(multiplicity) > 4:
            continue
        suit_ways = prod(comb(4, m) for m in multiplicity)
        offsuit = [Card(r, "shdc"[_suit_index(ranks, i)]) for i, r in enumerate(ranks)]
        if len(set(ranks)) == 5:
            offsuit[0] = Card(ranks[0], "h")  # never all one suit
            suited = [Card(r, "s") for r in ranks]
            counts[evaluate(suited, rules).category] += 4
            suit_ways -= 4
        counts[evaluate(offsuit, rules).category] += suit_ways
    assert counts == FIVE_CARD_COUNTS


def _suit_index(ranks: tuple[int, ...], i: int) -> int:
    """Distinct suits for equal ranks: the k-th copy of a rank gets suit k."""
    return ranks[:i].count(ranks[i])


def test_scalar_evaluator_over_every_head() -> None:
    counts = dict.fromkeys(HEAD_COUNTS, 0)
    for head in combinations(STANDARD_DECK, 3):
        counts[evaluate(head).category] += 1
    assert counts == HEAD_COUNTS


def test_vectorised_and_scalar_agree_on_random_rows() -> None:
    rng = random.Random(5)
    ranks, suits = deck_arrays()
    for wheel in Wheel:
        rows = np.array([rng.sample(range(52), 5) for _ in range(2000)])
        batch = categorise(ranks[rows], suits[rows], wheel)
        for row, cat in zip(rows, batch, strict=True):
            cards = [Card(int(ranks[i]), "shdc"[suits[i]]) for i in row]
            assert evaluate(cards, RuleSet(wheel=wheel)).category == cat
