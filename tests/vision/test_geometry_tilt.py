"""Corner pairs under strong tilt, two decks and jokers, unsure corners flagged (failure classes
found by `python -m benchmarks.geometry --show N`)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.layouts import DECK52, build_table, detections
from tests.vision.table_checks import cards_right, read_seat, renamed
from vision.classes import CLASS_INDEX
from vision.geometry import read_table
from vision.types import Detection


@pytest.mark.parametrize("seed,n,first,tilt,row_gap,spacing", [
    (27, 2, 87.0, 0.293, 0.925, 0.429),
    (54, 3, 328.9, 0.263, 0.941, 0.628),
    (104, 4, 198.4, 0.263, 0.787, 0.338),
])
def test_strong_tilt_one_deck_pairs_kept(seed, n, first, tilt, row_gap, spacing):
    """Under strong camera tilt a far seat's cards are sheared: a card's corner diagonal leans left of
    the row normal. Its two corners are still one card (they used to be split, then one renamed)."""
    scene = build_table(n, seed=seed, first_orientation=first, tilt=tilt, row_gap=row_gap, spacing=spacing,
                        jitter=0.01)
    tr = read_table(detections(scene, seed=1), width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr) and not tr.problems, tr.problems


def _last_in_row_both_corners(scene, seat):
    return [i for i, c in enumerate(scene["cards"])
            if c["seat"] == seat and all(ix["visible"] for ix in c["indices"])]


def test_two_full_decks_hold_two_of_each_joker():
    """Five seats dealt from two 54-card decks (108): two big and two small jokers are legal."""
    scene = build_table(5, seed=3, row_gap=1.0, jitter=0.01)
    seat_cards = [[i for i, c in enumerate(scene["cards"]) if c["seat"] == s] for s in range(5)]
    sc = renamed(scene, [seat_cards[0][1], seat_cards[2][4]], "BJ")
    sc = renamed(sc, [seat_cards[1][6], seat_cards[3][9]], "SJ")
    tr = read_table(detections(sc, seed=1), width=sc["width"], height=sc["height"], deck=108)
    assert cards_right(sc, tr) and not tr.problems, tr.problems
    tr = read_table(detections(sc, seed=1), width=sc["width"], height=sc["height"], deck=104)  # no jokers
    assert tr.problems


def test_joker_corners_with_an_index_of_their_own_merge():
    """A joker's index is a design of its own (here a small square medallion): its two corners sit
    farther apart in index heights than any other card's, yet they are one card (two decks)."""
    scene = build_table(5, seed=4, row_gap=1.0, jitter=0.01)
    a, b = _last_in_row_both_corners(scene, 0)[0], _last_in_row_both_corners(scene, 2)[0]
    sc = renamed(scene, [a, b], "SJ", shrink=0.5)
    tr = read_table(detections(sc, seed=1), width=sc["width"], height=sc["height"], deck=108)
    assert cards_right(sc, tr) and not tr.problems, tr.problems


def test_two_copies_in_one_seat_keep_their_own_corners():
    """Two decks, two copies of a card in one seat, one showing both corners: the lone bottom-right
    corner pairs with its own top-left, not with the other copy's."""
    scene = build_table(5, seed=5, row_gap=0.75, jitter=0.01)
    sc = renamed(scene, [4], scene["cards"][12]["card"])
    tr = read_table(detections(sc, seed=1), width=sc["width"], height=sc["height"], deck=104)
    assert cards_right(sc, tr)
    assert not tr.problems  # legal, and the copies sit nowhere like one card's two corners


def _with_scores(dets, box, make):
    out = []
    for d in dets:
        if d.box == pytest.approx(tuple(box)):
            name, p = make(d)
            d = Detection(name, d.box, float(p.max()), p)
        out.append(d)
    return out


def test_unsure_misread_is_flagged_even_when_it_breaks_no_deck_rule():
    """Two seats of a 52-card deck: a card misread as one that is not on the table breaks no deck
    rule. The model's score vector still shows it: the true class is close behind."""
    scene = build_table(2, seed=7)
    victim = scene["cards"][6]
    absent = next(c for c in DECK52 if c not in {x["card"] for x in scene["cards"]})

    def misread(d):
        p = np.full(54, 0.01, np.float32)
        p[CLASS_INDEX[absent]], p[CLASS_INDEX[victim["card"]]] = 0.62, 0.45
        return absent, p

    tr = read_table(_with_scores(detections(scene, seed=3), victim["indices"][0]["box"], misread))
    low = [p for p in tr.problems if p.kind == "low_confidence"]
    assert [(p.seat, p.row, p.card) for p in low] == [(read_seat(victim["seat"], 2), victim["row"], absent)]


def test_unsure_corner_of_a_two_corner_card_is_flagged():
    """A card seen by both corners, one of them barely ahead of a look-alike: the joint scores look
    sure, but one corner was not; flagged."""
    scene = build_table(1, seed=2, row_gap=1.0)
    card = scene["cards"][_last_in_row_both_corners(scene, 0)[0]]
    other = next(c for c in DECK52 if c != card["card"])

    def unsure(d):
        p = np.full(54, 0.01, np.float32)
        p[CLASS_INDEX[card["card"]]], p[CLASS_INDEX[other]] = 0.6, 0.5
        return card["card"], p

    tr = read_table(_with_scores(detections(scene, seed=3), card["indices"][1]["box"], unsure))
    assert cards_right(scene, tr)
    assert [(p.kind, p.card) for p in tr.problems] == [("low_confidence", card["card"])]


def test_top_left_pushed_off_its_row_stays_in_its_row():
    """A first card pushed a little off its row line toward the row before: stepping back by the
    corner offset would put it on that row, but only a row's last card shows its bottom-right corner,
    and the top-left this implies would start that row, not end it."""
    scene = build_table(2, seed=21, row_gap=1.0)
    i = next(k for k, c in enumerate(scene["cards"]) if c["seat"] == 0 and c["row"] == "middle"
             and c["position"] == 0)
    box = scene["cards"][i]["indices"][0]["box"]
    shift = 0.9 * (box[3] - box[1])  # seat 0 reads upright: the row before is up the photo
    scene["cards"][i]["indices"][0]["box"] = [box[0], box[1] - shift, box[2], box[3] - shift]
    tr = read_table(detections(scene, seed=1), width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr) and not tr.problems, tr.problems


@pytest.mark.parametrize("seed,first,tilt,row_gap,spacing", [
    (4, 152.2, 0.273, 0.917, 0.45),
    (11, 224.3, 0.178, 1.056, 0.414),
    (29, 24.0, 0.286, 0.726, 0.721),
])
def test_five_seats_strong_tilt_pairs_checked_in_each_seat(seed, first, tilt, row_gap, spacing):
    """Two decks, strong tilt: each seat's cards are sheared their own way, so a corner pair is checked
    against its own seat's corner offset (not the photo's), and never split into a third copy."""
    scene = build_table(5, seed=seed, first_orientation=first, tilt=tilt, row_gap=row_gap, spacing=spacing,
                        jitter=0.01)
    tr = read_table(detections(scene, seed=1), width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr) and not tr.problems, tr.problems


def test_seat_alone_cut_off_with_no_side_evidence_is_flagged():
    """A close-up that cuts the seat off, no card showing both corners: nothing tells which side the
    player sits, so the rows may be swapped; said, not guessed silently. Uncut, nothing is raised."""
    scene = build_table(1, seed=5, first_orientation=180.0)
    dets = [d for d in detections(scene, seed=1)
            if not any(d.box == pytest.approx(tuple(c["indices"][1]["box"])) for c in scene["cards"])]
    right_edge = max(d.box[2] for d in dets)
    tr = read_table(dets, width=int(right_edge + 2), height=scene["height"])
    assert [(p.kind, p.seat) for p in tr.problems if p.kind == "orientation"] == [("orientation", 0)]
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert not any(p.kind == "orientation" for p in tr.problems)
