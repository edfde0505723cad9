"""The sample the solver's answers are valued on: its own play, weighed by ranks and suits left."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from scoring import expectation, fasteval, selfplay, splits, winprob
from scoring.arrange import arrange, expected_score
from scoring.cards import parse_cards
from scoring.categories import ROWS
from scoring.rules import PRESETS


def test_suit_counts_skip_wild_cards():
    rules = PRESETS["shisanshui"]
    codes = splits.hand_codes(parse_cards("BJ SJ As Ks Qs Js 9h 8h 7d 6d 5c 4c 3c"), rules)
    want = [0, 0, 0, 0]
    for su, n in {"s": 4, "h": 2, "d": 2, "c": 3}.items():
        want[int(fasteval.encode([f"2{su}"])[0]) & 3] = n
    assert winprob.suit_counts(codes[None]).tolist() == [want]


def test_suits_left_weigh_opponents():
    """Holding seven spades, an opponent with five spades is C(6,5)/C(13,5) as likely as from a
    full deck, one with five hearts as likely (before the mean-one normalisation)."""
    rules = PRESETS["luosong"]
    spade = int(fasteval.encode(["2s"])[0]) & 3
    suits = np.zeros((2, 4), dtype=int)
    suits[0, spade] = 5
    suits[1, (spade + 1) % 4] = 5
    held = np.zeros((1, 4), dtype=int)
    held[0, spade] = 7
    w = winprob.removal_weights(suits, held, 13)[0]
    assert w[0] / w[1] == pytest.approx(comb(6, 5) / comb(13, 5))
    sample = winprob.value_sample_for(rules)
    assert sample.codes is not None and sample.codes.shape == (len(sample.rows), 13)
    hand = splits.hand_codes(parse_cards("2s 3s 5s 7s 9s Js Ks 2h 3h 4d 5d 6c 7c"), rules)
    counts = winprob.rank_counts(sample)
    by_rank = winprob.hand_weights(rules, counts, hand[None])
    both = winprob.hand_weights(rules, counts, hand[None], winprob.suit_counts(sample.codes))
    spades = winprob.suit_counts(sample.codes)[:, spade]
    assert both.mean() == pytest.approx(1.0)
    many, few = spades >= 5, spades <= 1
    assert both[0, many].sum() < 0.5 * by_rank[0, many].sum()
    assert both[0, few].sum() > 1.2 * by_rank[0, few].sum()


def test_value_sample_is_the_solvers_own_play():
    rules = PRESETS["taiwan"]
    first = winprob.sample_for(rules)
    got = selfplay.value_sample(rules, first, 24, seed=3, progress=False)
    hands = selfplay.deal(np.random.default_rng(3), 24)
    assert (got.codes == hands).all()
    assert (got.rows == selfplay.arrange_all(hands, rules, first)).all()
    for codes, classes in zip(hands, got.rows, strict=True):   # the rows are the hand's own cards
        assert sorted(winprob.rank_counts(winprob.Sample(classes[None], 0.0))[0].tolist()) == \
            sorted(np.bincount(codes >> 2, minlength=13).tolist())


@pytest.mark.parametrize("name", ["luosong", "taiwan"])
def test_arrange_prints_the_value_models_score(name):
    rules = PRESETS[name]
    hand = parse_cards("As Kd Qh Jc 9s 9d 7h 6c 5s 4d 3h 2c 2s")
    best = arrange(hand, rules, top=2, opponents=1, specials=False)
    codes = splits.hand_codes(hand, rules)
    value = winprob.value_model_given(rules, codes[None])
    assert len(value.opp) == len(winprob.value_sample_for(rules).rows) == selfplay.DEFAULT_VALUE_HANDS
    t = fasteval.tables_for(rules)
    v = np.array([[t.value(list(getattr(a, r))) for r in ROWS] for a in best])
    want = expectation.exact_expected(v[None], value, rules, opponents=1)[0]
    assert [a.expected for a in best] == pytest.approx(want.tolist())
    assert best[0].win[2] == pytest.approx(value.win[2][0, v[0, 2]])
    assert expected_score(best[0].head, best[0].middle, best[0].tail, rules, 1) == pytest.approx(want[0])


def test_a_preset_without_a_value_sample_is_valued_as_it_chooses(monkeypatch):
    rules = PRESETS["luosong"]
    monkeypatch.setattr(winprob, "value_sample_for", lambda r: None)
    winprob._value_counts.cache_clear()
    try:
        codes = splits.hand_codes(parse_cards("As Kd Qh Jc 9s 9d 7h 6c 5s 4d 3h 2c 2s"), rules)[None]
        got, want = winprob.value_model_given(rules, codes), winprob.model_given(rules, codes)
        assert (got.opp == want.opp).all() and (got.opp_weight == want.opp_weight).all()
    finally:
        winprob._value_counts.cache_clear()
