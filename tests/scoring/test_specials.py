"""Each special hand RULES.md names: detection, value, declaring, and how pairs with them settle."""

from __future__ import annotations

import pytest

from scoring import best_special, evaluate, preset, settle
from scoring.cards import parse_cards
from scoring.specials import detect_specials
from tests.scoring.helpers import player, table

SHI = preset("shisanshui")


def rows_of(head: str, middle: str, tail: str) -> dict[str, list]:
    return {"head": parse_cards(head), "middle": parse_cards(middle), "tail": parse_cards(tail)}


def special_of(head: str, middle: str, tail: str, rules=SHI):
    """(key, points) of the special declared, or None; and the keys of every special detected."""
    rows = rows_of(head, middle, tail)
    values = {k: evaluate(v, rules) for k, v in rows.items()}
    best = best_special(rows, values, rules)
    found = {sp.key for sp in detect_specials(rows, values, rules)}
    return (None if best is None else (best.key, best.points)), found


@pytest.mark.parametrize(("rows", "special", "points"), [
    (("As Kh Qd", "Jc Ts 9h 8d 7c", "6s 5h 4d 3c 2s"), "dragon", 36),
    (("As Ks Qs", "Js Ts 9s 8s 7s", "6s 5s 4s 3s 2s"), "supreme_dragon", 72),
    (("2h 7h 9h", "3c 5c 8c Tc Kc", "2s 4s 6s 9s Js"), "three_flushes", 5),
    (("2d 3c 4h", "4s 5d 6c 7h 8s", "9d Tc Jh Qs Kd"), "three_straights", 5),
    (("Ah 2d 3c", "4s 5d 6c 7h 8s", "9d Tc Jh Qs Qd"), None, None),  # tail not a straight
    (("Qh Kd Ac", "4s 5d 6c 7h 8s", "9d Tc Jh Qs Kh"), "three_straights", 5),  # Q-K-A head
    (("As Ad 2c", "Ks Kd Qs Qd 9h", "Js Jd Ts Td 9s"), "six_pairs", 5),
    (("As Ad Ah", "Ks Kd Kh Jc 4c", "Qs Qd Qh Jd Js"), "four_trips", 5),
    (("As Ad Ah", "Ac Kd Kh Ks Jc", "Qs Qd Qh Jd Js"), "four_trips", 5),  # quads: trips + single
    (("As Ks Qs", "9s 7s 5s 3s Ac", "Kc 8c 6c 4c 2c"), "same_color", 5),
])
def test_each_special(rows: tuple[str, str, str], special: str | None, points: int | None) -> None:
    best, _ = special_of(*rows)
    assert best == (None if special is None else (special, points))


def test_six_pairs_counts_trips_as_pair_plus_single() -> None:
    _, found = special_of("As Ad Ah", "Ks Kd Qs Qd 9h", "Js Jd Ts Td 9s")
    assert "six_pairs" in found


def test_a_supreme_dragon_is_also_a_dragon_and_pays_the_higher() -> None:
    best, found = special_of("As Ks Qs", "Js Ts 9s 8s 7s", "6s 5s 4s 3s 2s")
    assert {"dragon", "supreme_dragon", "three_flushes", "same_color"} <= found
    assert best == ("supreme_dragon", 72)


def test_only_the_dragon_in_the_other_presets() -> None:
    rows = ("As Ad 2c", "Ks Kd Qs Qd 9h", "Js Jd Ts Td 9s")  # six pairs
    assert special_of(*rows, rules=preset("taiwan"))[0] is None
    assert special_of("As Kh Qd", "Jc Ts 9h 8d 7c", "6s 5h 4d 3c 2s", rules=preset("taiwan"))[0] == (
        "dragon", 25)


def test_dragon_value_is_an_option() -> None:
    rules = preset("shisanshui", specials={"dragon": 30})
    assert special_of("As Kh Qd", "Jc Ts 9h 8d 7c", "6s 5h 4d 3c 2s", rules=rules)[0] == ("dragon", 30)


def test_wild_cards_block_every_special_but_six_of_a_kind() -> None:
    r = preset("shisanshui", jokers=2)
    # a dragon with a joker standing for the king: not declarable
    assert special_of("As BJ Qd", "Jc Ts 9h 8d 7c", "6s 5h 4d 3c 2s", rules=r)[0] is None
    six = special_of("As Ad Ah", "Ac BJ SJ 3c 4c", "Qs Qd Qh Jd Js", rules=r)[0]
    assert six == ("six_of_a_kind", 20)
    wild6 = preset("shisanshui", wild_rank="6")
    assert special_of("6s 6d 6h", "6c Kd Ks 3c 4c", "Qs Qd Kh Kc Js", rules=wild6)[0] == (
        "six_of_a_kind", 20)


def test_one_suit_in_the_five_player_game() -> None:
    five = preset("shisanshui", extra_suit="s")
    best, found = special_of("As As Ks", "Ks Qs Qs Js Js", "Ts Ts 9s 9s 8s", rules=five)
    assert "one_suit" in found and best == ("one_suit", 30)
    # hearts are not the added suit: all hearts is only 清一色 (and three flushes)
    assert "one_suit" not in special_of("Ah Kh Qh", "Jh Th 9h 8h 7h", "6h 5h 4h 3h 3h",
                                              rules=five)[1]


# ---------------------------------------------------------------- settling specials

NORMAL = player("B", "Qc Jh 2h", "Kc Kh 4h 4c 8d", "Ac Ah 7c 7d 7h")
SIX_PAIRS = player("A", "As Ad 2c", "Js Jd Ts Td 9h", "Ks Kd Qs Qd 9s")


def test_special_wins_its_value_and_nothing_else() -> None:
    s = settle(table("shisanshui", SIX_PAIRS, NORMAL))
    assert s.totals == {"A": 5, "B": -5}
    assert [i.kind for i in s.pairs[0].items] == ["special"]
    assert s.specials == {"A": "six_pairs"}


def test_declare_false_plays_a_normal_hand() -> None:
    s = settle(table("shisanshui", {**SIX_PAIRS, "declare": False}, NORMAL))
    assert s.specials == {}
    assert [i.kind for i in s.pairs[0].items][:3] == ["row", "row", "row"]


def test_declare_true_without_a_special_plays_normally() -> None:
    s = settle(table("shisanshui", SIX_PAIRS, {**NORMAL, "declare": True}))
    assert s.totals == {"A": 5, "B": -5}


def test_higher_special_wins_its_value_equal_ones_tie() -> None:
    dragon = player("B", "Ac Kh Qh", "Jc Th 9c 8c 7c", "6c 5c 4c 3c 2h")
    s = settle(table("shisanshui", SIX_PAIRS, dragon))
    assert s.totals == {"A": -36, "B": 36}
    also_six_pairs = player("B", "Ac Ah 3h", "Kc Kh 3c 4c 4h", "Qc Qh 8h 8d 6c")
    s = settle(table("shisanshui", SIX_PAIRS, also_six_pairs))
    assert s.totals == {"A": 0, "B": 0}


def test_special_hand_is_not_subject_to_the_foul_check() -> None:
    # six pairs laid out with the head above the middle: still a special under reject
    fouled_layout = player("A", "As Ad 2c", "Ks Qd Js 9d 9h", "Kd Qs Jd Ts Td")
    s = settle(table("shisanshui", fouled_layout, NORMAL))
    assert not s.rejected and s.totals == {"A": 5, "B": -5}
    s = settle(table("shisanshui", {**fouled_layout, "declare": False}, NORMAL))
    assert s.rejected and s.fouls == {"A": ["head > middle"]}


def test_special_beats_a_fouled_hand_by_its_value() -> None:
    fouled = player("B", "Ac Ah Kh", "Qc Jh 4h 3c 8d", "Kc Qh 7d 6c 5h")
    s = settle(table("weighted", SIX_PAIRS, fouled, options={"specials": {"six_pairs": 5}}))
    assert s.totals == {"A": 5, "B": -5}
