"""Corner indices into physical cards: which detections are one card's two corners, and where a
card's second corner sits from its first in its seat's frame (the deck's corner offset)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from ..classes import CLASS_NAMES, JOKERS
from ..types import Detection
from .config import GeometryConfig
from .parts import SeatFrame, _Card, _side


def index_scale(dets: list[Detection]) -> float:
    """Median longer side of the detection boxes: one index height, the unit of all tolerances."""
    if not dets:
        return 1.0
    return float(np.median([_side(d.box) for d in dets]))


def merge_corners(dets: list[Detection], scale: float, cfg: GeometryConfig = GeometryConfig(),
                  pair_max: float | None = None) -> list[_Card]:
    """Pair same-card detections a card diagonal apart; each pair or single is one physical card.

    `pair_max` (default `cfg.pair_max`) is the farthest pair, in index heights."""
    pair_max = cfg.pair_max if pair_max is None else pair_max
    by_card: dict[str, list[int]] = {}
    for i, d in enumerate(dets):
        by_card.setdefault(d.card, []).append(i)
    used: set[int] = set()
    cards: list[_Card] = []
    for idx in by_card.values():
        pairs = []
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                pa, pb = np.array(dets[idx[a]].center), np.array(dets[idx[b]].center)
                local = (_side(dets[idx[a]].box) + _side(dets[idx[b]].box)) / 2  # perspective-proof
                dist = float(np.linalg.norm(pa - pb)) / local
                if cfg.pair_min <= dist <= pair_max:
                    pairs.append((abs(dist - cfg.pair_typical), idx[a], idx[b]))
        for _, a, b in sorted(pairs):
            if a in used or b in used:
                continue
            used |= {a, b}
            cards.append(_combine(dets[a], dets[b]))
    for i, d in enumerate(dets):
        if i not in used:
            cards.append(_single(d))
    return cards


SCORE_FLOOR = 1e-6
"""Least class score a corner brings to its card: one corner's zero cannot veto the other's read."""


def _combine(a: Detection, b: Detection) -> _Card:
    """Two corners of one card: the evidence adds up (`joint_read`)."""
    card, conf, scores = joint_read([a, b])
    return _Card(card, conf, [a.box, b.box], [np.array(a.center), np.array(b.center)], scores,
                 corners_disagree=a.card != b.card, dets=[a, b])


def joint_read(dets: list[Detection]) -> tuple[str, float, np.ndarray | None]:
    """The name, confidence and scores of one card read at several corners: the scores multiply (their
    geometric mean, each floored at `SCORE_FLOOR`, then renormalise the top); the confidence is the
    surest corner's when its name is one a corner read, else the joint score of the name. Without
    every corner's scores, the first corner's name and the surest confidence."""
    conf = max(d.confidence for d in dets)
    if any(d.scores is None for d in dets):
        return dets[0].card, conf, None
    joint = np.prod([np.clip(d.scores, SCORE_FLOOR, 1) for d in dets], axis=0) ** (1 / len(dets))
    top = int(joint.argmax())
    card = CLASS_NAMES[top]
    return card, float(conf if card in {d.card for d in dets} else joint[top]), joint.astype(np.float32)


def _single(d: Detection) -> _Card:
    return _Card(d.card, d.confidence, [d.box], [np.array(d.center)], d.scores, dets=[d])


def _detections(c: _Card) -> list[Detection]:
    """The detections a card is made of (rebuilt from its boxes when it was made by hand)."""
    if len(c.dets) == len(c.boxes):
        return list(c.dets)
    return [Detection(c.card, b, c.confidence, c.scores) for b in c.boxes]


def _all_reads(c: _Card) -> list[Detection]:
    """Every read of a card: the detections it is made of and a four-corner deck's folded corners."""
    return [*_detections(c), *c.folded]


def _split(cards: list[_Card], g: list[int], i: int, doubt: bool = False) -> None:
    """Undo a merge: card i becomes its first corner; its second is appended as a card of its own.
    `doubt`: the corners could still be one card's (split for the counts, or off the corner offset)."""
    c = cards[i]
    a, b = _detections(c)
    cards[i] = replace(_single(a), split=doubt)
    cards.append(replace(_single(b), split=doubt))
    g.append(len(cards) - 1)


def _pair_box_middle(cfg: GeometryConfig) -> np.ndarray:
    """Where a card's second corner sits from its first, in index heights, for a typical deck."""
    x1, y1, x2, y2 = cfg.pair_box
    return np.array([(x1 + x2) / 2, (y1 + y2) / 2])


def _pair_unit(a: _Card, b: _Card, fr: SeatFrame) -> float:
    """The length that measures two corners' offset: their own index height (see `_corner_unit`)."""
    return _corner_unit(a.card, (a.size + b.size) / 2, fr)


def _corner_unit(card: str, size: float, fr: SeatFrame) -> float:
    """`size`, the index height, but the seat's for a joker, whose index is a design of its own (often
    a small medallion: its own height would make its corner diagonal look far too long)."""
    return fr.scale if card in JOKERS and fr.scale else size


def _covered(
    top: np.ndarray, anchors: list[np.ndarray], fr: SeatFrame, unit: float, cfg: GeometryConfig,
    reach: float = 4.0,
) -> bool:
    """Whether a card whose top-left index is at `top` has another card's top-left just right of it
    (less than `reach` index heights) in its row (`anchors`: the seat's top-left index centres): that
    card lies over its bottom-right corner, which cannot show."""
    for o in anchors:
        d = o - top
        in_row = abs(float(d @ fr.down)) < cfg.row_gap / 2 * unit
        if in_row and 0.3 * unit < float(d @ fr.right) < reach * unit:
            return True
    return False


def _pair_possible(c: _Card, fr: SeatFrame, cfg: GeometryConfig) -> bool:
    """Whether a merged card's second corner lies where any card's could, seen in its seat's frame
    (`pair_box_one_deck`: loose enough for camera tilt and shear). Single corners always can."""
    anchor = fr.anchor(c)
    if len(c.points) != 2 or anchor is None:
        return True
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    other = c.points[1] if anchor is c.points[0] else c.points[0]
    v = (other - anchor) / _corner_unit(c.card, c.size, fr)
    return bool(x1 <= v @ fr.right <= x2 and y1 <= v @ fr.down <= y2)


def _corner_offset_of(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int]]], least: int = 3
) -> np.ndarray | None:
    """Where a card's second index sits from its first in its seat's frame (right, down; index
    heights): the median over the two-corner cards (each in its own seat's frame) whose name is not
    seen again in the seat (no doubt which corners pair), None with fewer than `least` of them."""
    vs = []
    for fr, g in frames:
        names = Counter(n for i in g for n in [cards[i].card] * len(cards[i].points))
        for i in g:
            c = cards[i]
            if len(c.points) == 2 and not c.corners_disagree and c.card not in JOKERS and names[c.card] == 2:
                a, b = sorted(c.points, key=lambda p: float(p @ fr.down))
                vs.append([(b - a) @ fr.right / c.size, (b - a) @ fr.down / c.size])
    return np.median(np.array(vs), axis=0) if len(vs) >= least else None


def _corner_offset(cards: list[_Card], frames: list[tuple[SeatFrame, list[int]]]) -> np.ndarray | None:
    """Where a card's second index sits from its first (right, down; index heights): the median
    over this photo's merged cards (the deck's design); None with fewer than three."""
    vs = []
    for fr, g in frames:
        for i in g:
            c = cards[i]
            anchor = fr.anchor(c)
            if len(c.points) == 2 and anchor is not None and c.card not in JOKERS:
                other = c.points[1] if anchor is c.points[0] else c.points[0]
                vs.append([(other - anchor) @ fr.right / c.size, (other - anchor) @ fr.down / c.size])
    if len(vs) < 3:
        return None
    return np.median(np.array(vs), axis=0)


def _corner_covered(cards: list[_Card], g: list[int], fr: SeatFrame, j: int) -> bool:
    """Whether card j's second corner lies under the next card of its row: in a fanned row only the
    last card (or a card of a row spread wider than a card) shows its bottom-right corner."""
    c = cards[j]
    anchor = fr.anchor(c)
    other = c.points[1] if anchor is c.points[0] else c.points[0]
    reach = float((other - anchor) @ fr.right)
    for row in fr.rows:
        members = [cards[g[k]] for k in row]
        if not any(o is c for o in members):
            continue
        xs = [float((fr.anchor(o) - anchor) @ fr.right) for o in members if o is not c]
        return any(0 < x < reach for x in xs)
    return False
