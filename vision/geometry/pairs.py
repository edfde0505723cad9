"""Corner pairs checked inside a one-deck seat, once its frame is known: merged or split where the
seat's frame says two corners are (or are not) one card; and pairs split across two seats. (Two
decks: `copies`.)"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .config import GeometryConfig
from .corners import (
    _combine,
    _covered,
    _detections,
    _pair_box_middle,
    _pair_possible,
    _pair_unit,
    _split,
)
from .parts import SeatFrame, _Card


def _split_across_seats(cards: list[_Card], groups: list[list[int]]) -> bool:
    """Two copies of a card in neighbouring seats can sit a card diagonal apart: `merge_corners`, which
    runs before the seats are known, may pair them. Such a card lies between the seats, in one of
    them; one of its corners is then much nearer another seat's cards than its own seat's (a true
    corner lies among its seat's cards): split it, and that corner joins the other seat. Returns
    whether anything was split."""
    split = False
    pts = owner = seat = None  # every corner of every seated card, rebuilt after a split
    for k, g in enumerate(groups if len(groups) > 1 else []):
        for i in list(g):
            c = cards[i]
            if len(c.points) != 2:
                continue
            if pts is None:
                pts = np.array([q for h in groups for j in h for q in cards[j].points], float).reshape(-1, 2)
                owner = np.array([j for h in groups for j in h for _ in cards[j].points], int)
                seat = np.array([s for s, h in enumerate(groups) for j in h for _ in cards[j].points], int)
            for n, p in enumerate(c.points):
                dist = np.where(owner != i, np.linalg.norm(pts - p, axis=1), math.inf)
                near = [float(dist[seat == s].min(initial=math.inf)) for s in range(len(groups))]
                other = min((kk for kk in range(len(groups)) if kk != k), key=lambda kk: near[kk])
                if near[other] < 0.5 * near[k]:
                    _split(cards, g, i)
                    moved = i if n == 0 else g[-1]
                    g.remove(moved)
                    groups[other].append(moved)
                    split = True
                    pts = None
                    break
    return split


def _merge_in_seat(cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig) -> bool:
    """With one deck, two single-corner reads of a card in one seat that sit like its two corners
    (the second below and right of the first in the seat's frame) are one card, even when camera
    tilt stretches them past `pair_max`. Returns whether anything merged."""
    merged = False
    for a, b in _merge_options(cards, g, fr, cfg):
        if not (cards[a].gone or cards[b].gone):
            _merge_pair(cards, g, a, b)
            merged = True
    return merged


def _merge_options(
    cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig,
) -> list[tuple[int, int]]:
    """Names read exactly twice in a seat, as single corners (no doubt which two), whose two reads
    may be one card's two corners (the second in `pair_box_one_deck` from the first, in the seat's
    frame), the most card-like first (nearest the middle of `pair_box`; jokers measured in the seat's
    index heights)."""
    by: dict[str, list[int]] = {}
    for i in g:
        if len(cards[i].points) == 1:
            by.setdefault(cards[i].card, []).append(i)
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    middle = _pair_box_middle(cfg)
    out: list[tuple[float, int, int]] = []
    for idx in by.values():
        if len(idx) != 2:
            continue
        a, b = sorted(idx, key=lambda k: float(cards[k].points[0] @ fr.down))
        v = (cards[b].points[0] - cards[a].points[0]) / _pair_unit(cards[a], cards[b], fr)
        v = np.array([v @ fr.right, v @ fr.down])
        if x1 <= v[0] <= x2 and y1 <= v[1] <= y2:
            out.append((float(np.max(np.abs(v - middle))), a, b))
    return [(a, b) for _, a, b in sorted(out)]


def _merge_pair(cards: list[_Card], g: list[int], a: int, b: int) -> None:
    """Cards a and b (single corners) become one card, kept at a; b is marked gone and leaves g."""
    cards[a] = _combine(_detections(cards[a])[0], _detections(cards[b])[0])
    cards[b] = replace(cards[b], gone=True)  # a copy: a rejected trial leaves the original
    g.remove(b)


def _split_impossible(cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig) -> None:
    """Split pairs whose second corner is nowhere a card's could be (`pair_box_one_deck`)."""
    for i in list(g):
        if not _pair_possible(cards[i], fr, cfg):
            _split(cards, g, i)


def second_corner_reads(
    cards: list[_Card], g: list[int], fr: SeatFrame, offset: np.ndarray, cfg: GeometryConfig,
    overfull: bool = False,
) -> list[tuple[int, int]]:
    """(r, c): a seat's single-corner reads r that lie where another single-corner card c shows its
    second corner (`offset` from c's index in the seat's frame, within `cfg.second_corner_reach` of
    c's index heights) under another name. Such a read is mostly c's second corner misread (often
    half covered by the next row, and upside down to the seat): the one-deck fix may fold it into c
    (`deck.fix_with_deck`) instead of renaming it to a card no seat shows. A nearer row's index
    lying there is a candidate too; its own scores, which give c's name next to nothing, keep it
    from folding.

    A corner that the next card of c's row lies over (`corners._covered`) shows only where the fan
    leaves it in view beside that card (spread wide or tilted), and a read there is mostly the next
    card's or the next row's index, a card of its own; it is a candidate only where the seat is
    `overfull` (one copy of each card, more than 13 reads: one of them is no card of its own), so
    that a misread top-left index whose second corner reads its card is one card in its own row,
    not that corner alone a row too low.
    """
    singles = [i for i in g
               if not cards[i].gone and len(cards[i].points) == 1 and fr.anchor(cards[i]) is not None]
    out = []
    for c in singles:
        a = fr.anchor(cards[c])
        size = cards[c].size
        corner = a + (offset[0] * fr.right + offset[1] * fr.down) * size
        others = [p for m, p in zip(fr.members, fr.anchors, strict=True) if m is not cards[c]]
        if not overfull and _covered(a, others, fr, size, cfg, reach=float(offset[0]) + 0.4):
            continue
        for r in singles:
            if r != c and cards[r].card != cards[c].card and cards[r].scores is not None:
                if float(np.linalg.norm(cards[r].points[0] - corner)) <= cfg.second_corner_reach * size:
                    out.append((r, c))
    return out
