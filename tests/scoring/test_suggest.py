"""The fallback arranger behind 相公 rejections: a legal layout of exactly the same 13 cards."""

from __future__ import annotations

import json
import random

import pytest

from scoring import TableError, evaluate, parse_cards, preset, settle, suggest_arrangement
from scoring.cards import sort_cards
from scoring.suggest import fallback_arrangement
from scoring.validity import is_legal, out_of_order
from tests.scoring.helpers import GOLDEN, deck


def check(cards, rules, arranger=suggest_arrangement) -> None:
    head, middle, tail = arranger(cards, rules)
    assert (len(head), len(middle), len(tail)) == (3, 5, 5)
    assert sort_cards([*head, *middle, *tail]) == sort_cards(parse_cards(cards))
    values = {"head": evaluate(head, rules), "middle": evaluate(middle, rules), "tail": evaluate(tail, rules)}
    assert is_legal(values, rules), out_of_order(values, rules)


ARRANGERS = pytest.mark.parametrize("arranger", [suggest_arrangement, fallback_arrangement])


@ARRANGERS
def test_text_input(arranger) -> None:
    check("2c 3d 4h 5s 7c 9d Jh Ks Kh Kd Ac Ad 8s", preset("luosong"), arranger)


def test_fallback_takes_the_best_tail_first() -> None:
    head, middle, tail = fallback_arrangement("2c 3d 4h 5s 7c 9d Jh Ks Kh Kd Ac Ad 8s", preset("luosong"))
    assert " ".join(map(str, tail)) == "Ad Ac Ks Kh Kd"  # full house K over A, rows sorted high to low


@pytest.mark.parametrize("options", [{}, {"strict_order": True}, {"jokers": 2}, {"deck": 65},
                                     {"wild_rank": "6"}])
@ARRANGERS
def test_random_hands_get_legal_arrangements(options: dict, arranger) -> None:
    rules = preset("shisanshui", options)
    rng = random.Random(13)
    for _ in range(4):
        cards = deck(rules.jokers, rules.extra_suit)
        rng.shuffle(cards)
        check(cards[:13], rules, arranger)


@ARRANGERS
def test_strict_order_with_equal_rows_searches_on(arranger) -> None:
    # greedy gives two equal straights (tail and middle); under strict_order that is a foul
    cards = "9s 8d 7c 6h 5d 9h 8s 7d 6c 5c 2d 2h 3h"
    check(cards, preset("luosong", strict_order=True), arranger)


@ARRANGERS
def test_wrong_number_of_cards(arranger) -> None:
    with pytest.raises(TableError, match="13 cards"):
        arranger("As Ks", preset("luosong"))


def test_golden_rejections_get_legal_suggestions() -> None:
    if not GOLDEN.exists():
        pytest.skip(f"golden tables not found at {GOLDEN}")
    for case in json.loads(GOLDEN.read_text(encoding="utf-8")):
        if "error" not in case["expected"]:
            continue
        s = settle(case["table"])
        players = {p["name"]: p for p in case["table"]["players"]}
        for name, arrangement in s.suggestions.items():
            p = players[name]
            given = " ".join(p[r] for r in ("head", "middle", "tail"))
            laid = [*arrangement.head, *arrangement.middle, *arrangement.tail]
            assert sort_cards(laid) == sort_cards(parse_cards(given))
            values = {r: evaluate(getattr(arrangement, r), s.rules) for r in ("head", "middle", "tail")}
            assert is_legal(values, s.rules)
