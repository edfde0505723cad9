"""From corner-index detections to seats and rows: plain data in, plain data out, no model.

The steps, each a small function so tests can pin them down:

1. `index_scale`: the size of one index (median box side); every distance below is in these units,
   so the same code reads a close-up and a whole table.
2. `merge_corners`: a card shows its index twice (top-left, and bottom-right on the last card of a
   row); two detections of the same card at a card-diagonal apart are one physical card. With a
   65-card deck a card may legitimately exist twice: pairs are only made at that distance. A farther
   pairing (`pair_max_far`: small indices on a large card) is tried as well, with any deck.
3. `fix_with_deck`: each card exists once (twice in a 65-card deck): when the model's top classes
   break that, an assignment of physical cards to deck cards over the log class scores picks the
   most probable consistent reading. Cards it changes keep `changed_from` and raise a problem.
4. `group_seats`: cards cluster by seat (single-linkage, cut to the expected number of seats).
5. `fit_rows`: a seat's rows are lines of nearly collinear index centres; the row direction is the
   angle whose perpendicular projection piles the points up most (a projection profile), the
   player's side is away from the table centre, and a 1-D split of the projections gives the rows.
   Cards laid in a grid line up along columns and diagonals too: when the best peak does not read
   3/5/5 with every corner pair possible, the profile's other peaks are tried (`row_directions`).
   The 3-card end row is the head, the next the middle, the far one the tail; two rows of more
   than three cards are the middle and the tail (the head is out of the photo). When the counts are
   not 3/5/5, a slightly turned split direction and the corners as seen (no step backs) are tried.
   A seat alone whose corners do not say which side its player sits is turned the way its rows
   are straight. With two decks the seat's same-named corners are re-paired in its frame
   (`_repair_in_seat`, `_split_and_merge`): a card's second corner sits at the seat's own corner
   offset, and only a row's last card shows it (the next card of a fanned row covers it).
6. `read_table`: all of it, plus the problems: wrong counts, duplicates, changes, low confidence
   (a low top score, or a runner-up class close behind on either corner: `low_margin`), cards in no
   seat. Nothing is guessed silently.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from .assign import assign
from .classes import CLASS_INDEX, CLASS_NAMES, JOKERS
from .types import Detection, Problem, ReadCard, SeatRead, TableRead

ROW_SIZES = {"head": 3, "middle": 5, "tail": 5}
SEAT_SIZE = 13


@dataclass(frozen=True)
class GeometryConfig:
    """Tolerances, in index heights (the median detection box side) unless said otherwise."""

    pair_min: float = 1.6  # top-left to bottom-right index centres of one card: 1.6..5.5 indices
    pair_max: float = 6.0
    # corners this far apart are tried as one card too (a deck with small indices on a large card puts
    # them ~7 index heights apart); kept when the seats come closer to 3/5/5
    pair_max_far: float = 8.0
    pair_box_one_deck: tuple[float, float, float, float] = (-0.5, 0.7, 7.5, 9.5)  # tilted camera: a far
    # seat's cards are sheared, their corner diagonal can lean left of the row normal
    pair_typical: float = 3.5
    pair_box: tuple[float, float, float, float] = (1.0, 1.2, 3.8, 5.0)  # where any deck puts it
    pair_tolerance: float = 0.5  # beyond this the pair is doubtful: kept only if the counts agree
    pair_split: float = 1.2  # beyond this it is two cards (a 65-card deck's copies)
    line_sigma: float = 0.25  # spread of index centres around a row line
    row_gap: float = 0.8  # a gap larger than this between projections starts a new row
    attach: float = 1.0  # how far off a row line a stray card may be and still join it
    # a lone corner stepped back by the corner offset may land this many times the row tolerance off
    # a row (perspective in a close-up) and still be tried there, kept only if the counts improve
    loose_step: float = 3.0
    # a seat alone whose counts read alike both ways round is turned the way its rows are straighter
    # by more than this (the widest row's spread of anchors across it)
    spread_margin: float = 1.0
    # turns (degrees) of the direction a seat's rows are split along, tried when the fitted one does
    # not give 3/5/5: the one closest to 3/5/5 is kept (on a tie, the smaller turn)
    split_turns: tuple[float, ...] = (2.0, -2.0, 4.0, -4.0, 6.0, -6.0, 8.0, -8.0)
    # other peaks of the row-direction profile (at least this share of the best) tried when the best
    # does not read 3/5/5 with every two-corner card possible: cards laid in a grid line up along
    # columns and diagonals too
    direction_rivals: int = 4
    direction_ratio: float = 0.6
    # a seat alone: this many more corner votes for one side than the other make its side known; fewer
    # (but some) stand only if the corners as seen do not read closer to 3/5/5 the other way round
    side_votes: int = 2
    seat_min: int = 5  # fewer cards than this are not a seat (stray cards)
    stray_link: float = 12.0  # a card farther than this from any other is a stray, not part of a seat
    seat_cut_candidates: int = 8  # how many of the longest links beyond k-1 a seat cut may use
    seat_size_weight: float = 1.0  # one card off 13 weighs like one index height of link
    # when no such cut gives 13-card seats, this many: under camera tilt a far seat's row gaps (in its
    # own small index heights) can outgrow the link to a near neighbour (slower: tried only then)
    seat_cut_more: int = 14
    low_confidence: float = 0.5
    # a read whose best class leads the next by less than this is flagged too: a detector that is
    # wrong is mostly unsure (right reads lead by 0.35 or more in benchmarks.geometry's score model)
    low_margin: float = 0.3
    fix_with_deck: bool = True
    # a card the deck fix renamed, in a seat of more than 13, whose new name has under this score is
    # taken as a false read (a half box, card art) and left out of the seat, reported, not renamed
    false_read_below: float = 0.1


@dataclass
class _Card:
    """A physical card while it is being placed: its index points and merged scores."""

    card: str
    confidence: float
    boxes: list[tuple[float, float, float, float]]
    points: list[np.ndarray]
    scores: np.ndarray | None
    corners_disagree: bool = False
    changed_from: str | None = None
    anchor: np.ndarray | None = None  # the top-left index centre, once the seat frame is known
    gone: bool = False  # merged into another card after seating
    split: bool = False  # one half of a corner pair split after seating that could still be one card
    dets: list[Detection] = field(default_factory=list)  # the detections it is made of

    @property
    def center(self) -> np.ndarray:
        return np.mean(self.points, axis=0)

    @property
    def size(self) -> float:
        """This card's own index height: the local unit (perspective shrinks far cards)."""
        return float(np.mean([_side(b) for b in self.boxes])) if self.boxes else 1.0

    def read(self) -> ReadCard:
        c = self.center
        return ReadCard(self.card, (float(c[0]), float(c[1])), float(self.confidence), list(self.boxes),
                        self.changed_from, self.scores)


def _side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1], 1e-6)


def index_scale(dets: list[Detection]) -> float:
    """Median longer side of the detection boxes: one index height, the unit of all tolerances."""
    if not dets:
        return 1.0
    sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dets]
    return float(max(np.median(sides), 1e-6))


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


def _combine(a: Detection, b: Detection) -> _Card:
    """Two corners of one card: the evidence adds up (scores multiply, then renormalise the top)."""
    if a.scores is not None and b.scores is not None:
        joint = np.sqrt(np.clip(a.scores, 1e-6, 1) * np.clip(b.scores, 1e-6, 1))
        top = int(joint.argmax())
        card, conf = CLASS_NAMES[top], float(max(a.confidence, b.confidence) if CLASS_NAMES[top] in
                                              (a.card, b.card) else joint[top])
        scores = joint.astype(np.float32)
    else:
        card, conf, scores = a.card, max(a.confidence, b.confidence), None
    return _Card(card, conf, [a.box, b.box], [np.array(a.center), np.array(b.center)], scores,
                 corners_disagree=a.card != b.card, dets=[a, b])


def _single(d: Detection) -> _Card:
    return _Card(d.card, d.confidence, [d.box], [np.array(d.center)], d.scores, dets=[d])


def _detections(c: _Card) -> list[Detection]:
    """The detections a card is made of (rebuilt from its boxes when it was made by hand)."""
    if len(c.dets) == len(c.boxes):
        return list(c.dets)
    return [Detection(c.card, b, c.confidence, c.scores) for b in c.boxes]


def deck_capacity(deck: int) -> dict[str, int]:
    """How often each card may appear: once in 52 or 54 (jokers once), twice in a 65-card deck (52 and
    a fifth suit) or two whole decks (104; 108 with two jokers of each colour)."""
    cap = 2 if deck > 54 else 1
    jokers = 2 if deck >= 108 else 1
    return {c: (jokers if c in JOKERS else cap) for c in CLASS_NAMES}


def one_copy_each(deck: int) -> bool:
    """Whether every card exists at most once (52 or 54 cards): then two reads of a card are one."""
    return max(deck_capacity(deck).values()) == 1


def fix_with_deck(cards: list[_Card], deck: int) -> list[_Card]:
    """Re-read cards so no card appears more often than the deck holds, most probable first.

    Only runs when the top classes conflict; then the assignment maximises the summed log scores,
    so a card keeps its top class unless another card has a stronger claim to it.
    """
    cap = deck_capacity(deck)
    counts = Counter(c.card for c in cards)
    if all(n <= cap[k] for k, n in counts.items()):
        return []
    scored = [i for i, c in enumerate(cards) if c.scores is not None]
    held = Counter(c.card for c in cards if c.scores is None)  # unscored cards keep their class
    slots = [name for name in CLASS_NAMES for _ in range(max(0, cap[name] - held[name]))]
    if not scored or len(scored) > len(slots):
        return []
    logp = np.log(np.clip(np.stack([cards[i].scores for i in scored]).astype(np.float64), 1e-9, 1.0))
    cost = -logp[:, [CLASS_INDEX[s] for s in slots]]
    cols = assign(cost)
    changed = []
    for i, col in zip(scored, cols, strict=True):
        new = slots[int(col)]
        c = cards[i]
        if new != c.card:
            c.changed_from, c.card = c.card, new
            c.confidence = float(c.scores[CLASS_INDEX[new]])
            changed.append(c)
    return changed


# ----------------------------------------------------------------------------------------- seats
def _mst(points: np.ndarray, sizes: np.ndarray | None = None) -> list[tuple[float, int, int]]:
    """Edges of the minimum spanning tree (Prim, O(n^2)): single-linkage in one pass.

    With `sizes`, each distance is in the two cards' own index heights, so a tilted camera's near
    seat (big, widely spaced) and far seats (small, close together) are cut alike.
    """
    n = len(points)
    if n < 2:
        return []
    d = np.linalg.norm(points[:, None] - points[None], axis=2)
    if sizes is not None:
        d = d / ((sizes[:, None] + sizes[None, :]) / 2)
    in_tree = np.zeros(n, bool)
    in_tree[0] = True
    best = d[0].copy()
    parent = np.zeros(n, int)
    edges = []
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        j = int(np.argmin(cand))
        edges.append((float(cand[j]), int(parent[j]), j))
        in_tree[j] = True
        closer = d[j] < best
        best[closer] = d[j][closer]
        parent[closer] = j
    return edges


def _components(n: int, edges: list[tuple[float, int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for _, a, b in edges:
        parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def _kmeans(points: np.ndarray, k: int, iters: int = 30) -> list[list[int]]:
    """Fallback when seats touch: k-means from farthest-point seeds (deterministic)."""
    centres = [points[np.argmax(np.linalg.norm(points - points.mean(0), axis=1))]]
    while len(centres) < k:
        d = np.min([np.linalg.norm(points - c, axis=1) for c in centres], axis=0)
        centres.append(points[int(np.argmax(d))])
    C = np.array(centres, float)
    for _ in range(iters):
        lab = np.argmin(np.linalg.norm(points[:, None] - C[None], axis=2), axis=1)
        C = np.array([points[lab == j].mean(0) if np.any(lab == j) else C[j] for j in range(k)])
    return [list(np.flatnonzero(lab == j)) for j in range(k) if np.any(lab == j)]


def group_seats(
    centers: np.ndarray,
    n_seats: int | None,
    sizes: np.ndarray | None = None,
    cfg: GeometryConfig = GeometryConfig(),
    labels: list[str] | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Split card centres into seats; returns (seats as index lists, stray indices).

    Without `n_seats`, the count is the number of 13s in the cards (1..5). Seats are what is left
    after cutting k-1 links of the single-linkage tree (distances in index heights): among the
    longest links, the cut that leaves groups closest to 13 cards wins, long links breaking ties.
    Groups under `seat_min` cards are strays; links longer than `stray_link` set strays apart.
    With `labels` (one deck), a group's card count is its number of distinct cards, so a card whose
    two corners were not paired yet still counts once.
    """
    n = len(centers)
    if n == 0:
        return [], []
    k = n_seats or int(min(5, max(1, round(n / SEAT_SIZE))))
    edges = sorted(_mst(centers, sizes), reverse=True)  # longest first
    stray_cuts = [e for e in edges if e[0] > cfg.stray_link]
    best = _best_cut(n, edges, stray_cuts, k, cfg.seat_cut_candidates, labels, cfg)
    if best is None or best[1] > 0:
        wide = _best_cut(n, edges, stray_cuts, k, cfg.seat_cut_more, labels, cfg)
        best = wide if wide is not None else best
    if best is None:
        groups = _kmeans(centers, k)
        return [sorted(g) for g in groups], []
    seats = [sorted(g) for g in best[2] if len(g) >= cfg.seat_min]
    strays = sorted(i for g in best[2] if len(g) < cfg.seat_min for i in g)
    return seats, strays


def _best_cut(
    n: int, edges: list[tuple[float, int, int]], stray_cuts: list[tuple[float, int, int]], k: int,
    candidates: int, labels: list[str] | None, cfg: GeometryConfig,
) -> tuple[float, int, list[list[int]]] | None:
    """The cut of k-1 among the longest `k - 1 + candidates` links (longest first in `edges`) whose
    groups are closest to 13 cards, long links breaking ties: (score, count error, groups).

    Every cut is scored at once (numpy): links that are never cut join the cards into pieces; the
    candidate links join the pieces into a forest, where a piece belongs to the deepest cut link
    above it (or to its tree's root). A 4-seat table with misreads tries ~1,000-5,000 cuts, which
    one union-find per cut made the slowest step after the models (~150 ms a photo).
    """
    cand = edges[: min(len(edges), k - 1 + candidates)]
    stray = set(stray_cuts)
    cuttable = stray | set(cand)
    pieces = _components(n, [e for e in edges if e not in cuttable])
    P = len(pieces)
    piece_of = np.empty(n, int)
    for p, g in enumerate(pieces):
        piece_of[g] = p
    # the forest of pieces along the candidate links that are not cut anyway (stray links)
    adj: list[list[tuple[int, int]]] = [[] for _ in range(P)]
    for c, e in enumerate(cand):
        if e not in stray:
            a, b = int(piece_of[e[1]]), int(piece_of[e[2]])
            adj[a].append((b, c))
            adj[b].append((a, c))
    tree = np.full(P, -1)
    anc = np.zeros((P, max(1, len(cand))), bool)  # anc[p, c]: link c lies between piece p and its root
    link_depth = np.full(max(1, len(cand)), -1)  # depth of the link's lower end; -1: never a border
    n_trees = 0
    for root in range(P):
        if tree[root] >= 0:
            continue
        tree[root], stack, depth = n_trees, [root], {root: 0}
        while stack:
            p = stack.pop()
            for q, c in adj[p]:
                if tree[q] < 0:
                    tree[q] = n_trees
                    depth[q] = depth[p] + 1
                    anc[q] = anc[p]
                    anc[q, c] = True
                    link_depth[c] = depth[q]
                    stack.append(q)
        n_trees += 1

    J = max(0, k - 1)
    combos = np.zeros((1, 0), int)
    if J:
        combos = np.array(list(combinations(range(len(cand)), J)), int).reshape(-1, J)
    M = len(combos)
    if M == 0:
        return None
    comp = np.broadcast_to(J + tree, (M, P)).copy()  # component of each piece under each cut
    if J:
        d = np.where(anc[:, combos], link_depth[combos][None], -1)  # P x M x J
        deepest = d.argmax(2)
        has = d.max(2) >= 0
        comp[has.T] = deepest.T[has.T]
    n_comp = J + n_trees
    onehot = np.zeros((M, P, n_comp), np.float32)
    onehot[np.arange(M)[:, None], np.arange(P)[None], comp] = 1
    sizes = np.einsum("mpc,p->mc", onehot, np.array([len(g) for g in pieces], np.float32))
    if labels is not None:
        names = sorted(set(labels))
        per_piece = np.zeros((P, len(names)), np.float32)
        index = {name: i for i, name in enumerate(names)}
        for p, g in enumerate(pieces):
            for i in g:
                per_piece[p, index[labels[i]]] += 1
        count = (np.einsum("mpc,pl->mcl", onehot, per_piece) > 0).sum(2)
    else:
        count = sizes
    big = sizes >= cfg.seat_min
    err = np.where(big, np.abs(count - SEAT_SIZE), sizes).sum(1)
    ok = big.sum(1) == k
    if not ok.any():
        return None
    weights = np.array([e[0] for e in cand] or [0.0], np.float64)
    score = cfg.seat_size_weight * err.astype(np.float64) - (weights[combos].sum(1) if J else 0.0)
    m = int(np.flatnonzero(ok)[np.argmin(score[ok])])
    members: dict[int, list[int]] = {}
    for p, g in enumerate(pieces):
        members.setdefault(int(comp[m, p]), []).extend(g)
    groups = sorted((sorted(g) for g in members.values()), key=lambda g: (-len(g), g[0]))
    return float(score[m]), int(err[m]), groups


# ------------------------------------------------------------------------------------------- rows
@dataclass
class SeatFrame:
    """A seat's reading frame: `right` along its rows as the player sees them, `down` toward the player."""

    right: np.ndarray
    down: np.ndarray
    orientation_deg: float
    rows: list[list[int]] = field(default_factory=list)  # far to near, each left to right
    lines: list[float] = field(default_factory=list)  # each row's mean `down` projection
    scale: float = 0.0  # the seat's median index height
    side_known: bool = True  # False: a seat alone whose corners did not tell which side its player is


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
    v = values[order]
    groups: list[list[int]] = [[int(order[0])]] if len(order) else []
    for k in range(1, len(order)):
        if v[k] - v[k - 1] > gap:
            groups.append([])
        groups[-1].append(int(order[k]))
    while len(groups) > max_groups:
        gaps = [values[groups[i + 1]].min() - values[groups[i]].max() for i in range(len(groups) - 1)]
        i = min(range(len(groups)), key=lambda j: (len(groups[j]), min(
            gaps[j - 1] if j > 0 else np.inf, gaps[j] if j < len(gaps) else np.inf)))
        left = gaps[i - 1] if i > 0 else np.inf
        right = gaps[i] if i < len(gaps) else np.inf
        j = i - 1 if left <= right else i + 1
        groups[j] = sorted(groups[j] + groups[i], key=lambda x: values[x])
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
    fr = _fit_along(cards, math.radians(angles[0]), scale, toward, cfg, offset)
    best, best_misfit, last = angles[0], _misfit(cards, fr, cfg), angles[0]
    if len(angles) == 1 or best_misfit == (0, 0):
        return fr
    # A rival direction is taken only when it is better on one count and no worse on the other: a
    # grid's columns or diagonals can come to 3/5/5 by chance, but then its cards' second corners
    # lie where no card's could.
    for angle in angles[1:]:
        trial = _fit_along(cards, math.radians(angle), scale, toward, cfg, offset)
        last, m = angle, _misfit(cards, trial, cfg)
        if m[0] <= best_misfit[0] and m[1] <= best_misfit[1] and m != best_misfit:
            best, best_misfit, fr = angle, m, trial
    if last != best:  # the anchors are the last trial's: set them for the frame kept
        fr = _fit_along(cards, math.radians(best), scale, toward, cfg, offset)
    return fr


def _misfit(cards: list[_Card], fr: SeatFrame, cfg: GeometryConfig) -> tuple[int, int]:
    """How badly a frame reads a seat: its distance from 3/5/5, and how many two-corner cards have
    their second corner where no card's could be in it (`_pair_possible`)."""
    return _layout_error(fr), sum(not _pair_possible(c, fr, cfg) for c in cards)


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
        seen = _seen_error(cards, right, down, s, scale, cfg)  # first: each `_frame` sets the anchors
        fr = _frame(cards, right * s, down * s, scale, cfg, sure_side=False)
        return seen, _layout_error(fr), _row_spread(cards, fr)

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


def _row_spread(cards: list[_Card], fr: SeatFrame) -> float:
    """The widest spread (index heights) of a row's anchors across the row: near 0 on a straight row."""
    if not fr.rows:
        return 0.0
    return max(
        float(np.ptp([cards[i].anchor @ fr.down for i in row])) for row in fr.rows if row
    ) / max(fr.scale, 1e-9)


def _frame(cards: list[_Card], right: np.ndarray, down: np.ndarray, scale: float, cfg: GeometryConfig,
           sure_side: bool = False, virtual: bool = True, offset: np.ndarray | None = None) -> SeatFrame:
    """The seat's frame and rows once its side is chosen: anchors, then a 1-D split into rows."""
    up = -down
    orientation = math.degrees(math.atan2(-up[0], -up[1])) % 360.0  # as datasets.synth: 90 = up is left

    as_seen = [_top_left(c, down) for c in cards]
    for c, a in zip(cards, as_seen, strict=True):
        c.anchor = a
    optional = _virtual_anchors(cards, right, down, scale, cfg, sure_side, offset) if virtual else []
    fr = _rows(cards, right, down, orientation, scale, cfg)
    if optional and _layout_error(fr) > 0:
        for c, point in optional:
            c.anchor = point
        moved = _rows(cards, right, down, orientation, scale, cfg)
        if _layout_error(moved) < _layout_error(fr):
            return moved
        for c, _ in optional:
            c.anchor = _top_left(c, down)
        # not all together: one at a time, the move that helps the counts most first
        left = list(optional)
        while left and (current := _layout_error(fr)) > 0:
            best = None
            for n, (c, point) in enumerate(left):
                seen, c.anchor = c.anchor, point
                trial = _rows(cards, right, down, orientation, scale, cfg)
                c.anchor = seen
                err = _layout_error(trial)
                if err < current and (best is None or err < best[0]):
                    best = (err, n, trial)
            if best is None:
                break
            c, point = left.pop(best[1])
            c.anchor, fr = point, best[2]
    if _layout_error(fr) > 0 and len(cards) == SEAT_SIZE:  # only a whole seat can come to 3/5/5
        fr = _tilted_rows(cards, fr, orientation, scale, cfg)
    kept = [c.anchor for c in cards]
    if _layout_error(fr) > 0 and any(a is not b for a, b in zip(kept, as_seen, strict=True)):
        # the corners as seen may split better than after the step backs kept: under a close-up's
        # perspective a step back learnt on far cards can put a near card onto the next row, and
        # later moves then build on it
        for c, a in zip(cards, as_seen, strict=True):
            c.anchor = a
        seen = _rows(cards, right, down, orientation, scale, cfg)
        if _layout_error(seen) < _layout_error(fr):
            return seen
        for c, a in zip(cards, kept, strict=True):
            c.anchor = a
    return fr


def _top_left(c: _Card, down: np.ndarray) -> np.ndarray:
    """A card's top-left corner as seen: of its corners, the one nearer the table (smaller `down`)."""
    return min(c.points, key=lambda p: float(p @ down))


def _tilted_rows(cards: list[_Card], fr: SeatFrame, orientation: float, scale: float,
                 cfg: GeometryConfig) -> SeatFrame:
    """The row split read along a slightly turned direction, when that alone comes closer to 3/5/5.

    Under a close-up's perspective the rows are not parallel: the direction that fits them all best
    can run one row into the next. Each turn keeps the anchors; the seat's frame stays the fitted one
    for everything but the split.
    """
    best, best_err = fr, _layout_error(fr)
    for deg in cfg.split_turns:
        a = math.radians(deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        trial = _rows(cards, rot @ fr.right, rot @ fr.down, orientation, scale, cfg)
        err = _layout_error(trial)
        if err < best_err:
            best, best_err = trial, err
    return best


def _rows(cards: list[_Card], right: np.ndarray, down: np.ndarray, orientation: float, scale: float,
          cfg: GeometryConfig) -> SeatFrame:
    """The 1-D split of the anchors into rows, each left to right."""
    ys = np.array([c.anchor @ down for c in cards])
    groups = _split_1d(ys, cfg.row_gap * scale)
    rows = [sorted(g, key=lambda i: float(cards[i].anchor @ right)) for g in groups]
    return SeatFrame(right, down, round(orientation, 1), rows, [float(ys[g].mean()) for g in groups], scale)


def _virtual_anchors(cards: list[_Card], right: np.ndarray, down: np.ndarray, scale: float,
                     cfg: GeometryConfig, sure_side: bool = False,
                     offset: np.ndarray | None = None) -> list[tuple[_Card, np.ndarray]]:
    """A card seen by one corner only may show its bottom-right one (its top cut off by the photo's
    edge or covered): when stepping back by the deck's corner offset (learnt from this seat's
    two-corner cards, or the photo's `offset` when it has fewer than two) puts it on a row line where
    it is not now, use that point as its top-left.

    Returns the moves left open (the caller keeps them if the counts come closer to 3/5/5): a point
    just off its line whose step back lands mid-row, in a row spread out enough that its
    bottom-right corner would show, or at a row's end; and a step back that lands near a row only
    within `cfg.loose_step` times the tolerance (the offset learnt on near cards misses far ones
    under a close-up's perspective), also only where no card of that row would lie over the corner."""
    merged = [c for c in cards if len(c.points) == 2 and c.anchor is not None]
    singles = [c for c in cards if len(c.points) == 1]
    if not singles:
        return []
    if len(merged) < 2 and offset is None:  # nothing learnt: the middle of where any deck puts it
        offset = _pair_box_middle(cfg)
    vs = []
    for c in merged:
        other = c.points[1] if c.anchor is c.points[0] else c.points[0]
        vs.append([(other - c.anchor) @ right / c.size, (other - c.anchor) @ down / c.size])
    vr, vd = np.median(np.array(vs), axis=0) if len(merged) >= 2 else offset  # else: the photo's
    tol = cfg.line_sigma * 2 * scale
    optional: list[tuple[_Card, np.ndarray]] = []
    for c in singles:
        p = c.points[0]
        anchors = np.array([o.anchor for o in cards if o is not c and o.anchor is not None]).reshape(-1, 2)
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
                optional.append((c, virtual))
        elif d_alt <= tol:
            # a point just off a row line (a top-left pushed out of line) moves only where its corner
            # could show. That needs the seat's side known (a seat alone may be read turned half round).
            if d > 2 * tol or not sure_side:
                c.anchor = virtual
            elif clear or ends:
                optional.append((c, virtual))
    return optional


def name_rows(counts: list[int]) -> list[str]:
    """Names for rows ordered far to near: the end with 3 cards is the head, then middle, tail.

    Two rows of more than three cards cannot hold the head: it is out of view (a close-up cut by the
    photo's edge), and players lay it farthest from them, so the far row is the middle.

    >>> name_rows([3, 5, 5]), name_rows([5, 5, 3]), name_rows([5, 4, 4]), name_rows([2, 5])
    (['head', 'middle', 'tail'], ['tail', 'middle', 'head'], ['tail', 'middle', 'head'], ['head', 'middle'])
    >>> name_rows([5, 4]), name_rows([4, 2])
    (['middle', 'tail'], ['middle', 'head'])
    """
    if len(counts) == 3:
        far_head = abs(counts[0] - 3) + abs(counts[2] - 5)
        near_head = abs(counts[2] - 3) + abs(counts[0] - 5)
        return ["head", "middle", "tail"] if far_head <= near_head else ["tail", "middle", "head"]
    if len(counts) == 2:
        if min(counts) > ROW_SIZES["head"]:
            return ["middle", "tail"]
        return ["head", "middle"] if counts[0] <= counts[1] else ["middle", "head"]
    return ["middle"] * len(counts)


# ------------------------------------------------------------------------------------------ table
@dataclass
class _Placement:
    cards: list[_Card]
    frames: list[tuple[SeatFrame, list[int], np.ndarray]]
    strays: list[int]
    table_centre: np.ndarray | None
    deck: int

    @property
    def error(self) -> int:
        """How far the seats are from 3/5/5 each, plus stray cards: lower is a better reading."""
        return sum(_layout_error(fr) for fr, _, _ in self.frames) + len(self.strays)


def _place(
    cards: list[_Card], k: int, deck: int | None, width: int, height: int, scale: float, cfg: GeometryConfig
) -> _Placement:
    """Seats (k of them), their frames and rows, corner pairs checked against each seat's frame."""
    centers = np.array([c.center for c in cards]).reshape(-1, 2)
    deck = deck or (65 if k >= 5 else 52)
    one_deck = one_copy_each(deck)
    labels = [c.card for c in cards] if one_deck else None
    groups, strays = group_seats(centers, k, np.array([c.size for c in cards]), cfg, labels)
    if _split_across_seats(cards, groups):
        centers = np.array([c.center for c in cards]).reshape(-1, 2)
    n_seats = len(groups)

    table_centre = (
        np.mean([centers[g].mean(0) for g in groups], axis=0)
        if n_seats > 1
        else np.array([width / 2, height / 2]) if width and height else None
    )
    frames: list[tuple[SeatFrame, list[int], np.ndarray]] = []
    cap = deck_capacity(deck)
    seen = Counter(c.card for c in cards)
    over = {name for name, n in seen.items() if n > cap[name]}  # more cards than the decks hold
    for g in groups:
        centre = centers[g].mean(0)
        toward = (table_centre - centre) if n_seats > 1 else None
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
        if not one_deck and _repair_in_seat(cards, g, fr, cfg, one_deck):
            fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
        if one_deck:
            if _merge_in_seat(cards, g, fr, cfg):
                fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
        else:  # two decks: a far same-card pair may be two copies, so merge only when the counts agree
            # ... or when the table holds more of a card than two decks do: two of them are one card
            if over and _merge_in_seat(cards, g, fr, cfg, names=over):
                fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
            fr = _merge_while_it_helps(cards, g, fr, scale, toward, cfg)
        frames.append((fr, g, centre))

    # Same-card pairs must sit like the two corners of one card in the seat's frame (down and to the
    # right, the same way on every card). With a 65-card deck two copies of a card can be a card
    # diagonal apart: such a "pair" fails this test and is split back into two cards.
    offset = _corner_offset(cards, [(fr, g) for fr, g, _ in frames], scale, cfg)
    for k, (fr, g, centre) in enumerate(frames):
        if one_deck:  # a card exists once: split a same-card pair only if it cannot be one card
            _split_impossible(cards, g, fr, cfg)
            toward = (table_centre - centre) if n_seats > 1 else None
            frames[k] = (fit_rows([cards[i] for i in g], scale, toward, cfg, offset), g, centre)
            continue
        toward = (table_centre - centre) if n_seats > 1 else None
        seat_offset = _corner_offset_of(cards, [(fr, g)])  # the seat's own shear, if it shows it
        here = seat_offset if seat_offset is not None else offset

        def splittable(i: int) -> bool:  # never split a pair into more copies than the decks hold
            return sum(not c.gone and c.card == cards[i].card for c in cards) < cap[cards[i].card]

        doubtful = []
        for i in list(g):
            dev = _pair_deviation(cards[i], fr, here, scale, cfg)
            sure = seat_offset is not None or not _pair_possible(cards[i], fr, cfg)
            if dev > cfg.pair_split and sure and splittable(i):
                _split(cards, g, i, doubt=_pair_possible(cards[i], fr, cfg))
            elif dev > cfg.pair_tolerance:
                doubtful.append(i)
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg, here)
        if _layout_error(fr) > 0:  # a wrong count: any pair may be two copies (65-card deck)
            doubtful = [i for i in g if len(cards[i].points) == 2]
        doubtful = [i for i in doubtful if splittable(i)]
        # Undo the merge that brings the counts closest to 3/5/5, the least card-like pair first;
        # repeat while it helps. Never split a pair unless the counts say so.
        while doubtful and _layout_error(fr) > 0:
            best = None
            for i in doubtful:
                trial_cards, trial_g = list(cards), list(g)
                _split(trial_cards, trial_g, i, doubt=True)
                trial = fit_rows([trial_cards[j] for j in trial_g], scale, toward, cfg, here)
                key = (_layout_error(trial), -_pair_deviation(cards[i], fr, here, scale, cfg))
                if best is None or key < best[0]:
                    best = (key, i, trial_cards, trial_g)
            fr = fit_rows([cards[j] for j in g], scale, toward, cfg, here)  # restore anchors after trials
            if best is None or best[0][0] >= _layout_error(fr):
                break
            _, i, cards[:], g[:] = best
            doubtful.remove(i)
            fr = fit_rows([cards[j] for j in g], scale, toward, cfg, here)
        covered = [i for i in g if len(cards[i].points) == 2 and splittable(i)
                   and _corner_covered(cards, g, fr, i)]
        if (doubtful and _layout_error(fr) > 0) or covered:
            tries = sorted(set(doubtful) | set(covered))
            fr = _split_and_merge(cards, g, fr, tries, here, scale, toward, cfg)
        frames[k] = (fr, g, centre)

    return _Placement(cards, frames, strays, table_centre, deck)


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


def _pair_deviation(c: _Card, fr: SeatFrame, offset: np.ndarray | None, scale: float,
                    cfg: GeometryConfig = GeometryConfig()) -> float:
    """How far (index heights) a merged card's second corner is from where the deck puts it:
    from `offset` (learnt from this photo) or, without one, from the box any deck design fits in."""
    if len(c.points) != 2 or c.anchor is None:
        return 0.0
    other = c.points[1] if c.anchor is c.points[0] else c.points[0]
    if c.card in JOKERS:  # a joker's index is a design of its own: only the loose box applies
        v = np.array([(other - c.anchor) @ fr.right, (other - c.anchor) @ fr.down]) / (fr.scale or c.size)
        x1, y1, x2, y2 = cfg.pair_box_one_deck
        return float(max(x1 - v[0], v[0] - x2, y1 - v[1], v[1] - y2, 0.0))
    v = np.array([(other - c.anchor) @ fr.right, (other - c.anchor) @ fr.down]) / c.size
    if offset is not None:
        return float(np.max(np.abs(v - offset)))
    x1, y1, x2, y2 = cfg.pair_box
    return float(max(x1 - v[0], v[0] - x2, y1 - v[1], v[1] - y2, 0.0))


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


def _repair_in_seat(
    cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig, one_deck: bool
) -> bool:
    """Re-pair the corners of same-named detections inside one seat, all at once.

    `merge_corners` pairs by distance alone, before the seats are known; with two copies of a card
    in a seat (two decks) it can pair one copy's top-left with the other's, leaving a real corner
    alone. In the seat's frame a card's second corner sits below and right of its first, at the
    offset this seat's other cards show: the matching with the most such pairs, then the smallest
    deviation from that offset (the middle of the box any deck's corners fall in when the seat
    shows too few) wins. Returns whether anything changed."""
    offset = _corner_offset_of(cards, [(fr, g)])
    by: dict[str, list[int]] = {}
    for i in g:
        c = cards[i]
        if not c.corners_disagree:
            by.setdefault(c.card, []).append(i)
    changed = False
    for idx in by.values():
        dets = [d for i in idx for d in _detections(cards[i])]
        if len(dets) < 2 or len(dets) > 6 or any(d.card != dets[0].card for d in dets):
            continue
        others = [cards[i].anchor for i in g if i not in idx and cards[i].anchor is not None]
        pairs = _best_pairing(dets, fr, cfg, offset, one_deck, others)
        now = {frozenset(map(id, _detections(cards[i]))) for i in idx}
        paired = {k for a, b in pairs for k in (a, b)}
        alone = [k for k in range(len(dets)) if k not in paired]
        want = {frozenset((id(dets[a]), id(dets[b]))) for a, b in pairs}
        want |= {frozenset((id(dets[k]),)) for k in alone}
        if want == now:
            continue
        for i in idx:
            cards[i] = replace(cards[i], gone=True)
            g.remove(i)
        cards.extend([_combine(dets[a], dets[b]) for a, b in pairs] + [_single(dets[k]) for k in alone])
        g.extend(range(len(cards) - len(pairs) - len(alone), len(cards)))
        changed = True
    return changed


def _best_pairing(
    dets: list[Detection], fr: SeatFrame, cfg: GeometryConfig, offset: np.ndarray | None, one_deck: bool,
    anchors: list[np.ndarray] | None = None,
) -> list[tuple[int, int]]:
    """The most corner pairs among same-named detections; then the fewest pairs whose top-left has
    another card's top-left just right of it in its row (that card lies over its bottom-right
    corner, which cannot show); then the least deviation from `offset`. `anchors`: the top-left
    index centres of the seat's other cards."""
    pts = [np.array(d.center) for d in dets]
    sizes = [_side(d.box) for d in dets]
    tops = anchors or []

    def covered(a: int) -> bool:
        return _covered(pts[a], tops, fr, fr.scale or sizes[a], cfg)
    joker = dets[0].card in JOKERS  # a design of its own: the loose box, in the seat's units
    box = cfg.pair_box_one_deck if one_deck or joker else cfg.pair_box

    def cost(a: int, b: int) -> float | None:
        if float(pts[a] @ fr.down) > float(pts[b] @ fr.down):
            a, b = b, a
        v = (pts[b] - pts[a]) / (fr.scale if joker and fr.scale else (sizes[a] + sizes[b]) / 2)
        v = np.array([v @ fr.right, v @ fr.down])
        x1, y1, x2, y2 = box
        outside = float(max(x1 - v[0], v[0] - x2, y1 - v[1], v[1] - y2, 0.0))
        if joker:
            return 0.0 if outside <= 0.0 else None
        if offset is None:  # no offset learnt: inside the box, the nearer its middle the better
            if outside > (0.0 if one_deck else cfg.pair_tolerance):
                return None
            return outside + 0.01 * float(np.max(np.abs(v - np.array([(x1 + x2) / 2, (y1 + y2) / 2]))))
        dev = float(np.max(np.abs(v - offset)))
        if one_deck:
            return dev if outside <= 0.0 else None
        return dev if dev <= cfg.pair_split else None

    best: tuple[tuple[int, int, float], list[tuple[int, int]]] | None = None

    def search(rest: list[int], pairs: list[tuple[int, int]], total: float) -> None:
        nonlocal best
        if not rest:
            hidden = sum(covered(min((a, b), key=lambda k: float(pts[k] @ fr.down))) for a, b in pairs)
            key = (-len(pairs), hidden, total)
            if best is None or key < best[0]:
                best = (key, list(pairs))
            return
        a, others = rest[0], rest[1:]
        search(others, pairs, total)  # a stays alone
        for b in others:
            c = cost(a, b)
            if c is not None:
                search([o for o in others if o != b], [*pairs, (a, b)], total + c)

    search(list(range(len(dets))), [], 0.0)
    return best[1] if best else []


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


def _merge_in_seat(
    cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig, names: set[str] | None = None,
) -> bool:
    """With one deck, two single-corner reads of a card in one seat that sit like its two corners
    (the second below and right of the first in the seat's frame) are one card, even when camera
    tilt stretches them past `pair_max`. Returns whether anything merged."""
    merged = False
    for a, b in _merge_options(cards, g, fr, cfg, names, only_twos=True):
        if not (cards[a].gone or cards[b].gone):
            _merge_pair(cards, g, a, b)
            merged = True
    return merged


def _merge_options(
    cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig, names: set[str] | None = None,
    only_twos: bool = False,
) -> list[tuple[int, int]]:
    """Same-named single-corner reads in a seat that may be one card's two corners (the second in
    `pair_box_one_deck` from the first, in the seat's frame), the most card-like first (nearest the
    middle of `pair_box`; jokers measured in the seat's index heights). `only_twos`: only names read
    exactly twice (no doubt which two)."""
    by: dict[str, list[int]] = {}
    for i in g:
        if len(cards[i].points) == 1 and (names is None or cards[i].card in names):
            by.setdefault(cards[i].card, []).append(i)
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    middle = _pair_box_middle(cfg)
    out: list[tuple[float, int, int]] = []
    for idx in by.values():
        if only_twos and len(idx) != 2:
            continue
        for i, j in combinations(idx, 2):
            a, b = sorted((i, j), key=lambda k: float(cards[k].points[0] @ fr.down))
            v = (cards[b].points[0] - cards[a].points[0]) / _pair_unit(cards[a], cards[b], fr)
            v = np.array([v @ fr.right, v @ fr.down])
            if x1 <= v[0] <= x2 and y1 <= v[1] <= y2:
                out.append((float(np.max(np.abs(v - middle))), a, b))
    return [(a, b) for _, a, b in sorted(out)]


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


def _merge_pair(cards: list[_Card], g: list[int], a: int, b: int) -> None:
    """Cards a and b (single corners) become one card, kept at a; b is marked gone and leaves g."""
    cards[a] = _combine(_detections(cards[a])[0], _detections(cards[b])[0])
    cards[b] = replace(cards[b], gone=True)  # a copy: a rejected trial leaves the original
    g.remove(b)


def _merge_while_it_helps(
    cards: list[_Card], g: list[int], fr: SeatFrame, scale: float, toward: np.ndarray | None,
    cfg: GeometryConfig, avoid: set[int] | None = None,
) -> SeatFrame:
    """Two decks: a far same-card pair may be two copies, so single corners merge one pair at a time,
    the most card-like first, and only while that brings the seat closer to 3/5/5. With a card read
    three times (two copies, one showing both corners) the first option may pair the copies: the
    next ones are tried too. `avoid`: two cards never to pair again (a pair just split). Returns the
    seat's frame after the merges kept."""
    while _layout_error(fr) > 0:
        for a, b in _merge_options(cards, g, fr, cfg):
            if avoid is not None and {a, b} <= avoid:
                continue
            trial_cards, trial_g = list(cards), list(g)
            _merge_pair(trial_cards, trial_g, a, b)
            trial = fit_rows([trial_cards[i] for i in trial_g], scale, toward, cfg)
            if _layout_error(trial) < _layout_error(fr):
                cards[:], g[:], fr = trial_cards, trial_g, trial
                break
        else:
            return fit_rows([cards[i] for i in g], scale, toward, cfg)  # restore anchors after trials
    return fr


def _split_and_merge(
    cards: list[_Card], g: list[int], fr: SeatFrame, doubtful: list[int], offset: np.ndarray | None,
    scale: float, toward: np.ndarray | None, cfg: GeometryConfig,
) -> SeatFrame:
    """Two decks: two copies of a card can sit like one card's corners and be paired, while the two
    corners of another card stand apart. Neither splitting the first nor merging the second alone
    changes the counts; together they can. Every doubtful pair is tried; of the combinations that
    bring the seat closest to 3/5/5 the one with fewest pairs whose second corner the next card in
    the row would cover, then whose pairs sit most alike (the deck's corner offset), is kept, if any
    comes closer than now (or as close, with fewer covered corners). Returns the seat's frame."""
    now = (_layout_error(fr), sum(_corner_covered(cards, g, fr, j) for j in g if len(cards[j].points) == 2))
    best = None
    for i in doubtful:
        trial_cards, trial_g = list(cards), list(g)
        _split(trial_cards, trial_g, i, doubt=True)
        trial = fit_rows([trial_cards[j] for j in trial_g], scale, toward, cfg, offset)
        trial = _merge_while_it_helps(trial_cards, trial_g, trial, scale, toward, cfg,
                                      avoid={i, len(trial_cards) - 1})
        err = _layout_error(trial)
        pairs = [j for j in trial_g if len(trial_cards[j].points) == 2]
        hidden = sum(_corner_covered(trial_cards, trial_g, trial, j) for j in pairs)
        if (err, hidden) < now:
            spread = sum(_pair_deviation(trial_cards[j], trial, offset, scale, cfg) for j in pairs)
            if best is None or (err, hidden, spread) < best[0]:
                best = ((err, hidden, spread), trial_cards, trial_g)
    if best is not None:
        cards[:], g[:] = best[1], best[2]
    return fit_rows([cards[j] for j in g], scale, toward, cfg, offset)  # anchors as the cards now are


def _corner_covered(cards: list[_Card], g: list[int], fr: SeatFrame, j: int) -> bool:
    """Whether card j's second corner lies under the next card of its row: in a fanned row only the
    last card (or a card of a row spread wider than a card) shows its bottom-right corner."""
    c = cards[j]
    other = c.points[1] if c.anchor is c.points[0] else c.points[0]
    reach = float((other - c.anchor) @ fr.right)
    for row in fr.rows:
        members = [cards[g[k]] for k in row]
        if not any(o is c for o in members):
            continue
        xs = [float((o.anchor - c.anchor) @ fr.right) for o in members if o is not c]
        return any(0 < x < reach for x in xs)
    return False


def _split_impossible(cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig) -> None:
    """Split pairs whose second corner is nowhere a card's could be (`pair_box_one_deck`)."""
    for i in list(g):
        if not _pair_possible(cards[i], fr, cfg):
            _split(cards, g, i)


def _pair_possible(c: _Card, fr: SeatFrame, cfg: GeometryConfig) -> bool:
    """Whether a merged card's second corner lies where any card's could, seen in its seat's frame
    (`pair_box_one_deck`: loose enough for camera tilt and shear). Single corners always can."""
    if len(c.points) != 2 or c.anchor is None:
        return True
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    other = c.points[1] if c.anchor is c.points[0] else c.points[0]
    v = (other - c.anchor) / _corner_unit(c.card, c.size, fr)
    return bool(x1 <= v @ fr.right <= x2 and y1 <= v @ fr.down <= y2)


def _split(cards: list[_Card], g: list[int], i: int, doubt: bool = False) -> None:
    """Undo a merge: card i becomes its first corner; its second is appended as a card of its own.
    `doubt`: the corners could still be one card's (split for the counts, or off the corner offset)."""
    c = cards[i]
    a, b = _detections(c)
    cards[i] = replace(_single(a), split=doubt)
    cards.append(replace(_single(b), split=doubt))
    g.append(len(cards) - 1)


def _layout_error(fr: SeatFrame) -> int:
    """How far a seat's row counts are from 3/5/5 (and 13 in all)."""
    names = name_rows([len(r) for r in fr.rows])
    got = dict.fromkeys(ROW_SIZES, 0)
    for name, row in zip(names, fr.rows, strict=True):
        got[name] += len(row)
    return sum(abs(got[r] - n) for r, n in ROW_SIZES.items()) + abs(sum(got.values()) - SEAT_SIZE)


def _corner_offset(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int]]], scale: float, cfg: GeometryConfig
) -> np.ndarray | None:
    """Where a card's second index sits from its first (right, down; index heights): the median
    over this photo's merged cards (the deck's design), or the usual layout when there are few."""
    vs = []
    for fr, g in frames:
        for i in g:
            c = cards[i]
            if len(c.points) == 2 and c.anchor is not None and c.card not in JOKERS:
                other = c.points[1] if c.anchor is c.points[0] else c.points[0]
                vs.append([(other - c.anchor) @ fr.right / c.size, (other - c.anchor) @ fr.down / c.size])
    if len(vs) < 3:
        return None
    return np.median(np.array(vs), axis=0)


def _seat_order(centres: list[np.ndarray], table: np.ndarray) -> list[int]:
    """Seat indices clockwise (on screen) starting from the one nearest the bottom of the photo."""
    if not centres:
        return []
    ang = [(math.degrees(math.atan2(c[1] - table[1], c[0] - table[0])) - 90.0) % 360.0 for c in centres]
    # the seat nearest straight down starts, even if it is slightly right of centre (angle near 360)
    start = min(range(len(ang)), key=lambda i: min(ang[i], 360.0 - ang[i]))
    return sorted(range(len(ang)), key=lambda i: (ang[i] - ang[start]) % 360.0)


def read_table(
    dets: list[Detection],
    *,
    seats: int | None = None,
    deck: int | None = None,
    width: int = 0,
    height: int = 0,
    cfg: GeometryConfig = GeometryConfig(),
) -> TableRead:
    """Seats, rows and problems from detections. `seats` (1..5) if known; `deck` 52 or 65 (default:
    65 for five seats, else 52)."""
    problems: list[Problem] = []
    scale = index_scale(dets)
    variants = [merge_corners(dets, scale, cfg)]
    # Farther corners may pair too (small indices on a large card). With two decks such a pair may be
    # two copies: the placement nearer 3/5/5 wins, and each seat splits a pair that cannot be one card.
    far = merge_corners(dets, scale, cfg, cfg.pair_max_far)
    if len(far) < len(variants[0]):
        variants.append(far)
    best: _Placement | None = None
    for n, merged in enumerate(variants):
        # How many seats: the number of 13s in the cards, unless told. When the count falls between
        # two (unmerged corners, hidden cards), both are tried and the one closer to 3/5/5 seats wins.
        est = len(merged) / SEAT_SIZE
        distinct = len({c.card for c in merged}) / SEAT_SIZE  # unpaired corners count once (one deck)
        ks = [seats] if seats else sorted({min(5, max(1, v)) for v in (
            round(est), math.floor(est + 0.2), math.ceil(est - 0.2), round(distinct))})
        for k in ks:
            if n and deck is None and k >= 5:  # five seats of an unknown deck: far pairs would pair copies
                continue
            trial = _place([replace(c, points=list(c.points), boxes=list(c.boxes)) for c in merged], k,
                           deck, width, height, scale, cfg)
            if best is None or trial.error < best.error:
                best = trial
    assert best is not None
    cards, frames, strays, deck = best.cards, best.frames, best.strays, best.deck
    table_centre = best.table_centre
    n_seats = len(frames)
    live = [c for c in cards if not c.gone]
    changed = fix_with_deck(live, deck) if cfg.fix_with_deck else []

    # strays near a seat's row line (a card pushed out of line) join that row; the rest are orphans
    orphans: list[int] = []
    for i in strays:
        c = cards[i]
        best = None
        for fi, (fr, g, _) in enumerate(frames):
            anchor = _top_left(c, fr.down)
            y = float(anchor @ fr.down)
            for ri, line in enumerate(fr.lines):
                xs = [float(cards[g[j]].anchor @ fr.right) for j in fr.rows[ri]]
                x = float(anchor @ fr.right)
                if abs(y - line) < cfg.attach * scale and min(xs) - 4 * scale <= x <= max(xs) + 4 * scale:
                    d = abs(y - line)
                    if best is None or d < best[0]:
                        best = (d, fi, ri, anchor)
        if best is None:
            orphans.append(i)
        else:
            _, fi, ri, anchor = best
            fr, g, _ = frames[fi]
            c.anchor = anchor
            g.append(i)
            fr.rows[ri].append(len(g) - 1)
            fr.rows[ri].sort(key=lambda j: float(cards[g[j]].anchor @ fr.right))

    order = _seat_order([f[2] for f in frames], table_centre if table_centre is not None else np.zeros(2))
    seat_reads: list[SeatRead] = []
    seat_of: dict[int, tuple[int, str]] = {}
    read_of: dict[int, ReadCard] = {}
    for number, fi in enumerate(order):
        fr, g, _ = frames[fi]
        names = name_rows([len(r) for r in fr.rows])
        sr = SeatRead(number, fr.orientation_deg)
        for name, row in zip(names, fr.rows, strict=True):
            target = getattr(sr, name)
            for j in row:
                target.append(cards[g[j]].read())
                seat_of[id(cards[g[j]])] = (number, name)
                read_of[id(cards[g[j]])] = target[-1]
        seat_reads.append(sr)

    left_out = _leave_out_false_reads(seat_reads, changed, seat_of, read_of, cfg)
    gone = {id(c) for c, _ in left_out}
    live = [c for c in live if id(c) not in gone]
    _fill_by_elimination(seat_reads, deck, problems)

    # ---- problems, each located
    for sr in seat_reads:
        n = len(sr.cards)
        if n != SEAT_SIZE:
            problems.append(Problem("seat_count", f"{sr.name} has {n} cards instead of {SEAT_SIZE}", sr.seat))
        for row, want in ROW_SIZES.items():
            got = len(getattr(sr, row))
            if got != want:
                problems.append(Problem("row_length", f"{sr.name} {row}: {got} cards instead of {want}",
                                        sr.seat, row))
    if seats and n_seats != seats:
        problems.append(Problem("seat_missing", f"found {n_seats} seats, expected {seats}"))
    if not any(sr.cards for sr in seat_reads):
        # An empty read is not an empty table: nothing may pass as "read, no problem" that read nothing.
        problems.append(Problem("no_cards", "no card was read in this photo: retake it closer and "
                                            "better lit, or type the cards"))
    for number, fi in enumerate(order):  # a seat alone, cut by the photo's edge, side undecided
        fr, g, _ = frames[fi]
        if not fr.side_known and width and height and any(
                min(b[0], b[1], width - b[2], height - b[3]) < scale for i in g for b in cards[i].boxes):
            problems.append(Problem("orientation", f"{seat_reads[number].name}: the photo cuts the seat off "
                                    "and its corners do not show which side the player sits: rows may "
                                    "be swapped", number))
    for c, (s, row, n) in left_out:
        problems.append(Problem("false_read", f"Seat {s + 1} {row}: read {c.card}, but that card is "
                                f"already on the table and the seat had {n} cards: left out as a false read",
                                s, row, c.card))
    for c in changed:
        if id(c) in gone:
            continue
        s, row = seat_of.get(id(c), (None, None))
        where = f"Seat {s + 1} {row}" if s is not None else "a card outside the seats"
        problems.append(Problem("changed", f"{where}: read {c.changed_from}, but that card is already on "
                                f"the table; most likely {c.card}", s, row, c.card))
    for c in live:
        if c.corners_disagree:
            s, row = seat_of.get(id(c), (None, None))
            problems.append(Problem("corners_disagree", f"the two corners of one card read differently; "
                                    f"took {c.card}", s, row, c.card))
    cap = deck_capacity(deck)
    where_seen: dict[str, list[tuple[int | None, str | None]]] = {}
    for c in live:
        where_seen.setdefault(c.card, []).append(seat_of.get(id(c), (None, None)))
    for card, places in where_seen.items():
        if len(places) > cap[card]:
            for s, row in places:
                problems.append(Problem("duplicate", f"{card} is seen {len(places)} times", s, row, card))
    photo_offset = _corner_offset_of(cards, [(fr, g) for fr, g, _ in frames])
    for number, fi in enumerate(order):  # two copies in one hand: legal with two decks (and common)
        fr, g, _ = frames[fi]
        offset = _corner_offset_of(cards, [(fr, g)])
        offset = offset if offset is not None else photo_offset
        by_name: dict[str, list[_Card]] = {}
        for row in fr.rows:
            for j in row:
                if id(cards[g[j]]) not in gone:
                    by_name.setdefault(cards[g[j]].card, []).append(cards[g[j]])
        anchors = [cards[g[j]].anchor for row in fr.rows for j in row if cards[g[j]].anchor is not None]
        for card, copies in by_name.items():
            if 1 < len(copies) <= cap[card] and _corners_of_one(copies, fr, offset, cfg, anchors):
                rows = [seat_of[id(c)][1] for c in copies]
                problems.append(Problem("same_card", f"{seat_reads[number].name}: {card} twice "
                                        f"({' and '.join(rows)}); two copies, or one card's two corners?",
                                        number, rows[-1], card))
    for c in live:  # unsure reads: a low top score, or a runner-up close behind (either corner)
        if id(c) not in seat_of or not c.boxes or c.changed_from:
            continue  # outside the seats (an orphan) or changed: reported as such
        s, row = seat_of[id(c)]
        name = seat_reads[s].name
        runners = [r for r in [_runner_up(c.card, c.scores)] + [_runner_up(c.card, d.scores) for d in c.dets]
                   if r is not None]
        close = min(runners, key=lambda r: r[2]) if runners else None
        if c.confidence < cfg.low_confidence:
            problems.append(Problem("low_confidence", f"{name} {row}: not sure this is {c.card} "
                                    f"({c.confidence:.0%})", s, row, c.card))
        elif close is not None and close[2] < cfg.low_margin:
            problems.append(Problem("low_confidence", f"{name} {row}: not sure this is {c.card} "
                                    f"({c.confidence:.0%}) or {close[0]} ({close[1]:.0%})", s, row, c.card))
    orphan_reads = [cards[i].read() for i in orphans]
    for rc in orphan_reads:
        problems.append(Problem("orphan", f"{rc.card} lies outside every seat", card=rc.card))
    orphan_reads += [c.read() for c, _ in left_out]  # as read, still shown (the app can put it back)
    return TableRead(seat_reads, problems, orphan_reads, width, height)


def _leave_out_false_reads(
    seat_reads: list[SeatRead], changed: list[_Card], seat_of: dict[int, tuple[int, str]],
    read_of: dict[int, ReadCard], cfg: GeometryConfig,
) -> list[tuple[_Card, tuple[int, str, int]]]:
    """Take out of an over-full seat the cards the deck fix could only rename to something unlikely.

    Why: a seat of 14 whose extra card repeats one already on the table is most often one false read
    (a half box on an index, a glyph in the card art), not a misread: renaming it to the runner-up
    class (a joker at 2%) keeps the seat at 14 and invents a card. Such a card leaves the seat (least
    likely first, while the seat is over 13), its `seat_of` entry goes, and it is returned with where
    it was, to be reported; a seat of 13 or fewer is never touched.
    """
    out: list[tuple[_Card, tuple[int, str, int]]] = []
    for c in sorted(changed, key=lambda d: d.confidence):
        if id(c) not in seat_of or c.confidence >= cfg.false_read_below:
            continue
        s, row = seat_of[id(c)]
        n = len(seat_reads[s].cards)
        if n <= SEAT_SIZE:
            continue
        cards = getattr(seat_reads[s], row)
        cards.pop(next(k for k, r in enumerate(cards) if r is read_of[id(c)]))
        del seat_of[id(c)]
        # back to what was read: it is reported as that card, outside the seat
        c.card, c.changed_from = c.changed_from, None
        if c.scores is not None:
            c.confidence = float(c.scores[CLASS_INDEX[c.card]])
        out.append((c, (s, row, n)))
    return out


def _corners_of_one(
    copies: list[_Card], fr: SeatFrame, offset: np.ndarray | None, cfg: GeometryConfig,
    anchors: list[np.ndarray],
) -> bool:
    """Whether two same-named cards of a seat could be one card's two corners read apart: both lone
    corners, the upper one's second corner not covered by the next card in its row (`anchors`: the
    seat's top-left index centres; `offset`: where the second corner sits, from the seat or the
    photo), and either a pair split after seating that could be one card or the lower one where any
    card's second corner could sit (`pair_box_one_deck`). Other copies cannot be one card: with two
    decks such hands are common, and flagging them all would bury the real problems."""
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    for a, b in combinations(copies, 2):  # the points as seen: a lone corner's anchor may be virtual
        upper, lower = sorted((a, b), key=lambda c: min(float(p @ fr.down) for p in c.points))
        if len(lower.points) != 1 or len(upper.points) != 1:
            continue  # the upper one shows both its corners: the lower one is another card
        top = min(upper.points, key=lambda p: float(p @ fr.down))
        others = [p for p in anchors if p is not upper.anchor and p is not lower.anchor]
        # covered when the next card's left edge (~0.3 left of its index) lies over the second
        # index (~0.2 wide) by more than the ~40% that hides an index: a spread row shows it
        reach = float(offset[0]) + 0.3 if offset is not None else 4.0
        if _covered(top, others, fr, fr.scale or upper.size, cfg, reach):
            continue  # the next card in its row lies over where its second corner would be
        if upper.split and lower.split:  # a possible pair split (counts, offset): the doubt is real
            return True
        v = (lower.points[0] - top) / _pair_unit(upper, lower, fr)
        if x1 <= v @ fr.right <= x2 and y1 <= v @ fr.down <= y2:
            return True
    return False


def _runner_up(card: str, scores: np.ndarray | None) -> tuple[str, float, float] | None:
    """The best class other than `card` in a score vector, its score, and by how much `card` leads
    it (negative when it does not). None without scores."""
    if scores is None or len(scores) != len(CLASS_NAMES) or card not in CLASS_INDEX:
        return None
    s = np.asarray(scores, dtype=np.float64).copy()
    top = float(s[CLASS_INDEX[card]])
    s[CLASS_INDEX[card]] = -np.inf
    j = int(np.argmax(s))
    return CLASS_NAMES[j], float(s[j]), top - float(s[j])


def _fill_by_elimination(seat_reads: list[SeatRead], deck: int, problems: list[Problem]) -> None:
    """A full 52-card table missing exactly one card: the missing one is known; put it in the short row."""
    if deck != 52 or len(seat_reads) * SEAT_SIZE != 52:
        return
    seen = Counter(c.card for s in seat_reads for c in s.cards)
    missing = [c for c in CLASS_NAMES[:52] if c not in seen]
    short = [s for s in seat_reads if len(s.cards) == SEAT_SIZE - 1]
    if len(missing) != 1 or len(short) != 1 or any(n > 1 for n in seen.values()):
        return
    sr = short[0]
    row = next((r for r, n in ROW_SIZES.items() if len(getattr(sr, r)) < n), None)
    if row is None:
        return
    others = getattr(sr, row)
    centre = tuple(np.mean([c.center for c in others], axis=0)) if others else (0.0, 0.0)
    others.append(ReadCard(missing[0], (float(centre[0]), float(centre[1])), 0.0, [], None))
    problems.append(Problem("inferred", f"{sr.name} {row}: one card was not seen; by elimination it is "
                            f"{missing[0]}", sr.seat, row, missing[0]))
