"""`appui.engine`: the engine's answers, and every input error it raises as a message with its where."""

from __future__ import annotations

import copy

import pytest

from appui import engine
from tests.app.conftest import SAMPLE

ROWS = ("head", "middle", "tail")
LUOSONG = engine.ruleset("luosong", {})


def sample_table(rules: str = "luosong") -> dict:
    return {"rules": rules, "players": copy.deepcopy(SAMPLE["players"])}


def test_a_good_table_settles_zero_sum() -> None:
    out = engine.settle(sample_table())
    assert out.kind == "ok" and out.message == "" and out.foul_rows == {}
    assert out.totals == {"Seat 1": 8, "Seat 2": 4, "Seat 3": 6, "Seat 4": -18}


def test_a_card_seen_twice_names_the_card_and_where() -> None:
    table = sample_table()
    table["players"][3]["head"] = "Qs 5s 4h"  # Qs is also Seat 1's
    out = engine.settle(table)
    assert out.kind == "invalid" and out.data["error"] == "invalid"
    assert out.message.startswith("card Qs is seen 2 times") and out.message.endswith("(at Seat 4 / head)")
    assert out.data["message"] in out.message  # the engine's own sentence, with where appended


def test_a_row_of_four_names_the_seat_and_row() -> None:
    table = sample_table()
    table["players"][0]["head"] = "Qs Qh 4c 2c"
    out = engine.settle(table)
    assert out.kind == "invalid" and "head row has 4 cards, it needs 3" in out.message
    assert out.message.endswith("(at Seat 1 / head)")


@pytest.mark.parametrize(("rules", "kind"), [("luosong", "foul"), ("taiwan", "ok")])
def test_a_foul_is_refused_or_settled_as_the_rules_say(rules: str, kind: str) -> None:
    table = sample_table(rules)
    p = table["players"][3]
    p["middle"], p["tail"] = p["tail"], p["middle"]
    out = engine.settle(table)
    assert out.kind == kind and out.foul_rows == {"Seat 4": ["middle > tail"]}
    if kind == "foul":
        assert out.data["error"] == "foul" and list(out.data["suggestions"]) == ["Seat 4"]
    else:
        assert sum(out.totals.values()) == 0


def test_a_bad_token_is_quoted_with_the_notation_hint() -> None:
    parsed = engine.parse_row("As Zq 2c")
    assert parsed.cards == [] and parsed.error is not None
    assert parsed.error.startswith("“Zq” is not a card: write each card as rank then suit")


def test_cards_come_back_canonical() -> None:
    assert engine.parse_row("Qh, 10♠ td") == engine.RowParse(["Qh", "Ts", "Td"])
    assert engine.parse_row("  ") == engine.RowParse([])


def test_presets_are_the_engine_s() -> None:
    assert "luosong" in engine.PRESET_NAMES and "app" in engine.PRESET_NAMES
    assert all(engine.ruleset(name, {}) is not None for name in engine.PRESET_NAMES)


@pytest.mark.parametrize(("preset", "options"), [("nope", {}), ("luosong", {"jokers": 7})])
def test_rules_the_engine_refuses_are_none(preset: str, options: dict) -> None:
    assert engine.ruleset(preset, options) is None


def test_copies_allowed_follow_the_deck() -> None:
    jokers = engine.ruleset("luosong", {"jokers": 1})
    hearts = engine.ruleset("luosong", {"extra_suit": "h"})
    assert [engine.copies_allowed("Ah", r) for r in (LUOSONG, jokers, hearts, None)] == [1, 1, 2, 1]
    assert [engine.copies_allowed("BJ", r) for r in (LUOSONG, jokers, hearts, None)] == [0, 1, 0, 0]
    assert engine.copies_allowed("zz", LUOSONG) == 0
    assert engine.copies_allowed("As Kd", LUOSONG) == 0  # two cards are not a card


def test_arrange_gives_a_legal_layout_of_the_same_cards() -> None:
    cards = [c for r in ROWS for c in SAMPLE["players"][0][r].split()]
    rows = engine.arrange(cards, LUOSONG)
    assert rows is not None and [len(rows[r]) for r in ROWS] == [3, 5, 5]
    assert sorted(c for r in ROWS for c in rows[r]) == sorted(cards)
    table = sample_table()
    table["players"][0].update({r: " ".join(rows[r]) for r in ROWS})
    assert engine.settle(table).kind == "ok"  # the engine accepts its own suggestion


def test_arrange_of_cards_that_cannot_be_arranged_is_none() -> None:
    cards = [c for r in ROWS for c in SAMPLE["players"][0][r].split()]
    assert engine.arrange(cards[:12], LUOSONG) is None
    assert engine.arrange(cards, None) is None


def test_special_of_names_the_declarable_special() -> None:
    dragon = {r: cards.split() for r, cards in zip(ROWS, ("2s 3s 4h", "5s 6s 7s 8s 9s", "Ts Js Qs Ks As"),
                                                   strict=True)}
    assert engine.special_of(dragon, LUOSONG) == "一条龙 dragon (36)"
    assert engine.special_of({r: SAMPLE["players"][0][r].split() for r in ROWS}, LUOSONG) is None
    assert engine.special_of(dragon, None) is None
