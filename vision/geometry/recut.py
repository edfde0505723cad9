"""A whole seat whose rows miscount: its 13 cards cut into 3/5/5 by count, the moves flagged.

The rows are split where the anchors' projections across the seat jump (`rows._split_1d`, turned a
few degrees where that helps). A hand fanned wide or rows laid close leave no clean gap there, and
13 cards read right come out 2/6/5 or 3/4/6: a wrong seat whatever the cards. With exactly 13 live
cards the rows are 3/5/5 (or 5/5/3, the head kept at the end the split put it), and only which card
lies in which row is in doubt: the anchors are cut in their order across the seat, so the cards
that lie nearest the next row are the ones that cross to it.

It runs once the seats are chosen, not inside the placement: the row counts are what tells a good
seat cut from a bad one there, and a cut that made every 13 a 3/5/5 would hide that. The cards it
moves are flagged (`moved_problems`): the count put them in their row, not a gap in the photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..types import Problem, SeatRead
from .config import SEAT_SIZE, name_rows
from .parts import SeatFrame, _Card
from .score import count_error, named_counts


@dataclass(frozen=True)
class Moved:
    """A card the count cut put in another row than the gap split had: in frame `frame` (an index
    into the table's frames), the card `card`, from row `was` to row `row` (head, middle or tail);
    `seen`: the seat's head, middle and tail counts as split."""

    frame: int
    card: str
    was: str
    row: str
    seen: tuple[int, int, int]


def recut_whole_seats(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int], np.ndarray]], false_ids: set[int],
) -> list[Moved]:
    """Cut the rows of each seat whose live cards (not merged away, not false reads: `false_ids`) are
    13 and whose rows do not count 3/5/5, in place; the rest go to the row whose line lies nearest.
    Returns the cards moved."""
    moved: list[Moved] = []
    for k, (fr, g, _) in enumerate(frames):
        members = {j for j, i in enumerate(g) if not cards[i].gone and id(cards[i]) not in false_ids}
        counts = [sum(j in members for j in row) for row in fr.rows]
        if len(members) != SEAT_SIZE or count_error(counts) == 0:
            continue
        was = _row_names(fr.rows, counts)
        sizes = _cut(counts)
        rows = _count_cut(fr, sorted(members), sizes)
        _seat_the_rest(fr, rows, [j for row in fr.rows for j in row if j not in members])
        fr.rows = [sorted(row, key=lambda j: float(fr.anchors[j] @ fr.right)) for row in rows]
        fr.lines = [_line(fr, row) for row in fr.rows]
        laid = named_counts(counts)
        now = _row_names(fr.rows, list(sizes))
        moved += [Moved(k, fr.members[j].card, was[j], now[j], (laid["head"], laid["middle"], laid["tail"]))
                  for j in sorted(members) if was[j] != now[j]]
    return moved


def _row_names(rows: list[list[int]], counts: list[int]) -> dict[int, str]:
    """Each member's row name, the rows named by their live `counts` (`name_rows`)."""
    return {j: name for name, row in zip(name_rows(counts), rows, strict=True) for j in row}


def _cut(counts: list[int]) -> tuple[int, int, int]:
    """The row counts, far to near, that keep the head at the end the split's counts put it
    (`name_rows`): near where they name the nearest row the head, else far."""
    return (5, 5, 3) if name_rows(counts)[-1] == "head" else (3, 5, 5)


def _count_cut(fr: SeatFrame, members: list[int], sizes: tuple[int, int, int]) -> list[list[int]]:
    """`members` cut in their order across the seat (along `fr.down`) into rows of `sizes`."""
    order = sorted(members, key=lambda j: float(fr.anchors[j] @ fr.down))
    far, middle, _ = sizes
    return [order[:far], order[far:far + middle], order[far + middle:]]


def _seat_the_rest(fr: SeatFrame, rows: list[list[int]], rest: list[int]) -> None:
    """Put the members that are not live (false reads, folded corners) in the row whose line lies
    nearest their anchor across the seat: they leave after, but are read where they lie."""
    lines = [_line(fr, row) for row in rows]
    for j in rest:
        y = float(fr.anchors[j] @ fr.down)
        rows[min(range(len(rows)), key=lambda r: abs(lines[r] - y))].append(j)


def _line(fr: SeatFrame, row: list[int]) -> float:
    """A row's line: its members' mean anchor across the seat (along `fr.down`), as `rows` sets it."""
    return float(np.mean([fr.anchors[j] @ fr.down for j in row]))


def moved_problems(seat_reads: list[SeatRead], order: list[int], moved: list[Moved]) -> list[Problem]:
    """Each card the count cut moved, flagged in the row it now lies in (`order`: the frames' indices
    in seat order): nothing in the photo but the count put it there."""
    out: list[Problem] = []
    for m in moved:
        number = order.index(m.frame)
        laid = "/".join(map(str, m.seen))
        out.append(Problem("row_by_count", f"{seat_reads[number].name} {m.row}: {m.card} taken in from the "
                           f"{m.was} to make the rows 3/5/5 (as laid they read {laid}): check which card "
                           "lies here", number, m.row, m.card))
    return out
