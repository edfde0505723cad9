"""`vision.geometry.look_again.row_scan`: where a hand's row lacks a card, boxes along its line."""

import numpy as np
import pytest

from vision.geometry import GeometryConfig
from vision.geometry.look_again import row_scan
from vision.types import ReadCard, SeatRead, TableRead

# index boxes 10 wide and 20 tall; cards 30 px apart along each row, rows 100 px apart
W, H, STEP, GAP = 10.0, 20.0, 30.0, 100.0


def _card(name: str, x: float, y: float, second: bool = False) -> ReadCard:
    """A card read at its top-left index (left edge `x`, top `y`); with `second`, also at its
    bottom-right corner, down and to the right (a card that shows both)."""
    boxes = [(x, y, x + W, y + H)]
    if second:
        boxes.append((x + 40.0, y + 60.0, x + 40.0 + W, y + 60.0 + H))
    return ReadCard(name, (x + W / 2, y + H / 2), 0.9, boxes)


def _upright_seat(lengths: tuple[int, int, int], second: bool = False) -> SeatRead:
    """A seat facing the camera: head, middle and tail rows of `lengths` cards, from x = 0."""
    seat = SeatRead(0, 0.0)
    names = iter(f"{r}{s}" for s in "shdc" for r in "23456789TJQKA")
    for k, (row, n) in enumerate(zip(("head", "middle", "tail"), lengths, strict=True)):
        getattr(seat, row).extend(_card(next(names), i * STEP, k * GAP, second) for i in range(n))
    return seat


def test_a_short_middle_row_is_scanned_along_its_line_a_third_of_an_index_apart():
    """Middle of 4 cards (index centres at x 5..95, 20 tall): boxes from 30 before the first to 30
    past the last (1.5 index heights), 6.6 px (0.33 index heights) apart, on the row's line, each
    the indices' size."""
    boxes = np.array(row_scan(TableRead([_upright_seat((3, 4, 5))])))
    centres_x = (boxes[:, 0] + boxes[:, 2]) / 2
    np.testing.assert_allclose(centres_x, np.arange(5.0 - 30.0, 95.0 + 30.0 + 1e-6, 6.6))
    np.testing.assert_allclose((boxes[:, 1] + boxes[:, 3]) / 2, GAP + H / 2)
    np.testing.assert_allclose(boxes[:, 2:] - boxes[:, :2], np.tile([W, H], (len(boxes), 1)))


def test_the_line_follows_the_top_left_indices_not_the_second_corners():
    """Each card shows both corners: the row's line runs through the top-left ones."""
    boxes = np.array(row_scan(TableRead([_upright_seat((3, 5, 4), second=True)])))
    np.testing.assert_allclose((boxes[:, 1] + boxes[:, 3]) / 2, 2 * GAP + H / 2)


def test_a_turned_seat_is_scanned_along_its_own_rows():
    """The same seat turned a quarter (its up is the photo's left: orientation 90, a point x along
    its rows and y across them lies at (y, -x)): the short row runs up the photo, its boxes at one
    x, in the row's order."""
    seat = _upright_seat((3, 4, 5))
    turned = SeatRead(0, 90.0)
    for row in ("head", "middle", "tail"):
        for c in getattr(seat, row):
            x0, y0, x1, y1 = c.boxes[0]
            getattr(turned, row).append(ReadCard(c.card, c.center, c.confidence, [(y0, -x1, y1, -x0)]))
    boxes = np.array(row_scan(TableRead([turned])))
    assert len(boxes) == len(row_scan(TableRead([seat])))
    np.testing.assert_allclose((boxes[:, 0] + boxes[:, 2]) / 2, GAP + H / 2)
    np.testing.assert_allclose(np.diff((boxes[:, 1] + boxes[:, 3]) / 2), -6.6)


@pytest.mark.parametrize(("lengths", "why"), [
    ((3, 5, 5), "a whole hand lacks nothing"),
    ((2, 4, 3), "nine cards are loose cards, not a hand short of a card"),
    ((4, 4, 5), "a row over-full and one short: the seat has 13"),
])
def test_no_boxes_where_no_hand_lacks_a_card(lengths, why):
    assert row_scan(TableRead([_upright_seat(lengths)])) == [], why


def test_the_seat_floor_is_the_fill_s():
    """A seat of 9 is scanned where the fill takes unsure reads into seats of 9."""
    seat = TableRead([_upright_seat((2, 4, 3))])
    assert row_scan(seat, GeometryConfig(fill_min_seat=9))
