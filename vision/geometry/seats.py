"""Cards into seats: the single-linkage tree of card centres, cut where the groups come closest to
13 cards; and the seats' order round the table."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from .config import SEAT_SIZE, GeometryConfig


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


def local_unit(centers: np.ndarray, sizes: np.ndarray, k: int) -> np.ndarray:
    """Each card's unit of length: the median index height of it and its k - 1 nearest cards.

    Perspective changes the index height slowly across a photo, but one box's height can be far off (a
    box over a court card's figure, half an index): in its own height every distance from it is short
    (or long), and a link through it can join two seats across a gap wider than their rows'.

    >>> local_unit(np.array([[0.0, 0], [10, 0], [20, 0], [30, 0]]), np.array([10.0, 10, 30, 10]), 3).tolist()
    [10.0, 10.0, 10.0, 10.0]
    """
    if len(sizes) < 2 or k < 2:
        return sizes
    d = np.linalg.norm(centers[:, None] - centers[None], axis=2)
    nearest = np.argsort(d, axis=1, kind="stable")[:, :k]
    return np.median(sizes[nearest], axis=1)


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
    if sizes is not None:
        sizes = local_unit(centers, sizes, cfg.unit_neighbours)
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
    above it (or to its tree's root). A 4-seat table with misreads tries ~1,000-5,000 cuts: one
    union-find per cut would be the slowest step of the photo after the models.
    """
    cand = edges[: min(len(edges), k - 1 + candidates)]
    stray = set(stray_cuts)
    cuttable = stray | set(cand)
    pieces = _components(n, [e for e in edges if e not in cuttable])
    tree, anc, link_depth, n_trees = _piece_forest(n, pieces, cand, stray)
    J = max(0, k - 1)
    combos = np.zeros((1, 0), int)
    if J:
        combos = np.array(list(combinations(range(len(cand)), J)), int).reshape(-1, J)
    M = len(combos)
    if M == 0:
        return None
    P = len(pieces)
    comp = np.broadcast_to(J + tree, (M, P)).copy()  # component of each piece under each cut
    if J:
        d = np.where(anc[:, combos], link_depth[combos][None], -1)  # P x M x J
        deepest = d.argmax(2)
        has = d.max(2) >= 0
        comp[has.T] = deepest.T[has.T]
    onehot = np.zeros((M, P, J + n_trees), np.float32)
    onehot[np.arange(M)[:, None], np.arange(P)[None], comp] = 1
    sizes = np.einsum("mpc,p->mc", onehot, np.array([len(g) for g in pieces], np.float32))
    count = sizes if labels is None else _distinct_counts(onehot, pieces, labels)
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


def _piece_forest(
    n: int, pieces: list[list[int]], cand: list[tuple[float, int, int]], stray: set[tuple[float, int, int]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The forest of pieces along the candidate links that are not cut anyway (stray links): each
    piece's tree, `anc[p, c]` (link c lies between piece p and its root), each link's depth (of its
    lower end; -1: never a border), and the number of trees."""
    P = len(pieces)
    piece_of = np.empty(n, int)
    for p, g in enumerate(pieces):
        piece_of[g] = p
    adj: list[list[tuple[int, int]]] = [[] for _ in range(P)]
    for c, e in enumerate(cand):
        if e not in stray:
            a, b = int(piece_of[e[1]]), int(piece_of[e[2]])
            adj[a].append((b, c))
            adj[b].append((a, c))
    tree = np.full(P, -1)
    anc = np.zeros((P, max(1, len(cand))), bool)
    link_depth = np.full(max(1, len(cand)), -1)
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
    return tree, anc, link_depth, n_trees


def _distinct_counts(onehot: np.ndarray, pieces: list[list[int]], labels: list[str]) -> np.ndarray:
    """Per cut and group, the number of distinct card names (one deck: a card's two unpaired corners
    count once)."""
    names = sorted(set(labels))
    per_piece = np.zeros((len(pieces), len(names)), np.float32)
    index = {name: i for i, name in enumerate(names)}
    for p, g in enumerate(pieces):
        for i in g:
            per_piece[p, index[labels[i]]] += 1
    return (np.einsum("mpc,pl->mcl", onehot, per_piece) > 0).sum(2)


def _seat_order(centres: list[np.ndarray], table: np.ndarray) -> list[int]:
    """Seat indices clockwise (on screen) starting from the one nearest the bottom of the photo."""
    if not centres:
        return []
    ang = [(math.degrees(math.atan2(c[1] - table[1], c[0] - table[0])) - 90.0) % 360.0 for c in centres]
    # the seat nearest straight down starts, even if it is slightly right of centre (angle near 360)
    start = min(range(len(ang)), key=lambda i: min(ang[i], 360.0 - ang[i]))
    return sorted(range(len(ang)), key=lambda i: (ang[i] - ang[start]) % 360.0)
