"""On a full table a read that may be a card no seat shows is flagged (`unseen_alike`).

Pinned on the reads of one rendered photo (`tests/data/vision/reads_fourcorners_5151_000006.json`: the
`four-corners` decision photo 000006 of seed 5151 as a second namer given a blur sitting read it, and
the photo's true rows): Seat 4's 5d is read surely as 3d (0.63, 5d at 0.29) while the true 3d, in
Seat 3, is read too faintly to keep. The table then holds 52 cards with each once; 5d is the card no
seat shows and goes to Seat 3 by elimination, flagged there, and nothing in the deck's counts says
that Seat 4 is wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.table_checks import flagged_wrong_seats, pinned
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.geometry.config import GeometryConfig
from vision.geometry.unseen import _alike_unseen
from vision.types import ReadCard, SeatRead


def test_every_wrong_seat_is_flagged_and_the_misread_says_what_it_may_be():
    truth, table = pinned("reads_fourcorners_5151_000006.json")
    flagged_wrong_seats(truth, table, {2, 3})
    alike = [p for p in table.problems if p.kind == "unseen_alike"]
    assert [(p.seat, p.row, p.card, p.alternative) for p in alike] == [(3, "tail", "3d", "5d")]
    assert "may be 5d (29%)" in alike[0].message
    said = table.to_table()["problems"]  # the JSON: the alternative only where a problem names one
    assert [(q["kind"], q["alternative"]) for q in said if "alternative" in q] == [("unseen_alike", "5d")]


def _seat(scores_5d: float | None) -> SeatRead:
    """Seat 1 with one read, 3d at 0.6, giving 5d `scores_5d` (None: a read without scores)."""
    p = None
    if scores_5d is not None:
        p = np.full(len(CLASS_NAMES), 0.001, np.float32)
        p[CLASS_INDEX["3d"]], p[CLASS_INDEX["5d"]] = 0.6, scores_5d
    return SeatRead(0, 0.0, tail=[ReadCard("3d", (10.0, 10.0), 0.6, [(0, 0, 8, 12)], None, p)])


def _flag(share: str) -> list[tuple[str, int, str, str, str]]:
    return [(f"Seat 1 tail: read 3d, but it may be 5d ({share}), a card no seat shows", 0, "tail", "3d",
             "5d")]


@pytest.mark.parametrize(("scores_5d", "unseen", "want"), [
    (0.29, ["5d"], _flag("29%")),
    (0.10, ["5d", "Kc"], _flag("10%")),
    (0.09, ["5d"], []),  # under the bar: as likely as a right read's runner-up
    (0.29, ["Kc"], []),  # 5d is seen somewhere: the read is no unseen card's
    (0.29, ["3d"], []),  # the 65's added suit: 3d's second copy unseen, and the read is one 3d
    (None, ["5d"], []),  # no scores (a card placed by elimination): nothing to weigh
])
def test_a_read_is_flagged_when_it_gives_an_unseen_card_a_real_share(scores_5d, unseen, want):
    got = _alike_unseen([_seat(scores_5d)], unseen, GeometryConfig())
    assert [(p.message, p.seat, p.row, p.card, p.alternative) for p in got] == want
    assert all(p.kind == "unseen_alike" for p in got)
