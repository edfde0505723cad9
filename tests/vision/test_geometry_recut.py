"""A whole seat whose rows the gap split miscounts is cut into 3/5/5 by count (`geometry.recut`): a
card pushed toward the next row joins the row its count needs, flagged; a seat short of a card, or
whose head lies near, is cut no other way than its counts allow."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tests.vision.layouts import build_table, detections, without_cards
from tests.vision.table_checks import cards_right
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.geometry import read_table
from vision.geometry.recut import _cut
from vision.types import Detection


def _pushed(scene: dict, seat: int, row: str, position: int, by: float) -> tuple[dict, str]:
    """The scene with one card's index boxes moved `by` index heights down the photo (toward the
    player of a seat facing up the photo, orientation 0), and that card's name."""
    sc = copy.deepcopy(scene)
    card = next(c for c in sc["cards"] if (c["seat"], c["row"], c["position"]) == (seat, row, position))
    for ix in card["indices"]:
        x1, y1, x2, y2 = ix["box"]
        step = by * (y2 - y1)
        ix["box"] = [x1, y1 + step, x2, y2 + step]
    return sc, card["card"]


def _counts(seat) -> list[int]:
    return [len(seat.head), len(seat.middle), len(seat.tail)]


@pytest.mark.parametrize("by", [1.9, 2.2])
def test_a_card_pushed_toward_the_next_row_is_cut_back_into_its_row(by: float):
    """Seat 0's last head card lies nearer the middle row's line than the head's: the gap split reads
    2/6/5. The seat holds 13, so the count puts the card in the head, and says so on that card."""
    scene, card = _pushed(build_table(4, seed=3, jitter=0.01), 0, "head", 2, by)
    tr = read_table(detections(scene, seed=1), width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr), tr.problems
    moved = [p for p in tr.problems if p.kind == "row_by_count"]
    assert [(p.seat, p.row, p.card) for p in moved] == [(0, "head", card)]
    assert "from the middle" in moved[0].message and "2/6/5" in moved[0].message
    assert {p.kind for p in tr.problems} <= {"row_by_count", "row_line"}


def test_a_false_read_in_the_seat_leaves_before_the_count_cut():
    """The pushed head card, and a read of a card seat 2 holds lying between two of seat 0's tail
    cards: the seat reads 14. The one-deck fix leaves that read out as a false read, and the 13 left
    are cut by count: every card in its row, the false read and the moved card flagged."""
    scene, card = _pushed(build_table(4, seed=3, jitter=0.01), 0, "head", 2, 1.9)
    other = next(c["card"] for c in scene["cards"] if c["seat"] == 2)
    tail = [c for c in scene["cards"] if (c["seat"], c["row"]) == (0, "tail")]
    between = tuple((a + b) / 2 for a, b in zip(tail[1]["indices"][0]["box"], tail[2]["indices"][0]["box"],
                                                 strict=True))
    scores = np.full(len(CLASS_NAMES), 0.002, np.float32)
    scores[CLASS_INDEX[other]] = 0.7
    scores /= scores.sum()
    false = Detection(other, between, float(scores[CLASS_INDEX[other]]), scores=scores)
    dets = [*detections(scene, seed=1), false]
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr), tr.problems
    assert [(p.kind, p.row, p.card) for p in tr.problems if p.kind in ("false_read", "row_by_count")] == [
        ("false_read", "tail", other), ("row_by_count", "head", card)]


def test_a_near_head_is_kept_near():
    """The same push on a seat laid with its head nearest the player (5/5/3 far to near): the far
    row's last card pushed toward the middle reads 4/6/3 as split, and the cut keeps the head near."""
    base = build_table(4, seed=3, jitter=0.01, head_far=[False, True, True, True])
    scene, card = _pushed(base, 0, "tail", 4, 1.9)
    tr = read_table(detections(scene, seed=1), width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr), tr.problems
    assert [(p.seat, p.row, p.card) for p in tr.problems if p.kind == "row_by_count"] == [(0, "tail", card)]


def test_a_seat_short_of_a_card_is_not_cut_by_count():
    """With a tail card hidden the seat reads 12: which row lacks the card is in doubt, so the rows
    stay as the photo splits them and their lengths are flagged."""
    scene, _ = _pushed(build_table(4, seed=3, jitter=0.01), 0, "head", 2, 1.9)
    _, dets = without_cards(scene, {(0, "tail", 2)}, seed=1)
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert _counts(tr.seats[0]) == [2, 6, 4]
    assert not [p for p in tr.problems if p.kind == "row_by_count"]
    assert {(p.kind, p.row) for p in tr.problems if p.seat == 0} >= {("row_length", "head"),
                                                                      ("row_length", "tail")}


@pytest.mark.parametrize(("counts", "cut"), [
    ([2, 6, 5], (3, 5, 5)),
    ([3, 4, 6], (3, 5, 5)),
    ([5, 6, 2], (5, 5, 3)),
    ([6, 4, 3], (5, 5, 3)),
    ([4, 5, 4], (3, 5, 5)),  # the counts do not tell: the head far, as `name_rows` reads a tie
    ([6, 7], (3, 5, 5)),
    ([11, 2], (5, 5, 3)),
])
def test_the_cut_keeps_the_head_where_the_counts_put_it(counts: list[int], cut: tuple[int, int, int]):
    assert _cut(counts) == cut
