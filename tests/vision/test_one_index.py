"""`vision.one_index`: when two boxes are one index, for the detector's dedupe and the geometry's fill."""

import numpy as np
import pytest

from vision.one_index import overlaps, overlaps_between

INDEX = [0.0, 0.0, 10.0, 30.0]  # an upright index box 10 wide, 30 tall

CASES = [
    ("the same box", INDEX, True),
    ("a box on its pip, inside it", [2.0, 20.0, 8.0, 28.0], True),
    ("half of it, the rank", [0.0, 0.0, 10.0, 15.0], True),
    ("shifted a third down: IoU 0.5", [0.0, 10.0, 10.0, 40.0], True),
    ("shifted half off sideways: IoU 1/3", [5.0, 0.0, 15.0, 30.0], True),
    ("the next index of a tight fan, a fifth over it", [8.0, 0.0, 18.0, 30.0], False),
    ("touching it", [10.0, 0.0, 20.0, 30.0], False),
    ("a pip below it", [0.0, 35.0, 10.0, 45.0], False),
]


@pytest.mark.parametrize(("what", "other", "expected"), CASES, ids=[c[0] for c in CASES])
def test_one_box_against_another(what, other, expected):
    assert overlaps_between(np.array([INDEX]), np.array([other])).tolist() == [[expected]]


def test_one_box_against_many_is_the_row_of_the_square_table():
    boxes = np.array([INDEX, *(c[1] for c in CASES)])
    assert overlaps_between(boxes[:1], boxes[1:]).tolist() == [[c[2] for c in CASES]]
    assert (overlaps(boxes) == overlaps_between(boxes, boxes)).all()
    assert overlaps(boxes)[0, 1:].tolist() == [c[2] for c in CASES]
