"""What a read table is checked against in the geometry tests: the hand-built scene's truth."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import numpy as np

import vision
from benchmarks.pipeline import ROWS, match_seats, rows_of
from vision.classes import CLASS_INDEX
from vision.detector import IndexReads
from vision.geometry import GeometryConfig
from vision.types import Detection, Problem

PINNED = Path(__file__).parent.parent / "data" / "vision"


def pinned(name: str):
    """One rendered photo pinned as its reads (`tests/data/vision/NAME`: the sure and unsure reads and
    the true rows): its true rows ({seat: {row: Counter}}, `benchmarks.pipeline.truth_of`'s form) and
    its `TableRead`, read as the app reads."""
    fx = json.loads((PINNED / name).read_text())

    def dets(rows):
        return [Detection(r["card"], tuple(r["box"]), r["confidence"], np.array(r["scores"], np.float32))
                for r in rows]

    table = vision.table_of(IndexReads(dets(fx["sure"]), dets(fx["unsure"])), fx["width"], fx["height"])
    truth = {int(t): {r: Counter(cards) for r, cards in rows.items()} for t, rows in fx["truth"].items()}
    return truth, table


def own_rows(truth: dict, table) -> dict[int, dict[str, Counter]]:
    """Each read seat's true rows (`truth` as `pinned` gives it): those of the true seat matched to it
    by shared cards (`match_seats`, as the benchmarks match them); none for a read seat no true seat
    is matched to."""
    own = {s.seat: {r: Counter() for r in ROWS} for s in table.seats}
    for t, j in zip(sorted(truth), match_seats(truth, table.seats), strict=True):
        if j is not None:
            own[table.seats[j].seat] = truth[t]
    return own


def wrong_rows(truth: dict, table) -> set[tuple[int, str]]:
    """The (seat, row) pairs of `table` whose cards differ from their true row (`own_rows`)."""
    own = own_rows(truth, table)
    return {(s.seat, r) for s in table.seats for r, cards in rows_of(s).items() if cards != own[s.seat][r]}


def flagged_wrong_seats(truth: dict, table, want: set[int]) -> None:
    """Assert that `table` reads exactly the seats `want` wrong (`wrong_rows`) and that a problem names
    each of them: a pinned photo that no longer reads them wrong must be pinned anew."""
    wrong = {seat for seat, _ in wrong_rows(truth, table)}
    assert wrong == want, "the pinned photo no longer reads these seats wrong: pin another"
    assert wrong <= {p.seat for p in table.problems}, [(p.kind, p.seat) for p in table.problems]


def truth(scene):
    """{(seat, row): sorted cards} from the scene."""
    out: dict = {}
    for c in scene["cards"]:
        out.setdefault((c["seat"], c["row"]), []).append(c["card"])
    return {k: sorted(v) for k, v in out.items()}


def read_seat(true_seat: int, n: int) -> int:
    """Scenes number seats anticlockwise from the bottom, the reader clockwise: same seat 0."""
    return (-true_seat) % n


def truth_as_read(scene):
    n = len(scene["seats"])
    return {(read_seat(s, n), r): v for (s, r), v in truth(scene).items()}


def got(tr):
    rows = ("head", "middle", "tail")
    return {(s.seat, r): sorted(c.card for c in getattr(s, r)) for s in tr.seats for r in rows}


def assert_exact(scene, tr, seat_map=None):
    want = truth(scene)
    n = len({k[0] for k in want})
    assert len(tr.seats) == n
    seat_map = seat_map or {s: read_seat(s, n) for s in range(n)}  # true seat -> read seat
    assert got(tr) == {(seat_map[s], r): v for (s, r), v in want.items()}
    assert not tr.problems, tr.problems


def seat_held(scene, tr, true_seat: int) -> bool:
    """Some read seat holds exactly the true seat's rows (read seats in any order or number)."""
    want = {r: v for (s, r), v in truth(scene).items() if s == true_seat}
    rows = ("head", "middle", "tail")
    return any({r: sorted(c.card for c in getattr(s, r)) for r in rows if getattr(s, r)} == want
               for s in tr.seats)


def cards_right(scene, tr) -> bool:
    """Every seat's rows hold the right cards, seats matched in any order."""
    return sorted(map(str, got(tr).values())) == sorted(map(str, truth(scene).values()))


def renamed(scene, idx, name, shrink=1.0):
    """The scene with cards `idx` renamed (and their index boxes shrunk about their centres)."""
    sc = copy.deepcopy(scene)
    for i in idx:
        sc["cards"][i]["card"] = name
        for ix in sc["cards"][i]["indices"]:
            x1, y1, x2, y2 = ix["box"]
            cx, cy, hw, hh = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2 * shrink, (y2 - y1) / 2 * shrink
            ix["box"] = [cx - hw, cy - hh, cx + hw, cy + hh]
    return sc


def but_unseen_alike(tr) -> list[Problem]:
    """`tr`'s problems but its `unseen_alike` ones, each checked to name a read that gives the card
    it names at least `GeometryConfig.unseen_alike`: the synthetic score model's look-alike of a right
    read (`datasets.detections.scores_for`) is now and then a card no seat shows."""
    bar = GeometryConfig().unseen_alike
    for p in tr.problems:
        if p.kind == "unseen_alike":
            reads = [c for c in getattr(tr.seats[p.seat], p.row) if c.card == p.card]
            assert any(float(c.scores[CLASS_INDEX[p.alternative]]) >= bar for c in reads), p
    return [p for p in tr.problems if p.kind != "unseen_alike"]
