"""benchmarks.geometry.score_scene: cards compared by (true seat, name), each read card once."""

from __future__ import annotations

import pytest

from benchmarks.geometry import score_scene
from vision.types import Detection, Problem, ReadCard, SeatRead, TableRead

# two seats; seat 0 holds two copies of 4d (head and middle), as a 65-card deck deals them
HANDS = {
    0: ("4d 8h Qd", "4d 5s 6d As Th", "3d 3s 6s 7h Ah"),
    1: ("2h 2s Jc", "3c Jh Js Kc Td", "5d 7h Ac Jd Kh"),
}
ROWS = ("head", "middle", "tail")


def _scene() -> tuple[dict, list[Detection], list[int], list[list[tuple]]]:
    """The scene's meta, one two-corner detection pair per card, and each card's two boxes."""
    cards, dets, owner, boxes = [], [], [], []
    for s, rows in HANDS.items():
        for r, text in zip(ROWS, rows, strict=True):
            for name in text.split():
                ci = len(cards)
                cards.append({"card": name, "seat": s, "row": r})
                pair = [(ci * 10.0, 0.0, ci * 10.0 + 5, 8.0), (ci * 10.0, 50.0, ci * 10.0 + 5, 58.0)]
                boxes.append(pair)
                for b in pair:
                    dets.append(Detection(name, b, 0.9))
                    owner.append(ci)
    return {"image": "t.jpg", "cards": cards}, dets, owner, boxes


def _table(edit=None, problems=()) -> tuple[dict, list[Detection], list[int], TableRead]:
    """The scene read right, then changed by `edit(seats, boxes)` (seats: seat -> row -> reads)."""
    meta, dets, owner, boxes = _scene()
    seats: dict[int, dict[str, list[ReadCard]]] = {s: {r: [] for r in ROWS} for s in HANDS}
    for ci, c in enumerate(meta["cards"]):
        seats[c["seat"]][c["row"]].append(ReadCard(c["card"], (0.0, 0.0), 0.9, list(boxes[ci])))
    if edit:
        edit(seats, boxes)
    reads = [SeatRead(s, 0.0, rows["head"], rows["middle"], rows["tail"]) for s, rows in seats.items()]
    return meta, dets, owner, TableRead(reads, list(problems))


def _crossed_copies(seats, boxes):
    """Seat 0's two 4d: each read card holds one corner of each copy."""
    head, middle = seats[0]["head"][0], seats[0]["middle"][0]
    head.boxes[:] = [boxes[0][0], boxes[3][1]]
    middle.boxes[:] = [boxes[3][0], boxes[0][1]]


def _read_twice(seats, boxes):
    """Seat 1's Jd read as two cards, one per corner."""
    tail = seats[1]["tail"]
    jd = next(c for c in tail if c.card == "Jd")
    tail.append(ReadCard("Jd", (0.0, 0.0), 0.9, [jd.boxes.pop()]))


def _read_twice_renamed(seats, boxes):
    """Seat 1's Jd read as two cards, the deck fix renaming the extra one (to the card not seen)."""
    tail = seats[1]["tail"]
    jd = next(c for c in tail if c.card == "Jd")
    tail.append(ReadCard("Qs", (0.0, 0.0), 0.9, [jd.boxes.pop()]))


def _moved(seats, boxes):
    """Seat 1's Kh read in seat 0's tail."""
    kh = seats[1]["tail"].pop()
    seats[0]["tail"].append(kh)


def _misnamed(seats, boxes):
    seats[0]["tail"][0] = ReadCard("3c", (0.0, 0.0), 0.9, seats[0]["tail"][0].boxes)


def _rows_swapped(seats, boxes):
    seats[0]["head"], seats[0]["tail"][:3] = seats[0]["tail"][:3], seats[0]["head"]


@pytest.mark.parametrize("edit, damaged, right, right_card", [
    (None, set(), 26, 26),
    (_crossed_copies, set(), 26, 26),  # the copies are interchangeable: nothing is wrong
    (_read_twice, {1}, 26, 26),  # every card placed right, but seat 1 shows 14
    (_read_twice_renamed, {1}, 26, 26),  # the same, the extra read under another name
    (_moved, {0, 1}, 25, 25),  # missing from seat 1, one too many in seat 0
    (_misnamed, {0}, 26, 25),  # in its place, under another name
    (_rows_swapped, {0}, 20, 20),
])
def test_damaged_seats_and_cards_right(edit, damaged, right, right_card):
    meta, dets, owner, table = _table(edit)
    detail: dict = {}
    r = score_scene(meta, dets, owner, table, detail)
    assert detail["damaged"] == damaged
    assert (r["right"], r["right_card"], r["exact"], r["cards"]) == (right, right_card, not damaged, 26)


def test_a_damaged_seat_is_flagged_only_by_a_problem_where_its_cards_lie():
    silent = score_scene(*_table(_read_twice, [Problem("row_length", "x", seat=0)]))
    flagged = score_scene(*_table(_read_twice, [Problem("row_length", "x", seat=1)]))
    assert (silent["silent"], flagged["silent"], flagged["damaged_flagged"]) == (True, False, 1)
