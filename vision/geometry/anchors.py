"""Step-backs: a card seen by its bottom-right corner only is anchored where its top-left would be."""

from __future__ import annotations

import numpy as np

from .config import GeometryConfig
from .corners import _pair_box_middle
from .parts import _Card


def _virtual_anchors(cards: list[_Card], anchor: list[np.ndarray], right: np.ndarray, down: np.ndarray,
                     scale: float, cfg: GeometryConfig, sure_side: bool = False,
                     offset: np.ndarray | None = None) -> list[tuple[int, np.ndarray]]:
    """A card seen by one corner only may show its bottom-right one (its top cut off by the photo's
    edge or covered): when stepping back by the deck's corner offset (learnt from this seat's
    two-corner cards, or the photo's `offset` when it has fewer than two) puts it on a row line where
    it is not now, use that point as its top-left. `anchor` holds each card's anchor as seen; the
    sure moves are made in it.

    Returns the moves left open (the caller keeps them if the counts come closer to 3/5/5): a point
    just off its line whose step back lands mid-row, in a row spread out enough that its
    bottom-right corner would show, or at a row's end; and a step back that lands near a row only
    within `cfg.loose_step` times the tolerance (the offset learnt on near cards misses far ones
    under a close-up's perspective), also only where no card of that row would lie over the corner."""
    merged = [k for k, c in enumerate(cards) if len(c.points) == 2]
    singles = [k for k, c in enumerate(cards) if len(c.points) == 1]
    if not singles:
        return []
    if len(merged) < 2 and offset is None:  # nothing learnt: the middle of where any deck puts it
        offset = _pair_box_middle(cfg)
    vs = []
    for k in merged:
        c, a = cards[k], anchor[k]
        other = c.points[1] if a is c.points[0] else c.points[0]
        vs.append([(other - a) @ right / c.size, (other - a) @ down / c.size])
    vr, vd = np.median(np.array(vs), axis=0) if len(merged) >= 2 else offset  # else: the photo's
    tol = cfg.line_sigma * 2 * scale
    optional: list[tuple[int, np.ndarray]] = []
    for k in singles:
        c = cards[k]
        p = c.points[0]
        anchors = np.array([a for j, a in enumerate(anchor) if j != k]).reshape(-1, 2)
        if not len(anchors):  # no other card placed: no row line to step onto
            continue
        others = anchors @ down
        y, y_alt = float(p @ down), float(p @ down) - vd * c.size
        d, d_alt = np.min(np.abs(others - y)), np.min(np.abs(others - y_alt))
        if d <= tol:  # on a row line already
            continue
        virtual = p - (vr * right + vd * down) * c.size
        # only a row's last card shows its bottom-right corner, unless the row is spread out (the next
        # card clears the corner): a step back onto a row where a card would lie over that corner is
        # no step back
        line = others[int(np.argmin(np.abs(others - y_alt)))]
        dx = anchors[np.abs(others - line) <= tol] @ right - float(virtual @ right)
        ends = bool(np.all(dx <= 0.5 * c.size))
        clear = not np.any((dx > 0.3 * c.size) & (dx < (vr + 0.4) * c.size))
        if tol < d_alt <= cfg.loose_step * tol:
            # under strong perspective (a close-up) the offset learnt on near cards overshoots or
            # falls short on far ones: a looser landing is tried too, kept only if the counts improve
            if clear or ends:
                optional.append((k, virtual))
        elif d_alt <= tol:
            # a point just off a row line (a top-left pushed out of line) moves only where its corner
            # could show. That needs the seat's side known (a seat alone may be read turned half round).
            if d > 2 * tol or not sure_side:
                anchor[k] = virtual
            elif clear or ends:
                optional.append((k, virtual))
    return optional
