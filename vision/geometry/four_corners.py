"""Decks that print the index in all four corners: a card's extra corners folded into that card.

Such a deck shows each card of a fanned row twice along its left edge (the top-left index and,
turned half round, the bottom-left one), and the last card of a row in all four corners. Read as
cards, the bottom-left indices make a fourth row under the nearest one and every name a repeat.

A photo shows such a deck where a name is read at three corners of one card (`shows_four_corners`):
a two-corner deck shows a card at most twice. Then, in each seat, the same-named reads show the
cards' own axes (`_card_axes`), and in that frame a card's extra corners sit where no other card's
index can: straight below its top-left index (the bottom-left corner) or straight right of it (the
top-right corner). Where `MIN_FOLDS` names of the seat show that, every name whose reads all lie on
one card's corners becomes one card: its top-left index (and bottom-right one, as for any deck) its
corners, the others folded into its evidence (`fold_extra_corners`). A name the 65-card deck holds
twice may be two cards in one hand: its reads are one card only where they lie as the seat's
one-copy cards show a card's corners, else two (`_copies_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from ..types import Detection
from .config import GeometryConfig
from .corners import _all_reads, index_scale, joint_read
from .deck import FIVE_PLAYER_DECK, added_suit
from .parts import SeatFrame, _Card, _side

# The direction (degrees; 0 straight down the card from its top-left index, 90 straight right) each
# other corner's index lies in: a card's corner diagonal runs ~30-45 degrees off its long side, and a
# tilted camera shears a far seat's cards by up to ~20 degrees more.
CORNER_TURNS = {"bottom_left": (-20.0, 20.0), "bottom_right": (22.0, 62.0), "top_right": (65.0, 125.0)}
# A seat folds only where this many names show such an extra corner: one repeat that happens to lie
# below its twin is a misread, several are the deck's design.
MIN_FOLDS = 2
# The photo shows a four-corner deck where this share of the names read (and at least one) each show
# three corners of one card, at a right angle (cosine at most `RIGHT_COS`: perspective opens or
# closes it a little) whose sides are as long as a card's corner offsets, top-left to bottom-left
# against top-left to top-right.
RECTANGLE_SHARE = 0.05
RIGHT_COS = 0.26
SIDE_RATIO = (1.1, 2.8)
# Pairs of one card's corners that lie along one of its sides agree on the side's direction within
# this many degrees (perspective bends them apart a little across a seat).
AXIS_SPREAD = 4.0
# A card's two sides, seen at a slant near the photo's edge, meet at 90 degrees give or take 30; a
# card's diagonal lies 35 degrees off its long side and 55 off its short one.
AXIS_APART = 60.0
# A card's top-left to bottom-left pairs are longer than its top-left to top-right ones by about this
# much at least, seen square on; a far seat seen at a slant is foreshortened down the card, and its
# long side can look the shorter. Under this ratio the lengths do not say which axis is the card's
# down: the seat's own frame does.
LONG_SIDE_RATIO = 1.2
# A card's top-left to bottom-left index offset against its top-left to top-right one, where a seat
# shows only the first (the indices are inset about equally from a 63 x 88 mm card's edges).
CARD_ASPECT = 1.45
# Where one name's reads are two cards' corners, each corner lies within this share of the card's
# height of where the seat's other cards show that corner (perspective varies it a little across a
# seat; a read a row off lies a third of a height or more away).
COPY_CORNER_TOLERANCE = 0.25


@dataclass(frozen=True)
class _Corners:
    """The reads of one name in one seat, sorted out as one card's corners: its top-left read, its
    bottom-right one if read, and the rest (`_corners_of`)."""

    top_left: Detection
    bottom_right: Detection | None
    extra: list[Detection]  # top-right and bottom-left corners

    @property
    def folds(self) -> bool:
        return bool(self.extra)

    @property
    def others(self) -> list[Detection]:
        """The reads at its other corners than the top-left."""
        return [*self.extra, *([self.bottom_right] if self.bottom_right is not None else [])]


def shows_four_corners(dets: list[Detection], cfg: GeometryConfig) -> bool:
    """Whether the photo's deck prints its index in all four corners: of the names read, one in
    `RECTANGLE_SHARE` (and at least one) is read three times or more, three of the reads at a right
    angle, its sides as long as a card's corner offsets are to each other (`SIDE_RATIO`) and within a
    card's reach. Every row's last card of such a deck shows three corners or four (a name in 13 a
    seat); a two-corner deck shows a card at most twice, and where the 65-card deck holds two copies
    of a card, a copy's corner and the other's two can make such an angle now and then (two in 52
    names at most on the five-seat decision tables), but not a card's whole rectangle. So a name of the
    suit the reads show twice (`deck.added_suit`: the 65's added suit has its names read twice far more
    often than any other suit's) counts only where its reads make right angles at two corners; a
    four-corner deck's repeats fall in every suit, but in one seat they can fall mostly in one."""
    twice = added_suit([d.card for d in dets], FIVE_PLAYER_DECK)
    by_name: dict[str, list[Detection]] = {}
    for d in dets:
        by_name.setdefault(d.card, []).append(d)
    need = max(1.0, RECTANGLE_SHARE * len(by_name))
    rectangles = 0
    for name, group in by_name.items():
        corners = 2 if twice is not None and name[-1] == twice else 1
        if len(group) >= corners + 2 and _right_angles(group, cfg.pair_max_far) >= corners:
            rectangles += 1
            if rectangles >= need:
                return True
    return False


def _right_angles(group: list[Detection], reach: float) -> int:
    """At how many of `group`'s reads two others lie at a card's corners from it: a right angle
    (`RIGHT_COS`), the longer side `SIDE_RATIO` times the shorter, both within `reach` index heights."""
    pts = [np.asarray(d.center, float) for d in group]
    unit = index_scale(group)
    found = 0
    for a in range(len(pts)):
        for b, c in combinations([k for k in range(len(pts)) if k != a], 2):
            u, v = pts[b] - pts[a], pts[c] - pts[a]
            lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
            if min(lu, lv) < unit or max(lu, lv) > reach * unit:
                continue
            ratio = max(lu, lv) / min(lu, lv)
            if abs(float(u @ v)) / (lu * lv) <= RIGHT_COS and SIDE_RATIO[0] <= ratio <= SIDE_RATIO[1]:
                found += 1
                break
    return found


def _corners_of(dets: list[Detection], fr: SeatFrame, cfg: GeometryConfig) -> _Corners | None:
    """`dets` (one name's reads in a seat) as one card's corners, or None where one of them lies
    where no corner of the card at the top-left read could. The top-left read is the one nearest the
    frame's top-left (a tilted camera shears a card: its top-right index can lie higher than its
    top-left one); each other read is told by the direction it lies in from there (`CORNER_TURNS`),
    and one below it, where the card's top-right read is there too, by whether it lies more than half
    that read's width to the right (a narrow card's bottom-right lies as steep as a sheared
    bottom-left)."""
    unit = index_scale(dets)
    uv = np.array([_in_axes(d, fr) for d in dets]) / unit
    first = int(np.argmin(uv.sum(axis=1)))
    _, _, x2, y2 = cfg.pair_box_one_deck
    steps = {i: uv[i] - uv[first] for i in range(len(dets)) if i != first}
    corners = {i: next((name for name, (lo, hi) in CORNER_TURNS.items()
                        if lo <= float(np.degrees(np.arctan2(du, dv))) <= hi), None)  # 0: down, 90: right
               for i, (du, dv) in steps.items()}
    widths = [steps[i][0] for i, corner in corners.items() if corner == "top_right"]
    br: list[Detection] = []
    extra: list[Detection] = []
    for i, (du, dv) in steps.items():
        corner = corners[i]
        if widths and corner != "top_right" and dv >= 1.0:
            # below the top-left: the card's width, as its top-right read shows it, tells its two lower
            # corners apart where their directions cannot (a narrow card's diagonal runs steep)
            corner = "bottom_right" if du > widths[0] / 2 else "bottom_left"
        if corner is None or not (du <= x2 and dv <= y2 and np.hypot(du, dv) >= 1.0):
            return None
        (br if corner == "bottom_right" else extra).append(dets[i])
    if len(br) > 1:
        return None
    return _Corners(dets[first], br[0] if br else None, extra)


def _folded(c: _Corners, unsure: bool) -> _Card:
    """One card of its corners: the top-left (and bottom-right) as its points, every read's evidence
    joined as two corners' are (`joint_read`), the extra corners kept for display."""
    kept = [c.top_left] + ([c.bottom_right] if c.bottom_right is not None else [])
    every = kept + c.extra
    card, conf, scores = joint_read(every)
    return _Card(card, conf, [d.box for d in kept], [np.array(d.center) for d in kept], scores,
                 corners_disagree=len({d.card for d in every}) > 1, unsure=unsure, dets=kept,
                 folded=list(c.extra))


def _card_axes(groups: list[list[Detection]], fr: SeatFrame) -> SeatFrame | None:
    """The seat's frame turned to its cards' own axes, as their extra corners show them, or None where
    they do not. Two reads of one name are one card's two corners: most such pairs run along the
    card's long side (top-left to bottom-left) or its short side (top-left to top-right), a few along
    its diagonals. One axis is the direction most pairs lie along (within `AXIS_SPREAD` degrees), the
    other the direction most of the rest lie along at least `AXIS_APART` degrees from it, where
    `MIN_FOLDS` do (a seat seen at a slant, near the photo's edge, shows its cards' right angles
    opened or closed by 15 degrees and more), else square to the first; `MIN_FOLDS` pairs must lie
    along the two. `down` is the axis of the longer pairs (a card is taller than wide) where they are
    `LONG_SIDE_RATIO` longer, else the axis nearer the frame's own down, pointing the way the frame's
    does. The rows' own direction alone is no guide: a four-corner deck's seat shows lines of indices
    every way."""
    angles, lengths = [], []
    for dets in groups:
        for a in range(len(dets)):
            for b in range(a + 1, len(dets)):
                v = np.asarray(dets[b].center, float) - np.asarray(dets[a].center, float)
                unit = (_side(dets[a].box) + _side(dets[b].box)) / 2
                angles.append(float(np.degrees(np.arctan2(v @ fr.right, v @ fr.down))) % 180.0)
                lengths.append(float(np.linalg.norm(v)) / unit)
    if len(angles) < MIN_FOLDS:
        return None
    ang, length = np.array(angles), np.array(lengths)

    def off(a: np.ndarray | float, b: float) -> np.ndarray:
        d = np.abs(a - b) % 180.0
        return np.minimum(d, 180.0 - d)

    support = np.array([int((off(ang, a) <= AXIS_SPREAD).sum()) for a in ang])
    first = int(np.argmax(support))
    axis_a = float(ang[first])
    apart = (off(ang, axis_a) >= AXIS_APART) & (support >= MIN_FOLDS)
    # the other side where pairs lie along it, else square to the first
    axis_b = float(ang[np.flatnonzero(apart)[np.argmax(support[apart])]]) if apart.any() else axis_a + 90.0
    on_a, on_b = off(ang, axis_a) <= AXIS_SPREAD, off(ang, axis_b) <= AXIS_SPREAD
    if (on_a | on_b).sum() < MIN_FOLDS:
        return None
    long_a = np.median(length[on_a]) if on_a.any() else 0.0
    long_b = np.median(length[on_b]) if on_b.any() else 0.0
    if max(long_a, long_b) >= LONG_SIDE_RATIO * min(long_a, long_b):
        down_a = long_a >= long_b  # one side seen only: a fanned row's left edges, the long side
    else:  # foreshortened: the axis nearer the seat's own down
        down_a = bool(off(axis_a, 0.0) <= off(axis_b, 0.0))
    t = np.radians(axis_a if down_a else axis_b)
    d_r, d_d = np.sin(t), np.cos(t)  # the cards' down axis in the frame's (right, down) terms
    if d_d < 0:
        d_r, d_d = -d_r, -d_d
    return replace(fr, right=d_d * fr.right - d_r * fr.down, down=d_r * fr.right + d_d * fr.down)


def fold_extra_corners(cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig,
                       twice: frozenset[str] = frozenset()) -> bool:
    """Fold, in one seat (`g`, indices into `cards`, in the frame `fr`), each name's reads into one
    card where the seat shows a four-corner deck (module docstring); the reads of a name the deck
    holds twice (`twice`: the 65's added suit) into one card or two, as the seat's other cards show a
    card's corners (`_copies_of`: both copies dealt to one hand). The cards folded away are marked
    gone and leave `g`, a second copy read as one card's corner pair joins `cards` and `g`; returns
    whether anything was folded."""
    by_name: dict[str, list[int]] = {}
    for i in g:
        by_name.setdefault(cards[i].card, []).append(i)
    named = [(idx, [d for i in idx for d in _all_reads(cards[i])])
             for idx in by_name.values()]
    named = [(idx, dets) for idx, dets in named if len(dets) >= 2]
    axes = _card_axes([dets for _, dets in named], fr)
    if axes is None:
        return False
    plans: list[tuple[list[int], list[_Corners]]] = []
    copies: list[tuple[list[int], list[Detection], _Corners | None]] = []
    for idx, dets in named:
        corners = _corners_of(dets, axes, cfg)
        if cards[idx[0]].card in twice:
            copies.append((idx, dets, corners))
        elif corners is not None and corners.folds:
            plans.append((idx, [corners]))
    # the card's shape from the names held once; untold which suit the 65 holds twice, from every
    # name whose reads lie on one card's corners (most names of a hand are one copy)
    shape = (_card_shape([c for _, (c,) in plans], axes)
             or _card_shape([c for _, _, c in copies if c is not None and c.folds], axes))
    for idx, dets, corners in copies:
        others = [d for i in g if i not in idx for d in _all_reads(cards[i])]
        parts = _copies_of(dets, corners, others, axes, shape, cfg)
        if parts is not None:
            plans.append((idx, parts))
    if len(plans) < MIN_FOLDS:
        return False
    for idx, parts in plans:
        unsure = all(cards[i].unsure for i in idx)
        for n, corners in enumerate(parts):
            if n < len(idx):
                cards[idx[n]] = _folded(corners, unsure)
            else:  # two cards read as one pair of corners before the seat's frame was known
                cards.append(_folded(corners, unsure))
                g.append(len(cards) - 1)
        for i in idx[len(parts):]:
            cards[i] = replace(cards[i], gone=True)
            g.remove(i)
    return True


def _card_shape(folds: list[_Corners], axes: SeatFrame) -> tuple[np.ndarray, np.ndarray] | None:
    """Where a card's bottom-left and top-right indices lie from its top-left one in this seat (in
    `axes`, index heights): the median over the seat's cards folded from one name's reads; the
    top-right one, where no card shows it, from the bottom-left turned a quarter and narrowed by
    `CARD_ASPECT`. None where no card shows its bottom-left."""
    steps: dict[str, list[np.ndarray]] = {"bottom_left": [], "top_right": []}
    for c in folds:
        unit = index_scale([c.top_left, *c.extra])
        for d in c.extra:
            step = _in_axes(d, axes) / unit - _in_axes(c.top_left, axes) / unit
            steps["bottom_left" if step[1] > step[0] else "top_right"].append(step)
    if not steps["bottom_left"]:
        return None
    bl = np.median(np.array(steps["bottom_left"]), axis=0)
    tr = (np.median(np.array(steps["top_right"]), axis=0) if steps["top_right"]
          else np.array([bl[1], -bl[0]]) / CARD_ASPECT)
    return bl, tr


def _copies_of(dets: list[Detection], corners: _Corners | None, others: list[Detection], axes: SeatFrame,
               shape: tuple[np.ndarray, np.ndarray] | None, cfg: GeometryConfig) -> list[_Corners] | None:
    """The cards the reads of a name the deck holds twice are, where a corner folds: one card where
    they lie on its corners as the seat's one-copy cards show theirs (`_part_fit`), else two
    (`_two_cards`). Two copies in neighbouring rows, one above the other, can lie as one card's
    top-left and bottom-left, and two a card or two apart in one row as one card's four corners;
    the card's shape and the cards between them tell them apart. Without a shape, as one card's
    corners or not at all."""
    if shape is None:
        return [corners] if corners is not None and corners.folds else None
    bl, tr = shape
    expected, height = np.array([bl, tr, bl + tr]), float(np.linalg.norm(bl))
    one = _part_fit(dets, others, axes, expected, height, cfg)
    if one is not None:
        return [one[1]] if one[1].folds else None
    return _two_cards(dets, others, axes, expected, height, cfg)


def _under_another(c: _Corners, others: list[Detection], axes: SeatFrame) -> bool:
    """Whether another card's index lies on `c`'s top edge, between its top-left index and the
    right-hand corner it is read at: that card lies over the corner, so the read there is no corner
    of `c` (in a fanned row only the last card shows its right-hand corners)."""
    reads = [c.top_left, *c.others]
    unit = index_scale(reads)
    origin = _in_axes(c.top_left, axes) / unit
    reach = max(float((_in_axes(d, axes) / unit - origin)[0]) for d in reads)
    for o in others:
        du, dv = _in_axes(o, axes) / unit - origin
        if 0.5 < du < reach - 0.5 and abs(dv) < 1.0:
            return True
    return False


def _two_cards(dets: list[Detection], others: list[Detection], axes: SeatFrame, expected: np.ndarray,
               height: float, cfg: GeometryConfig) -> list[_Corners] | None:
    """`dets` (one name's reads in a seat, which are no one card's) as two cards' corners. Of the
    ways to split them in two, each part one card's corners as `_part_fit` holds them to, the one
    whose corners lie nearest where the seat's other cards show theirs (`expected`); None where no
    split is such, or where neither part folds a corner."""
    if len(dets) > 8:
        return None
    best: tuple[float, list[_Corners]] | None = None
    for mask in range(1 << (len(dets) - 1)):
        parts = [[d for k, d in enumerate(dets) if (mask >> k) & 1 == side] for side in (0, 1)]
        if not parts[1]:
            continue
        found = [_part_fit(p, others, axes, expected, height, cfg) for p in parts]
        if any(f is None for f in found) or not any(c.folds for _, c in found):
            continue
        cost = sum(f for f, _ in found)
        if best is None or cost < best[0]:
            best = (cost, [c for _, c in found])
    return best[1] if best is not None else None


def _part_fit(part: list[Detection], others: list[Detection], axes: SeatFrame, expected: np.ndarray,
              height: float, cfg: GeometryConfig) -> tuple[float, _Corners] | None:
    """One card's corners of `part` and how far (squared, in card heights) its other corners lie from
    `expected` (bottom-left, top-right, bottom-right from the top-left); None where they are no one
    card's, two lie at one corner, one lies `COPY_CORNER_TOLERANCE` or more from its own, or another
    card's index (`others`, the seat's other reads) lies over its right-hand corners
    (`_under_another`)."""
    corners = _corners_of(part, axes, cfg) if len(part) > 1 else _Corners(part[0], None, [])
    if corners is None or _under_another(corners, others, axes):
        return None
    unit = index_scale(part)
    origin = _in_axes(corners.top_left, axes) / unit
    cost, used = 0.0, set()
    for d in corners.others:
        off = np.linalg.norm(expected - (_in_axes(d, axes) / unit - origin), axis=1) / height
        k = int(np.argmin(off))
        if k in used or off[k] >= COPY_CORNER_TOLERANCE:
            return None
        used.add(k)
        cost += float(off[k]) ** 2
    return cost, corners


def _in_axes(d: Detection, axes: SeatFrame) -> np.ndarray:
    p = np.asarray(d.center, float)
    return np.array([p @ axes.right, p @ axes.down])
