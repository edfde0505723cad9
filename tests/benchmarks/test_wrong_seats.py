"""benchmarks.wrong_seats: which stage lost each card a wrong seat lacks."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.metrics import ReadOn
from benchmarks.pipeline import truth_of
from benchmarks.wrong_seats import WrongSeats, card_kind, lacking, read_groups, what_lies_on
from vision.detector import IndexReads
from vision.types import Detection, ReadCard, SeatRead

ROWS = {"head": "As Ks Qs", "middle": "2h 3h 4h 5h 6h", "tail": "7c 8c 9c Tc Jc"}


def _box(k: int) -> list[float]:
    """The index box of the k-th card: 20 x 30 px, 100 px apart, none overlapping another."""
    return [100.0 * k, 0.0, 100.0 * k + 20, 30.0]


def _meta(hidden: str = "") -> dict:
    """One seat of the cards in ROWS, each showing one index (`_box`), except `hidden` (none shown)."""
    names = [(r, c) for r, text in ROWS.items() for c in text.split()]
    cards = [{"card": c, "seat": 0, "row": r, "indices": [{"box": _box(k), "visible": c != hidden}]}
             for k, (r, c) in enumerate(names)]
    return {"image": "t.jpg", "cards": cards}


def _k(card: str) -> int:
    return " ".join(ROWS.values()).split().index(card)


def _seat(rows: dict[str, str]) -> SeatRead:
    head, middle, tail = ([ReadCard(c, (0.0, 0.0), 0.9) for c in rows[r].split()] for r in ROWS)
    return SeatRead(0, 0.0, head, middle, tail)


SURE_7S, SURE_7C = ReadOn("sure", "7s", 0.95), ReadOn("sure", "7c", 0.91)


@pytest.mark.parametrize("on, card, kind", [
    ([], "7c", "hidden"),
    ([None], "7c", "unread"),
    ([None, None], "7c", "unread"),
    ([ReadOn("faint", "7c", 0.2)], "7c", "unsure"),
    ([ReadOn("unsure", "7d", 0.41), None], "7c", "unsure"),
    ([SURE_7S], "7c", "misread"),
    ([SURE_7S, ReadOn("unsure", "7c", 0.5)], "7c", "misread"),
    ([SURE_7S, SURE_7C], "7c", "placed"),
    ([SURE_7C], "7c", "placed"),
])
def test_card_kind(on, card, kind):
    assert card_kind(on, card) == kind


def test_a_card_read_right_but_renamed_by_the_deck_fix_is_renamed_not_placed():
    assert card_kind([ReadOn("sure", "BJ", 0.65)], "BJ", renamed=True) == "renamed"
    assert card_kind([ReadOn("sure", "SJ", 0.81)], "BJ", renamed=True) == "misread"


def test_wrong_seats_tell_a_deck_fix_rename_from_a_placement():
    meta = _meta()
    reads = IndexReads([Detection(c, tuple(_box(_k(c))), 0.95) for c in " ".join(ROWS.values()).split()], [])
    seat = _seat(ROWS)
    seat.head[2] = ReadCard("Qd", (0.0, 0.0), 0.6, changed_from="Qs")
    w = WrongSeats()
    w.add(meta, [(0, seat)], reads)
    assert (dict(w.by_kind), w.placement_alone) == ({"renamed": 1}, 0)


def test_lacking_names_each_row_card_the_read_seat_does_not_hold():
    truth = truth_of(_meta())[0]
    read = _seat({**ROWS, "head": "As Ks 9c", "tail": "7c 8c Qs Tc Jc"})  # 9c and Qs swapped rows
    assert lacking(truth, read) == [("head", "Qs"), ("tail", "9c")]
    assert len(lacking(truth, None)) == 13


def test_what_lies_on_each_shown_index_of_a_card():
    reads = IndexReads([Detection("6d", tuple(_box(_k("6h"))), 0.9)],
                       [Detection("Tc", tuple(_box(_k("Tc"))), 0.4)])
    meta, groups = _meta(hidden="Jc"), read_groups(reads)
    assert what_lies_on(meta, 0, "6h", groups) == [ReadOn("sure", "6d", 0.9)]
    assert what_lies_on(meta, 0, "Tc", groups) == [ReadOn("unsure", "Tc", 0.4)]
    assert what_lies_on(meta, 0, "9c", groups) == [None]
    assert what_lies_on(meta, 0, "Jc", groups) == []


def test_wrong_seats_count_each_kind_once_a_seat_and_placement_alone():
    meta = _meta(hidden="Jc")
    sure = [Detection(c, tuple(_box(_k(c))), 0.95) for text in ROWS.values() for c in text.split()
            if c not in ("6h", "Jc")]
    reads = IndexReads(sure + [Detection("6d", tuple(_box(_k("6h"))), 0.9)], [])
    misread = _seat({**ROWS, "middle": "2h 3h 4h 5h 6d", "tail": "7c 8c 9c Tc"})
    swapped = _seat({**ROWS, "head": "As Ks 9c", "tail": "7c 8c Qs Tc Jc"})
    extra = _seat({**ROWS, "tail": "7c 8c 9c Tc Jc 2d"})
    w = WrongSeats()
    w.add(meta, [(0, misread), (0, swapped), (0, extra)], reads)
    assert (w.seats, w.placement_alone, w.extra_alone) == (3, 1, 1)
    assert dict(w.by_kind) == {"misread": 1, "hidden": 1, "placed": 1}
    assert "misread 1, placed 1, renamed 0; placement alone 1, extra reads alone 1" in w.line()


def test_a_groups_wrong_seats_sum_its_sets():
    a = WrongSeats(seats=3, by_kind=Counter({"misread": 1, "placed": 2}), placement_alone=1, extra_alone=0)
    b = WrongSeats(seats=2, by_kind=Counter({"placed": 1, "unsure": 1}), placement_alone=0, extra_alone=1)
    a.merge(b)
    assert (a.seats, dict(a.by_kind), a.placement_alone, a.extra_alone) == (
        5, {"misread": 1, "placed": 3, "unsure": 1}, 1, 1)
    assert (b.seats, dict(b.by_kind)) == (2, {"placed": 1, "unsure": 1})
