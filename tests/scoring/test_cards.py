"""Card notation: every accepted spelling, the canonical form, and refusals that say where."""

from __future__ import annotations

import pytest

from scoring import Card, CardError, parse_card, parse_cards
from scoring.cards import JOKERS, STANDARD_DECK, format_cards, sort_cards


@pytest.mark.parametrize(("token", "canonical"), [
    ("As", "As"), ("AS", "As"), ("as", "As"), ("A♠", "As"), ("♠A", "As"), ("A♠\ufe0f", "As"),
    ("10h", "Th"), ("10H", "Th"), ("Th", "Th"), ("th", "Th"), ("♥10", "Th"), ("10♥", "Th"), ("♡10", "Th"),
    ("2c", "2c"), ("♣2", "2c"), ("Kd", "Kd"), ("K♦", "Kd"), ("qS", "Qs"), ("jh", "Jh"), (" 9d ", "9d"),
    ("BJ", "BJ"), ("bj", "BJ"), ("SJ", "SJ"), ("sj", "SJ"), ("RJ", "BJ"), ("rj", "BJ"),
])
def test_every_notation(token: str, canonical: str) -> None:
    assert str(parse_card(token)) == canonical


def test_canonical_round_trip_for_every_card() -> None:
    for card in (*STANDARD_DECK, *JOKERS.values()):
        assert parse_card(str(card)) == card
    assert len(set(STANDARD_DECK)) == 52
    assert [str(c) for c in STANDARD_DECK[:3]] == ["As", "Ks", "Qs"]


def test_jokers_are_jokers() -> None:
    big, small = parse_card("BJ"), parse_card("SJ")
    assert big.is_joker and small.is_joker and big != small
    assert big.is_red and not small.is_red
    assert not parse_card("As").is_joker


@pytest.mark.parametrize(
    "token", ["1h", "11h", "Xs", "A", "Ax", "", "♥", "AsKh", "10", "JJ", "B", "Joker", "0s"]
)
def test_bad_tokens_are_refused_quoting_token_and_place(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token, player="B", row="middle", position=2)
    message = str(info.value)
    assert repr(token) in message
    assert "player B" in message and "middle row" in message and "card 3" in message
    assert info.value.player == "B" and info.value.row == "middle" and info.value.token == token


def test_non_text_token() -> None:
    with pytest.raises(CardError, match="not text"):
        parse_card(7)  # type: ignore[arg-type]


def test_parse_cards_text_and_lists() -> None:
    assert format_cards(parse_cards("As 10h ♥9, 8d;BJ")) == "As Th 9h 8d BJ"
    assert format_cards(parse_cards(["As", "10h", Card(9, "h")])) == "As Th 9h"
    assert parse_cards("") == []
    with pytest.raises(CardError, match=r"'Zz' \(player A, tail row, card 2\)"):
        parse_cards("As Zz", player="A", row="tail")
    with pytest.raises(CardError, match="must be text"):
        parse_cards(42)  # type: ignore[arg-type]


def test_sort_cards_high_to_low_spades_first() -> None:
    assert format_cards(sort_cards(parse_cards("2c As SJ Ah Td"))) == "SJ As Ah Td 2c"
