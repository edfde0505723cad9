"""A seat that comes to 3/5/5 with a neighbour's cards in a row must still be flagged.

Pinned on the reads of one rendered photo (`tests/data/vision/reads_9191_000001.json`: the shipped
reader's sure and unsure reads, with the photo's true rows): a side seat's head, a column of three
cards, was cut into the seat above it, whose own cards shifted rows so that it read 13 cards in
3/5/5 with no problem named. Its "head" runs across that seat's rows, not along them."""

from __future__ import annotations

from benchmarks.pipeline import ROWS, rows_of
from tests.vision.table_checks import own_rows, pinned, wrong_rows


def _foreign_rows(truth: dict, table) -> set[tuple[int, str]]:
    """Rows of two or more cards that all belong to one row of a true seat other than the seat's own
    (`own_rows`): another seat's row cut into this one."""
    own, out = own_rows(truth, table), set()
    for s in table.seats:
        for r, cards in rows_of(s).items():
            if sum(cards.values()) >= 2 and any(
                    not cards - rows[q] and not cards & own[s.seat][q]
                    for rows in truth.values() for q in ROWS):
                out.add((s.seat, r))
    return out


def test_every_seat_read_wrong_is_flagged():
    truth, table = pinned("reads_9191_000001.json")
    wrong = {seat for seat, _ in wrong_rows(truth, table)}
    flagged = {p.seat for p in table.problems}
    assert wrong <= flagged, (wrong, [(p.kind, p.seat, p.row) for p in table.problems])


def test_a_neighbours_row_cut_into_a_seat_is_named_and_rows_read_right_are_not():
    """Holds however the geometry reads the photo: a row made of another seat's row is named, and the
    flag lies on no row read right."""
    truth, table = pinned("reads_9191_000001.json")
    across = {(p.seat, p.row) for p in table.problems if p.kind == "row_line"}
    assert _foreign_rows(truth, table) <= across <= wrong_rows(truth, table), across
