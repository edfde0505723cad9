"""`vision.dedupe.finders_box`: which box a kept read carries when reads of its card were folded into
it. Each case: the proposals' boxes, the finder's scores, the namer's top cards, which reads were
kept, and the boxes they come out with."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dedupe import finders_box

LOOSE = [10, 0, 24, 30]  # a loose box reaching past its index
TIGHT = [8, 2, 18, 30]  # the tight box on that index
OTHER = [40, 0, 50, 30]  # another index, a card's width away

CASES = [
    # the finder scored the folded tight box far better: the kept read takes it
    ("tight box handed over", [LOOSE, TIGHT, OTHER], [0.002, 0.5, 0.4], [7, 7, 9], [0, 2],
     [TIGHT, OTHER]),
    # under the floor (`FINDER_BOX_FLOOR`, 0.1), however many times the kept box's score: kept as it was
    ("under the floor", [LOOSE, TIGHT, OTHER], [0.002, 0.09, 0.4], [7, 7, 9], [0, 2], [LOOSE, OTHER]),
    # over the floor but not `FINDER_BOX_RATIO` (10) times the kept box's score
    ("not ten times", [LOOSE, TIGHT, OTHER], [0.06, 0.5, 0.4], [7, 7, 9], [0, 2], [LOOSE, OTHER]),
    # a box of another card is never handed over
    ("another card", [LOOSE, TIGHT, OTHER], [0.002, 0.5, 0.4], [7, 8, 9], [0, 2], [LOOSE, OTHER]),
    # a whole index beside the kept one (a fan's next card read the same) is not the same index
    ("side by side", [[10, 0, 20, 30], [21, 0, 31, 30], OTHER], [0.002, 0.5, 0.4], [7, 7, 9], [0, 2],
     [[10, 0, 20, 30], OTHER]),
    # a box lying on another kept read's index is not taken
    ("on another read", [[30, 0, 40, 30], [39, 0, 49, 30], [42, 0, 52, 30]], [0.002, 0.5, 0.4], [7, 7, 9],
     [0, 2], [[30, 0, 40, 30], [42, 0, 52, 30]]),
    # of two folded boxes the better scored
    ("best of two", [LOOSE, [9, 1, 19, 31], TIGHT], [0.002, 0.2, 0.5], [7, 7, 7], [0], [TIGHT]),
]


@pytest.mark.parametrize(("what", "boxes", "scores", "cards", "kept", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_finders_box(what, boxes, scores, cards, kept, expected):
    b = np.array(boxes, np.float32)
    got = finders_box(b, np.array(scores), np.array(cards), np.array(kept), np.arange(len(b)))
    assert got.tolist() == expected

