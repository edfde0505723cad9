"""Row evaluation: categories, in-category order, wheel options, wild cards, the 65-card deck."""

from __future__ import annotations

import pytest

from scoring import Category, RuleSet, Wheel, compare, evaluate, preset, row_exceeds
from scoring.hands import HandValue

PLAIN = RuleSet()


def ev(row: str, rules: RuleSet | str = PLAIN) -> HandValue:
    return evaluate(row, rules)


@pytest.mark.parametrize(("row", "category"), [
    ("As Kd 9c 7h 3d", Category.HIGH_CARD),
    ("As Ad 9c 7h 3d", Category.PAIR),
    ("As Ad 9c 9h 3d", Category.TWO_PAIR),
    ("As Ad Ac 7h 3d", Category.TRIPS),
    ("9s 8d 7c 6h 5d", Category.STRAIGHT),
    ("As Ks 9s 7s 3s", Category.FLUSH),
    ("As Ad Ac 7h 7d", Category.FULL_HOUSE),
    ("As Ad Ac Ah 3d", Category.QUADS),
    ("9s 8s 7s 6s 5s", Category.STRAIGHT_FLUSH),
    ("As Kd 9c", Category.HIGH_CARD),
    ("As Ad 9c", Category.PAIR),
    ("As Ad Ac", Category.TRIPS),
    ("Qs Ks As", Category.HIGH_CARD),   # a head is never a straight
    ("2h 5h 9h", Category.HIGH_CARD),   # ... nor a flush
])
def test_categories(row: str, category: Category) -> None:
    assert ev(row).category == category


@pytest.mark.parametrize(("better", "worse"), [
    ("As Ad 9c 7h 3d", "Ks Kd Qc Jh 9d"),      # pair rank first
    ("As Ad 9c 7h 4d", "Ah Ac 9d 7s 3c"),      # then kickers
    ("As Ad 3c 3h 2d", "Ks Kd Qc Qh Jd"),      # two pair: high pair
    ("As Ad 4c 4h 2d", "Ah Ac 3c 3h Kd"),      # then low pair
    ("As Ad 4c 4h 3d", "Ah Ac 4s 4d 2c"),      # then kicker
    ("3s 3d 3c 2h 4d", "2s 2d 2c Ah Kd"),      # trips by the set
    ("As Kd Qc Jh Td", "Ks Qd Jc Th 9d"),      # straights by their top
    ("As 9s 8s 7s 2s", "Kh Qh Jh 9h 7h"),      # flush ranks high to low
    ("As Ks 8s 7s 2s", "Ah Kh 7h 6h 5h"),
    ("3s 3d 3c 2h 2d", "2s 2h 2c Ah Ad"),      # full house by the trips
    ("3s 3d 3c 3h 2d", "2s 2d 2c 2h Ad"),      # quads by the set
    ("Ts 9s 8s 7s 6s", "9h 8h 7h 6h 5h"),
    ("As Ad Kc", "As Ad Qc"),                  # head pair kicker
    ("2s 2d 2c", "As Ad Kc"),                  # head trips over any pair
])
def test_order_within_and_across_categories(better: str, worse: str) -> None:
    assert ev(better) > ev(worse)
    assert compare(ev(better), ev(worse)) == 1 and compare(ev(worse), ev(better)) == -1


def test_suits_never_break_ties_by_default() -> None:
    assert compare(ev("As Kd 9c 7h 3d"), ev("Ah Ks 9d 7c 3s")) == 0
    assert compare(ev("9s 8s 7s 6s 5s"), ev("9h 8h 7h 6h 5h")) == 0


def test_tie_suit_option_uses_the_highest_card_suit() -> None:
    rules = preset("weighted", tie="suit")
    assert compare(ev("As Kd 9c 7h 3d", rules), ev("Ah Ks 9d 7c 3s", rules)) == 1
    assert compare(ev("Kd Kc 9c", rules), ev("Ks Kh 9d", rules)) == -1


WHEEL = "Ac 2d 3h 4s 5s"
SIX_HIGH = "6c 5d 4h 3s 2s"
K_HIGH = "Ks Qd Jh Tc 9c"
A_HIGH = "As Kd Qh Jc Tc"


def test_wheel_low_is_the_lowest_straight() -> None:
    r = preset("luosong")
    assert ev(WHEEL, r).category == Category.STRAIGHT
    assert ev(WHEEL, r) < ev(SIX_HIGH, r) < ev(K_HIGH, r) < ev(A_HIGH, r)
    assert ev(WHEEL, r) > ev("As Ad Ac Kd 2c", r)  # still a straight: above trips


def test_wheel_second_is_second_only_to_ace_high() -> None:
    r = preset("shisanshui")
    assert ev(SIX_HIGH, r) < ev(K_HIGH, r) < ev(WHEEL, r) < ev(A_HIGH, r)
    sf = lambda ranks: ev(" ".join(f"{x}h" for x in ranks.split()), r)  # noqa: E731
    assert sf("K Q J T 9") < sf("A 2 3 4 5") < sf("A K Q J T")  # seed 004's straight-flush list


def test_wheel_none_is_not_a_straight() -> None:
    r = preset("taiwan")
    assert ev(WHEEL, r).category == Category.HIGH_CARD
    assert ev("Ah 2h 3h 4h 5h", r).category == Category.FLUSH
    assert ev(WHEEL, r) < ev("2s 2d 5c 6h 7d", r)
    assert ev("Ks As 2c 3d 4h", r).category == Category.HIGH_CARD  # no wrap-around
    assert ev(A_HIGH, r).category == Category.STRAIGHT


def test_no_wraparound_under_any_wheel() -> None:
    for wheel in Wheel:
        assert ev("Qs Ks As 2c 3d", RuleSet(wheel=wheel)).category == Category.HIGH_CARD


# ---------------------------------------------------------------- wild cards


def test_joker_takes_the_best_value() -> None:
    r = preset("shisanshui", jokers=2)
    assert ev("BJ Ks Qs Js Ts", r).category == Category.STRAIGHT_FLUSH
    assert ev("BJ Ks Qs Js Ts", r).key == ev("As Ks Qs Js Ts", r).key
    assert ev("BJ As Ad 9c 9h", r).category == Category.FULL_HOUSE
    assert ev("BJ SJ As Ad Ah", r).category == Category.FIVE_KIND
    assert ev("BJ As Ad", r).category == Category.TRIPS
    assert ev("BJ SJ 2d", r).describe() == "trips 2 (with 2 wild)"
    # with the wheel second, the joker is an ace (A-5 beats 6-high); with the wheel low it is a six
    assert ev("BJ 2d 3h 4s 5s", r).ranks[0] == 5
    assert ev("BJ 2d 3h 4s 5s", r) > ev("Ks Qd Jh Tc 9c", r)
    assert ev("BJ 2d 3h 4s 5s", preset("luosong", jokers=1)).ranks[0] == 6


def test_joker_flush_holding_a_pair_compares_by_its_ranks() -> None:
    r = preset("shisanshui", jokers=2)
    v = ev("BJ SJ Kd Qd 5d", r)  # RULES.md: Ad Ad Kd Qd 5d
    assert v.category == Category.FLUSH and v.ranks == (14, 14, 13, 12, 5)
    assert v > ev("Ah Kh Qh Jh 9h", r)


def test_the_natural_row_wins_ties() -> None:
    r = preset("shisanshui", jokers=2)
    natural, wild = ev("Ad Ac 9d 7c 4h", r), ev("As BJ 9s 7d 4s", r)
    assert natural.key == wild.key
    assert compare(natural, wild) == 1
    off = preset("shisanshui", jokers=2, natural_wins_ties=False)
    assert compare(ev("Ad Ac 9d 7c 4h", off), ev("As BJ 9s 7d 4s", off)) == 0
    assert compare(ev("BJ Ad 2c", r), ev("SJ Ac 2h", r)) == 0  # one wild each: a tie


def test_wild_rank_makes_four_cards_wild() -> None:
    r = preset("shisanshui", wild_rank="6")
    assert r.is_wild(ev("6h 6d As Ks Qs", r).cards[0])
    assert ev("6h 6d As Ks Qs", r).category == Category.STRAIGHT_FLUSH
    assert ev("6h 6d 6c 6s 2d", r).category == Category.FIVE_KIND
    assert ev("6h Kd 2c", r).category == Category.PAIR
    assert ev("6h Kd 2c", r).wilds == 1


def test_five_of_a_kind_above_or_below_straight_flush() -> None:
    five, sf = "BJ SJ As Ad Ah", "9h 8h 7h 6h 5h"
    above = preset("shisanshui", jokers=2)
    below = preset("taiwan", jokers=2)
    assert ev(five, above) > ev(sf, above)
    assert ev(sf, below) > ev(five, below) > ev("Ks Kd Kc Kh Ad", below)
    assert ev(five, below).category == Category.FIVE_KIND


# ---------------------------------------------------------------- 65-card deck


def test_flush_pairs_first_in_the_five_player_game() -> None:
    five = preset("shisanshui", extra_suit="s")
    assert five.pairs_first and not preset("shisanshui").pairs_first
    pair_flush, plain = "Ks Ks 9s 5s 2s", "Ah Kh Qh Jh 9h"
    assert ev(pair_flush, five) > ev(plain, five)
    assert ev("Ks Ks 9s 9s 2s", five) > ev("As As Qs Js 9s", five)  # two pairs beat one
    assert ev("As As Qs Js 9s", five) > ev("Ks Ks Qs Js 9s", five)  # then pair rank
    off = preset("shisanshui", extra_suit="s", flush_pairs_first=False)
    assert ev(pair_flush, off) < ev(plain, off)


def test_the_added_suit_loses_equal_flushes() -> None:
    five = preset("shisanshui", extra_suit="s")
    assert ev("6s 5s 4s 3s 2s", five) < ev("6h 5h 4h 3h 2h", five)
    assert ev("As Ks 9s 7s 3s", five) < ev("Ad Kd 9d 7d 3d", five)
    assert compare(ev("As Ks 9s 7s 3s", five), ev("As Ks 9s 7s 2s", five)) == 1  # ranks first


# ---------------------------------------------------------------- head against middle (相公)


def test_head_equal_to_middle_first_cards_is_not_above_it() -> None:
    head, middle = ev("Ks Kd Ac"), ev("Kh Kc Ad Qs Jd")
    assert not row_exceeds(head, middle)
    assert not row_exceeds(head, middle, strict=True)
    assert row_exceeds(ev("Ks Kd Ac"), ev("Kh Kc Qd Js 9d"))
    assert row_exceeds(ev("2s 2d 2c"), ev("As Ad Kc Kh Qd"))
    assert not row_exceeds(ev("As Kd Qc"), ev("As Kd Qh 3c 2d"))


def test_equal_five_card_rows_are_legal_unless_strict() -> None:
    a, b = ev("9s 8d 7c 6h 5d"), ev("9h 8s 7d 6c 5c")
    assert not row_exceeds(a, b)
    assert row_exceeds(a, b, strict=True)


def test_describe() -> None:
    assert ev("As 8d 6c").describe() == "high card A 8 6"
    assert ev("Ks Kh 4d 4c 2s").describe() == "two pair K and 4, 2"
    assert ev(WHEEL, preset("luosong")).describe() == "straight 5-high"
    assert ev("9s 9h 9d 3c 3h").describe() == "full house 9 over 3"
