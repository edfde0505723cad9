"""The second look: the namer reads again along a hand's short row (`vision.second_look`), and the
table is read again with what it finds there (`vision.table_of(second_look=...)`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision
from tests.vision.layouts import build_table, without_cards
from tests.vision.test_detector import detector, paint
from vision.detector import IndexReads
from vision.one_index import overlaps_between
from vision.second_look import look_again, looking_again
from vision.types import Detection

RED, BLUE, BLANK = (100, 100, 140, 140), (300, 100, 340, 140), (500, 100, 540, 140)


def _photo():
    """A white 800 x 600 photo with a red index (the tiny namer's "Ah") and a blue one ("As")."""
    return vision.open_photo(paint(800, 600, [(100, 100, 40, "Ah"), (300, 100, 40, "As")]), detail=True)


def test_the_namer_reads_the_boxes_no_read_lies_on():
    """The blue index is read already: its box is not read again. The red one is read as an unsure
    read of Ah at its box; the blank box gives nothing."""
    reads = IndexReads([Detection("As", BLUE, 0.95)], [])
    found = look_again(detector(), _photo(), reads, [RED, BLUE, BLANK])
    assert [d.card for d in found] == ["Ah"]
    np.testing.assert_allclose(found[0].box, RED, atol=1)
    assert found[0].scores is not None and found[0].scores.shape == (54,)


def test_looking_again_at_a_photo_file_opens_it_as_the_reader_does(tmp_path):
    """A benchmark's reads were kept from before: its second look opens the photo itself."""
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), paint(800, 600, [(100, 100, 40, "Ah"), (300, 100, 40, "As")]))
    look = looking_again(detector(), path, IndexReads([Detection("As", BLUE, 0.95)], []))
    assert [d.card for d in look([RED, BLUE, BLANK])] == ["Ah"]


def test_looking_again_opens_no_photo_when_every_box_is_read(tmp_path):
    """Every box lies on a read: there is nothing to name, and the photo (here a file that is not
    there) is never opened."""
    look = looking_again(detector(), tmp_path / "gone.png", IndexReads([Detection("As", BLUE, 0.95)], []))
    assert look([BLUE]) == [] and look([]) == []
    with pytest.raises(vision.ImageReadError):
        look([RED])


def test_boxes_on_reads_already_held_or_none_are_not_read():
    held = IndexReads([], [Detection("Ah", RED, 0.4)])
    assert look_again(detector(), _photo(), held, [RED]) == []
    assert look_again(detector(), _photo(), IndexReads([], []), []) == []


@pytest.mark.parametrize("position", [0, 2, 4])
def test_a_card_the_reader_missed_in_a_row_is_found_by_looking_along_it(position):
    """Seat 2's middle card at `position` (an end or the middle) and a tail card of seat 4 show no
    read: two rows lack a card, and nothing tells which unseen card lies in which. The table asks
    the second look about boxes along both rows; a namer that reads the middle card where one of
    those boxes lies on its index gives it back, and the table holds it in its row, flagged as taken
    where the row lacked a card (the last unseen card then goes to the one row left lacking one)."""
    scene = build_table(4, seed=7)
    (card, _), dets = without_cards(scene, {(1, "middle", position), (3, "tail", 1)})
    index = np.array([card["indices"][0]["box"]], np.float64)
    asked: list[list] = []

    def second_look(boxes):
        asked.append(boxes)
        on = overlaps_between(np.array(boxes, np.float64).reshape(-1, 4), index).any(axis=1)
        return [Detection(card["card"], tuple(index[0]), 0.45)] if on.any() else []

    before = vision.table_of(IndexReads(dets, []), scene["width"], scene["height"])
    after = vision.table_of(IndexReads(dets, []), scene["width"], scene["height"], second_look=second_look)
    assert sorted(len(s.cards) for s in before.seats) == [12, 12, 13, 13]
    assert len(asked) == 1 and asked[0]
    assert sorted(len(s.cards) for s in after.seats) == [13, 13, 13, 13]
    seat = next(s for s in after.seats if card["card"] in {c.card for c in s.middle})
    assert ("low_confidence", seat.seat, "middle", card["card"]) in {
        (p.kind, p.seat, p.row, p.card) for p in after.problems}


def test_a_whole_table_asks_nothing():
    scene = build_table(4, seed=7)
    _, dets = without_cards(scene, set())

    def second_look(boxes):
        raise AssertionError(f"asked about {len(boxes)} boxes")

    table = vision.table_of(IndexReads(dets, []), scene["width"], scene["height"], second_look=second_look)
    assert sorted(len(s.cards) for s in table.seats) == [13, 13, 13, 13]


def test_what_the_second_look_finds_off_a_short_row_is_never_placed():
    """Six reads the second look gives back at the table's centre, off every row: the table reads as
    without them, no card added and none left over (taken as reads of their own, five of them come
    out cards outside every seat)."""
    from vision.geometry import read_table

    scene = build_table(4, seed=7)
    _, dets = without_cards(scene, {(1, "middle", 2), (3, "tail", 1)})
    cx, cy = scene["width"] / 2, scene["height"] / 2
    spots = [(cx + dx, cy + dy) for dx in (-30.0, 0.0, 30.0) for dy in (-25.0, 25.0)]
    looked = [Detection(name, (x - 5, y - 10, x + 5, y + 10), 0.5)
              for (x, y), name in zip(spots, ["2c", "3c", "4c", "5c", "6c", "7c"], strict=True)]
    plain, with_looked = read_table(dets), read_table(dets, looked=looked)
    assert [s.rows() for s in with_looked.seats] == [s.rows() for s in plain.seats]
    assert with_looked.orphans == plain.orphans
