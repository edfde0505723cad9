"""The table evaluator agrees with the rules engine's `hands.py` on the order of rows."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import fasteval
from scoring.cards import JOKERS, STANDARD_DECK, Card
from scoring.hands import evaluate, row_exceeds
from scoring.rules import RuleSet, Wheel

CARDS = list(STANDARD_DECK)


def _random_rows(rng: np.random.Generator, n: int, size: int) -> list[list]:
    return [[CARDS[j] for j in rng.permutation(52)[:size]] for _ in range(n)]


def _sign(x: np.ndarray) -> np.ndarray:
    return np.sign(x).astype(int)


def test_perfect_hash_and_scale():
    t = fasteval.tables("low")
    assert t.size < 2**16
    # every natural 5-card class of the standard deck is present: 7,462 distinct ranks as in treys
    rng = np.random.default_rng(0)
    v = t.eval5(np.argsort(rng.random((200_000, 52)), axis=1)[:, :5])
    assert len(np.unique(v)) > 6000


@pytest.mark.parametrize("wheel", list(Wheel))
def test_same_order_as_hands_py(wheel):
    rules = RuleSet(wheel=wheel)
    t = fasteval.tables_for(rules)
    rng = np.random.default_rng(hash(wheel.value) % 2**32)
    rows = _random_rows(rng, 1500, 5)
    # enrich with the rare categories where order decisions live (straights, wheels, flushes)
    runs = [(14, 5, 4, 3, 2)] + [tuple(range(top, top - 5, -1)) for top in range(6, 15)]
    for run in runs:
        for _ in range(10):
            rows.append([Card(r, "shdc"[int(rng.integers(0, 4))]) for r in run])
        rows.append([Card(r, "h") for r in run])
    mine = np.array([t.value(r) for r in rows])
    theirs = [evaluate(r, rules).key for r in rows]
    i, j = rng.integers(0, len(rows), (2, 20000))
    their_cmp = np.array([(theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
                          for a, b in zip(i, j, strict=True)])
    assert (_sign(mine[i] - mine[j]) == their_cmp).all()


@pytest.mark.parametrize("wheel", [Wheel.LOW, Wheel.NONE])
def test_head_against_middle_matches_row_exceeds(wheel):
    rules = RuleSet(wheel=wheel)
    t = fasteval.tables_for(rules)
    rng = np.random.default_rng(7)
    heads = _random_rows(rng, 3000, 3)
    mids = _random_rows(rng, 3000, 5)
    # heads built equal to the middle's first cards (not above it), and one rank above that
    for k in range(600):
        first = evaluate(mids[k], rules).ranks[:3]
        if k % 2:
            first = (min(first[0] + 1, 14), *first[1:])
        heads[k] = [Card(r, "shdc"[i]) for i, r in enumerate(first)]
    for h, m in zip(heads, mids, strict=True):
        exceeds = row_exceeds(evaluate(h, rules), evaluate(m, rules))
        assert exceeds == (t.value(h) > t.value(m)), (h, m)


def test_wild_rows_take_their_best_value():
    rules = RuleSet(jokers=2, wild_rank="6")
    t = fasteval.tables_for(rules)
    rng = np.random.default_rng(11)
    wild_cards = [JOKERS["BJ"], JOKERS["SJ"]]
    rows = []
    for _ in range(400):
        k = int(rng.integers(1, 3))
        rows.append(_random_rows(rng, 1, 5 - k)[0] + wild_cards[:k])
    rows += _random_rows(rng, 200, 5)
    mine = np.array([fasteval.tables_for(rules).value(r, wild_rank="6") for r in rows])
    theirs = [evaluate(r, rules).key for r in rows]
    for a in range(0, len(rows), 3):
        for b in range(1, len(rows), 7):
            assert np.sign(int(mine[a]) - int(mine[b])) == (theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
    assert t.category[t.value(["BJ", "SJ", "As", "Ah", "Ad"])] == fasteval.FIVE_KIND
    assert t.category[t.value(["BJ", "SJ", "Ad", "Kd", "5d"])] == fasteval.FLUSH  # no straight: AK5
    assert t.category[t.value(["BJ", "SJ", "Ad"])] == fasteval.TRIPS


def test_five_kind_placement():
    low = fasteval.tables("low", five_kind_above_sf=False)
    high = fasteval.tables("low", five_kind_above_sf=True)
    five = ["BJ", "As", "Ah", "Ad", "Ac"]
    sf = ["Ks", "Qs", "Js", "Ts", "9s"]
    assert low.value(five) < low.value(sf)
    assert high.value(five) > high.value(sf)


def test_agrees_with_treys():
    treys = pytest.importorskip("treys")
    ev = treys.Evaluator()
    t = fasteval.tables("low")
    rng = np.random.default_rng(3)
    codes = np.argsort(rng.random((3000, 52)), axis=1)[:, :5]
    names = [fasteval.decode(c) for c in range(52)]
    tc = [treys.Card.new(n) for n in names]
    theirs = np.array([ev.evaluate([tc[c] for c in h[:2]], [tc[c] for c in h[2:]]) for h in codes.tolist()])
    mine = t.eval5(codes).astype(int)
    i, j = rng.integers(0, 3000, (2, 20000))
    assert (_sign(mine[i] - mine[j]) == _sign(theirs[j] - theirs[i])).all()


def test_65_card_deck_flush_pairs_first():
    rules = RuleSet(extra_suit="s")  # flush_pairs_first resolves to on
    t = fasteval.tables_for(rules)
    rng = np.random.default_rng(13)
    deck = CARDS + [c for c in CARDS if c.suit == "s"]
    spades = [c for c in deck if c.suit == "s"]
    rows = [[deck[j] for j in rng.permutation(len(deck))[:5]] for _ in range(300)]
    rows += [[spades[j] for j in rng.permutation(len(spades))[:5]] for _ in range(300)]
    mine = np.array([t.value(r) for r in rows])
    theirs = [evaluate(r, rules).key for r in rows]
    for a in range(0, len(rows), 5):
        for b in range(1, len(rows), 3):
            assert np.sign(int(mine[a]) - int(mine[b])) == (theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
