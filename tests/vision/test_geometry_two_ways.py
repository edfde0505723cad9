"""A seat whose cards read 3/5/5 along two row directions, with other cards in the rows, is flagged.

Pinned on the reads of one rendered photo (`tests/data/vision/reads_decide1600_6161_000036.json`: the
`gm-paris-1600` decision photo 000036 of seed 6161 as a first namer trained on crowded crops read it,
and the photo's true rows): a side seat spread in a loose grid reads 3/5/5 along the profile's best
direction and again along a rival 9 degrees away, with different cards in each row. The best is the
wrong one; nothing in the counts says so.
"""

from __future__ import annotations

import math

import numpy as np

from tests.vision.table_checks import pinned, wrong_rows
from vision.geometry.config import GeometryConfig
from vision.geometry.parts import _Card
from vision.geometry.rows import fit_rows


def test_every_wrong_seat_is_flagged_and_the_two_way_seat_says_so():
    truth, table = pinned("reads_decide1600_6161_000036.json")
    wrong = {seat for seat, _ in wrong_rows(truth, table)}
    assert wrong, "the pinned photo no longer reads a seat wrong: pin another"
    flagged = {p.seat for p in table.problems}
    assert wrong <= flagged, (wrong, [(p.kind, p.seat) for p in table.problems])
    two_ways = {p.seat for p in table.problems if p.kind == "two_ways"}
    assert two_ways and two_ways <= wrong


def _grid_seat(turn_deg: float) -> list[_Card]:
    """A neat seat of 3/5/5 one-corner cards, rows 2 index heights apart, turned by `turn_deg`."""
    t = math.radians(turn_deg)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    cards = []
    for r, n in enumerate((3, 5, 5)):
        for i in range(n):
            p = rot @ np.array([i * 1.4, r * 2.0]) * 30.0 + 500.0
            cards.append(_Card("As", 0.9, [(p[0] - 9, p[1] - 15, p[0] + 9, p[1] + 15)], [p], None))
    return cards


def test_a_neat_seat_reads_one_way():
    for turn in (0.0, 20.0, 90.0):
        fr = fit_rows(_grid_seat(turn), 30.0, np.array([0.0, -1.0]), GeometryConfig())
        assert [len(r) for r in fr.rows] in ([3, 5, 5], [5, 5, 3])
        assert not fr.two_ways
