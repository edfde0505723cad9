"""Preset `app` at the table (RULES.md "Preset `app`"): row values by the winner's category, the
打枪 x2 and 全垒打 x4 arithmetic written out, specials between players, 相公 refused, and the CLI."""

from __future__ import annotations

import io
import json
import sys

import pytest

from scoring import Category, Foul, TableError, Wheel, cli, preset, settle
from tests.scoring.helpers import player, table

APP = preset("app")


def test_the_preset_facts() -> None:
    assert (APP.wheel, APP.foul, APP.strict_order, APP.jokers, APP.banker) == (
        Wheel.SECOND, Foul.REJECT, False, 0, None)
    assert (APP.scoop_factor, APP.home_run_factor, APP.home_run_min_players, APP.max_players) == (2, 2, 4, 4)
    assert APP.royalties == ()
    head = [APP.row_win_points("head", c) for c in (Category.TRIPS, Category.PAIR, Category.HIGH_CARD)]
    middle = [APP.row_win_points("middle", c) for c in (
        Category.STRAIGHT_FLUSH, Category.QUADS, Category.FULL_HOUSE, Category.FLUSH, Category.PAIR)]
    tail = [APP.row_win_points("tail", c) for c in (
        Category.STRAIGHT_FLUSH, Category.QUADS, Category.FULL_HOUSE, Category.FLUSH)]
    assert (head, middle, tail) == ([3, 1, 1], [10, 8, 2, 1, 1], [5, 4, 1, 1])


def _rows(s, a: str, b: str) -> list[tuple[str, str | None, int]]:
    (pair,) = [p for p in s.pairs if set(p.players) == {a, b}]
    return [(i.row, i.winner, i.points) for i in pair.items if i.kind == "row"]


def test_row_values_and_the_scoop_doubling() -> None:
    # A: trips 7 | full house 8s over 2s | quads 9; B: pair K | two pair | flush.
    a = player("A", "7s 7h 7d", "8s 8h 8d 2c 2d", "9s 9h 9d 9c 3c")
    b = player("B", "Ks Kh 4c", "Qs Qh Jd Jc 5s", "Ah Th 6h 5h 4h")
    s = settle(table("app", a, b))
    # head trips 3 + middle full house 2 + tail quads 4 = 9; all three won: 打枪 x2 = 18
    assert _rows(s, "A", "B") == [("head", "A", 3), ("middle", "A", 2), ("tail", "A", 4)]
    assert [(i.kind, i.points) for i in s.pairs[0].items if i.kind == "scoop"] == [("scoop", 9)]
    assert s.totals == {"A": 18, "B": -18}


def test_middle_straight_flush_and_tail_straight_flush() -> None:
    # A: trips 3 | straight flush 5-9 | royal flush; B: pair K | two pair | flush.
    a = player("A", "3c 3d 3h", "5s 6s 7s 8s 9s", "Th Jh Qh Kh Ah")
    b = player("B", "Kc Kd 2s", "Qs Qc Jd Jc 4c", "Ac Tc 8c 6c 2c")
    s = settle(table("app", a, b))
    # 3 + 10 + 5 = 18, scooped: 36
    assert _rows(s, "A", "B") == [("head", "A", 3), ("middle", "A", 10), ("tail", "A", 5)]
    assert s.totals == {"A": 36, "B": -36}


def test_middle_quads_tail_straight_flush_and_a_lost_head_no_scoop() -> None:
    a = player("A", "2c 3h 5h", "9s 9h 9d 9c 4s", "Ts Js Qs Ks As")
    b = player("B", "Ac Ad 6c", "8c 8d 8h Kc Kd", "7d 6d 5d 4d 3d")
    s = settle(table("app", a, b))
    # B's pair of aces wins the head: 1; A: middle quads 8 + tail straight flush 5; no scoop: 13 - 1
    assert _rows(s, "A", "B") == [("head", "B", 1), ("middle", "A", 8), ("tail", "A", 5)]
    assert [i.kind for i in s.pairs[0].items] == ["row", "row", "row"]
    assert s.totals == {"A": 12, "B": -12}


def test_a_tail_full_house_scores_one() -> None:
    a = player("A", "Ks Kh 2c", "4s 5h 6d 7c 8s", "Ts Th Td 3s 3h")
    b = player("B", "Qs Jh 9c", "As Ad Qc Qd 2d", "Jd 9d 8d 5d 4d")
    s = settle(table("app", a, b))
    # pair 1 + straight 1 + tail full house 1 = 3, scooped: 6
    assert _rows(s, "A", "B") == [("head", "A", 1), ("middle", "A", 1), ("tail", "A", 1)]
    assert s.totals == {"A": 6, "B": -6}


# A scoops B and C; D is 六对半 (or, not declaring, two pair / two pair and scooped too).
HR_A = player("A", "Ac Ad 8c", "Kc Kd Ks 8h 8d", "Qc Qd Qh Qs 2c")   # pair A | full house | quads
HR_B = player("B", "Jc Td 3c", "Jd Jh 9s 9h 2d", "Ts Th 6c 6d Tc")
HR_C = player("C", "Kh Js 3d", "As Ah 9d 8s 4d", "7d 7c 5d 5c 4c")
HR_D = player("D", "2s 2h 9c", "3s 3h 4s 4h 5s", "5h 6s 6h 7s 7h")


def test_home_run_is_x4_at_four_players_only() -> None:
    # A against each: pair 1 + full house 2 + quads 4 = 7 a pair, every row won
    d_rows = {**HR_D, "declare": False}
    two = settle(table("app", HR_A, HR_B))
    assert two.totals["A"] == 7 * 2                                           # 打枪 x2
    three = settle(table("app", HR_A, HR_B, HR_C))
    assert [p.net["A"] for p in three.pairs if "A" in p.players] == [14, 14]  # no 全垒打 at three
    four = settle(table("app", HR_A, HR_B, HR_C, d_rows))
    assert [p.net["A"] for p in four.pairs if "A" in p.players] == [28, 28, 28]  # 7 x4 each
    assert four.totals["A"] == 84 and sum(four.totals.values()) == 0
    for p in four.pairs:
        if "A" in p.players:
            assert [(i.kind, i.points) for i in p.items if i.kind in ("scoop", "home_run")] == [
                ("scoop", 7), ("home_run", 14)]
    # the option "also with 3 players"
    three_hr = settle(table("app", HR_A, HR_B, HR_C, options={"home_run_min_players": 3}))
    assert [p.net["A"] for p in three_hr.pairs if "A" in p.players] == [28, 28]


def test_a_special_at_the_table_makes_a_home_run_impossible() -> None:
    # A's rows against each: pair 1 + full house 2 + quads 4 = 7, 打枪 14
    s = settle(table("app", HR_A, HR_B, HR_C, HR_D))
    assert s.specials == {"D": "six_pairs"}
    net = {frozenset(p.players): p.net for p in s.pairs}
    assert net[frozenset("AB")]["A"] == 14 and net[frozenset("AC")]["A"] == 14
    assert net[frozenset("AD")] == {"A": -4, "D": 4}           # a special is never scooped
    assert all(i.kind != "home_run" for p in s.pairs for i in p.items)
    assert all([i.kind for i in p.items] == ["special"] for p in s.pairs if "D" in p.players)
    # D plays its rows instead: A scoops all three, 全垒打: 7 x2 x2 = 28 from each
    s = settle(table("app", HR_A, HR_B, HR_C, {**HR_D, "declare": False}))
    assert [p.net["A"] for p in s.pairs if "A" in p.players] == [28, 28, 28]


ROYALS = player("A", "As Ah Ad", "Ac Ks Kh Kd Kc", "Qs Qh Qd Js Jh")     # 十二皇族
ORDINARY = player("B", "2c 3d 5h", "6s 6h 9c Tc 4d", "7s 7h 8d 8c 2d")


def test_a_special_against_an_ordinary_hand_wins_its_value() -> None:
    s = settle(table("app", ROYALS, ORDINARY))
    assert s.totals == {"A": 24, "B": -24}
    (item,) = s.pairs[0].items
    assert (item.kind, item.winner, item.points) == ("special", "A", 24)
    assert item.detail == "A: 十二皇族 twelve royals (24)"


STRAIGHT_FLUSHES = player("A", "9h Th Jh", "2s 3s 4s 5s 6s", "7d 8d 9d Td Jd")  # 三同花顺 20
THREE_QUADS = player("B", "As Ah Ad", "Ac Ks Kh Kd Kc", "Qs Qh Qd Qc 2c")     # 三分天下 20
ALL_BIG = player("A", "As Ah Ad", "Ks Kh Kd Qs Qh", "Jc Jd Tc 9d 8c")          # 全大 10
ONE_COLOR = player("B", "Js Ts 9s", "7s 6s 5s 4s 2s", "Ac Kc Qc 9c 7c")        # 凑一色 10
ALL_SMALL = player("B", "2s 2h 3d", "3c 4s 5h 6d 7c", "8s 8h 7d 6c 5s")        # 全小 10


@pytest.mark.parametrize(("a", "b", "a_net", "words"), [
    (STRAIGHT_FLUSHES, THREE_QUADS, 20,
     "A: 三同花顺 three straight flushes (20) beats B's 三分天下 three quads (20)"),
    (ALL_BIG, ONE_COLOR, 10, "A: 全大 all big (10) beats B's 凑一色 one color (10)"),
    (ALL_BIG, ALL_SMALL, 10, "A: 全大 all big (10) beats B's 全小 all small (10)"),
])
def test_of_two_equal_valued_specials_the_higher_in_the_order_wins(a, b, a_net: int, words: str) -> None:
    s = settle(table("app", a, b))
    assert s.totals == {"A": a_net, "B": -a_net}
    assert [i.detail for i in s.pairs[0].items] == [words]


def test_the_higher_special_wins_its_own_value() -> None:
    # three_flushes made worth 50 stays below 三分天下 in the order: B wins 20, not 50
    flushes = player("A", "2h 7h 9h", "3d 5d 8d Td Jd", "3s 4s 6s 9s Js")       # 三同花 (one way)
    s = settle(table("app", flushes, THREE_QUADS, options={"specials": {"three_flushes": 50}}))
    assert s.specials == {"A": "three_flushes", "B": "three_quads"} and s.totals == {"A": -20, "B": 20}
    s = settle(table("app", flushes, THREE_QUADS))
    assert s.totals == {"A": -20, "B": 20}


def test_the_same_special_ties() -> None:
    six = player("A", "As Ah Ks", "Kh Qs Qh Js Jh", "9s 9h 5d 5c 3h")          # 六对半
    other_six = player("B", "Ad Ac Kd", "Kc Qd Qc Jd Jc", "9d 9c 6d 6c 3c")    # 六对半
    s = settle(table("app", six, other_six))
    assert s.totals == {"A": 0, "B": 0}
    assert [(i.kind, i.points) for i in s.pairs[0].items] == [("special", 0)]


def test_a_seed_preset_still_ties_equal_values() -> None:
    # shisanshui ranks by value: 三顺子 5 against 六对半 5 is a tie there (not in `app`'s order)
    straights = player("A", "2d 3c 4h", "4s 5d 6c 7h 8s", "9d Tc Jh Qs Kd")
    pairs = player("B", "As Ad 2c", "Js Jd Ts Td 9h", "Ks Kh Qh Qd 9s")
    assert settle(table("shisanshui", straights, pairs)).totals == {"A": 0, "B": 0}
    assert settle(table("app", straights, pairs)).totals == {"A": -4, "B": 4}  # 六对半 4 is above 三顺子


def test_a_fouled_hand_is_refused_with_a_legal_suggestion() -> None:
    fouled = player("C", "Ac Ah Kh", "Qc Jh 4h 3c 8s", "Kc Qh 7d 6c 5s")
    s = settle(table("app", ORDINARY, fouled))
    assert s.rejected and s.fouls == {"C": ["head > middle"]} and set(s.suggestions) == {"C"}


def test_app_takes_two_to_four_players() -> None:
    five = [player(f"P{i}", "2c 3c 4c", "5c 6c 7c 8c 9c", "Tc Jc Qc Kc Ac") for i in range(5)]
    with pytest.raises(TableError, match="2 to 4 players"):
        settle(table("app", *five))


def test_cli_settles_an_app_table(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(table("app", ROYALS, ORDINARY))))
    code = cli.main(["settle", "-"])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    result = json.loads(out.out)
    assert result["totals"] == {"A": 24, "B": -24}
    assert result["pairs"][0]["items"] == [
        {"kind": "special", "winner": "A", "points": 24, "detail": "A: 十二皇族 twelve royals (24)"}]


def test_cli_arrange_and_check_take_app(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["arrange", "Th 4s Jd 9h 2s 9d Jh 3s 8d Td 5s 7d 6s", "--rules", "app", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "app" and out["arrangements"][0]["special"] == "three_straight_flushes"
    assert cli.main(["check", "2c 3d 5h | 6s 6h 9c Tc 4d | 7s 7h 8d 8c 2d", "--rules", "app", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
