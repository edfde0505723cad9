"""Corner pairs checked inside a seat, once its frame is known: pairs re-made, split and merged
where the seat's frame says two corners are (or are not) one card."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations

import numpy as np

from ..classes import JOKERS
from ..types import Detection
from .config import GeometryConfig
from .corners import (
    _combine,
    _corner_covered,
    _corner_offset_of,
    _covered,
    _detections,
    _pair_box_middle,
    _pair_deviation,
    _pair_possible,
    _pair_unit,
    _side,
    _single,
    _split,
)
from .parts import SeatFrame, _Card
from .rows import _layout_error, fit_rows
from .score import Hypothesis, score


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
        others = [a for i in g if i not in idx and (a := fr.anchor(cards[i])) is not None]
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
    """The pairing of same-named detections of the lowest `score`, over every matching: the fewest
    corners left alone, then the fewest pairs whose top-left has another card's top-left just right
    of it in its row (that card lies over its bottom-right corner, which cannot show), then the least
    deviation from `offset`. `anchors`: the top-left index centres of the seat's other cards."""
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

    best: tuple[float, list[tuple[int, int]]] | None = None

    def search(rest: list[int], pairs: list[tuple[int, int]], total: float) -> None:
        nonlocal best
        if not rest:
            hidden = sum(covered(min((a, b), key=lambda k: float(pts[k] @ fr.down))) for a, b in pairs)
            key = score(Hypothesis(lone=len(dets) - 2 * len(pairs), covered=hidden, deviation=total))
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
            return fit_rows([cards[i] for i in g], scale, toward, cfg)  # read without the photo's offset
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
    return fit_rows([cards[j] for j in g], scale, toward, cfg, offset)  # the cards as they now are


def _split_impossible(cards: list[_Card], g: list[int], fr: SeatFrame, cfg: GeometryConfig) -> None:
    """Split pairs whose second corner is nowhere a card's could be (`pair_box_one_deck`)."""
    for i in list(g):
        if not _pair_possible(cards[i], fr, cfg):
            _split(cards, g, i)
