"""Cards no sure read shows: inferred on a full table, faint and unsure reads, orphans."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.layouts import build_table, detections, without_cards
from tests.vision.table_checks import but_unseen_alike, got, read_seat, renamed, truth_as_read
from vision.classes import CLASS_INDEX, SUIT_SIGNS
from vision.geometry import read_table
from vision.types import Detection, ReadCard, SeatRead


def test_missing_card_on_full_table_inferred_by_elimination():
    scene = build_table(4, seed=10)
    gone = scene["cards"][7]
    dets = [d for d in detections(scene) if not any(d.box == pytest.approx(tuple(ix["box"]))
                                                    for ix in gone["indices"])]
    tr = read_table(dets)
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.row, p.card) for p in but_unseen_alike(tr)] == [
        ("inferred", read_seat(gone["seat"], 4), gone["row"], gone["card"])]


@pytest.mark.parametrize("pick", [(2, "middle", 1), (4, "middle", 2), (0, "head", 1)])
def test_missing_card_on_full_five_seat_table_inferred_by_elimination(pick):
    """Five seats of a 65-card deck (52 and the spades again, as the reads show) hold every card: the
    one no seat shows, of the added suit or not, is inferred where its row lacks it."""
    scene = build_table(5, seed=12)
    gone, dets = without_cards(scene, {pick})
    tr = read_table(dets)
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.row, p.card) for p in but_unseen_alike(tr)] == [
        ("inferred", read_seat(pick[0], 5), pick[1], gone[0]["card"])]


def test_unseen_cards_of_one_row_on_a_full_table_are_inferred_there():
    """Two cards of one middle row hidden (a chip over them): the two cards no seat shows can only be
    that row's, so the seat reads exactly, each inferred card flagged."""
    scene = build_table(4, seed=10)
    gone, dets = without_cards(scene, {(2, "middle", 1), (2, "middle", 3)})
    tr = read_table(dets)
    assert got(tr) == truth_as_read(scene)
    assert sorted((p.kind, p.seat, p.row, p.card) for p in tr.problems) == sorted(
        ("inferred", read_seat(2, 4), "middle", c["card"]) for c in gone)


@pytest.mark.parametrize("picks", [
    {(2, "middle", 1), (2, "tail", 3)},  # two rows short: which card is whose is not known
    {(2, "middle", 1), (1, "middle", 3)},  # two seats short
])
def test_unseen_cards_of_two_rows_are_not_guessed(picks):
    scene = build_table(4, seed=10)
    gone, dets = without_cards(scene, picks)
    tr = read_table(dets)
    assert not any(p.kind == "inferred" for p in tr.problems)
    placed = {c.card for s in tr.seats for c in s.cards}
    assert placed.isdisjoint(c["card"] for c in gone)
    assert sum(len(s.cards) for s in tr.seats) == 50


def _faint_at(card: dict, weights: dict[str, float]) -> Detection:
    """A faint read on `card`'s top-left index: background to the namer, its card scores `weights`
    (the rest spread thin)."""
    s = np.full(54, 1e-4, np.float32)
    for name, w in weights.items():
        s[CLASS_INDEX[name]] = w
    s /= s.sum()
    top = max(weights, key=weights.get)
    return Detection(top, tuple(card["indices"][0]["box"]), float(s.max()), s)


def test_a_faint_read_names_the_unseen_card_it_resembles_and_elimination_the_rest():
    """Two cards hidden in two seats' rows: which goes where is not known from the counts. A faint
    read on one spot ranks an on-table card first, but of the two unseen cards it resembles one far
    more: that one goes there, the other to the row left short, both flagged."""
    scene = build_table(4, seed=10)
    gone, dets = without_cards(scene, {(2, "middle", 1), (1, "tail", 3)})
    here = next(c for c in gone if c["seat"] == 2)
    other = next(c for c in gone if c["seat"] == 1)
    on_table = next(c["card"] for c in scene["cards"] if c not in gone)
    faint = _faint_at(here, {on_table: 0.5, here["card"]: 0.02, other["card"]: 0.001})
    tr = read_table(dets, faint=[faint])
    assert got(tr) == truth_as_read(scene)
    assert sorted((p.kind, p.seat, p.row, p.card) for p in tr.problems) == sorted(
        ("inferred", read_seat(c["seat"], 4), c["row"], c["card"]) for c in gone)


def test_a_faint_read_that_resembles_no_unseen_card_more_than_others_places_nothing():
    scene = build_table(4, seed=10)
    gone, dets = without_cards(scene, {(2, "middle", 1), (1, "tail", 3), (0, "head", 0)})
    faint = _faint_at(gone[0], {c["card"]: 0.01 for c in gone})
    tr = read_table(dets, faint=[faint])
    assert not any(p.kind == "inferred" for p in tr.problems)
    assert sum(len(s.cards) for s in tr.seats) == 49


def test_a_faint_read_whose_likeliest_card_a_surer_one_took_is_weighed_among_the_rest():
    """Three cards hidden in three seats' rows. The faint read on the middle seat's spot is sure of
    its card; the one on the tail's gives that card a half share too, the card that is its own 0.3
    and the third 0.2. Once the surer read has taken the first card, the second is weighed among the
    two left (0.6 against 0.4) and named its own card, and the third card goes by elimination to the
    one row left short: the table reads whole."""
    scene = build_table(4, seed=10)
    gone, dets = without_cards(scene, {(2, "middle", 1), (1, "tail", 3), (0, "head", 0)})
    x, y, z = (next(c for c in gone if c["seat"] == k) for k in (2, 1, 0))
    sure = _faint_at(x, {x["card"]: 0.9, y["card"]: 0.05})
    doubtful = _faint_at(y, {x["card"]: 0.5, y["card"]: 0.3, z["card"]: 0.2})
    tr = read_table(dets, faint=[doubtful, sure])
    assert got(tr) == truth_as_read(scene)
    assert sorted((p.kind, p.seat, p.row, p.card) for p in but_unseen_alike(tr)) == sorted(
        ("inferred", read_seat(c["seat"], 4), c["row"], c["card"]) for c in gone)


def test_low_confidence_and_orphans_are_reported():
    scene = build_table(1, seed=11)
    dets = detections(scene)
    d0 = dets[0]
    dets[0] = Detection(d0.card, d0.box, 0.3, d0.scores)
    far = Detection("BJ", (5000.0, 5000.0, 5020.0, 5022.0), 0.9)
    tr = read_table([*dets, far])
    kinds = [p.kind for p in tr.problems]
    assert "low_confidence" in kinds and "orphan" in kinds
    low = next(p for p in tr.problems if p.kind == "low_confidence")
    assert low.seat == 0 and low.row in ("head", "middle", "tail")
    assert [o.card for o in tr.orphans] == ["BJ"]


def _without(dets, card):
    """The detections minus the boxes of one scene card, and that card's top-left index box."""
    boxes = [tuple(ix["box"]) for ix in card["indices"]]
    kept = [d for d in dets if not any(d.box == pytest.approx(b) for b in boxes)]
    return kept, boxes[0]


def test_an_unsure_read_fills_the_row_that_lacks_a_card_and_is_flagged():
    """A card read only under the namer's bar, where its seat's middle row lacks a card, is taken into
    that row and flagged; unsure reads elsewhere (on a full seat, off every row, the other corner of
    a card read) are not taken."""
    scene = build_table(2, seed=12)
    gone = next(c for c in scene["cards"] if c["seat"] == 1 and c["row"] == "middle" and c["position"] == 2)
    dets, tl = _without(detections(scene), gone)
    x1, y1, x2, y2 = tl
    full = next(c for c in scene["cards"] if c["seat"] == 0 and c["row"] == "middle" and c["position"] == 2)
    fx1, fy1, fx2, fy2 = full["indices"][0]["box"]
    shifted = (fx1 + 0.6 * (fx2 - fx1), fy1, fx2 + 0.6 * (fx2 - fx1), fy2)  # between two cards of seat 0
    unsure = [Detection(gone["card"], tl, 0.4),
              Detection("BJ", shifted, 0.5),  # on a full seat's row: no card lacks there
              Detection("SJ", (9000.0, 9000.0, 9010.0, 9022.0), 0.55)]  # a chip far from every seat
    plain = read_table(dets)
    assert ("seat_count", read_seat(1, 2), None) in {(p.kind, p.seat, p.row) for p in plain.problems}
    tr = read_table(dets, unsure=unsure)
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.row, p.card) for p in tr.problems] == [
        ("low_confidence", read_seat(1, 2), "middle", gone["card"])]
    assert tr.orphans == []


def test_an_unsure_read_of_a_read_cards_other_corner_adds_no_card():
    """The tail lacks a card, and the middle row's last card shows its bottom-right index (hidden in a
    real fan, so the namer was unsure of it) on the tail's line: that is the card's second corner,
    a card diagonal from its read, not the card missing."""
    scene = build_table(1, seed=13)
    gone = next(c for c in scene["cards"] if c["row"] == "tail" and c["position"] == 2)
    dets, _ = _without(detections(scene), gone)
    last = next(c for c in scene["cards"] if c["row"] == "middle" and c["position"] == 4)
    br = tuple(last["indices"][1]["box"])
    tr = read_table([d for d in dets if d.box != pytest.approx(br)],
                    unsure=[Detection(last["card"], br, 0.45)])
    assert sum(len(s.cards) for s in tr.seats) == 12
    assert ("seat_count", 0, None) in {(p.kind, p.seat, p.row) for p in tr.problems}


@pytest.mark.parametrize(("card", "box", "taken"), [
    # a box shifted half off a read card's: each holds the other's centre, that index read again
    ("9c", (10.0, 5.0, 50.0, 25.0), True),
    # a box on its pip: inside the read card's box, which it does not hold the centre of
    ("9c", (38.0, 8.0, 48.0, 18.0), True),
    # the next card's index in a tight fan, up and to the left: it holds the read card's centre but
    # not the other way round, and overlaps it less than the detector's dedupe calls one index
    ("9c", (-5.0, -12.0, 35.0, 11.0), False),
    # the next card's index of a sideways seat under tilt: its centre 27 px from the read's, under half
    # the read's 60 px longer side, yet outside its box and the box around it: a card of its own
    ("9c", (20.0, 25.0, 60.0, 45.0), False),
    # a read card's other corner: the same name a card diagonal away
    ("Ks", (120.0, 100.0, 180.0, 120.0), True),
    # the same place, another name: a card of its own
    ("9c", (120.0, 100.0, 180.0, 120.0), False),
])
def test_an_unsure_read_is_one_read_already_only_where_the_boxes_say_so(card, box, taken):
    from vision.geometry.config import GeometryConfig
    from vision.geometry.fill import _taken
    from vision.geometry.parts import _Card

    read = _Card("Ks", 0.9, [(0.0, 0.0, 60.0, 20.0)], [np.array([30.0, 10.0])], None)
    assert _taken([read], card, Detection(card, box, 0.4), GeometryConfig()) is taken


def test_a_card_read_surely_a_row_off_goes_where_its_unsure_index_read_completes_the_hand():
    """A joker's art read surely as the joker lies on the tail's line, between two tail cards (the
    seat reads 3/4/6); the joker's own index, on the middle row where a card lacks, is read only
    unsurely. One card, two reads: it goes where the hand comes out 3/5/5, unflagged (both reads name
    it); with the unsure read away, nothing but the count puts a tail card in the middle: the rows
    are cut 3/5/5 by count (`recut`) and the card moved is flagged there."""
    scene = build_table(1, seed=13)
    joker = next(c for c in scene["cards"] if c["row"] == "middle" and c["position"] == 2)
    dets, tl = _without(detections(scene), joker)
    tails = sorted((c for c in scene["cards"] if c["row"] == "tail"), key=lambda c: c["position"])
    a, b = (np.array(tails[k]["indices"][0]["box"], float) for k in (1, 2))
    art = Detection(joker["card"], tuple(float(v) for v in (a + b) / 2), 0.97)
    tr = read_table([*dets, art], unsure=[Detection(joker["card"], tl, 0.41)])
    assert got(tr) == truth_as_read(scene)
    assert tr.problems == []
    alone = read_table([*dets, art])
    assert [(p.kind, p.row) for p in alone.problems] == [("row_by_count", "middle")]


def test_a_five_seat_table_with_a_seat_out_of_the_photo_is_read_whole_when_told_its_deck():
    """Four seats in view of a five-seat table: told the added suit (the app's five-player setting),
    the spades read twice are the deck's second copies and every seat reads whole; told nothing, four
    seats play 52, and the repeats are flagged rather than taken on trust."""
    scene = build_table(5, seed=12)
    gone, dets = without_cards(scene, {(3, r, p) for r, n in (("head", 3), ("middle", 5), ("tail", 5))
                                 for p in range(n)})
    assert len(gone) == 13
    truth = sorted(sorted(c["card"] for c in scene["cards"] if c["seat"] == k) for k in (0, 1, 2, 4))
    told = read_table(dets, extra_suit=_added_suit(scene))
    assert len(told.seats) == 4
    assert not [p for p in told.problems if p.kind in ("changed", "false_read", "duplicate")]
    assert sorted(sorted(c.card for c in s.cards) for s in told.seats) == truth
    untold = read_table(dets)
    assert {p.seat for p in untold.problems if p.seat is not None} == {
        s.seat for s in untold.seats if sorted(c.card for c in s.cards) not in truth}
    hint = [p for p in untold.problems if p.kind == "added_suit"]
    assert len(hint) == 1 and hint[0].seat is None
    assert SUIT_SIGNS[_added_suit(scene)] in hint[0].message and "five-player" in hint[0].message


def _added_suit(scene) -> str:
    """The suit a 65-card scene deals twice."""
    names = [c["card"] for c in scene["cards"]]
    return next(n[-1] for n in names if names.count(n) == 2)


def test_clubs_misread_as_spades_on_four_seats_are_flagged_not_taken_for_the_65():
    """A four-seat table whose strange deck has five clubs read as spades shows the spades twice, as a
    five-player deck would: it is still the 52, so every repeat is acted on and flagged, and no seat
    is left wrong without a problem naming it."""
    scene = build_table(4, seed=10)
    clubs = [i for i, c in enumerate(scene["cards"]) if c["card"].endswith("c")][:5]
    misread = scene
    for i in clubs:
        misread = renamed(misread, [i], scene["cards"][i]["card"][0] + "s")
    tr = read_table(detections(misread))
    assert tr.extra_suit is None
    assert sum(p.kind == "changed" for p in tr.problems) >= len(clubs)
    assert [p.message.split(" cards")[0] for p in tr.problems if p.kind == "added_suit"] == ["5 ♠"]
    truth = truth_as_read(scene)
    wrong = {seat for (seat, row), cards in got(tr).items() if truth.get((seat, row)) != cards}
    assert wrong <= {p.seat for p in tr.problems}


def test_a_read_in_no_seat_repeating_a_seated_card_is_no_card_and_leaves_the_unseen_one_free():
    """A card of a full table hidden, and in a corner of the photo, far from every seat, a blob the
    namer reads surely as a card a seat holds (nothing else close behind): it is left out as a false
    read, so neither it nor the seat's own read of that card is renamed to the one card no seat
    shows, and that card is inferred where it lies hidden."""
    scene = build_table(4, seed=10)
    gone, dets = without_cards(scene, {(2, "middle", 1)})
    held = next(c["card"] for c in scene["cards"] if c["seat"] == 0 and c["row"] == "head")
    w, h = (dets[0].box[2] - dets[0].box[0]), (dets[0].box[3] - dets[0].box[1])
    scores = np.full(54, 0.001, np.float32)
    scores[CLASS_INDEX[held]] = 1.0 - 0.001 * 53
    tr = read_table([*dets, Detection(held, (5.0, 5.0, 5.0 + w, 5.0 + h), 0.95, scores)])
    assert got(tr) == truth_as_read(scene)
    assert [c.card for c in tr.left_out] == [held] and tr.orphans == []
    said = [(p.kind, p.card) for p in tr.problems if p.kind not in ("inferred",)]
    assert said == [("false_read", held)]
    assert [(p.kind, p.card) for p in tr.problems if p.kind == "inferred"] == [("inferred", gone[0]["card"])]


def test_a_faint_read_names_a_card_no_read_shows_at_a_table_of_three():
    """Three seats of a 52-card deck leave 13 cards undealt, so the cards no read names are not the
    hidden ones alone and nothing follows by elimination; but a faint read where a hand's row lacks a
    card, giving most of its scores over those cards to one of them, is taken as it (flagged). A
    faint read that ranks no card unread first places nothing."""
    scene = build_table(3, seed=10)
    gone, dets = without_cards(scene, {(1, "middle", 2)})
    assert not any(p.kind == "inferred" for p in read_table(dets).problems)
    on_table = next(c["card"] for c in scene["cards"] if c not in gone)
    faint = _faint_at(gone[0], {on_table: 0.5, gone[0]["card"]: 0.05})
    tr = read_table(dets, faint=[faint])
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.row, p.card) for p in tr.problems] == [
        ("inferred", read_seat(1, 3), "middle", gone[0]["card"])]
    doubtful = _faint_at(gone[0], {on_table: 0.5})
    assert not any(p.kind == "inferred" for p in read_table(dets, faint=[doubtful]).problems)


def test_a_faint_read_names_a_joker_no_read_shows_at_a_table_dealt_from_the_54():
    """Four seats dealt from the 54 with both jokers in, one in view and one hidden: the table is no
    full 52, so nothing follows by elimination, but a faint read where the hidden joker's row lacks a
    card, favouring that joker over the other cards no read names, names it there."""
    scene = build_table(4, seed=10)
    spot = {(c["seat"], c["row"], c["position"]): k for k, c in enumerate(scene["cards"])}
    scene = renamed(renamed(scene, [spot[(0, "head", 0)]], "SJ"), [spot[(2, "middle", 1)]], "BJ")
    gone, dets = without_cards(scene, {(2, "middle", 1)})
    assert not any(p.kind == "inferred" for p in read_table(dets).problems)
    on_table = next(c["card"] for c in scene["cards"] if c not in gone)
    tr = read_table(dets, faint=[_faint_at(gone[0], {on_table: 0.5, "BJ": 0.05})])
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.card) for p in tr.problems] == [("inferred", "BJ")]


@pytest.mark.parametrize("n_seats", [1, 4])
def test_a_card_read_surely_at_its_second_corner_goes_where_its_unsure_top_left_lies(n_seats):
    """The middle row's last card shows its bottom-right index on the tail's line, read surely; its
    top-left index, a card diagonal up and to the left, only unsurely. With two middle cards and a
    tail card hidden the rows count 3/2/5 with the card in the tail and 3/3/4 with it in the middle:
    the counts tie, and the unsure read says where the card's top-left is, so it goes there."""
    scene = build_table(n_seats, seed=13)
    cards = {(c["row"], c["position"]): c for c in scene["cards"] if c["seat"] == 0}
    last = cards[("middle", 4)]
    last["indices"][1]["visible"] = True  # a row's last card: its second corner in view
    top_left = tuple(last["indices"][0]["box"])
    gone = [top_left] + [tuple(ix["box"]) for k in (("middle", 1), ("middle", 2), ("tail", 2))
                         for ix in cards[k]["indices"]]
    dets = [d for d in detections(scene) if not any(d.box == pytest.approx(b) for b in gone)]
    tr = read_table(dets, unsure=[Detection(last["card"], top_left, 0.45)])
    assert last["card"] in [c.card for c in tr.seats[read_seat(0, n_seats)].middle]



def test_a_faint_read_names_a_card_no_read_shows_at_a_five_seat_table_with_a_seat_out_of_view():
    """Five seats of the 65, told its added suit, one seat out of the photo: the table is not full,
    but every card's count is known, so a faint read where another seat's row lacks a card names
    the card it favours among those read fewer times than the deck holds them."""
    scene = build_table(5, seed=12)
    out = {(3, r, k) for r, n in (("head", 3), ("middle", 5), ("tail", 5)) for k in range(n)}
    gone, dets = without_cards(scene, out | {(1, "middle", 2)})
    hidden = next(c for c in gone if c["seat"] == 1)
    on_table = next(c["card"] for c in scene["cards"] if c not in gone)
    faint = _faint_at(hidden, {on_table: 0.5, hidden["card"]: 0.05})
    tr = read_table(dets, faint=[faint], extra_suit=_added_suit(scene))
    assert [(p.kind, p.row, p.card) for p in tr.problems if p.kind == "inferred"] == [
        ("inferred", "middle", hidden["card"])]
    assert not any(p.kind == "inferred" for p in read_table(dets, extra_suit=_added_suit(scene)).problems)

def _seat(k: int, head: int, middle: int, tail: int) -> SeatRead:
    card = ReadCard("2c", (0.0, 0.0), 0.9)
    return SeatRead(k, 0.0, [card] * head, [card] * middle, [card] * tail)


@pytest.mark.parametrize(("counts", "short", "overfull"), [
    ([(3, 5, 5), (3, 4, 5)], {(1, "middle"): 1}, False),
    ([(2, 5, 3), (3, 5, 5)], {(0, "head"): 1, (0, "tail"): 2}, False),
    # a seat reading 3/4/6 lacks in its middle the card read in its tail: no short row of its own, and
    # the other seats' short rows still count
    ([(3, 4, 6), (3, 4, 5)], {(1, "middle"): 1}, True),
])
def test_short_rows_leave_out_a_seat_with_an_overfull_row(counts, short, overfull):
    from vision.geometry.unseen import _short_rows

    assert _short_rows([_seat(k, *c) for k, c in enumerate(counts)]) == (short, overfull)
