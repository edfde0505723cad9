"""A seat read half surely, half unsurely (a far, blurred seat): placed from both, unsure cards flagged."""

from __future__ import annotations

import pytest

from tests.vision.layouts import build_table, detections
from tests.vision.table_checks import got, read_seat, seat_held, truth_as_read
from vision.geometry import read_table
from vision.types import Detection


def _split(scene: dict, seat: int, n_sure: int) -> tuple[list[Detection], list[Detection], list[str]]:
    """The scene's detections with all but `n_sure` of `seat`'s cards read only unsurely (0.4):
    (sure reads, unsure reads, the unsure cards)."""
    cards = [c for c in scene["cards"] if c["seat"] == seat][n_sure:]
    boxes = {tuple(ix["box"]): c["card"] for c in cards for ix in c["indices"]}
    sure, unsure = [], []
    for d in detections(scene):
        if any(d.box == pytest.approx(b) for b in boxes):
            unsure.append(Detection(d.card, d.box, 0.4, d.scores))
        else:
            sure.append(d)
    return sure, unsure, [c["card"] for c in cards]


@pytest.mark.parametrize("seat, n_sure", [(2, 6), (1, 5), (0, 6), (2, 4)])
def test_a_seat_of_a_few_sure_reads_is_placed_with_the_unsure_ones_and_flagged(seat, n_sure):
    """A few sure reads of a seat are taken into a neighbour's seat (over-full: the deck fix
    leaves them out); with the seat's unsure reads they are a seat of their own."""
    scene = build_table(4, seed=10)
    sure, unsure, unsure_cards = _split(scene, seat, n_sure)
    assert got(read_table(sure)) != truth_as_read(scene)  # the sure reads alone cannot read it
    tr = read_table(sure, unsure=unsure)
    assert got(tr) == truth_as_read(scene)
    flagged = sorted(p.card for p in tr.problems if p.kind == "low_confidence")
    assert flagged == sorted(unsure_cards)
    assert {p.seat for p in tr.problems} == {read_seat(seat, 4)}
    assert tr.orphans == []


def test_a_seat_read_only_unsurely_is_not_made():
    """Where the sure reads place cleanly (no card in no seat, no seat over 13), unsure reads make no
    seat of their own: a seat read only unsurely is left out, not guessed."""
    scene = build_table(4, seed=10)
    sure, unsure, _ = _split(scene, 2, 0)
    tr = read_table(sure, unsure=unsure)
    assert len(tr.seats) == 3 and tr.orphans == []
    assert {c.card for s in tr.seats for c in s.cards}.isdisjoint(d.card for d in unsure)


def test_unsure_reads_far_from_the_strays_join_no_seat():
    """Chips read unsurely away from every card make no seat with a seat's few sure reads: the chips
    stay unseated, and the few sure reads are no neighbour's."""
    scene = build_table(4, seed=10)
    sure, unsure, _ = _split(scene, 2, 6)
    chips = [Detection(name, (9000.0 + 400 * k, 9000.0, 9010.0 + 400 * k, 9022.0), 0.45)
             for k, name in enumerate(["BJ", "SJ", "2c", "3c", "4c", "5c", "6c"])]
    tr = read_table(sure, unsure=chips)
    assert all(c.center[0] < 9000 for s in tr.seats for c in s.cards)
    assert all(seat_held(scene, tr, other) for other in (0, 1, 3))
