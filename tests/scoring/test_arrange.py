"""The arrangement solver: known answers, legality by the rules engine, never worse than greedy."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from scoring import expectation, fasteval, selfplay, splits, winprob
from scoring.arrange import arrange, expected_score, greedy
from scoring.cards import STANDARD_DECK, Card, parse_cards
from scoring.categories import ROWS, Category
from scoring.cli import main
from scoring.hands import evaluate, row_exceeds
from scoring.options import preset
from scoring.rules import PRESETS
from scoring.suggest import suggest_arrangement
from scoring.validity import out_of_order

PRESET_NAMES = list(PRESETS)


def _legal(a, rules) -> bool:
    values = {row: evaluate(list(getattr(a, row)), rules) for row in ROWS}
    return not out_of_order(values, rules)


def _same_cards(a, hand) -> bool:
    return sorted(map(str, a.head + a.middle + a.tail)) == sorted(map(str, parse_cards(hand)))


def _random_hands(n: int, seed: int) -> list[list[Card]]:
    rng = np.random.default_rng(seed)
    return [[STANDARD_DECK[j] for j in rng.permutation(52)[:13]] for _ in range(n)]


def test_split_index_covers_every_split_once():
    ix = splits.index()
    assert len(ix.head) == 72_072 // 2
    masks = (1 << ix.c3).sum(1)[ix.head] | (1 << ix.c5).sum(1)[ix.a] | (1 << ix.c5).sum(1)[ix.b]
    assert (masks == (1 << 13) - 1).all()
    assert len(set(zip(ix.head.tolist(), ix.a.tolist(), ix.b.tolist(), strict=True))) == len(ix.head)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_dragon_is_declared(name):
    hand = "As Kd Qh Jc Ts 9s 8s 7d 6c 5h 4d 3c 2s"
    best = arrange(hand, name)[0]
    assert best.special is not None and best.special.key == "dragon"
    assert best.expected == PRESETS[name].special_value("dragon")
    assert _same_cards(best, hand)


def test_three_flushes():
    hand = "As Ks Qs Js 9s 8h 7h 6h 5h 3h 2d 4d 9d"
    best = arrange(hand, "shisanshui")[0]
    assert best.special is not None and best.special.key == "three_flushes" and best.expected == 5
    assert {c.suit for c in best.head} == {"d"}  # laid out so that it is three flushes
    # where the special is not played, the two flushes still go to middle and tail
    for name in ("luosong", "weighted", "taiwan"):
        top = arrange(hand, name)[0]
        assert top.special is None
        assert {top.values[1].category, top.values[2].category} == {Category.FLUSH}
        assert _legal(top, PRESETS[name])


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_obvious_best(name):
    hand = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 2c 2d 2s"
    best = arrange(hand, name, specials=False)[0]
    assert sorted(map(str, best.head)) == ["2c", "2d", "2s"]
    assert [c.rank for c in best.middle] == [9, 8, 7, 6, 5]
    assert [c.rank for c in best.tail] == [14, 13, 12, 11, 10]


def _legal_by_rules_engine(hand: list[Card], rules) -> np.ndarray:
    """Legality of every split from hands.py's own values (each row evaluated once)."""
    ix = splits.index()
    v5 = [evaluate([hand[i] for i in pos], rules) for pos in ix.c5.tolist()]
    v3 = [evaluate([hand[i] for i in pos], rules) for pos in ix.c3.tolist()]
    out = np.empty(len(ix.head), dtype=bool)
    for k, (h, a, b) in enumerate(zip(ix.head.tolist(), ix.a.tolist(), ix.b.tolist(), strict=True)):
        va, vb = v5[a], v5[b]
        mid, tail = (va, vb) if va.key <= vb.key else (vb, va)
        out[k] = not (row_exceeds(v3[h], mid) or row_exceeds(mid, tail, strict=rules.strict_order))
    return out


@pytest.mark.parametrize("hand, rules", [
    # the hand with the fewest legal splits a hill-climb found in a 52-card deck (17,417 of 36,036)
    ("3s 2s Ah Jh Th 8h 5h Ad 9d Kc Qc 7c 4c", preset("luosong")),
    ("BJ SJ 2s 2h 2d 2c 3s 5h 7d 9c Js Kh 4d", preset("shisanshui", jokers=2, wild_rank="2")),
    ("As Ah Ks Kh Qs Qh Js Jh Ts Th 9s 9h 2c", preset("taiwan", strict_order=True)),
])
def test_legal_set_is_the_rules_engines(hand, rules):
    cards = parse_cards(hand)
    s = splits.score_splits(splits.hand_codes(cards, rules), fasteval.tables_for(rules), rules.strict_order)
    assert (s.legal[0] == _legal_by_rules_engine(cards, rules)).all()
    for a in arrange(cards, rules, top=5, specials=False):
        assert _legal(a, rules) and _same_cards(a, hand)


def _choice_scores(arrangements, hand, rules) -> list[float]:
    """What the solver ranks its answers by: the exact score against the sample it chooses with."""
    t = fasteval.tables_for(rules)
    v = np.array([[t.value(list(getattr(a, r))) for r in ROWS] for a in arrangements])
    model = winprob.model_given(rules, splits.hand_codes(parse_cards(hand), rules)[None])
    return expectation.exact_expected(v[None], model, rules, 3)[0].tolist()


def test_random_hands_legal_and_not_below_greedy():
    """Ranked by the sample the solver chooses with (never below greedy there), each valued as
    `expected_score` values a layout."""
    for k, hand in enumerate(_random_hands(200, seed=1)):
        rules = PRESETS[PRESET_NAMES[k % 4]]
        found = arrange(hand, rules, top=3, specials=False)
        base = greedy(hand, rules)
        assert found and all(_legal(a, rules) and _same_cards(a, hand) for a in found)
        assert _legal(base, rules)
        score = _choice_scores([*found, base], hand, rules)
        assert score[0] >= score[-1] - 1e-9
        assert score[:-1] == sorted(score[:-1], reverse=True)
        for a in (found[0], base):
            rows = [list(getattr(a, r)) for r in ROWS]
            assert expected_score(*rows, rules) == pytest.approx(a.expected)


def test_two_jokers():
    rules = preset("shisanshui", jokers=2)
    hand = "BJ SJ As Kd 9h 8c 7s 6d 4h 3c 3s Td 2h"
    found = arrange(hand, rules)
    assert found and all(_legal(a, rules) and _same_cards(a, hand) for a in found)
    assert found[0].special is None  # a hand with a wild card declares no special here


def test_model_tables_are_monotone():
    for name, rules in PRESETS.items():
        m = winprob.model_for(rules)
        for r in range(3):
            assert np.all(np.diff(m.win[r]) >= -1e-12), name
            assert np.all(np.diff(m.lose[r]) <= 1e-12), name
            assert 0.0 <= m.scoop_rate < 1.0


def test_suggestion_comes_from_the_solver():
    rules = PRESETS["luosong"]
    hand = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 2c 2d 2s"
    head, middle, tail = suggest_arrangement(hand, rules)
    best = arrange(hand, rules, top=1, specials=False)[0]
    assert (tuple(head), tuple(middle), tuple(tail)) == (best.head, best.middle, best.tail)


def test_cli_arrange_json(capsys):
    assert main(["arrange", "As Ks Qs Js Ts 9h 8h 7h 6h 5h 2c 2d 2s", "--rules", "taiwan", "--top", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "taiwan" and len(out["arrangements"]) == 2
    first = out["arrangements"][0]
    assert first["head"] == "2s 2d 2c" and first["declare"] is False and "expected" in first


def test_cli_arrange_text_and_bad_input(capsys):
    assert main(["arrange", "As Kd Qh Jc Ts 9s 8s 7d 6c 5h 4d 3c 2s", "--rules", "luosong"]) == 0
    assert "一条龙" in capsys.readouterr().out
    assert main(["arrange", "As Kd Qh", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "invalid"


def test_cli_check(capsys):
    # tail weaker than middle: 相公
    code = main(["check", "2c 2d 2s", "As Ks Qs Js Ts", "9h 8h 7h 6h 4c", "--rules", "luosong", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["legal"] is False and out["fouls"] == ["middle > tail"]
    assert out["best"]["tail"].split() == ["As", "Ks", "Qs", "Js", "Ts"] or out["best"]["declare"]
    assert main(["check", "2c 2d 3s", "9h 8h 7h 6h 5h", "As Ks Qs Js Ts", "--rules", "taiwan"]) == 0
    assert capsys.readouterr().out.startswith("legal")
    assert main(["check", "2c 2d 3s | 9h 8h 7h 6h 5h | As Ks Qs Js Ts", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert main(["check", "2c 2d 3s | 9h 8h 7h 6h 5h", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "invalid"


def test_combinations_sanity():
    # 286 heads x 252 middles = 72,072 ordered splits; the index keeps half (middle <= tail)
    assert len(list(combinations(range(13), 3))) * len(list(combinations(range(10), 5))) == 72_072


def test_simulation_is_reproducible():
    """The build procedure (small): deterministic, legal rows, a usable model."""
    quiet = lambda *a: None  # noqa: E731
    rules = PRESETS["taiwan"]
    a = selfplay.simulate(rules, 40, seed=5, max_rounds=2, log=quiet, progress=False)
    b = selfplay.simulate(rules, 40, seed=5, max_rounds=2, log=quiet, progress=False)
    assert a.rows.shape == (40, 3) and (a.rows == b.rows).all() and a.scoop_rate == b.scoop_rate
    values = winprob.sample_values(a, fasteval.tables_for(rules))
    assert (values[:, 0] < values[:, 1]).all() and (values[:, 1] <= values[:, 2]).all()
    model = winprob.build_model(rules, a)
    assert model.win[2][-1] == pytest.approx(1.0) and len(model.opp) == 40


def test_exact_score_counts_correlated_scoops():
    """The exact score equals a direct count against the sampled opponents."""
    rules = PRESETS["luosong"]
    model = winprob.model_for(rules)
    v = np.array([[model.opp[0, 0], model.opp[1, 1], model.opp[2, 2]], [5000, 6000, 9000]])
    got = expectation.exact_expected(v[None], model, rules, opponents=1)[0]
    o = model.opp
    for k in range(2):
        scoop = (v[k] > o).all(1).mean()
        scooped = (v[k] < o).all(1).mean()
        pts = 3.0  # luosong: 1 point a row
        expect = sum(model.base[r][v[k, r]] for r in range(3)) + pts * scoop - pts * scooped
        assert got[k] == pytest.approx(expect)


def test_65_card_deck_duplicates():
    rules = preset("shisanshui", deck=65)
    hand = "As As Ks Ks Qs Js 9h 8h 7d 6c 5h 4d 3c"
    found = arrange(hand, rules, top=3)
    assert found and all(_legal(a, rules) and _same_cards(a, hand) for a in found if a.special is None)
    assert all(_same_cards(a, hand) for a in found)
