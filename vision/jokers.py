"""At a table that plays without jokers, no misread card is ever renamed to one.

The deck fix (`geometry.fix_with_deck`) renames a card seen twice to its most probable free card,
and a 52-card deck there has room for one joker of each colour, because the reader does not know
the rules. Told the table has no jokers, each detection's class scores lose the jokers (and every
card keeps at least `FLOOR`), so a free card always costs the fix less than a joker: an optimal
assignment that used a joker while a card was free could swap them and cost less. A corner that
was itself read as a joker keeps that read (the rules engine then says the table has none); it
only loses the other joker as a second guess.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .classes import CLASS_INDEX, JOKERS
from .types import Detection

FLOOR = 1e-6
"""Least score a card keeps: above the deck fix's own floor (1e-9), below any real second guess."""


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
                scores[CLASS_INDEX[joker]] = 0.0
        out.append(dataclasses.replace(d, scores=scores))
    return out
