"""The seat cut measures its links in a local index height (`seats.local_unit`), so one box of an odd
height does not join two seats."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision
from benchmarks.pipeline import match_seats, seat_right
from vision.detector import IndexReads
from vision.geometry import GeometryConfig
from vision.geometry.seats import local_unit
from vision.types import Detection

FIXTURE = Path(__file__).parent.parent / "data" / "vision" / "reads_decide5seats6161_000010.json"


@pytest.mark.parametrize(("sizes", "k", "unit"), [
    ([10, 10, 30, 10], 3, [10, 10, 10, 10]),   # one odd box takes its neighbours' height
    ([10, 10, 30, 10], 1, [10, 10, 30, 10]),   # its own: as each card's own box
    ([10, 20, 30, 40], 3, [20, 20, 30, 30]),   # a slow change (perspective) is kept
    ([10, 10, 30, 30], 4, [20, 20, 20, 20]),
])
def test_local_unit_is_the_median_of_the_nearest_cards(sizes, k, unit):
    centers = np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0], [30.0, 0.0]])
    assert local_unit(centers, np.array(sizes, float), k).tolist() == unit


def test_a_near_seat_keeps_its_row_beside_a_boxed_figure():
    """Pinned on the reads of one rendered five-seat photo (`reads_decide5seats6161_000010.json`: a
    decision photo's sure and unsure reads, its true rows and added suit): the near seat's tail lay
    2.9 of its own index heights from a side seat's court card, boxed 1.3 times as tall as the near
    cards' indices; that link was beyond every cut tried, so the side seat took the near seat's tail
    (20 cards, seven left out) and the near seat read 8. Every seat now reads exactly."""
    fx = json.loads(FIXTURE.read_text())

    def dets(rows: list[dict]) -> list[Detection]:
        return [Detection(r["card"], tuple(r["box"]), r["confidence"], np.array(r["scores"], np.float32))
                for r in rows]

    truth = {int(s): {r: Counter(cards) for r, cards in rows.items()} for s, rows in fx["truth"].items()}
    reads = IndexReads(dets(fx["sure"]), dets(fx["unsure"]))
    table = vision.table_of(reads, fx["width"], fx["height"], jokers=0, extra_suit=fx["extra_suit"])
    matched = match_seats(truth, table.seats)
    assert all(j is not None and seat_right(truth[s], table.seats[j])
               for s, j in zip(sorted(truth), matched, strict=True))
    assert not table.orphans
    own_unit = vision.table_of(reads, fx["width"], fx["height"], jokers=0, extra_suit=fx["extra_suit"],
                               geometry=replace(GeometryConfig(), unit_neighbours=1))
    assert any(p.kind == "false_read" for p in own_unit.problems)
