"""A deck that prints its index in all four corners: each fanned card shows two indices along its left
edge, a row's last card four. Every extra corner folds into its card (`vision.geometry.four_corners`):
seats read exactly as with a two-corner deck, and a two-corner deck never folds."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.layouts import build_table, detections
from tests.vision.table_checks import assert_exact, renamed
from vision.classes import CLASS_NAMES
from vision.geometry import read_table
from vision.geometry.config import GeometryConfig
from vision.geometry.four_corners import _card_axes, _corners_of, fold_extra_corners, shows_four_corners
from vision.geometry.parts import SeatFrame, _Card
from vision.types import Detection


@pytest.mark.parametrize("n, first, head_far", [(1, 0.0, True), (1, 90.0, False), (2, 30.0, True),
                                                (4, 0.0, [True, False, True, False]), (4, 12.0, False),
                                                (5, 0.0, True)])
@pytest.mark.parametrize("row_gap", [0.75, 1.05])
def test_four_corner_tables_read_exactly(n, first, head_far, row_gap):
    """Every seat and row right and no problem, the rows apart (bottom-left corners of every row
    showing) or overlapped (only the nearest row's); five seats too, whose 65 cards show a name twice
    where the added suit's two copies are two cards."""
    scene = build_table(n, seed=3, first_orientation=first, head_far=head_far, jitter=0.01, tilt=0.03,
                        row_gap=row_gap, four_corners=True)
    dets = detections(scene, seed=4)
    shown = sum(ix["visible"] for c in scene["cards"] for ix in c["indices"])
    assert len(dets) == shown > 13 * n + 3 * n  # the extra corners are there to fold
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert_exact(scene, tr)
    for s in tr.seats:  # a card keeps all its boxes (drawn on the photo), at most four
        assert sum(len(c.boxes) for c in s.cards) == sum(
            ix["visible"] for c in scene["cards"] if c["seat"] == (-s.seat) % n for ix in c["indices"])


def test_a_four_corner_deck_is_told_from_its_reads():
    """Names read at three corners of one card, at a right angle: the deck prints four; a two-corner
    deck's table (one card at most twice) and its corner diagonals, however parallel, do not."""
    four = build_table(4, seed=3, jitter=0.01, tilt=0.03, four_corners=True)
    two = build_table(4, seed=3, jitter=0.01, tilt=0.03)
    assert shows_four_corners(detections(four, seed=4), CFG)
    assert not shows_four_corners(detections(two, seed=4), CFG)
    # one name at three corners of a card is enough (a photo of one hand shows one or two)
    assert shows_four_corners([_det("7h", 0, 0), _det("7h", 50, 0), _det("7h", 0, 80)], CFG)
    # three reads of a name in a line, at a right angle of two equal sides (not a card's), or
    # beyond a card's reach are not a card's corners
    line = [_det("9h", 400, 0), _det("9h", 400, 80), _det("9h", 400, 160)]
    square = [_det("Th", 600, 0), _det("Th", 680, 0), _det("Th", 600, 80)]
    far = [_det("Jh", 800, 0), _det("Jh", 1000, 0), _det("Jh", 800, 300)]
    assert not shows_four_corners(line + square + far, CFG)


def _both_copies_in_seat_zero(scene: dict, rows_down: int, places_right: int) -> dict:
    """The scene with a spade of seat 0 also dealt, as its second copy, `rows_down` rows below and
    `places_right` places right of it in the same hand (the card there goes where that copy was)."""
    cards, rows = scene["cards"], ["head", "middle", "tail"]
    for c in cards:
        r = rows.index(c["row"]) + rows_down
        if c["seat"] != 0 or not c["card"].endswith("s") or r > 2:
            continue
        copy_at = next(j for j, o in enumerate(cards) if o["card"] == c["card"] and o["seat"] != 0)
        there = next((j for j, o in enumerate(cards) if o["seat"] == 0 and o["row"] == rows[r]
                      and o["position"] == c["position"] + places_right and not o["card"].endswith("s")),
                     None)
        if there is not None:
            return renamed(renamed(scene, [there], c["card"]), [copy_at], cards[there]["card"])
    raise AssertionError("no such spade")


@pytest.mark.parametrize("seed", [4, 6])
@pytest.mark.parametrize("rows_down, places_right", [(1, 0), (0, 1), (0, 2)])
@pytest.mark.parametrize("told", [None, "s"])
def test_both_copies_in_one_hand_read_exactly(seed, rows_down, places_right, told):
    """A five-seat four-corner table whose hand holds both copies of a spade (the 65's added suit):
    one above the other in neighbouring rows, side by side, or a card apart. Each copy is a card of
    its own, read exactly and without a problem, told the added suit or not."""
    scene = _both_copies_in_seat_zero(build_table(5, seed=seed, jitter=0.01, tilt=0.03, four_corners=True),
                                      rows_down, places_right)
    tr = read_table(detections(scene, seed=4), width=scene["width"], height=scene["height"], extra_suit=told)
    assert_exact(scene, tr)


@pytest.mark.parametrize("angles, four", [(1, False), (2, False), (3, True)])
def test_a_full_table_needs_a_share_of_its_names_at_three_corners(angles, four):
    """Of 52 names, one or two read at a card's three corners are copies of the 65-card deck by
    chance; a four-corner deck shows every row's last card so (one name in 13)."""
    names = [n for n in CLASS_NAMES if n not in ("BJ", "SJ")]
    dets = [_det(n, 300.0 * i, 0.0) for i, n in enumerate(names)]
    for i in range(angles):
        x = 300.0 * i
        dets += [_det(names[i], x + 50, 0.0), _det(names[i], x, 80.0)]
    assert shows_four_corners(dets, CFG) is four


@pytest.mark.parametrize("suit, four", [("h", False), ("s", True)])
def test_the_65s_added_suit_makes_no_four_corner_deck(suit, four):
    """A two-corner 65-card table reads every heart twice (two copies): three hearts whose copies'
    corners happen to make a card's right angle say nothing of the design, the same angles on three
    spades (held once) do."""
    names = [n for n in CLASS_NAMES if n not in ("BJ", "SJ")]
    hearts = [n for n in names if n.endswith("h")]
    dets = [_det(n, 300.0 * i, 0.0) for i, n in enumerate(names)]
    dets += [_det(n, 300.0 * i, 2000.0) for i, n in enumerate(hearts)]  # the second copies
    for n in [n for n in names if n.endswith(suit)][:3]:
        x = 300.0 * names.index(n)
        dets += [_det(n, x + 50, 0.0), _det(n, x, 80.0)]
    assert shows_four_corners(dets, CFG) is four


def test_one_seat_whose_repeats_fall_in_one_suit_is_still_a_four_corner_deck():
    """Found by `test_any_layout_read_exactly`: one seat, its head laid nearest the player, shows its
    head's bottom-left corners and its rows' last cards' top-right ones, clubs but one: the reads look
    like the 65's added suit read twice. The 6c shows all four corners, a rectangle no two copies
    make: the deck prints four corners, and the seat reads exactly with nothing to check."""
    scene = build_table(1, seed=2, spacing=0.5, row_gap=0.5, head_far=[False], jitter=0.01, four_corners=True)
    tr = read_table(detections(scene, seed=2), width=scene["width"], height=scene["height"])
    assert_exact(scene, tr)  # no problem raised either

def test_two_corner_tables_are_not_folded(monkeypatch):
    """A two-corner deck's table never reaches the fold, whatever its repeats."""
    calls = []
    monkeypatch.setattr("vision.geometry.place.fold_extra_corners", lambda *a: calls.append(a) or False)
    scene = build_table(4, seed=5, jitter=0.01, tilt=0.03, row_gap=1.05)
    tr = read_table(detections(scene, seed=6, misread=0.05), width=scene["width"], height=scene["height"])
    assert tr.seats and calls == []


def test_without_the_fold_the_same_reads_are_wrong(monkeypatch):
    """The fold is what reads them: with it off, the bottom-left corners make cards of their own."""
    scene = build_table(4, seed=3, jitter=0.01, tilt=0.03, four_corners=True)
    dets = detections(scene, seed=4)
    monkeypatch.setattr("vision.geometry.place.fold_extra_corners", lambda *a: False)
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert tr.problems


def _det(card: str, x: float, y: float, p: float = 0.9) -> Detection:
    return Detection(card, (x - 5, y - 10, x + 5, y + 10), p)


FRAME = SeatFrame(right=np.array([1.0, 0.0]), down=np.array([0.0, 1.0]), orientation_deg=0.0)
CFG = GeometryConfig()


@pytest.mark.parametrize("reads, top_left, bottom_right, extra", [
    # index height 20: top-left at (0, 0), the card ~2.5 wide and ~4 tall in index heights
    ([(0, 0), (0, 80)], 0, None, [1]),                       # top-left, bottom-left
    ([(0, 80), (0, 0)], 1, None, [0]),                       # in any order
    ([(0, 0), (50, 0), (50, 80), (0, 80)], 0, 2, [1, 3]),    # a row's last card: all four
    ([(0, 15), (50, 0), (52, 95), (2, 95)], 0, 2, [1, 3]),   # sheared: the top-right lies higher
    ([(0, 0), (50, 80)], 0, 1, []),                          # a two-corner card: nothing to fold
    # a narrow card, its diagonal 22 degrees off its long side: the top-right read's width tells the
    # bottom-right (more than half as far right) from the bottom-left
    ([(0, 0), (60, 2), (43, 107), (-12, 107)], 0, 2, [1, 3]),
])
def test_corners_are_told_by_direction(reads, top_left, bottom_right, extra):
    dets = [_det("7h", x, y) for x, y in reads]
    c = _corners_of(dets, FRAME, CFG)
    assert c is not None
    assert c.top_left is dets[top_left]
    assert c.bottom_right is (None if bottom_right is None else dets[bottom_right])
    assert c.extra == [dets[i] for i in extra]


@pytest.mark.parametrize("reads", [
    [(0, 0), (-40, 60)],              # down and to the left: no corner of the card lies there
    [(0, 0), (0, 400)],               # far below: another card, not this one's corner
    [(0, 0), (50, 80), (60, 90)],     # two bottom-rights
])
def test_reads_off_the_card_are_not_folded(reads):
    assert _corners_of([_det("7h", x, y) for x, y in reads], FRAME, CFG) is None


def test_card_axes_found_from_the_pairs_whatever_the_rows_say():
    """Cards turned 30 degrees from the frame: the axes come from the corner pairs, the longer pairs
    (top-left to bottom-left) giving `down`, pointing the frame's way."""
    t = np.radians(30.0)
    right, down = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    groups = []
    for k, card in enumerate(["2c", "3c", "4c"]):
        tl = np.array([100.0 * k, 0.0])
        groups.append([_det(card, *tl), _det(card, *(tl + 80 * down))])
    tl = np.array([400.0, 0.0])
    groups.append([_det("5c", *tl), _det("5c", *(tl + 50 * right))])
    axes = _card_axes(groups, FRAME)
    assert axes is not None
    assert axes.down == pytest.approx(down, abs=1e-6)
    assert axes.right == pytest.approx(right, abs=1e-6)



def test_card_axes_of_a_foreshortened_seat_follow_its_frame():
    """A far seat seen at a slant: its cards' top-left to bottom-left pairs (60 px) look shorter than
    their top-left to top-right ones (66 px). Lengths that close do not tell the card's long side;
    the seat's own frame does, whichever axis more pairs lie along."""
    groups = [[_det(card, 100.0 * k, 0.0), _det(card, 100.0 * k, 60.0)]
              for k, card in enumerate(["2c", "3c"])]
    groups += [[_det(card, 300.0 + 100.0 * k, 0.0), _det(card, 366.0 + 100.0 * k, 0.0)]
               for k, card in enumerate(["4c", "5c", "6c"])]
    axes = _card_axes(groups, FRAME)
    assert axes is not None
    assert axes.down == pytest.approx(FRAME.down, abs=1e-6)
    assert axes.right == pytest.approx(FRAME.right, abs=1e-6)


def test_card_axes_of_a_seat_seen_at_a_slant_meet_off_square():
    """A side seat near the photo's edge, tilted away: its cards' sides meet at 75 degrees, not 90.
    More of its pairs run along the cards' short side than their long side; the long side is found
    where its pairs lie, not at a right angle to the short side, and gives `down`."""
    t = np.radians(15.0)
    slanted = np.array([np.cos(t), np.sin(t)])  # the short side, opened 15 degrees
    groups = [[_det(card, 100.0 * k, 0.0), _det(card, 100.0 * k, 80.0)]
              for k, card in enumerate(["2c", "3c"])]
    tops = [np.array([300.0 + 100.0 * k, 0.0]) for k in range(3)]
    groups += [[_det(card, *tl), _det(card, *(tl + 50 * slanted))]
               for card, tl in zip(["4c", "5c", "6c"], tops, strict=True)]
    axes = _card_axes(groups, FRAME)
    assert axes is not None
    assert axes.down == pytest.approx(FRAME.down, abs=1e-6)
    assert axes.right == pytest.approx(FRAME.right, abs=1e-6)


def _cards(reads: list[tuple[str, float, float]]) -> list[_Card]:
    return [_Card(n, 0.9, [d.box], [np.array(d.center)], None, dets=[d])
            for n, x, y in reads for d in [_det(n, x, y)]]


def test_one_extra_corner_is_a_misread_not_a_design():
    """A single name read straight below itself folds nothing: a two-corner deck's repeat."""
    cards = _cards([("7h", 0, 0), ("7h", 0, 80), ("8h", 30, 0), ("9h", 60, 0)])
    g = list(range(len(cards)))
    assert not fold_extra_corners(cards, g, FRAME, CFG)
    assert g == [0, 1, 2, 3] and not any(c.gone for c in cards)


def test_folded_cards_keep_their_evidence():
    """Two names each read at two corners: one card each, the extra corner's box kept, the rest gone."""
    cards = _cards([("7h", 0, 0), ("7h", 0, 80), ("8h", 30, 0), ("8h", 30, 80), ("9h", 60, 0)])
    g = list(range(len(cards)))
    assert fold_extra_corners(cards, g, FRAME, CFG)
    assert sorted(cards[i].card for i in g) == ["7h", "8h", "9h"]
    folded = [cards[i] for i in g if cards[i].folded]
    assert [len(c.read().boxes) for c in folded] == [2, 2]
    assert all(len(c.points) == 1 for c in folded)  # the top-left is the card's anchor
    assert sum(c.gone for c in cards) == 2


@pytest.mark.parametrize("twice, second_bl, cards_of_7h", [
    (frozenset({"7h"}), (0, 320), [2, 2]),       # the 65's added suit: two copies, one card each
    (frozenset(), (0, 320), [1, 1, 1, 1]),       # one copy: no card shows all four, nothing folds
    (frozenset({"7h"}), (40, 300), [1, 1, 1, 1]),  # no copy's bottom-left lies there
])
def test_two_copies_in_one_hand_fold_into_a_card_each(twice, second_bl, cards_of_7h):
    """Both copies of a card of the 65's added suit dealt to one hand, two rows apart: its four reads
    lie on no one card's corners, but on two cards' as the seat's other cards show theirs."""
    cards = _cards([("2c", 100, 0), ("2c", 100, 80), ("3c", 130, 0), ("3c", 130, 80),
                    ("7h", 0, 0), ("7h", 0, 80), ("7h", 0, 240), ("7h", *second_bl)])
    g = list(range(len(cards)))
    assert fold_extra_corners(cards, g, FRAME, CFG, twice)
    sevens = sorted(len(cards[i].read().boxes) for i in g if cards[i].card == "7h")
    assert sevens == cards_of_7h
    assert sum(len(cards[i].read().boxes) for i in g) == 8  # every read kept, as a corner or a card


@pytest.mark.parametrize("twice, cards_of_7h", [(frozenset({"7h"}), [1, 1]), (frozenset(), [2])])
def test_copies_a_row_apart_are_not_one_cards_corners(twice, cards_of_7h):
    """The two copies of an added-suit card in neighbouring rows, one straight above the other, their
    bottom-left corners under the next row: their top-left reads lie as one card's top-left and
    bottom-left would, but a row (6 index heights) apart where the seat's cards are 4 tall. A card the
    deck holds once is one card, whatever its shape."""
    cards = _cards([("2c", 100, 0), ("2c", 100, 80), ("3c", 130, 0), ("3c", 130, 80),
                    ("7h", 0, 0), ("7h", 0, 120)])
    g = list(range(len(cards)))
    assert fold_extra_corners(cards, g, FRAME, CFG, twice)
    assert sorted(len(cards[i].read().boxes) for i in g if cards[i].card == "7h") == cards_of_7h


@pytest.mark.parametrize("between, qs, cards_of_qs", [
    ([("Jc", 30, 0), ("Jc", 30, 80)], [(60, 0), (60, 80)], [2, 2]),
    ([("Jc", 30, 0)], [(60, 0), (60, 80)], [2, 2]),  # the Jc's bottom-left under the next row
    ([("Jc", 30, 0)], [(60, 0)], [1, 2]),            # and the second Qs's: not one card's top-right
    ([], [(60, 0), (60, 80)], [4]),
])
def test_copies_apart_in_a_row_are_not_one_cards_four_corners(between, qs, cards_of_qs):
    """Both copies of Qs in one row, a Jc fanned between them: their reads lie as one card's
    corners would, but the Jc lies over where that card's right-hand corners are. Without a card
    between, the four reads are one card's, as a row's last card shows them."""
    reads = [("2c", 300, 0), ("2c", 300, 80), ("3c", 330, 0), ("3c", 330, 80),
             ("Qs", 0, 0), ("Qs", 0, 80)] + [("Qs", x, y) for x, y in qs]
    cards = _cards(reads + between)
    g = list(range(len(cards)))
    assert fold_extra_corners(cards, g, FRAME, CFG, frozenset({"Qs"}))
    assert sorted(len(cards[i].read().boxes) for i in g if cards[i].card == "Qs") == cards_of_qs


def test_a_four_corner_table_whose_clubs_read_as_spades_still_seats_four():
    """Every club of a four-corner deck read as the spade of its rank (a strange deck's club pip): the
    table shows 39 names, three seats' worth, yet its cards lie in four seats. The seat counts tried
    reach one beyond the names' estimate, and four seats place the reads better than three."""
    scene = build_table(4, seed=3, jitter=0.01, tilt=0.03, four_corners=True)
    for i, c in enumerate(scene["cards"]):
        if c["card"].endswith("c"):
            scene = renamed(scene, [i], c["card"][0] + "s")
    assert len({c["card"] for c in scene["cards"]}) == 39
    tr = read_table(detections(scene, seed=4), width=scene["width"], height=scene["height"])
    assert len(tr.seats) == 4


@pytest.mark.parametrize(("seed", "suit", "read_as"),
                         [(4, "c", "h"), (4, "d", "h"), (6, "c", "s"), (6, "d", "h")])
def test_a_five_seat_four_corner_table_that_reads_four_seats_of_names_seats_five(seed, suit, read_as):
    """A five-seat four-corner table (the 65 cards) with a suit read as another shows 39 names, three
    seats' worth, and four seats' cards would place them nearly as well: every count of seats up to five
    is tried, and five place every card."""
    scene = build_table(5, seed=seed, jitter=0.01, tilt=0.03, four_corners=True)
    for i, c in enumerate(scene["cards"]):
        if c["card"].endswith(suit):
            scene = renamed(scene, [i], c["card"][0] + read_as)
    assert len({c["card"] for c in scene["cards"]}) == 39
    tr = read_table(detections(scene, seed=4), width=scene["width"], height=scene["height"])
    assert [len(s.head) + len(s.middle) + len(s.tail) for s in tr.seats] == [13] * 5
