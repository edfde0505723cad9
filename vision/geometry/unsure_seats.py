"""A seat the sure reads alone do not make: a far, blurred seat read half surely, half unsurely.

The namer's operating threshold keeps unsure reads out of the placement (they are mostly card art,
chips and half boxes). On a blurred photo the far seat's indices are read unsurely too: its few sure
reads are too few to make a seat, and they are left in no seat, taken into a neighbour's, which
comes out over-full, or made a seat too short to be filled (`fill`). Then the unsure reads that lie
on no placed seat's rows are placed with the sure ones, and that placement is kept when it scores
lower (`_Placement.error`: an unsure read left in no seat costs nothing, as it did unplaced); its
unsure cards are flagged where they are seated.
"""

from __future__ import annotations

import numpy as np

from ..types import Detection
from .config import SEAT_SIZE, GeometryConfig
from .fill import _read_here, row_at
from .place import _Placement, best_placement
from .rows import _layout_error


def with_unsure_seats(
    best: _Placement, dets: list[Detection], unsure: list[Detection], seats: int | None, deck: int | None,
    width: int, height: int, scale: float, cfg: GeometryConfig, extra_suit: str | None = None,
) -> _Placement:
    """`best` (placed from the sure reads `dets`), or the placement of the sure and the loose unsure
    reads together where that scores lower, its unsure reads in no seat dropped. Tried where `best` has
    a seat of more than 13 or at least `cfg.seat_min` sure cards in no seat; else, where it has a seat
    of fewer than `cfg.fill_min_seat` beside a seat of more, with the unsure reads near its cards (within
    `cfg.stray_link`) only, and kept only when every seat it puts an unsure read in comes to 3/5/5:
    unsure reads are weak evidence, believed there only where they complete a hand (a seat of 9 is
    otherwise left to the unseen cards of a full table, `unseen`)."""
    sizes = [sum(len(r) for r in fr.rows) for fr, _, _ in best.frames]
    troubled = max(sizes, default=0) > SEAT_SIZE or len(best.strays) >= cfg.seat_min
    hands = [f for f, n in zip(best.frames, sizes, strict=True) if n >= cfg.fill_min_seat]
    # a seat too short to fill beside laid-out hands is a hand partly read; with no hand beside it, it
    # is loose cards, among which unsure reads are mostly not cards
    short = [np.array(best.cards[i].center) for (_, g, _), n in zip(best.frames, sizes, strict=True)
             if n < cfg.fill_min_seat for i in g] if hands else []
    if not unsure or not (troubled or short):
        return best
    loose = [d for d in unsure if not _read_here(best.cards, d)
             and row_at(hands, np.array(d.center), cfg) is None]
    if not troubled:  # a seat too short to fill: its own unsure reads lie among its cards
        loose = [d for d in loose if min(float(np.linalg.norm(np.array(d.center) - c)) for c in short)
                 <= cfg.stray_link * scale]
    if not loose:
        return best
    alt = best_placement([*dets, *loose], seats, deck, width, height, scale, cfg,
                         frozenset(id(d) for d in loose), extra_suit)
    if alt.error >= best.error or not troubled and not _whole_where_unsure(alt):
        return best
    for i in alt.strays:
        if alt.cards[i].unsure:
            alt.cards[i].gone = True
    alt.strays = [i for i in alt.strays if not alt.cards[i].gone]
    return alt


def _whole_where_unsure(p: _Placement) -> bool:
    """Every seat of `p` holding an unsure card reads 3/5/5."""
    return all(_layout_error(fr) == 0 for fr, g, _ in p.frames if any(p.cards[i].unsure for i in g))
