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

from ..one_index import overlaps_between
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
    width (`cfg.row_reach` index heights) beyond its ends (`row_at`); it is passed over where its box
    and an index read already are one index (`_read_here`: a box on its pip, one shifted half off it).
    Boxes, not a distance in index heights: under tilt a sideways seat's indices are wide and short,
    and the next card's lies closer than half an index's longer side.

    Within `cfg.pair_max` of a one-corner read of the same card it is that card's, not a card
    missing: the card is placed at whichever of its two reads puts its seat nearer 3/5/5 (a joker's
    art read surely as the joker, the joker's own index only unsurely: the art lies a row off), at
    its top-left one where the counts tie (`_move_if_nearer`)."""
    added: list[_Card] = []
    for d in sorted(unsure, key=lambda d: -d.confidence):
        p = np.array(d.center)
        if _read_here(cards, d):
            continue
        twin = _same_card_near(cards, d.card, p, cfg)
        spot = row_at(frames, p, cfg)
        if spot is None:
            continue
        fr, g, _ = frames[spot[0]]
        counts = [len(r) for r in fr.rows]
        if sum(counts) < cfg.fill_min_seat:
            continue  # not a hand laid out: loose cards
        if twin is not None:
            _move_if_nearer(fr, twin, d, spot[1])
            continue
        if count_error([n + (k == spot[1]) for k, n in enumerate(counts)]) >= count_error(counts):
            continue  # that row is not short of a card
        card = replace(_single(d), unsure=True)
        cards.append(card)
        g.append(len(cards) - 1)
        fr.add(card, p, spot[1])
        added.append(card)
    return added


def _move_if_nearer(fr: SeatFrame, card: _Card, d: Detection, row: int) -> None:
    """Move a one-corner card of `fr` to the read `d` (on row `row`) when its seat's counts come
    nearer 3/5/5 that way, or as near when `d` lies up and to the left of it, more than an index
    height up: then `d` is the card's top-left index, its anchor, and the sure read its second
    corner (a row's last card shows it, often on the next row's line)."""
    j = next((k for k, m in enumerate(fr.members) if m is card), None)
    if j is None or len(card.points) != 1:
        return
    now = next(r for r, members in enumerate(fr.rows) if j in members)
    counts = [len(r) for r in fr.rows]
    before = count_error(counts)
    after = count_error([n - (k == now) + (k == row) for k, n in enumerate(counts)])
    p = np.array(d.center)
    step = p - card.points[0]
    top_left = float(step @ fr.down) < -fr.scale and float(step @ fr.right) < 0
    if now == row or after > before or (after == before and not top_left):
        return
    fr.rows[now].remove(j)
    fr.anchors[j] = p
    fr.rows[row].append(j)
    fr.rows[row].sort(key=lambda i: float(fr.anchors[i] @ fr.right))
    card.points, card.boxes = [p], [d.box]


def _taken(cards: list[_Card], name: str, d: Detection, cfg: GeometryConfig) -> bool:
    """Whether the index of read `d`, taken as `name`, is one read already (`_read_here`) or a read
    card's other corner (`_same_card_near`)."""
    return _read_here(cards, d) or _same_card_near(cards, name, np.array(d.center), cfg) is not None


def _read_here(cards: list[_Card], d: Detection) -> bool:
    """Whether the index of read `d` is one read already: the boxes are one index by the detector's
    dedupe rule (`overlaps_between`: a box on its pip, half of it), or each holds the other's centre
    (a box shifted half off it). One box holding the other's centre is not enough: in a tight fan the
    next card's index can lie that close, each box half over the other."""
    corners = [(q, b) for c in cards if not c.gone for q, b in zip(c.points, c.boxes, strict=True)]
    if not corners:
        return False
    points = np.array([q for q, _ in corners], np.float64).reshape(-1, 2)
    boxes = np.array([b for _, b in corners], np.float64).reshape(-1, 4)
    box, centre = np.array([d.box], np.float64), np.asarray(d.center, np.float64)
    holds_centre = (boxes[:, :2] <= centre).all(1) & (centre <= boxes[:, 2:]).all(1)
    centre_held = (box[:, :2] <= points).all(1) & (points <= box[:, 2:]).all(1)
    return bool((overlaps_between(box, boxes)[0] | holds_centre & centre_held).any())


def _same_card_near(cards: list[_Card], name: str, p: np.ndarray, cfg: GeometryConfig) -> _Card | None:
    """A read card named `name` with an index within `cfg.pair_max` of its index heights of `p`."""
    for c in cards:
        if not c.gone and c.card == name and any(
                float(np.linalg.norm(q - p)) / c.size <= cfg.pair_max for q in c.points):
            return c
    return None


def row_hit(fr: SeatFrame, p: np.ndarray, cfg: GeometryConfig, unit: float | None = None
            ) -> tuple[float, int] | None:
    """How far `p` lies from the nearest line of `fr`'s rows that it is less than `cfg.attach` from
    and within `cfg.row_reach` of the ends of, and that row; None when it lies on none. Distances are
    in `unit` (the photo's index height) or, without one, the seat's own index height."""
    u = unit if unit is not None else max(fr.scale, 1e-9)
    x = float(p @ fr.right)
    best: tuple[float, int] | None = None
    y = float(p @ fr.down)
    for ri, line in enumerate(fr.lines):
        off = abs(y - line) / u
        if off >= cfg.attach or (best is not None and off >= best[0]) or not fr.rows[ri]:
            continue  # (the ends are looked up only for a line near enough: this runs per read per seat)
        xs = [float(fr.anchors[j] @ fr.right) for j in fr.rows[ri]]
        if min(xs) - cfg.row_reach * u <= x <= max(xs) + cfg.row_reach * u:
            best = (off, ri)
    return best


def row_at(
    frames: list[tuple[SeatFrame, list[int], np.ndarray]], p: np.ndarray, cfg: GeometryConfig,
) -> tuple[int, int] | None:
    """The seat and row `p` lies on (`row_hit`, in each seat's index heights), the nearest line first;
    None when it lies on no row."""
    hits = [(h[0], fi, h[1]) for fi, (fr, _, _) in enumerate(frames) if (h := row_hit(fr, p, cfg))]
    return min(hits, key=lambda h: h[0])[1:] if hits else None
