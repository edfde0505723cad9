"""One placement of the cards: seats, each seat's frame and rows, its corner pairs checked."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from .config import GeometryConfig
from .corners import _corner_offset, _corner_offset_of, _pair_deviation, _pair_possible, _split
from .deck import deck_capacity, one_copy_each
from .pairs import (
    _corner_covered,
    _merge_in_seat,
    _merge_while_it_helps,
    _repair_in_seat,
    _split_across_seats,
    _split_and_merge,
    _split_impossible,
)
from .parts import SeatFrame, _Card
from .rows import _layout_error, fit_rows
from .score import Hypothesis, score
from .seats import group_seats


@dataclass
class _Placement:
    cards: list[_Card]
    frames: list[tuple[SeatFrame, list[int], np.ndarray]]
    strays: list[int]
    table_centre: np.ndarray | None
    deck: int

    @property
    def error(self) -> float:
        """The placement's `score`: its seats' distance from 3/5/5 each, and its stray cards."""
        counts = sum(_layout_error(fr) for fr, _, _ in self.frames)
        return score(Hypothesis(count=counts, stray=len(self.strays)))


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

    def toward(centre: np.ndarray) -> np.ndarray | None:
        return (table_centre - centre) if n_seats > 1 else None

    cap = deck_capacity(deck)
    seen = Counter(c.card for c in cards)
    over = {name for name, n in seen.items() if n > cap[name]}  # more cards than the decks hold
    frames: list[tuple[SeatFrame, list[int], np.ndarray]] = []
    for g in groups:
        centre = centers[g].mean(0)
        frames.append((_seat_frame(cards, g, toward(centre), scale, cfg, one_deck, over), g, centre))

    # Same-card pairs must sit like the two corners of one card in the seat's frame (down and to the
    # right, the same way on every card). With a 65-card deck two copies of a card can be a card
    # diagonal apart: such a "pair" fails this test and is split back into two cards.
    offset = _corner_offset(cards, [(fr, g) for fr, g, _ in frames], scale, cfg)
    for k, (fr, g, centre) in enumerate(frames):
        # a card exists once: split a same-card pair only if it cannot be one card, in a frame the
        # seat's rows fix (a few loose cards have no rows: their pairs' own corners are the evidence)
        if one_deck:
            if len(g) >= cfg.frame_min_cards:
                _split_impossible(cards, g, fr, cfg)
            frames[k] = (fit_rows([cards[i] for i in g], scale, toward(centre), cfg, offset), g, centre)
        else:
            fr = _check_two_deck_pairs(cards, g, fr, offset, cap, scale, toward(centre), cfg)
            frames[k] = (fr, g, centre)
    return _Placement(cards, frames, strays, table_centre, deck)


def _seat_frame(
    cards: list[_Card], g: list[int], toward: np.ndarray | None, scale: float, cfg: GeometryConfig,
    one_deck: bool, over: set[str],
) -> SeatFrame:
    """A seat's first frame, with its same-named corners re-paired (two decks) or merged (one deck,
    or names seen more often than the decks hold) as the frame says."""
    fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    if not one_deck and _repair_in_seat(cards, g, fr, cfg, one_deck):
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    if one_deck:
        if _merge_in_seat(cards, g, fr, cfg):
            fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
        return fr
    # two decks: a far same-card pair may be two copies, so merge only when the counts agree
    # ... or when the table holds more of a card than two decks do: two of them are one card
    if over and _merge_in_seat(cards, g, fr, cfg, names=over):
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    return _merge_while_it_helps(cards, g, fr, scale, toward, cfg)


def _check_two_deck_pairs(
    cards: list[_Card], g: list[int], fr: SeatFrame, offset: np.ndarray | None, cap: dict[str, int],
    scale: float, toward: np.ndarray | None, cfg: GeometryConfig,
) -> SeatFrame:
    """Two decks: split the seat's pairs that sit off the corner offset (two copies a card diagonal
    apart), then those the counts or a covered corner say are copies. Returns the seat's frame."""
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
    fr = _split_while_it_helps(cards, g, fr, doubtful, here, scale, toward, cfg)
    covered = [i for i in g if len(cards[i].points) == 2 and splittable(i)
               and _corner_covered(cards, g, fr, i)]
    if (doubtful and _layout_error(fr) > 0) or covered:
        tries = sorted(set(doubtful) | set(covered))
        fr = _split_and_merge(cards, g, fr, tries, here, scale, toward, cfg)
    return fr


def _split_while_it_helps(
    cards: list[_Card], g: list[int], fr: SeatFrame, doubtful: list[int], here: np.ndarray | None,
    scale: float, toward: np.ndarray | None, cfg: GeometryConfig,
) -> SeatFrame:
    """Undo the merge that brings the counts closest to 3/5/5, the least card-like pair first; repeat
    while it helps. Never split a pair unless the counts say so. `doubtful` loses the pairs split."""
    while doubtful and _layout_error(fr) > 0:
        best = None
        for i in doubtful:
            trial_cards, trial_g = list(cards), list(g)
            _split(trial_cards, trial_g, i, doubt=True)
            trial = fit_rows([trial_cards[j] for j in trial_g], scale, toward, cfg, here)
            key = (_layout_error(trial), -_pair_deviation(cards[i], fr, here, scale, cfg))
            if best is None or key < best[0]:
                best = (key, i, trial_cards, trial_g)
        if best is None or best[0][0] >= _layout_error(fr):
            break
        _, i, cards[:], g[:] = best
        doubtful.remove(i)
        fr = fit_rows([cards[j] for j in g], scale, toward, cfg, here)
    return fr
