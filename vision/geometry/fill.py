"""Unsure reads fill a seat's missing cards.

The namer's operating threshold keeps chips, card art and half boxes out of the seats, and with them
some real indices it was unsure of (an unfamiliar deck's glyphs, a far seat's small ones). Where a
seat's rows lack a card, a read under that threshold which lies on one of its rows' lines, where no
card is read yet, is most likely that card: it is taken in (the deck fix may still rename it) and
flagged for the player to check. Nowhere else does an unsure read count: a seat of 3/5/5 takes none.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..types import Detection
from .config import GeometryConfig
from .corners import _single
from .parts import SeatFrame, _Card
from .score import count_error


def fill_from_unsure(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int], np.ndarray]], unsure: list[Detection],
    cfg: GeometryConfig,
) -> list[_Card]:
    """Take unsure reads, the surest first, into the rows they lie on when that brings the seat closer
    to 3/5/5 (`cards` and the frames take them in); returns the cards added.

    A read lies on a row when its index is within `cfg.attach` of the row's line and at most a card's
    width (`cfg.fill_reach` index heights) beyond its ends (`_row_at`); it is passed over within
    `cfg.fill_apart` of an index read already, or within `cfg.pair_max` of a read of the same card
    (it would be that card's other corner, not a card missing)."""
    added: list[_Card] = []
    for d in sorted(unsure, key=lambda d: -d.confidence):
        p = np.array(d.center)
        if _taken(cards, d.card, p, cfg):
            continue
        spot = _row_at(frames, p, cfg)
        if spot is None:
            continue
        fr, g, _ = frames[spot[0]]
        counts = [len(r) for r in fr.rows]
        if sum(counts) < cfg.fill_min_seat:
            continue  # not a hand laid out: loose cards
        if count_error([n + (k == spot[1]) for k, n in enumerate(counts)]) >= count_error(counts):
            continue  # that row is not short of a card
        card = replace(_single(d), unsure=True)
        cards.append(card)
        g.append(len(cards) - 1)
        fr.add(card, p, spot[1])
        added.append(card)
    return added


def _taken(cards: list[_Card], name: str, p: np.ndarray, cfg: GeometryConfig) -> bool:
    """Whether an index at `p` read as `name` is one read already, or a read card's other corner."""
    for c in cards:
        if c.gone:
            continue
        for q in c.points:
            d = float(np.linalg.norm(q - p)) / c.size
            if d < cfg.fill_apart or (c.card == name and d <= cfg.pair_max):
                return True
    return False


def _row_at(
    frames: list[tuple[SeatFrame, list[int], np.ndarray]], p: np.ndarray, cfg: GeometryConfig,
) -> tuple[int, int] | None:
    """The seat and row whose line lies nearest `p` (in the seat's index heights), within
    `cfg.attach` of it and `cfg.fill_reach` of the row's ends; None when `p` lies on no row."""
    best: tuple[float, int, int] | None = None
    for fi, (fr, _, _) in enumerate(frames):
        unit = max(fr.scale, 1e-9)
        x = float(p @ fr.right)
        for ri, line in enumerate(fr.lines):
            off = abs(float(p @ fr.down) - line) / unit
            xs = [float(fr.anchors[j] @ fr.right) for j in fr.rows[ri]]
            inside = bool(xs) and min(xs) - cfg.fill_reach * unit <= x <= max(xs) + cfg.fill_reach * unit
            if off <= cfg.attach and inside and (best is None or off < best[0]):
                best = (off, fi, ri)
    return None if best is None else (best[1], best[2])
