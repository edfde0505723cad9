"""A seat mostly hidden (under a sheet of paper, off the photo's edge) shows a few of its cards: they
are read as a short seat of their own, flagged, not taken into a neighbour's seat, which then held
more than 13 and gave up its own cards as false reads."""

from __future__ import annotations

import pytest

from tests.vision.layouts import build_table, detections
from tests.vision.table_checks import pinned, seat_held
from vision.geometry import read_table


def _hidden(scene: dict, seat: int, shown: int) -> tuple[list, list[str]]:
    """The scene's detections with only the first `shown` cards of `seat` in view; those cards."""
    cards = [c for c in scene["cards"] if c["seat"] == seat]
    hidden = {tuple(ix["box"]) for c in cards[shown:] for ix in c["indices"]}
    dets = [d for d in detections(scene) if not any(d.box == pytest.approx(b) for b in hidden)]
    return dets, [c["card"] for c in cards[:shown]]


@pytest.mark.parametrize("seat, shown", [(2, 6), (0, 6), (2, 7), (1, 8), (3, 7)])
def test_a_half_hidden_seat_is_a_seat_of_its_own(seat, shown):
    """Its cards in view make a seat, flagged (short, or completed by elimination on a full table)."""
    scene = build_table(4, seed=10)
    dets, seen = _hidden(scene, seat, shown)
    tr = read_table(dets)
    assert len(tr.seats) == 4 and tr.orphans == []
    assert all(seat_held(scene, tr, other) for other in range(4) if other != seat)
    own = next(s for s in tr.seats if seen[0] in {c.card for c in s.cards})
    assert set(seen) <= {c.card for c in own.cards}
    assert any(p.seat == own.seat for p in tr.problems)
    assert not any(p.kind == "false_read" for p in tr.problems)




def test_a_side_seat_far_from_the_rest_is_a_seat_not_strays():
    """Pinned on the reads of one rendered photo (`tests/data/vision/reads_decide7171_000006.json`: a
    decision photo's sure and unsure reads and its true rows): a side seat at the photo's edge, seen
    foreshortened, five of its cards unread, lies beyond `GeometryConfig.stray_link` of every other, so
    a cut of three seats leaves its eight sure reads in no seat. Eight sure reads the table cannot
    place are less likely than a seat hiding five cards: they are read as a seat, each in its row."""
    truth, table = pinned("reads_decide7171_000006.json")
    side = truth[1]
    own = next(s for s in table.seats if "Jc" in {c.card for c in s.cards})
    assert len(table.seats) == 4 and not table.orphans
    read = {r: {c.card for c in getattr(own, r)} for r in ("head", "middle", "tail")}
    assert all(read[r] <= set(side[r]) for r in read) and sum(map(len, read.values())) == 8
    assert any(p.kind == "seat_count" and p.seat == own.seat for p in table.problems)
