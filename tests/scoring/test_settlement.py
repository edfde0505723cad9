"""Settlement options: fouls (lose_all / penalty / reject), royalties, row values, banker and cap,
home-run blockers, jokers and the five-player 65-card game."""

from __future__ import annotations

import random

import pytest

from scoring import TableError, preset, settle
from tests.scoring.helpers import player, random_hands, table
from tests.scoring.test_examples import CHONG_A, CHONG_C, CHONG_D, SCOOPER, WEAK_B, WEAK_C, WEAK_D

FOULED_B = player("B", "Qh Td 6c", "Jd 8h 3c 5s 2h", "Kd Jc 9h 7d 4c")  # head Q-high > middle J-high


def nets_of(s, name: str) -> dict[str, int]:
    return {next(n for n in p.players if n != name): p.net[name] for p in s.pairs if name in p.players}


def kinds(pair) -> list[str]:
    return [i.kind for i in pair.items]


def test_lose_all_foul_loses_every_row_and_is_scooped() -> None:
    s = settle(table("weighted", SCOOPER, FOULED_B, WEAK_C, WEAK_D))
    assert s.fouls == {"B": ["head > middle"]}
    for p in s.pairs:
        if "B" in p.players:
            other = next(n for n in p.players if n != "B")
            assert [i.winner for i in p.items if i.kind == "row"] == [other] * 3
            assert p.scooper == other
    assert s.totals["A"] == 72  # a fouled hand counts as scooped: A's home run stands


def test_two_fouled_hands_tie_under_lose_all_and_penalty() -> None:
    fouled_c = player("C", "Qd Tc 8c", "Jh 9d 2s 6h 3d", "Kc Ts 8d 7c 5d")
    for rules in ("weighted", "taiwan"):
        s = settle(table(rules, FOULED_B, fouled_c))
        assert s.totals == {"B": 0, "C": 0}
        assert sorted(s.fouls) == ["B", "C"]


def test_penalty_blocks_the_home_run() -> None:
    s = settle(table("taiwan", SCOOPER, FOULED_B, WEAK_C, WEAK_D))
    assert nets_of(s, "A") == {"B": 6, "C": 6, "D": 6}  # penalty, two scoops, no home run
    assert all("home_run" not in kinds(p) for p in s.pairs)


def test_penalty_still_pays_the_opponents_always_royalties() -> None:
    fouled = player("B", "5d 5c 3d", "6c 4s 2s 2d 7c", "As Js 6s 5s 3s")  # head pair 5 > middle pair 2
    s = settle(table("taiwan", CHONG_A, fouled, CHONG_C, CHONG_D))
    assert s.fouls == {"B": ["head > middle"]}
    assert nets_of(s, "A")["B"] == 6 + 3  # the penalty plus A's 冲三 (always) royalty
    assert nets_of(s, "C")["B"] == 6


def test_reject_names_fouls_and_suggests() -> None:
    s = settle(table("luosong", SCOOPER, FOULED_B))
    assert s.rejected and not s.ok
    out = s.to_json()
    assert out == {"error": "foul", "fouls": {"B": ["head > middle"]}, "suggestions": out["suggestions"]}
    assert set(out["suggestions"]) == {"B"}
    assert set(out["suggestions"]["B"]) == {"head", "middle", "tail"}


def test_middle_above_tail_is_named() -> None:
    b = player("B", "Jd 8h 3c", "Kd Jc 9h 7d 4c", "Qh Td 6c 5s 2h")
    assert settle(table("shisanshui", SCOOPER, b)).fouls == {"B": ["middle > tail"]}


def test_strict_order_makes_equal_rows_a_foul() -> None:
    b = player("B", "2d 2h 3h", "9c 8d 7c 6h 5d", "9h 8s 7d 6c 5s")
    assert not settle(table("luosong", SCOOPER, b)).rejected
    s = settle(table("luosong", SCOOPER, b, options={"strict_order": True}))
    assert s.rejected and s.fouls == {"B": ["middle = tail"]}


ROY_A = player("A", "2s 3d 4c", "Ks Kh Kd Qc Qd", "As Ad Ac Ah 5d")   # middle full house, tail quads
ROY_B = player("B", "Js 8h 6h", "7s 6s 5s 4h 3s", "Qs Jh Td 9h 8d")   # middle and tail straights
SF_B = player("B", "Js 8h 6h", "Qs Jh Td 9h 8d", "7s 6s 5s 4s 3s")    # tail straight flush beats quads


def test_on_win_royalty_is_paid_only_when_the_row_wins() -> None:
    s = settle(table("luosong", ROY_A, SF_B))
    assert [(i.winner, i.points) for i in s.pairs[0].items if i.kind == "royalty"] == [("B", 5)]
    s = settle(table("luosong", ROY_A, ROY_B))
    assert [(i.winner, i.points) for i in s.pairs[0].items if i.kind == "royalty"] == [("A", 4)]


def test_always_royalties_are_paid_by_every_opponent_and_cancel() -> None:
    s = settle(table("taiwan", ROY_A, SF_B))
    royalties = sorted((i.winner, i.points) for i in s.pairs[0].items if i.kind == "royalty")
    assert royalties == [("A", 4), ("B", 5)]
    # rows: head B, middle A (full house > straight), tail B (straight flush); royalties 4 - 5
    assert s.totals == {"A": -1 + 4 - 5, "B": 1 - 4 + 5}


def test_royalties_are_not_multiplied_by_the_scoop() -> None:
    a = player("A", "Js 8h 6h", "Ks Kh Kd Qc Qd", "As Ad Ac Ah 5d")
    b = player("B", "2s 3d 4c", "7s 6s 5s 4h 3s", "Qs Jh Td 9h 8d")
    s = settle(table("weighted", a, b))
    assert s.totals["A"] == (1 + 2 + 3) * 2 + 8  # scoop doubles the rows, not the quads royalty
    assert kinds(s.pairs[0]) == ["row", "row", "row", "scoop", "royalty"]


def test_row_values_pay_the_winning_hand() -> None:
    s = settle(table("shisanshui", ROY_A, ROY_B))
    rows = {i.row: (i.winner, i.points) for i in s.pairs[0].items if i.kind == "row"}
    assert rows == {"head": ("B", 1), "middle": ("A", 2), "tail": ("A", 4)}
    assert s.totals["A"] == 5
    s = settle(table("shisanshui", ROY_A, SF_B))  # B's tail straight flush: 5
    rows = {i.row: (i.winner, i.points) for i in s.pairs[0].items if i.kind == "row"}
    assert rows == {"head": ("B", 1), "middle": ("A", 2), "tail": ("B", 5)}


def test_a_special_hand_makes_a_home_run_impossible() -> None:
    # A beats B, C and D in every row, but D holds 三顺子: A's pairs with B and C are scoops only
    three_straights = player("D", "7h 6s 5c", "6d 5h 4s 3h 2d", "Qc Js Th 9c 8s")
    s = settle(table("shisanshui", SCOOPER, WEAK_B, WEAK_C, three_straights))
    assert s.specials == {"D": "three_straights"}
    assert nets_of(s, "A") == {"B": 6, "C": 6, "D": -5}
    assert all("home_run" not in kinds(p) for p in s.pairs)
    assert nets_of(settle(table("shisanshui", SCOOPER, WEAK_B, WEAK_C, WEAK_D)), "A") == {
        "B": 12, "C": 12, "D": 12}


def test_banker_mode_only_banker_pairs_no_scoop_no_home_run() -> None:
    s = settle(table("shisanshui", SCOOPER, WEAK_B, WEAK_C, WEAK_D, banker="B"))
    assert sorted(tuple(sorted(p.players)) for p in s.pairs) == [("A", "B"), ("B", "C"), ("B", "D")]
    assert all(i.kind not in ("scoop", "home_run") for p in s.pairs for i in p.items)
    assert nets_of(s, "B")["A"] == -3  # A wins three rows, no scoop


TWIN_C = player("C", "Jh 9d 2s", "Qd Tc 8c 6h 3d", "Kc Ts 8d 7c 5d")
TWIN_D = player("D", "Jc 9c 2d", "Qs Th 8h 6d 3h", "Ks Td 8s 7h 5h")


def test_equal_rows_tie_but_go_to_the_banker() -> None:
    assert settle(table("luosong", TWIN_C, TWIN_D)).totals == {"C": 0, "D": 0}
    s = settle(table("luosong", TWIN_C, TWIN_D, banker="D"))
    assert s.totals == {"C": -3, "D": 3}
    assert all(i.detail == "equal rows go to the banker" for i in s.pairs[0].items if i.kind == "row")
    assert settle(table("luosong", TWIN_C, TWIN_D, options={"banker": "C"})).totals == {"C": 3, "D": -3}


def test_banker_cap_limits_each_pair() -> None:
    a = player("A", "2s 3d 4c", "Ks Kh Kd Kc Qd", "As Ad Ac Ah 5d")   # middle quads 8, tail quads 4
    s = settle(table("shisanshui", a, ROY_B))
    assert s.totals == {"A": 8 + 4 - 1, "B": -11}
    s = settle(table("shisanshui", a, ROY_B, banker="B"))
    assert s.totals == {"A": 7, "B": -7}
    cap = [i for i in s.pairs[0].items if i.kind == "cap"]
    assert len(cap) == 1 and cap[0].winner == "B" and cap[0].points == 4
    assert settle(table("shisanshui", a, ROY_B, banker="B", options={"banker_cap": None})).totals["A"] == 11


def test_banker_equal_specials_go_to_the_player() -> None:
    a = player("A", "As Ad 2c", "Js Jd Ts Td 9h", "Ks Kd Qs Qd 9s")   # six pairs
    b = player("B", "Ac Ah 3h", "Kc Kh 3c 4c 4h", "Qc Qh 8h 8d 6c")   # six pairs
    assert settle(table("shisanshui", a, b)).totals == {"A": 0, "B": 0}
    assert settle(table("shisanshui", a, b, banker="A")).totals == {"A": -5, "B": 5}
    assert settle(table("shisanshui", a, b, banker="B")).totals == {"A": 5, "B": -5}


def test_jokers_at_the_table() -> None:
    a = player("A", "BJ Ks 2c", "As Ad 9c 7h 3d", "Kh Kc Kd 5s 5d")    # head: pair of K by the joker
    b = player("B", "Qc Jc 2d", "Ah Ac 9d 7c 3c", "Qs Qh Qd 6s 6d")
    with pytest.raises(TableError, match="without jokers"):
        settle(table("shisanshui", a, b))
    s = settle(table("shisanshui", a, b, options={"jokers": 2}))
    rows = {i.row: i.winner for i in s.pairs[0].items if i.kind == "row"}
    assert rows == {"head": "A", "middle": None, "tail": "A"}


def test_the_natural_row_wins_the_tie_at_the_table() -> None:
    a = player("A", "2s 3d 4c", "BJ Ad 9c 7h 3c", "Ks Kh Kc 5s 5d")    # middle: pair of A by a joker
    b = player("B", "2h 3h 4d", "Ah Ac 9d 7c 3s", "Qs Qh Qd 6s 6d")    # middle: natural pair of A
    s = settle(table("shisanshui", a, b, options={"jokers": 1}))
    rows = {i.row: i.winner for i in s.pairs[0].items if i.kind == "row"}
    assert rows == {"head": None, "middle": "B", "tail": "A"}


def test_five_players_with_65_cards() -> None:
    rules = preset("shisanshui", deck=65)
    for seed in range(3):
        hands = random_hands(random.Random(seed), 5, extra_suit="s", legal=rules)
        s = settle(table("shisanshui", *hands, options={"deck": 65}))
        assert not s.rejected
        assert s.rules.deck_size == 65 and len(s.pairs) == 10
        assert sum(s.totals.values()) == 0
    # the same deal refused by a 52-card deck, with the way out in the message
    with pytest.raises(TableError, match=r"65 cards but this table's deck has 52.*\"deck\": 65"):
        settle(table("shisanshui", *hands))


def test_65_card_deck_allows_two_copies_of_the_added_suit_only() -> None:
    a = player("A", "As 2d 3h", "Ks Kd 5c 6c 7c", "As Ac Ad 9s 9h")
    b = player("B", "Ah 2c 3c", "Qs Qd 4h 4c 8d", "Qh Qc Jh Jc Jd")
    s = settle(table("shisanshui", a, b, options={"deck": 65}))
    assert not s.rejected
    with pytest.raises(TableError, match="deck holds it twice"):
        settle(table("shisanshui", a, {**b, "head": "As 2c 3c"}, options={"deck": 65}))
    with pytest.raises(TableError, match="deck holds it once"):
        settle(table("shisanshui", a, {**b, "head": "Ad 2c 3c"}, options={"deck": 65}))
