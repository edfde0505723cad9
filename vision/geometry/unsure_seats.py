"""A seat the sure reads alone do not make: a far, blurred seat read half surely, half unsurely.

The namer's operating threshold keeps unsure reads out of the placement (they are mostly card art,
chips and half boxes). On a blurred photo the far seat's indices are read unsurely too: its few sure
reads are too few to make a seat, and they are left in no seat or taken into a neighbour's, which
comes out over-full. Then the unsure reads that lie on no placed seat's rows are placed with the sure
ones, and that placement is kept when it scores lower (`_Placement.error`: an unsure read left in no
seat costs nothing, as it did unplaced); its unsure cards are flagged where they are seated.
"""

from __future__ import annotations

import numpy as np

from ..types import Detection
from .config import SEAT_SIZE, GeometryConfig
from .fill import _read_here, row_at
from .place import _Placement, best_placement


def with_unsure_seats(
    best: _Placement, dets: list[Detection], unsure: list[Detection], seats: int | None, deck: int | None,
    width: int, height: int, scale: float, cfg: GeometryConfig,
) -> _Placement:
    """`best` (placed from the sure reads `dets`), or the placement of the sure and the loose unsure
    reads together where that scores lower, its unsure reads in no seat dropped; tried only where
    `best` has a seat of more than 13 or at least `cfg.seat_min` sure cards in no seat."""
    sizes = [sum(len(r) for r in fr.rows) for fr, _, _ in best.frames]
    if not unsure or not (max(sizes, default=0) > SEAT_SIZE or len(best.strays) >= cfg.seat_min):
        return best
    hands = [f for f, n in zip(best.frames, sizes, strict=True) if n >= cfg.fill_min_seat]
    loose = [d for d in unsure if not _read_here(best.cards, d)
             and row_at(hands, np.array(d.center), cfg) is None]
    if not loose:
        return best
    alt = best_placement([*dets, *loose], seats, deck, width, height, scale, cfg,
                         frozenset(id(d) for d in loose))
    if alt.error >= best.error:
        return best
    for i in alt.strays:
        if alt.cards[i].unsure:
            alt.cards[i].gone = True
    alt.strays = [i for i in alt.strays if not alt.cards[i].gone]
    return alt
