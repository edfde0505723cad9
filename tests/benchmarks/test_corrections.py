"""benchmarks.corrections: the fewest edits that make a read table the true one."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.corrections import corrections


def _rows(head: str = "", middle: str = "", tail: str = "") -> dict[str, Counter]:
    return {"head": Counter(head.split()), "middle": Counter(middle.split()), "tail": Counter(tail.split())}


TRUTH = [_rows("As Ks Qs", "2h 3h 4h 5h 6h", "7c 8c 9c Tc Jc"),
         _rows("Ad Kd Qd", "2s 3s 4s 5s 6s", "7h 8h 9h Th Jh")]
SHORT = _rows("As Ks", "2h 3h 4h 5h 6h", "7c 8c 9c Tc Jc")  # the first seat, its Qs unread


@pytest.mark.parametrize("read, matched, outside, edits", [
    ([TRUTH[1], TRUTH[0]], [1, 0], None, 0),                                   # right, seats in any order
    ([_rows("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc"), TRUTH[1]], [0, 1], None, 1),  # a rename
    ([SHORT, TRUTH[1]], [0, 1], None, 1),                                        # an add
    ([SHORT, TRUTH[1]], [0, 1], Counter(["Qs", "Jd"]), 1),                       # Qs in from outside
    ([_rows("As Ks Qs 9d", "2h 3h 4h 5h 6h", "7c 8c 9c Tc Jc"), TRUTH[1]], [0, 1], None, 1),  # a removal
    # two rows swapped: every card of both moves
    ([_rows("As Ks Qs", "7c 8c 9c Tc Jc", "2h 3h 4h 5h 6h"), TRUTH[1]], [0, 1], None, 10),
    # a card in the other seat's row: one move
    ([_rows("As Ks Qs", "2h 3h 4h 5h", "7c 8c 9c Tc Jc"),
      _rows("Ad Kd Qd", "2s 3s 4s 5s 6s 6h", "7h 8h 9h Th Jh")], [0, 1], None, 1),
    # a seat not read: its 13 cards added, or moved in from a read seat no true seat matched
    ([TRUTH[0]], [0, None], None, 13),
    ([TRUTH[0], _rows("2c 3c 4c")], [0, None], None, 16),
])
def test_corrections(read, matched, outside, edits):
    assert corrections(TRUTH, read, matched, outside) == edits
