"""Every worked example of RULES.md and the seed rulebooks, by preset."""

from __future__ import annotations

import pytest

from scoring import settle
from tests.scoring.helpers import player, table

# RULES.md "Worked example (seed 001's own)"
SEED001_A = player("A", "As 8d 6c", "Ks Kh 4d 4c 2s", "9s 9h 9d 3c 3h")
SEED001_B = player("B", "Jc 6d 2h", "Qs Qh Qd 7c 5s", "8h 7d 6s 5h 4h")


@pytest.mark.parametrize(
    ("rules", "net"), [("luosong", 1), ("taiwan", 1), ("shisanshui", 1), ("weighted", 2)]
)
def test_seed001_a_b_example(rules: str, net: int) -> None:
    s = settle(table(rules, SEED001_A, SEED001_B))
    assert s.totals == {"A": net, "B": -net}
    rows = [(i.row, i.winner) for i in s.pairs[0].items if i.kind == "row"]
    assert rows == [("head", "A"), ("middle", "B"), ("tail", "A")]


# A scoops everyone (no royalties, no specials): the 打枪 / 全垒打 arithmetic of seeds 000, 003, 004.
SCOOPER = player("A", "Ks Kh 2c", "As Qs 9s 7s 3s", "Ah Ad Ac 4h 4d")
WEAK_B = player("B", "Jd 8h 3c", "Qh Td 6c 5s 2h", "Kd Jc 9h 7d 4c")
WEAK_C = player("C", "Jh 9d 2s", "Qd Tc 8c 6h 3d", "Kc Ts 8d 7c 5d")
WEAK_D = player("D", "Js 8s 3h", "Qc Th 9c 7h 2d", "6s 6d 5h 5c 4s")


@pytest.mark.parametrize(("rules", "scoop", "home_run"),
                         [("weighted", 12, 72), ("luosong", 6, 36), ("taiwan", 6, 36), ("shisanshui", 6, 36)])
def test_scoop_and_home_run_arithmetic(rules: str, scoop: int, home_run: int) -> None:
    two = settle(table(rules, SCOOPER, WEAK_B))
    assert two.totals["A"] == scoop  # 打枪: weighted 6 rows x2 = 12; luosong 3 x2 = 6
    kinds = [i.kind for i in two.pairs[0].items]
    assert "scoop" in kinds and "home_run" not in kinds  # no home run with 2 players
    four = settle(table(rules, SCOOPER, WEAK_B, WEAK_C, WEAK_D))
    assert four.totals["A"] == home_run  # 全垒打: weighted 72 (24 each), luosong 36 (12 each)
    for pair in four.pairs:
        if "A" in pair.players:
            assert pair.net["A"] == home_run // 3
            assert [i.kind for i in pair.items if i.kind in ("scoop", "home_run")] == ["scoop", "home_run"]
    assert sum(four.totals.values()) == 0


def test_seed004_home_run_is_3x2x2() -> None:
    s = settle(table("shisanshui", SCOOPER, WEAK_B, WEAK_C, WEAK_D))
    assert all(p.net["A"] == 3 * 2 * 2 for p in s.pairs if "A" in p.players)


# Seed 001 衝三: A's head is trips; A would win +6 +1 +1, with the royalty (+3 from each) +9 +4 +4.
CHONG_A = player("A", "7s 7h 7d", "8s 8h 8d 2c 3c", "9s 9h 9d 4c 4d")
CHONG_B = player("B", "4s 3d 6c", "5d 5c 2s 2d 7c", "As Js 6s 5s 3s")
CHONG_C = player("C", "Ks Qd 5h", "Td Jc Qh Kd Ah", "Ts Jh Qs Kc Ad")
CHONG_D = player("D", "Jd 6d 2h", "Kh Th 6h 4h 3h", "Ac Qc Tc 9c 8c")


def test_seed001_chong_san_9_4_4() -> None:
    s = settle(table("taiwan", CHONG_A, CHONG_B, CHONG_C, CHONG_D))
    nets = {p.players[1]: p.net["A"] for p in s.pairs if p.players[0] == "A"}
    assert nets == {"B": 9, "C": 4, "D": 4}
    royalty = [i for p in s.pairs for i in p.items if i.kind == "royalty"]
    assert {(i.winner, i.loser, i.points, i.row) for i in royalty} == {
        ("A", "B", 3, "head"), ("A", "C", 3, "head"), ("A", "D", 3, "head")}


def test_chong_san_on_win_is_paid_only_by_the_beaten() -> None:
    # luosong: +3 on_win: A's head beats every head, so every opponent pays it here too
    s = settle(table("luosong", CHONG_A, CHONG_B, CHONG_C, CHONG_D))
    nets = {p.players[1]: p.net["A"] for p in s.pairs if p.players[0] == "A"}
    assert nets == {"B": 6 + 3, "C": 1 + 3, "D": 1 + 3}


DRAGON = player("A", "As Kh Qd", "Jc Ts 9h 8d 7c", "6s 5h 4d 3c 2s")
REST_B = player("B", "7h 5s 4c", "Ac Kc Js 9c 8s", "Ad Jd 7d 3d 2d")
REST_C = player("C", "5c 3s 2c", "Td Tc 9s 7s 6c", "Ah Jh 8h 6h 3h")
REST_D = player("D", "6d 5d 2h", "Th 9d 8c 4s 4h", "Ks Kd Qs Qh Qc")


def test_seed001_dragon_75() -> None:
    s = settle(table("taiwan", DRAGON, REST_B, REST_C, REST_D))
    assert s.totals["A"] == 75  # 25 from each of three
    for p in s.pairs:
        if "A" in p.players:
            assert [i.kind for i in p.items] == ["special"]
            assert p.net["A"] == 25
    assert s.specials == {"A": "dragon"}


@pytest.mark.parametrize(("rules", "each"), [("luosong", 36), ("weighted", 36), ("shisanshui", 36)])
def test_dragon_36_from_each(rules: str, each: int) -> None:
    s = settle(table(rules, DRAGON, REST_B, REST_C, REST_D))
    assert s.totals["A"] == 3 * each  # seed 000: 108 from three


def test_seed001_foul_pays_6_to_each() -> None:
    fouled_b = player("B", "Qh Td 6c", "Jd 8h 3c 5s 2h", "Kd Jc 9h 7d 4c")  # head Q-high > middle J-high
    s = settle(table("taiwan", SCOOPER, fouled_b, WEAK_C, WEAK_D))
    assert s.fouls == {"B": ["head > middle"]}
    assert s.totals["B"] == -18
    for p in s.pairs:
        if "B" in p.players:
            assert p.net["B"] == -6
            assert [i.kind for i in p.items] == ["foul"]
    # no one is scooped by a penalty, so A makes no home run: 6 + 6 (two scoops) + 6 penalty
    assert s.totals["A"] == 6 + 6 + 6
    assert s.to_json()["fouls"] == ["B"]
