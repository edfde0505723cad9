"""Preset `app`'s thirteen specials (RULES.md "Preset `app`"): each detected on a hand built to be
it and not on its near miss, the order between two that one hand makes, options that change or
turn one off, and the 理牌 solver offering a hand that is one as such."""

from __future__ import annotations

import pytest

from scoring import arrange, best_special, evaluate, parse_cards, preset, winprob
from scoring.categories import Category
from scoring.specials import detect_specials, special_layout

APP = preset("app")


def _rows(cards: str) -> dict[str, list]:
    """The 13 cards cut 3 + 5 + 5 in the order given: `app` judges every special on the cards, so
    the cut is arbitrary (and mostly a 相公, which a special is exempt from)."""
    c = parse_cards(cards)
    assert len(c) == 13
    return {"head": c[:3], "middle": c[3:8], "tail": c[8:]}


def best(cards: str, rules=APP) -> tuple[str, int] | None:
    rows = _rows(cards)
    sp = best_special(rows, {k: evaluate(v, rules) for k, v in rows.items()}, rules)
    return None if sp is None else (sp.key, sp.points)


def found(cards: str, rules=APP) -> list[str]:
    rows = _rows(cards)
    return [sp.key for sp in detect_specials(rows, {k: evaluate(v, rules) for k, v in rows.items()}, rules)]


def test_the_table_of_specials_names_values_and_order() -> None:
    assert [(sp.zh, sp.points) for sp in APP.specials] == [
        ("至尊青龙", 32), ("一条龙", 30), ("十二皇族", 24), ("三同花顺", 20), ("三分天下", 20),
        ("全大", 10), ("全小", 10), ("凑一色", 10), ("四套三条", 6), ("五对三条", 5), ("六对半", 4),
        ("三顺子", 4), ("三同花", 3)]
    assert str(APP.special("twelve_royals")) == "十二皇族 twelve royals (24)"


@pytest.mark.parametrize(("cards", "special", "points"), [
    ("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "supreme_dragon", 32),
    ("Ah Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "dragon", 30),
    ("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh", "twelve_royals", 24),
    # rows given scrambled: some split is 9h Th Jh | 2s..6s | 7d..Jd
    ("Th 4s Jd 9h 2s 9d Jh 3s 8d Td 5s 7d 6s", "three_straight_flushes", 20),
    ("As Ah Ad Ac Ks Kh Kd Kc 5s 5h 5d 5c 2h", "three_quads", 20),
    ("As Ah Ad Ks Kh Kd Qs Qh Jc Jd Tc 9d 8h", "all_big", 10),
    ("2s 2h 3d 3c 4s 5h 6d 7c 8s 8h 7d 6c 5s", "all_small", 10),
    ("Ah Kh Qd Jd 9h 7d 6h 5d 4h 3d 2h Td 2d", "one_color", 10),
    ("As Ah Ad Ks Kh Kd 7s 7h 7d 4s 4h 4d 2c", "four_trips", 6),
    ("As Ah Ad Ac Ks Kh Kd 7s 7h 7d 4s 4h 4d", "four_trips", 6),        # a quad: trips + a single
    ("As Ah Ks Kh Qs Qh Js Jh 9s 9h 5d 5c 5h", "five_pairs_trips", 5),
    ("As Ah Ks Kh Qs Qh Js Jh 9s 9h 5d 5c 3h", "six_pairs", 4),
    ("As Ah Ad Ac Ks Kh Qs Qh Js Jh 9s 9h 3c", "six_pairs", 4),         # a quad: two pairs
    ("8s 2d 9d 4s 3c Tc 6c 4h Jh 5d 7h Qs Kd", "three_straights", 4),   # 2-3-4, 4-8, 9-K
    ("2h 3c 2s 7h 5c 4s 8c 6s 9h Tc Kc 9s Js", "three_flushes", 3),     # hearts 3, clubs 5, spades 5
    ("2h 7h 9h 3h 5h 8h Th Kh 2s 4s 6s 9s Js", "three_flushes", 3),     # hearts 8 (3 + 5), spades 5
])
def test_each_special_on_a_hand_built_to_be_it(cards: str, special: str, points: int) -> None:
    assert best(cards) == (special, points)


@pytest.mark.parametrize(("cards", "expected"), [
    # twelve J-A cards and one ten: not 十二皇族, still 全大 (every card 8 to A)
    ("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Th", ("all_big", 10)),
    # two quads and a trips: not 三分天下, and nothing else (the quads are not six pairs with it)
    ("As Ah Ad Ac Ks Kh Kd Kc 5s 5h 5d 2c 2h", None),
    # three pairs, a quad and a trips: a quad is not two pairs for 五对三条, trips never for 六对半
    ("As Ah Ks Kh Qs Qh Jd Jc Js Jh 5d 5c 5h", None),
    # one card off each: a 2 twice and no ace is no dragon; a 9 in 全小; a black card in all red
    ("Ah Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 3h", None),
    ("2s 2h 3d 3c 4s 5h 6d 7c 8s 9h 7d 6c 5s", None),
    ("Ah Kh Qd Jd 9h 7d 6h 5d 4h 3d 2h Td 2s", None),
    # three trips, a pair and two singles: not 四套三条
    ("As Ah Ad Ks Kh Kd 7s 7h 7d 4s 4h 3d 2c", None),
    # the 三同花顺 hand with 7d swapped for 7c: no straight flush split left, still three straights
    ("Th 4s Jd 9h 2s 9d Jh 3s 8d Td 5s 7c 6s", ("three_straights", 4)),
    # the 三顺子 hand with Kd swapped for Ad: no split into three straights
    ("8s 2d 9d 4s 3c Tc 6c 4h Jh 5d 7h Qs Ad", None),
    # the flush hands with one suit moved: hearts 4, clubs 4, spades 5; hearts 6, spades 7
    ("2h 3c 2s 7h 5c 4s 8c 6s 9h Tc Kh 9s Js", None),
    ("2h 7h 9h 3h 5h 8h 2s 4s 6s 9s Js Qs Ks", None),
])
def test_near_misses(cards: str, expected: tuple[str, int] | None) -> None:
    assert best(cards) == expected


def test_five_pairs_and_trips_is_not_six_pairs() -> None:
    assert found("As Ah Ks Kh Qs Qh Js Jh 9s 9h 5d 5c 5h") == ["five_pairs_trips"]
    # seed 004 counts trips as a pair and a single: there it is 六对半
    assert best("As Ah Ks Kh Qs Qh Js Jh 9s 9h 5d 5c 5h", preset("shisanshui")) == ("six_pairs", 5)


def test_the_flush_split_that_exists_only_one_way() -> None:
    cards = parse_cards("2h 3c 2s 7h 5c 4s 8c 6s 9h Tc Kc 9s Js")
    head, middle, tail = special_layout(cards, APP.special("three_flushes"), APP)
    assert {c.suit for c in head} == {"h"}
    assert sorted({c.suit for c in middle} | {c.suit for c in tail}) == ["c", "s"]
    assert {c.suit for c in middle} != {c.suit for c in tail}
    # laid out so, seed 004 (which judges the rows as laid out) calls it 三同花 too; cut as given, not
    rows = {"head": head, "middle": middle, "tail": tail}
    shi = preset("shisanshui")
    assert best_special(rows, {k: evaluate(v, shi) for k, v in rows.items()}, shi).key == "three_flushes"
    assert best("2h 3c 2s 7h 5c 4s 8c 6s 9h Tc Kc 9s Js", shi) is None


@pytest.mark.parametrize(("cards", "all_found"), [
    ("2s 2h 3d 3c 4s 5h 6d 7c 8s 8h 7d 6c 5s", ["all_small", "six_pairs"]),          # 全小 > 六对半
    ("Th 4s Jd 9h 2s 9d Jh 3s 8d Td 5s 7d 6s",
     ["three_straight_flushes", "three_straights", "three_flushes"]),  # 三同花顺 > 三顺子 > 三同花
    ("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s",
     ["supreme_dragon", "three_straight_flushes", "one_color", "three_straights", "three_flushes"]),
    ("Ah Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", ["dragon", "three_straights"]),       # 一条龙 > 三顺子
    ("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh", ["twelve_royals", "all_big"]),        # 十二皇族 > 全大
    ("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc Js",
     ["twelve_royals", "three_quads", "all_big", "six_pairs"]),
    ("As Ah Ad Ac Ks Kh Kd Kc 5s 5h 5d 5c 2h", ["three_quads", "six_pairs"]),        # 三分天下 > 六对半
    ("As Ks Qs Js Ts 9s 8s Ac Kc Qc Jc Tc 9c", ["all_big", "one_color", "six_pairs"]),  # 全大 > 凑一色
    ("2h 3h 4h 5h 6h 7h 8h 2d 3d 4d 5d 6d 7d",
     ["all_small", "one_color", "six_pairs"]),                                       # 全小 > 凑一色
    ("As Ah Ad Ks Kh Kd Qs Qh Qd Js Jh Jd 9c", ["all_big", "four_trips"]),          # 全大 > 四套三条
    ("Ah Ad Kh Kd Qh Qd Jh Jd 9h 9d 5h 5d 3h", ["one_color", "six_pairs"]),         # 凑一色 > 六对半
    ("2s 4d 4h 3d 5s 6s 7h 8s 6d 7d 8d 9s Th", ["three_straights", "three_flushes"]),  # 三顺子 > 三同花
])
def test_a_hand_that_makes_several_is_the_highest_in_the_order(cards: str, all_found: list[str]) -> None:
    assert found(cards) == all_found
    assert best(cards)[0] == all_found[0]


def test_options_change_a_value_or_turn_a_special_off() -> None:
    royals = "As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh"
    assert best(royals, preset("app", specials={"twelve_royals": 30})) == ("twelve_royals", 30)
    off = preset("app", {"specials": {"twelve_royals": None}})
    assert off.special("twelve_royals") is None and best(royals, off) == ("all_big", 10)
    # the order stays the table's: a value above a higher special's does not move it up
    rich = preset("app", specials={"six_pairs": 50})
    assert best("As Ah Ad Ac Ks Kh Kd Kc 5s 5h 5d 5c 2h", rich) == ("three_quads", 20)
    # a list replaces the specials, in its order
    only = preset("app", specials=[["six_pairs", 4], ["three_quads", 20]])
    assert [sp.key for sp in only.specials] == ["six_pairs", "three_quads"]
    assert best("As Ah Ad Ac Ks Kh Kd Kc 5s 5h 5d 5c 2h", only) == ("six_pairs", 4)


def test_a_seed_preset_may_add_an_app_special() -> None:
    r = preset("luosong", specials={"twelve_royals": 24})
    assert best("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh", r) == ("twelve_royals", 24)
    assert best("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh", preset("luosong")) is None


def test_a_new_special_given_whole_through_options() -> None:
    new = {"key": "all_hearts", "zh": "全红桃", "en": "all hearts", "test": "one_color", "points": 7}
    r = preset("app", specials=[new])
    assert str(r.special("all_hearts")) == "全红桃 all hearts (7)"
    assert best("Ah Kh Qd Jd 9h 7d 6h 5d 4h 3d 2h Td 2d", r) == ("all_hearts", 7)


# ---------------------------------------------------------------- the 理牌 solver


def test_the_solver_offers_a_special_with_its_value() -> None:
    # trips, quads, quads as rows are expected to pay more than 24 here: the special is still offered
    found = arrange("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh", "app", top=3)
    assert len(found) == 3 and found[0].special is None and found[0].expected > 24
    offered = found[-1]
    assert offered.special is not None and offered.special.key == "twelve_royals" and offered.expected == 24
    assert offered.to_json()["special"] == "twelve_royals"
    assert "十二皇族 twelve royals (24)" in offered.describe()
    assert arrange("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Js Jh", "app", top=1)[0].special is None
    dragon = arrange("As Kd Qh Jc Ts 9s 8s 7d 6c 5h 4d 3c 2s", "app")[0]
    assert dragon.special is not None and dragon.special.key == "dragon" and dragon.expected == 30


def test_the_solver_lays_a_split_special_out_as_it_is() -> None:
    top = arrange("Th 4s Jd 9h 2s 9d Jh 3s 8d Td 5s 7d 6s", "app")[0]
    assert top.special is not None and top.special.key == "three_straight_flushes" and top.expected == 20
    assert len({c.suit for c in top.head}) == 1 and sorted(c.rank for c in top.head) == [9, 10, 11]
    assert [v.category for v in top.values[1:]] == [Category.STRAIGHT_FLUSH, Category.STRAIGHT_FLUSH]
    flushes = arrange("2h 3c 2s 7h 5c 4s 8c 6s 9h Tc Kc 9s Js", "app")[0]
    assert flushes.special is not None and flushes.special.key == "three_flushes"
    assert {c.suit for c in flushes.head} == {"h"}
    assert [v.category for v in flushes.values[1:]] == [Category.FLUSH, Category.FLUSH]


def test_the_solver_models_app_opponents_by_a_stored_sample() -> None:
    # until a sample of its own is stored, `app` plays against shisanshui's: the same wheel and, on
    # a 52-card deck, the same row values
    samples = winprob.load_samples()
    assert winprob.sample_for(APP) is samples.get("app", samples["shisanshui"])
    assert winprob.model_for(APP).points[1].max() == 10  # a middle straight flush's row value
