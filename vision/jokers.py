"""At a table that plays without jokers, no misread card is ever renamed to one.

The deck fix (`geometry.fix_with_deck`) renames a card seen twice to its most probable free card,
and a 52-card deck there has room for one joker of each colour, because the reader does not know
the rules. Told the table has no jokers, every detection's jokers get the same tiny score
`JOKER_SCORE` and every other card keeps at least `FLOOR`, ten times more, so a free card always
costs the fix less than a joker. When a photo holds more reads than the deck has cards (a false
read), the one the fix must then turn into a joker is the read whose own names are least likely,
the false read, and never a card read surely: the score is the same for a one-corner read and a
two-corner card (whose scores the pairing step floors at `SCORE_FLOOR`), so no read is the cheaper joker
for how many corners it showed.

A read whose top class is a joker names no card of such a table: `at_table_without_jokers` reads it
as its most probable other card, with P(card) that card's share of it (the namer's joker mass counts
as not a card). A real index misread as a joker then comes back as its runner-up, surely or
unsurely as the scores say; a red dot of a tablecloth or a splash of card art, which the namers can
take for the big joker with nothing else in view, falls under the unsure floor and is dropped, and
never becomes a card, a seat's extra row or a rename of another seat's card.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .classes import CLASS_INDEX, CLASS_NAMES, JOKERS
from .detector import IndexReads
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


def at_table_without_jokers(reads: IndexReads, conf: float, unsure_conf: float) -> IndexReads:
    """One photo's reads (`Detector.read_indices`) at a table that plays without jokers: each read
    as its most probable card other than a joker (`_without_joker_top`), its jokers' scores made
    `JOKER_SCORE` (`without_jokers`), and sorted again by the detector's thresholds: sure at
    P(card) >= `conf`, unsure from `unsure_conf`, else dropped; a faint read that named a joker is
    dropped (it said "no card of this table")."""
    named = [_without_joker_top(d) for d in (*reads.sure, *reads.unsure)]
    kept = without_jokers([d for d in named if d.confidence >= unsure_conf])
    faint = without_jokers([d for d in reads.faint if d.card not in JOKERS])
    return IndexReads(sorted((d for d in kept if d.confidence >= conf), key=lambda d: -d.confidence),
                      sorted((d for d in kept if d.confidence < conf), key=lambda d: -d.confidence), faint)


def _without_joker_top(d: Detection) -> Detection:
    """A read whose top class is a joker, as its most probable other card: P(card) scaled by that
    card's share over the joker's (`scores` are shares of P(card), background left out). Any other
    read, or one without scores, as it is."""
    if d.card not in JOKERS or d.scores is None:
        return d
    s = np.asarray(d.scores, dtype=np.float64)
    others = [k for k, name in enumerate(CLASS_NAMES) if name not in JOKERS]
    best = others[int(np.argmax(s[others]))]
    share = s[best] / max(float(s[CLASS_INDEX[d.card]]), 1e-12)
    return dataclasses.replace(d, card=CLASS_NAMES[best], confidence=float(d.confidence * min(share, 1.0)))
