"""One deck, one copy: `fix_with_deck` names all the cards read at once so the deck holds each card as
often as it exists, by the most probable reading (the summed log scores)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import CLASS_INDEX, NUM_CLASSES
from vision.geometry.deck import FalseReadSlots, added_suit, deck_capacity, fix_with_deck
from vision.geometry.parts import _Card


def card(scores: dict[str, float] | None, name: str | None = None) -> _Card:
    """A card read with these class scores (the rest share what is left); its name is the top one."""
    if scores is None:
        return _Card(name or "", 0.9, [(0, 0, 1, 1)], [np.zeros(2)], None)
    s = np.full(NUM_CLASSES, (1 - sum(scores.values())) / (NUM_CLASSES - len(scores)), np.float32)
    for k, v in scores.items():
        s[CLASS_INDEX[k]] = v
    top = max(scores, key=scores.get)
    return _Card(top, scores[top], [(0, 0, 1, 1)], [np.zeros(2)], s)


@pytest.mark.parametrize(("reads", "deck", "expected"), [
    # no conflict: every card keeps its top class, whatever its runner-up
    ([{"Ks": 0.55, "Kc": 0.40}, {"Qh": 0.9}], 52, ["Ks", "Qh"]),
    # two reads of Ks: the surer keeps it, the other takes its own runner-up
    ([{"Ks": 0.55, "Kc": 0.40}, {"Ks": 0.95}], 52, ["Kc", "Ks"]),
    # the surer claim wins even when it comes second
    ([{"Ks": 0.95}, {"Ks": 0.55, "Kc": 0.40}], 52, ["Ks", "Kc"]),
    # A's runner-up is held by a surer read too: A loses both (a false read the seat may leave out)
    ([{"Ks": 0.6, "Kc": 0.35}, {"Ks": 0.97}, {"Kc": 0.9}, {"7c": 0.5, "7s": 0.45}], 52,
     [None, "Ks", "Kc", "7c"]),
    # two decks (65 cards: every card twice): two reads of Ks are both allowed
    ([{"Ks": 0.55, "Kc": 0.40}, {"Ks": 0.95}], 65, ["Ks", "Ks"]),
])
def test_the_most_probable_reading_that_the_deck_allows(reads, deck, expected) -> None:
    cards = [card(r) for r in reads]
    fix_with_deck(cards, deck)
    got = [c.card for c in cards]
    assert [g if e is not None else None for g, e in zip(got, expected, strict=True)] == expected
    assert all(g not in ("Ks", "Kc") for g, e in zip(got, expected, strict=True) if e is None)


def test_a_renamed_card_says_what_it_was_read_as_and_how_sure() -> None:
    a, b = card({"Ks": 0.55, "Kc": 0.40}), card({"Ks": 0.95})
    changed, false = fix_with_deck([a, b], 52)
    assert changed == [a] and false == []
    assert (a.card, a.changed_from) == ("Kc", "Ks")
    assert a.confidence == pytest.approx(0.40)
    assert b.changed_from is None


def test_cards_without_scores_hold_their_class() -> None:
    typed = card(None, "Ks")  # a card the user typed in, or read without scores
    read = card({"Ks": 0.9, "Kc": 0.05})
    fix_with_deck([typed, read], 52)
    assert (typed.card, read.card) == ("Ks", "Kc")


@pytest.mark.parametrize(("deck", "extra_suit", "ks", "kh", "joker"),
                         [(52, None, 1, 1, 1), (54, None, 1, 1, 1), (65, None, 2, 2, 0), (65, "s", 2, 1, 0),
                          (65, "h", 1, 2, 0), (104, None, 2, 2, 1), (108, None, 2, 2, 2)])
def test_deck_capacity(deck: int, extra_suit: str | None, ks: int, kh: int, joker: int) -> None:
    """65 cards: 52 and a fifth copy of one suit, no jokers; that suit twice once it is known."""
    cap = deck_capacity(deck, extra_suit)
    assert (cap["Ks"], cap["Kh"], cap["BJ"]) == (ks, kh, joker)


@pytest.mark.parametrize(("names", "deck", "want"), [
    (["2h", "2h", "5h", "5h", "9h", "9h", "Kh", "Kh", "3c"], 65, "h"),
    (["2h", "2h", "5h", "5h", "9h", "9h", "Kh", "Kh"], 52, None),                 # one deck: no suit added
    (["2h", "2h", "5h", "5h", "9h", "9h"], 65, None),                             # too few to tell
    (["2h", "5h", "9h"], 65, None), ([], 65, None),                               # nothing read twice
    (["2h", "2h", "5h", "5h", "9h", "9h", "Kh", "Kh", "2c", "2c", "3c", "3c", "4c", "4c"], 65, None),  # alike
    (["2h", "2h", "5h", "5h", "9h", "9h", "Kh", "Kh", "2c", "2c", "BJ", "BJ"], 65, "h"),
])
def test_added_suit_is_the_one_read_twice(names, deck, want) -> None:
    assert added_suit(names, deck) == want


def test_a_sure_misread_is_not_renamed_onto_a_card_read_right_elsewhere() -> None:
    """A read sure of 3c where 3c is held (a card typed in) must be renamed, and it gives every other
    card next to nothing: Tc a millionth, the rest a tenth of that. Those tails are noise
    (`NO_OPINION`): taking Tc for them would push the right read of Tc onto its runner-up Td. It
    takes a card no read claims instead, and the other reads keep their names."""
    misread = card({"3c": 0.99999, "Tc": 1e-6})
    held, tc = card(None, "3c"), card({"Tc": 0.6, "Td": 0.39})
    changed, false = fix_with_deck([misread, held, tc], 52)
    assert changed == [misread] and false == []
    assert (held.card, tc.card) == ("3c", "Tc")
    assert misread.card not in ("3c", "Tc", "Td") and misread.changed_from == "3c"


def test_with_the_added_suit_known_a_misread_of_another_suit_is_fixed() -> None:
    """Two reads of Kd at a 65-card table whose added suit is spades: one Kd too many, so the less
    sure one takes its runner-up; with the suit unknown every card may appear twice and both stand."""
    def reads():
        return [card({"Kd": 0.95}), card({"Kd": 0.6, "Kh": 0.35})]

    unknown = reads()
    assert fix_with_deck(unknown, 65) == ([], []) and [c.card for c in unknown] == ["Kd", "Kd"]
    known = reads()
    changed, false = fix_with_deck(known, 65, extra_suit="s")
    assert [c.card for c in known] == ["Kd", "Kh"] and changed == [known[1]] and false == []


def test_a_seat_that_must_give_up_a_card_prefers_its_over_full_row_unless_a_repeat_says_otherwise():
    """A seat of 14 (`FalseReadSlots.must`): of equally sure reads, one of its over-full row goes;
    but a read that repeats a surer card elsewhere goes even outside that row, rather than being
    renamed to an unlikely card."""
    seat = [card({name: 0.9}) for name in ("2c", "3c", "4c", "5c")]
    row_long = seat[:2]  # the over-full row's cards
    slots = FalseReadSlots({id(c) for c in seat}, 1, True, {id(c) for c in row_long})
    _, false = fix_with_deck(seat, 52, [slots])
    assert len(false) == 1 and false[0] in row_long
    assert [c.card for c in seat] == ["2c", "3c", "4c", "5c"]

    repeat = card({"Ks": 0.8, "Kc": 0.001})
    elsewhere = card({"Ks": 0.95})
    seat = [*[card({name: 0.9}) for name in ("2c", "3c")], repeat]
    slots = FalseReadSlots({id(c) for c in seat}, 1, True, {id(seat[0]), id(seat[1])})
    changed, false = fix_with_deck([*seat, elsewhere], 52, [slots])
    assert false == [repeat] and changed == [] and elsewhere.card == "Ks"


@pytest.mark.parametrize(("corner", "card_read", "elsewhere", "named"), [
    # a second corner misread as a card another seat holds, giving its own card 0.1: folded, the card
    # keeps its name
    ({"6h": 0.8, "3s": 0.1}, {"3s": 0.9}, {"6h": 0.95}, "3s"),
    # a top-left index misread as a card held elsewhere (6c 0.59, 6s 0.17), its second corner read
    # surely as 6s: one card, named by both reads
    ({"6s": 0.86, "6c": 0.07}, {"6c": 0.59, "6s": 0.17}, {"6c": 0.9}, "6s"),
])
def test_a_folded_corner_names_its_card_with_it(corner, card_read, elsewhere, named) -> None:
    r, c, other = card(corner), card(card_read), card(elsewhere)
    changed, false = fix_with_deck([r, c, other], 52, folds=[(r, c)])
    assert false == [r]
    assert (c.card, other.card) == (named, next(iter(elsewhere)))


def test_without_the_fold_the_misread_top_left_is_renamed_away() -> None:
    """The second case above with no fold offered: the second corner stays a card of its own (6s), and
    the top-left index, losing 6c to the surer read, becomes some card no read supports."""
    r, c, other = card({"6s": 0.86, "6c": 0.07}), card({"6c": 0.59, "6s": 0.17}), card({"6c": 0.9})
    changed, false = fix_with_deck([r, c, other], 52)
    assert false == [] and r.card == "6s" and c.card not in ("6s", "6c")


def test_two_sure_reads_of_two_cards_do_not_fold_into_a_rename() -> None:
    """Reads of 3d and 3s in corner positions, each sure of its own card (a four-corner deck's other
    corners), and a third read giving 3s 0.6: folding the 3d into the 3s and naming both 3d frees the 3s
    for the third read, a gain under `FOLD_RENAME`, what a fold costs more where it renames its card;
    so both stay cards, and the third read takes its runner-up."""
    r, c, other = card({"3d": 0.63, "3s": 0.05}), card({"3s": 0.66, "3d": 0.3}), card({"3s": 0.6, "5s": 0.2})
    changed, false = fix_with_deck([r, c, other], 52, folds=[(r, c)])
    assert false == [] and (r.card, c.card, other.card) == ("3d", "3s", "5s")
