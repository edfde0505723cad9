"""Two decks: which of a seat's same-named corners are one card, chosen for the whole seat at once.

With two decks a card can lie twice in one seat, and two copies can sit like one card's two corners
while another card's two corners stand apart. Every way of pairing each name's corners (a matching)
is a reading of the seat; the seat's rows are fitted under each, and `score` judges them: the row
counts first, then a pair whose second corner the next card of its row would cover (more likely two
copies), two lone corners left apart though they sit like one card's (`Weights.apart`), and each
pair's distance from the deck's corner offset. The names are searched together, one or two at a
time from the best reading so far until nothing scores lower: splitting one pair may only help
together with merging another.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from ..classes import JOKERS
from ..types import Detection
from .config import GeometryConfig
from .corners import _combine, _corner_covered, _corner_unit, _detections, _side, _single
from .parts import SeatFrame, _Card
from .rows import _fit_along, _layout_error, fit_rows
from .score import WEIGHTS, Hypothesis, Weights, score

MAX_CORNERS = 6  # a name read more often than this in one seat keeps its pairs as they are


@dataclass(frozen=True)
class _Matching:
    """One way of pairing a name's corners: the pairs (indices into its detections), how far they sit
    from the corner offset in all, and how many pairs of its lone corners could still be one card."""

    pairs: tuple[tuple[int, int], ...]
    deviation: float
    apart: int


def pair_copies(
    cards: list[_Card], g: list[int], fr: SeatFrame, own: np.ndarray | None, photo: np.ndarray | None,
    cap: dict[str, int], scale: float, toward: np.ndarray | None, cfg: GeometryConfig, w: Weights = WEIGHTS,
) -> SeatFrame:
    """The seat's same-named corners paired as the lowest-scoring reading says (`cards` and `g` are
    changed in place: cards re-paired are marked gone and their new cards appended). `own` and
    `photo`: where a card's second index sits from its first (right, down; index heights) as the
    seat's own pairs and the photo's show it, None if unknown. A pair more than `pair_split` off both
    is two copies where the seat shows its own (without, the photo's offset only weighs a pair: it
    mixes seats seen at other angles). `cap`: how many of each card the decks hold. Returns the
    seat's frame."""
    offset = own if own is not None else photo
    known = [o for o in (own, photo) if o is not None]
    names = _names(cards, g)
    if not names:
        return fit_rows([cards[i] for i in g], scale, toward, cfg, offset)
    dets = {n: [d for i in idx for d in _detections(cards[i])] for n, idx in names.items()}
    now = {n: _current(cards, idx) for n, idx in names.items()}
    elsewhere = {n: sum(not c.gone and c.card == n for c in cards) - len(idx) for n, idx in names.items()}
    # never split into more copies than the decks hold (more than read now: the deck fix's to judge)
    room = {n: max(cap.get(n, 2) - elsewhere[n], len(idx)) for n, idx in names.items()}
    options = {n: _options(dets[n], fr, known, own is not None, cfg, room[n]) for n in names}
    fixed = [i for i in g if not any(i in idx for idx in names.values())]
    phi = math.atan2(float(fr.right[1]), float(fr.right[0]))  # pairings are compared along the seat's rows

    def read(choice: dict[str, _Matching]) -> tuple[float, SeatFrame, list[_Card]]:
        seat = [cards[i] for i in fixed]
        for n, m in choice.items():
            seat += _cards_of(dets[n], m, was_paired=bool(now[n].pairs))
        trial = _fit_along(seat, phi, float(np.median([c.size for c in seat])), toward, cfg, offset)
        covered = sum(_corner_covered(seat, list(range(len(seat))), trial, j)
                      for j, c in enumerate(seat) if len(c.points) == 2)
        h = Hypothesis(count=_layout_error(trial), covered=covered,
                       deviation=sum(m.deviation for m in choice.values()),
                       apart=sum(m.apart for m in choice.values()))
        return score(h, w), trial, seat

    best = {n: _start(options[n], now[n]) for n in names}
    best_read = read(best)
    while True:  # the best move each round, while it lowers the score
        tried = [(read(choice), choice) for choice in _moves(best, options)]
        if not tried:
            break
        r, choice = min(tried, key=lambda t: t[0][0])
        if r[0] >= best_read[0]:
            break
        best, best_read = choice, r
    if any(best[n].pairs != now[n].pairs for n in names):
        for idx in names.values():
            for i in idx:
                cards[i] = replace(cards[i], gone=True)
                g.remove(i)
        new = best_read[2][len(fixed):]
        g.extend(range(len(cards), len(cards) + len(new)))
        cards.extend(new)
    return fit_rows([cards[i] for i in g], scale, toward, cfg, offset)


def _names(cards: list[_Card], g: list[int]) -> dict[str, list[int]]:
    """The seat's cards by name, for names with two corners or more among them (cards whose corners
    disagree on their name keep their pair, and a four-corner deck's cards their folded corners:
    `four_corners` has placed every read of their name)."""
    by: dict[str, list[int]] = {}
    for i in g:
        if not cards[i].corners_disagree and not cards[i].folded:
            by.setdefault(cards[i].card, []).append(i)
    return {n: idx for n, idx in by.items()
            if 2 <= sum(len(cards[i].points) for i in idx) <= MAX_CORNERS}


def _current(cards: list[_Card], idx: list[int]) -> _Matching:
    """The name's pairing as the cards hold it now (detections numbered card by card)."""
    pairs, k = [], 0
    for i in idx:
        n = len(_detections(cards[i]))
        if n == 2:
            pairs.append((k, k + 1))
        k += n
    return _Matching(tuple(pairs), 0.0, 0)


def _start(options: list[_Matching], now: _Matching) -> _Matching:
    """Where the search starts for a name: its pairs as they are, less those that cannot be one card
    (split), or, if the decks cannot hold that many cards, its first option."""
    allowed = {p for m in options for p in m.pairs}
    start = tuple(p for p in now.pairs if p in allowed)
    return next((m for m in options if m.pairs == start), options[0])


def _options(
    dets: list[Detection], fr: SeatFrame, offsets: list[np.ndarray], strict: bool, cfg: GeometryConfig,
    room: int,
) -> list[_Matching]:
    """Every matching of a name's corners whose pairs could each be one card (`_pair_cost`) and that
    leaves no more cards than `room` (if none does, those leaving fewest)."""
    n = len(dets)
    cost = {(a, b): c for a, b in combinations(range(n), 2)
            if (c := _pair_cost(dets[a], dets[b], fr, offsets, strict, cfg)) is not None}
    found: list[tuple[tuple[int, int], ...]] = []

    def search(rest: list[int], pairs: list[tuple[int, int]]) -> None:
        if not rest:
            found.append(tuple(pairs))
            return
        a, others = rest[0], rest[1:]
        search(others, pairs)
        for b in others:
            if (a, b) in cost:
                search([o for o in others if o != b], [*pairs, (a, b)])

    search(list(range(n)), [])
    fits = [p for p in found if n - len(p) <= room]
    least = min(n - len(p) for p in found)
    kept = fits or [p for p in found if n - len(p) == least]
    out = []
    for pairs in kept:
        used = {k for p in pairs for k in p}
        alone = [k for k in range(n) if k not in used]
        apart = _max_matching(alone, cost)
        out.append(_Matching(pairs, sum(cost[p] for p in pairs), apart))
    return out


def _pair_cost(a: Detection, b: Detection, fr: SeatFrame, offsets: list[np.ndarray], strict: bool,
               cfg: GeometryConfig) -> float | None:
    """How far (index heights) b sits from where a's card puts its second corner (the nearer of
    `offsets`), or None when the two cannot be one card: the lower one outside `pair_box_one_deck`
    from the upper, or (`strict`) more than `pair_split` off every offset. Without an offset: the
    distance outside `pair_box`."""
    pa, pb = np.array(a.center), np.array(b.center)
    if float(pa @ fr.down) > float(pb @ fr.down):
        pa, pb = pb, pa
    unit = _corner_unit(a.card, (_side(a.box) + _side(b.box)) / 2, fr)
    v = np.array([(pb - pa) @ fr.right, (pb - pa) @ fr.down]) / unit
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    if not (x1 <= v[0] <= x2 and y1 <= v[1] <= y2):
        return None
    if a.card in JOKERS:
        return 0.0
    if offsets:
        dev = min(float(np.max(np.abs(v - o))) for o in offsets)
        return dev if dev <= cfg.pair_split or not strict else None
    x1, y1, x2, y2 = cfg.pair_box
    return float(max(x1 - v[0], v[0] - x2, y1 - v[1], v[1] - y2, 0.0))


def _max_matching(alone: list[int], cost: dict[tuple[int, int], float]) -> int:
    """How many disjoint pairs the lone corners could still make."""
    if len(alone) < 2:
        return 0
    a, rest = alone[0], alone[1:]
    best = _max_matching(rest, cost)
    for b in rest:
        if (min(a, b), max(a, b)) in cost:
            best = max(best, 1 + _max_matching([o for o in rest if o != b], cost))
    return best


def _cards_of(dets: list[Detection], m: _Matching, was_paired: bool) -> list[_Card]:
    """A name's cards under a matching; a lone corner that could still pair is marked `split` when
    the name had a pair before (the doubt `problems` reports)."""
    used = {k for p in m.pairs for k in p}
    alone = [_single(dets[k]) for k in range(len(dets)) if k not in used]
    if m.apart and was_paired:
        alone = [replace(c, split=True) for c in alone]
    return [_combine(dets[a], dets[b]) for a, b in m.pairs] + alone


def _moves(best: dict[str, _Matching], options: dict[str, list[_Matching]]):
    """Every reading one or two names away from `best`."""
    names = [n for n in best if len(options[n]) > 1]
    for n in names:
        for m in options[n]:
            if m.pairs != best[n].pairs:
                yield {**best, n: m}
    for n1, n2 in combinations(names, 2):
        for m1 in options[n1]:
            if m1.pairs == best[n1].pairs:
                continue
            for m2 in options[n2]:
                if m2.pairs != best[n2].pairs:
                    yield {**best, n1: m1, n2: m2}
