"""Bad input of every kind: a clear `ScoringError` that says what and where, never a traceback."""

from __future__ import annotations

import json

import pytest

from scoring import CardError, RulesError, ScoringError, TableError, settle
from scoring.cli import settle_document
from tests.scoring.helpers import player, table
from tests.scoring.test_examples import SEED001_A, SEED001_B


def error_of(t: object) -> ScoringError:
    with pytest.raises(ScoringError) as info:
        settle(t)  # type: ignore[arg-type]
    answer, code = settle_document(t)
    if isinstance(t, list):  # the CLI reads a list as a list of tables, each answered in its place
        assert code == 0 and all(a["error"] == "invalid" for a in answer)
    else:
        assert code == 2 and answer == {"error": "invalid", "message": str(info.value)}
    return info.value


def test_bad_token_names_player_row_and_position() -> None:
    e = error_of(table("taiwan", SEED001_A, {**SEED001_B, "tail": "8h 7d 6s 5h 1h"}))
    assert isinstance(e, CardError)
    assert "'1h'" in str(e) and "player B" in str(e) and "tail row" in str(e) and "card 5" in str(e)
    assert (e.player, e.row, e.token) == ("B", "tail", "1h")


@pytest.mark.parametrize(("row", "cards", "count"), [
    ("head", "As 8d", 2), ("head", "As 8d 6c 7c", 4), ("middle", "Ks Kh 4d 4c", 4),
    ("tail", "9s 9h 9d 3c 3h 2c", 6), ("tail", "", 0),
])
def test_wrong_row_count(row: str, cards: str, count: int) -> None:
    e = error_of(table("taiwan", {**SEED001_A, row: cards}, SEED001_B))
    assert isinstance(e, TableError) and e.player == "A" and e.row == row
    assert f"the {row} row has {count} card" in str(e)


def test_duplicate_card_names_the_card_and_both_places() -> None:
    e = error_of(table("taiwan", SEED001_A, {**SEED001_B, "head": "Jc 6d As"}))
    assert "card As" in str(e)
    assert "player A's head row (card 1)" in str(e) and "player B's head row (card 3)" in str(e)
    e = error_of(table("taiwan", {**SEED001_A, "head": "As 8d 8d"}, SEED001_B))
    assert "card 8d" in str(e) and str(e).count("player A") == 2


def test_joker_without_jokers_and_too_many_jokers() -> None:
    e = error_of(table("taiwan", {**SEED001_A, "head": "As 8d BJ"}, SEED001_B))
    assert "joker" in str(e) and "jokers" in str(e)
    t = table("taiwan", {**SEED001_A, "head": "As 8d BJ"}, {**SEED001_B, "head": "Jc 6d SJ"},
              options={"jokers": 1})
    assert "2 jokers" in str(error_of(t))
    e = error_of(table("taiwan", {**SEED001_A, "head": "As 8d BJ"}, {**SEED001_B, "head": "Jc 6d RJ"},
                       options={"jokers": 2}))
    assert "card BJ" in str(e)


def test_unknown_preset() -> None:
    e = error_of(table("hongkong", SEED001_A, SEED001_B))
    assert isinstance(e, RulesError) and "'hongkong'" in str(e) and "luosong" in str(e)


@pytest.mark.parametrize(("options", "fragment"), [
    ({"wheeel": "low"}, "unknown option 'wheeel'"),
    ({"wheel": "high"}, "option 'wheel' must be one of"),
    ({"foul": "shrug"}, "option 'foul' must be one of"),
    ({"row_points": [1, 2]}, "three numbers"),
    ({"jokers": 3}, "0, 1 or 2"),
    ({"jokers": "two"}, "whole number"),
    ({"strict_order": "yes"}, "true or false"),
    ({"wild_rank": "Z"}, "rank like"),
    ({"extra_suit": "x"}, "s, h, d, c"),
    ({"deck": 53}, "52, 54 or 65"),
    ({"specials": {"rainbow": 5}}, "unknown special 'rainbow'"),
    ({"royalties": [{"row": "foot", "category": "quads", "points": 4}]}, "row must be one of"),
    ({"royalties": [{"row": "any", "category": "sextuple", "points": 4}]}, "unknown hand category"),
    ({"scoop_factor": 0}, "at least 1"),
])
def test_bad_options(options: dict, fragment: str) -> None:
    e = error_of(table("taiwan", SEED001_A, SEED001_B, options=options))
    assert isinstance(e, RulesError) and fragment in str(e)


@pytest.mark.parametrize(("t", "fragment"), [
    ([1, 2], "must be a JSON object"),
    ({"players": []}, "no 'rules'"),
    ({"rules": 5, "players": []}, "preset name"),
    ({"rules": "taiwan", "players": "A B"}, "needs 'players'"),
    ({"rules": "taiwan", "players": [SEED001_A]}, "2 to 5 players, not 1"),
    ({"rules": "taiwan", "players": [SEED001_A, {**SEED001_B, "name": "A"}]}, "two players are called 'A'"),
    ({"rules": "taiwan", "players": [SEED001_A, "B"]}, "player 2 must be an object"),
    ({"rules": "taiwan", "players": [SEED001_A, {"name": "B", "head": "Jc 6d 2h"}]}, "has no middle row"),
    ({"rules": "taiwan", "banker": "Z", "players": [SEED001_A, SEED001_B]}, "banker 'Z' is not one"),
    ({"rules": "taiwan", "options": [1], "players": [SEED001_A, SEED001_B]}, "'options' must be an object"),
    ({"rules": "taiwan", "player": [SEED001_A, SEED001_B]}, "unknown key 'player'"),
    ({"rules": "taiwan", "players": [SEED001_A, {**SEED001_B, "declare": "yes"}]}, "'declare' must be"),
    ({"rules": "taiwan", "players": [SEED001_A, {**SEED001_B, "tial": "x"}]}, "unknown key 'tial'"),
    ({"rules": "taiwan", "players": [SEED001_A, {**SEED001_B, "tail": 7}]}, "must be text"),
    ({"rules": "taiwan", "players": [SEED001_A, {**SEED001_B, "tail": [7, 8, 9, 1, 2]}]}, "is not text"),
])
def test_malformed_tables(t: object, fragment: str) -> None:
    assert fragment in str(error_of(t))


def test_json_text_through_the_api() -> None:
    with pytest.raises(TableError, match="malformed JSON in the input: .* line 1, column 2"):
        settle("{oops")
    text = json.dumps({"rules": "luosong", "players": [SEED001_A, SEED001_B]})
    assert settle(text).totals == {"A": 1, "B": -1}


def test_six_players_need_more_than_one_deck() -> None:
    names = "ABCDEF"
    t = {"rules": "taiwan", "players": [player(n, "As 8d 6c", "Ks Kh 4d 4c 2s", "9s 9h 9d 3c 3h")
                                        for n in names]}
    assert "2 to 5 players, not 6" in str(error_of(t))
