"""Which way a seat's indices face: a seat whose cards face two ways holds two seats' cards.

An index is printed taller than wide, so in the photo the index boxes of a seat facing the camera
or away from it are tall and those of a seat at the table's side (turned a quarter) are wide. Within
one seat the boxes' height over width moves by less than a factor of 1.5: perspective shrinks a far
seat's boxes alike, a "10" is wider than a K, and a fanned row turns its cards a little, each
further than the last. A seat cut that took in a neighbour's cards at a right angle (a crowded
table, a half-hidden seat) can still come to 13 cards in rows of 3/5/5 with nothing in the counts
or the deck to show it; its boxes then fall into two groups with a step between them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..types import Problem, ReadCard, SeatRead
from .config import GeometryConfig


def facing_split(tallness: Sequence[float], least: int, step: float) -> int | None:
    """How many of `tallness` (each a box's log(height / width)) lie below the widest step between
    two groups of at least `least` each, where that step is at least `step`; None where none is.

    >>> facing_split([0.3, -0.8, 0.2, -0.9, 0.4, -0.7], least=3, step=0.5)
    3
    >>> facing_split([0.4, 0.45, 0.5, 0.75, 0.8, 0.9], least=3, step=0.5) is None
    True
    """
    v = np.sort(np.asarray(tallness, float))
    if len(v) < 2 * least:
        return None
    gaps = np.diff(v)[least - 1:len(v) - least]
    k = int(np.argmax(gaps))
    return k + least if gaps[k] >= step else None


def tallness(card: ReadCard) -> float | None:
    """log(height / width) of the card's median index box in the photo; None for a card without one
    (placed by elimination)."""
    values = sorted(math.log(max(b[3] - b[1], 1e-6) / max(b[2] - b[0], 1e-6)) for b in card.boxes)
    return values[len(values) // 2] if values else None


def facing_problems(seats: Sequence[SeatRead], cfg: GeometryConfig) -> list[Problem]:
    """A `facing` problem for each seat of a hand (at least `cfg.frame_min_cards` cards: loose cards lie
    any way round) whose cards' index boxes fall into two groups facing ways a quarter turn apart
    (`facing_split`), naming the smaller group's cards."""
    out: list[Problem] = []
    for sr in seats:
        if len(sr.cards) < cfg.frame_min_cards:
            continue
        cards = [(c, t) for c in sr.cards if (t := tallness(c)) is not None]
        k = facing_split([t for _, t in cards], cfg.facing_least, cfg.facing_step)
        if k is None:
            continue
        ranked = sorted(cards, key=lambda ct: ct[1])
        few = ranked[:k] if k <= len(ranked) - k else ranked[k:]
        names = ", ".join(c.card for c, _ in few)
        out.append(Problem("facing", f"{sr.name}: {names} face another way than its other "
                           f"{len(ranked) - len(few)} cards: the seat may hold a neighbouring seat's "
                           "cards; check whose they are", sr.seat))
    return out
