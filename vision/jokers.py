"""At a table that plays without jokers, no misread card is ever renamed to one.

The deck fix (`geometry.fix_with_deck`) renames a card seen twice to its most probable free card,
and a 52-card deck there has room for one joker of each colour, because the reader does not know
the rules. Told the table has no jokers, every detection's jokers get the same tiny score
`JOKER_SCORE` and every other card keeps at least `FLOOR`, ten times more, so a free card always
costs the fix less than a joker. When a photo holds more reads than the deck has cards (a false
read), the one the fix must then turn into a joker is the read whose own names are least likely,
the false read, and never a card read surely: the score is the same for a one-corner read and a
two-corner card (whose scores the pairing step floors at `SCORE_FLOOR`), so no read is the cheaper joker
for how many corners it showed. A corner that was itself read as a joker keeps that read (the
rules engine then says the table has none); it only loses the other joker as a second guess.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .classes import CLASS_INDEX, JOKERS
from .geometry.corners import SCORE_FLOOR
from .types import Detection

JOKER_SCORE = SCORE_FLOOR
"""A joker's score on every read at a table without them: the floor the pairing step gives a
two-corner card's classes, so one-corner and two-corner reads are alike to the deck fix."""
FLOOR = 10 * SCORE_FLOOR
"""Least score a card keeps: ten times a joker's, below any real second guess."""


def without_jokers(dets: list[Detection]) -> list[Detection]:
    """`dets` with the jokers taken out of their class scores (see the module docstring)."""
    out = []
    for d in dets:
        if d.scores is None:
            out.append(d)
            continue
        scores = np.maximum(np.asarray(d.scores, dtype=np.float32), np.float32(FLOOR))
        for joker in JOKERS:
            if d.card != joker:
                scores[CLASS_INDEX[joker]] = JOKER_SCORE
        out.append(dataclasses.replace(d, scores=scores))
    return out
