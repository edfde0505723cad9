"""One seat's rows: the row direction (a projection profile), the player's side, each card's
top-left index (its anchor), and a 1-D split of the anchors into rows named head, middle and tail."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from .anchors import _virtual_anchors
from .config import SEAT_SIZE, GeometryConfig, name_rows
from .corners import _pair_possible
from .parts import SeatFrame, _Card
from .score import Hypothesis, count_error, score


def row_direction(
    points: np.ndarray, scale: float, sigma: float = 0.25, owner: np.ndarray | None = None
) -> float:
    """The angle (degrees, 0..180) along which the points line up best (projection profile).

    `owner` marks points of the same card: a card's two corners always line up along its diagonal,
    which would otherwise outvote the rows when every card shows both corners.

    >>> pts = np.array([[x * 30.0, y * 100.0 + x * 5] for y in range(3) for x in range(5)])
    >>> round(row_direction(pts, 20.0), 1)
    9.5
    """
    return row_directions(points, scale, sigma, owner, rivals=0)[0]


def row_directions(
    points: np.ndarray, scale: float, sigma: float = 0.25, owner: np.ndarray | None = None,
    rivals: int = 4, ratio: float = 0.6, apart: float = 4.0,
) -> list[float]:
    """The best line-up angle (as `row_direction`), then up to `rivals` other peaks of the profile
    that score at least `ratio` of the best and lie `apart` degrees from every angle kept, best first.

    Cards laid out without overlap stand in a grid: its columns and diagonals line up almost as well
    as its rows, so the profile alone can pick the wrong peak; the caller decides among these by what
    a row must be (3/5/5, each card's second corner below and right of its first).
    """
    if len(points) < 2:
        return [0.0]
    s2 = (sigma * scale) ** 2

    def score(angles: np.ndarray) -> np.ndarray:
        a = np.radians(angles)
        normal = np.stack([-np.sin(a), np.cos(a)])  # 2 x A
        y = points @ normal  # n x A
        d = y[:, None, :] - y[None, :, :]
        w = np.exp(-(d**2) / (2 * s2))
        if owner is not None:
            w = w * (owner[:, None] != owner[None, :])[:, :, None]
        return w.sum(axis=(0, 1))

    coarse = np.arange(0.0, 180.0, 1.0)
    profile = score(coarse)
    peaks = [i for i in range(len(coarse)) if profile[i] >= profile[i - 1] and profile[i] >= profile[
        (i + 1) % len(coarse)]]
    peaks.sort(key=lambda i: -profile[i])
    top = float(profile[peaks[0]]) if peaks else 0.0
    kept: list[float] = []
    for i in peaks:
        if len(kept) > rivals or profile[i] < ratio * top:
            break
        fine = coarse[i] + np.arange(-1.0, 1.0001, 0.1)
        angle = float(fine[int(np.argmax(score(fine)))] % 180.0)
        if all(min(abs(angle - k), 180.0 - abs(angle - k)) >= apart for k in kept):
            kept.append(angle)
    return kept or [0.0]


def _split_1d(values: np.ndarray, gap: float, max_groups: int = 3) -> list[list[int]]:
    """Indices grouped where the sorted values jump by more than `gap`; at most `max_groups`.

    Extra groups are folded into a neighbour smallest first, so a stray point makes one row too long
    (which is reported) instead of two rows merging.

    >>> _split_1d(np.array([0.0, 0.1, 5.0, 5.2, 10.0, 10.1, 13.0]), 1.0)
    [[0, 1], [2, 3], [4, 5, 6]]
    """
    order = np.argsort(values, kind="stable")
    v = values[order].tolist()
    groups: list[list[int]] = [[int(order[0])]] if len(order) else []
    for k in range(1, len(order)):
        if v[k] - v[k - 1] > gap:
            groups.append([])
        groups[-1].append(int(order[k]))
    if len(groups) <= max_groups:
        return groups
    x = values.tolist()  # each group is kept sorted: its first value is its least, its last its most
    while len(groups) > max_groups:
        gaps = [x[groups[i + 1][0]] - x[groups[i][-1]] for i in range(len(groups) - 1)]
        i = min(range(len(groups)), key=lambda j: (len(groups[j]), min(
            gaps[j - 1] if j > 0 else math.inf, gaps[j] if j < len(gaps) else math.inf)))
        left = gaps[i - 1] if i > 0 else math.inf
        right = gaps[i] if i < len(gaps) else math.inf
        j = i - 1 if left <= right else i + 1
        groups[j] = groups[j] + groups[i] if j < i else groups[i] + groups[j]
        del groups[i]
    return groups


def fit_rows(
    cards: list[_Card], scale: float, toward: np.ndarray | None, cfg: GeometryConfig = GeometryConfig(),
    offset: np.ndarray | None = None,
) -> SeatFrame:
    """Find one seat's row direction, its player's side, each card's top-left index, and the rows.

    `toward` is the direction from the seat to the table centre (None for a seat alone); the player
    sits on the other side. A seat alone uses the bottom-right corners it sees (they lie below and to
    the right of their row in the player's frame) and, failing those, assumes it reads upright.
    `offset`: the photo's corner offset, for a seat with too few two-corner cards to show its own.
    """
    if cards:  # the seat's own index size: under camera tilt near seats look bigger than far ones
        scale = float(np.median([c.size for c in cards]))
    pts = np.array([p for c in cards for p in c.points]).reshape(-1, 2)
    owner = np.array([i for i, c in enumerate(cards) for _ in c.points])
    angles = row_directions(pts, scale, cfg.line_sigma, owner, rivals=cfg.direction_rivals,
                            ratio=cfg.direction_ratio)
    # The profile's best direction, then its rivals, each read whole and scored as one reading: a
    # grid's columns or diagonals can come to 3/5/5 by chance, but then its cards' second corners lie
    # where no card's could (`impossible`, weighed above a row count).
    tried: list[tuple[float, SeatFrame]] = []
    for rank, angle in enumerate(angles):
        fr = _fit_along(cards, math.radians(angle), scale, toward, cfg, offset)
        tried.append((score(replace(_misfit(cards, fr, cfg), rival=rank > 0)), fr))
        if tried[0][0] == 0:  # nothing scores lower
            break
    best = min(tried, key=lambda t: t[0])[1]
    # A loose grid can read 3/5/5 along a rival too, with no impossible corner and other cards in its
    # rows: the profile's rank then chose, and nothing in the counts can vouch for it (`two_ways`).
    if tried[0][0] == 0:
        mine = _named_rows(best)
        best.two_ways = any(_misfit(cards, fr, cfg) == Hypothesis() and _named_rows(fr) != mine
                            for fr in (_fit_along(cards, math.radians(a), scale, toward, cfg, offset)
                                       for a in angles[1:]))
    return best


def _named_rows(fr: SeatFrame) -> dict[str, frozenset[int]]:
    """Which cards (by id) a frame puts in each row, by the rows' names."""
    names = name_rows([len(r) for r in fr.rows])
    return {name: frozenset(id(fr.members[j]) for j in row) for name, row in zip(names, fr.rows, strict=True)}


def _misfit(cards: list[_Card], fr: SeatFrame, cfg: GeometryConfig) -> Hypothesis:
    """How badly a frame reads a seat: its distance from 3/5/5, and its two-corner cards whose second
    corner lies where no card's could be in it (`_pair_possible`)."""
    impossible = sum(not _pair_possible(c, fr, cfg) for c in cards)
    return Hypothesis(count=_layout_error(fr), impossible=impossible)


def _fit_along(cards: list[_Card], phi: float, scale: float, toward: np.ndarray | None,
               cfg: GeometryConfig, offset: np.ndarray | None) -> SeatFrame:
    """`fit_rows` with the rows running along `phi` (radians): the player's side, anchors, rows."""
    right = np.array([math.cos(phi), math.sin(phi)])
    down = np.array([-math.sin(phi), math.cos(phi)])

    single = np.array([c.points[0] @ down for c in cards if len(c.points) == 1])

    def on_line(y: float) -> float:
        """Distance (index heights) from projection y to the nearest pile of single-corner cards."""
        if len(single) < 2:
            return math.inf
        d = np.sort(np.abs(single - y))
        return float(d[1] if len(d) > 1 and d[0] < 1e-9 else d[0]) / scale

    sign = 0.0
    if toward is not None and np.linalg.norm(toward) > 0:
        sign = -1.0 if float(toward @ down) > 0 else 1.0
    else:
        votes = 0.0
        for c in cards:
            if len(c.points) == 2:
                y0, y1 = (p @ down for p in c.points)
                d0, d1 = on_line(y0), on_line(y1)
                if min(d0, d1) < cfg.attach and abs(d0 - d1) > cfg.attach:
                    tl, br = (c.points[0], c.points[1]) if d0 < d1 else (c.points[1], c.points[0])
                    votes += 1.0 if float((br - tl) @ down) > 0 else -1.0
        sign = 1.0 if votes > 0 else -1.0 if votes < 0 else (1.0 if down[1] >= 0 else -1.0)
        sure = votes != 0
        if sure and abs(votes) < cfg.side_votes:
            # a lone vote can come from a bottom-right corner that happens to lie on the next row's
            # line (cards spread out, or a close-up's perspective): it stands unless the corners as
            # seen read closer to 3/5/5 the other way round
            sure = _seen_error(cards, right, down, sign, scale, cfg) <= _seen_error(
                cards, right, down, -sign, scale, cfg)
        if not sure:
            sign = _lone_side(cards, right, down, sign, scale, cfg)
        # corner votes decide the side as surely as the table centre does
        fr = _frame(cards, right * sign, down * sign, scale, cfg, sure_side=sure, offset=offset)
        fr.side_known = sure
        return fr
    return _frame(cards, right * sign, down * sign, scale, cfg, sure_side=True, offset=offset)


def _lone_side(cards: list[_Card], right: np.ndarray, down: np.ndarray, sign: float, scale: float,
               cfg: GeometryConfig) -> float:
    """The side of a seat alone whose corners cast no vote: `sign` (the prior) unless the other side
    reads closer to 3/5/5 with lone corners stepped back, and no worse on the corners as seen.

    Read turned half round, every two-corner card is anchored on its bottom-right corner, off its
    row, which the counts of the corners as seen show. A spread-out seat cut by the photo's edge can
    look alike both ways on those; then stepping lone corners back may tell. A whole seat turned
    wrongly costs all its rows, so anything short of that keeps the prior.
    """
    def key(s: float) -> tuple[int, int, float]:
        seen = _seen_error(cards, right, down, s, scale, cfg)
        fr = _frame(cards, right * s, down * s, scale, cfg, sure_side=False)
        return seen, _layout_error(fr), _row_spread(fr)

    this, other = key(sign), key(-sign)
    if other[0] <= this[0] and other[1] < this[1]:
        return -sign
    # Counts alike both ways (a spread-out seat can come to 3/5/5 read either way): read the wrong way
    # round, corners seen from below fall between the rows, and the rows gather points far apart.
    if other[1] <= this[1] and other[2] + cfg.spread_margin < this[2]:
        return -sign
    return sign


def _seen_error(cards: list[_Card], right: np.ndarray, down: np.ndarray, sign: float, scale: float,
                cfg: GeometryConfig) -> int:
    """How far from 3/5/5 the corners as seen (no step backs) read with the player on side `sign`."""
    return _layout_error(_frame(cards, right * sign, down * sign, scale, cfg, virtual=False))


def _row_spread(fr: SeatFrame) -> float:
    """The widest spread (index heights) of a row's anchors across the row: near 0 on a straight row."""
    if not fr.rows:
        return 0.0
    return max(
        float(np.ptp([fr.anchors[i] @ fr.down for i in row])) for row in fr.rows if row
    ) / max(fr.scale, 1e-9)


def _frame(cards: list[_Card], right: np.ndarray, down: np.ndarray, scale: float, cfg: GeometryConfig,
           sure_side: bool = False, virtual: bool = True, offset: np.ndarray | None = None) -> SeatFrame:
    """The seat's frame and rows once its side is chosen: the readings of lowest `score` over the
    anchor choices (corners as seen; the sure step backs; those and the optional ones, all at once or
    one at a time while each lowers the score) and, for a whole seat, the split turned slightly.

    Every reading is costed the same way (`Hypothesis`): its distance from 3/5/5 first, then the
    optional step backs it takes, the sure ones it undoes and how far its split is turned, so a
    reading departs from the corners' plain evidence only to come closer to 3/5/5."""
    up = -down
    orientation = math.degrees(math.atan2(-up[0], -up[1])) % 360.0  # as datasets.synth: 90 = up is left

    def reading(anchors: list[np.ndarray], moves: int, undone: int, turn: float = 0.0) -> _Reading:
        a = math.radians(turn)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        fr = _rows(cards, anchors, rot @ right, rot @ down, orientation, scale, cfg)
        h = Hypothesis(count=_layout_error(fr), moves=moves, undone=undone, turn=abs(turn))
        return _Reading(score(h), fr, moves, undone)

    as_seen = [_top_left(c, down) for c in cards]
    anchor = list(as_seen)
    optional = _virtual_anchors(cards, anchor, right, down, scale, cfg, sure_side, offset) if virtual else []
    sure_moves = sum(a is not b for a, b in zip(anchor, as_seen, strict=True))
    tried = [reading(anchor, 0, 0)]
    if optional:
        tried.append(reading(_moved(anchor, optional), len(optional), 0))
        tried.append(_step_backs_one_by_one(anchor, optional, tried[0], reading))
    if sure_moves:
        tried.append(reading(as_seen, 0, sure_moves))
    best = min(tried, key=lambda t: t.cost)
    if _layout_error(best.frame) > 0 and len(cards) == SEAT_SIZE:  # only a whole seat can come to 3/5/5
        # the turns keep the best reading's anchors, and what they cost
        tried += [reading(best.frame.anchors, best.moves, best.undone, deg) for deg in cfg.split_turns]
        best = min(tried, key=lambda t: t.cost)
    return best.frame


class _Reading(NamedTuple):
    """One reading of a seat's rows in a fixed frame, with its score and the anchor moves it made."""

    cost: float
    frame: SeatFrame
    moves: int  # optional step backs taken
    undone: int  # sure step backs left undone (the corners as seen)


def _moved(anchor: list[np.ndarray], moves: list[tuple[int, np.ndarray]]) -> list[np.ndarray]:
    """The anchors with the step backs `moves` (card index, point) made."""
    out = list(anchor)
    for k, point in moves:
        out[k] = point
    return out


def _step_backs_one_by_one(
    anchor: list[np.ndarray], optional: list[tuple[int, np.ndarray]], start: _Reading,
    reading: Callable[[list[np.ndarray], int, int], _Reading],
) -> _Reading:
    """The optional step backs added one at a time, the one that lowers the score most first, while
    one does. Returns the reading of the moves kept."""
    left, best = list(optional), start
    while left:
        made = len(optional) - len(left) + 1
        trial, n = min(((reading(_moved(anchor, [move]), made, 0), n) for n, move in enumerate(left)),
                       key=lambda t: t[0].cost)
        if trial.cost >= best.cost:
            break
        anchor = _moved(anchor, [left.pop(n)])
        best = trial
    return best


def _top_left(c: _Card, down: np.ndarray) -> np.ndarray:
    """A card's top-left corner as seen: of its corners, the one nearer the table (smaller `down`)."""
    return min(c.points, key=lambda p: float(p @ down))


def _rows(cards: list[_Card], anchors: list[np.ndarray], right: np.ndarray, down: np.ndarray,
          orientation: float, scale: float, cfg: GeometryConfig) -> SeatFrame:
    """The 1-D split of the anchors (one per card) into rows, each left to right."""
    ys = np.array([a @ down for a in anchors])
    groups = _split_1d(ys, cfg.row_gap * scale)
    rows = [sorted(g, key=lambda i: float(anchors[i] @ right)) for g in groups]
    return SeatFrame(right, down, round(orientation, 1), rows, [float(ys[g].mean()) for g in groups], scale,
                     members=list(cards), anchors=list(anchors))


def _layout_error(fr: SeatFrame) -> int:
    """How far a seat's row counts are from 3/5/5 (and 13 in all)."""
    return count_error([len(r) for r in fr.rows])
