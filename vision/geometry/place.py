"""One placement of the cards: seats, each seat's frame and rows, its corner pairs checked."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .config import GeometryConfig
from .copies import pair_copies
from .corners import _corner_offset, _corner_offset_of
from .deck import deck_capacity, one_copy_each
from .pairs import _merge_in_seat, _split_across_seats, _split_impossible
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
    cap = deck_capacity(deck)
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

    frames: list[tuple[SeatFrame, list[int], np.ndarray]] = []
    for g in groups:
        centre = centers[g].mean(0)
        frames.append((_seat_frame(cards, g, toward(centre), scale, cfg, one_deck), g, centre))

    # Same-card pairs must sit like the two corners of one card in the seat's frame (down and to the
    # right, the same way on every card). With two decks two copies of a card can sit like one card's
    # corners: each seat's pairs are then chosen by the reading they give (`pair_copies`).
    offset = _corner_offset(cards, [(fr, g) for fr, g, _ in frames], scale, cfg)
    for k, (fr, g, centre) in enumerate(frames):
        # a card exists once: split a same-card pair only if it cannot be one card, in a frame the
        # seat's rows fix (a few loose cards have no rows: their pairs' own corners are the evidence)
        if one_deck:
            if len(g) >= cfg.frame_min_cards:
                _split_impossible(cards, g, fr, cfg)
            frames[k] = (fit_rows([cards[i] for i in g], scale, toward(centre), cfg, offset), g, centre)
        else:
            own = _corner_offset_of(cards, [(fr, g)])  # the seat's own shear, if it shows it
            fr = pair_copies(cards, g, fr, own, offset, cap, scale, toward(centre), cfg)
            frames[k] = (fr, g, centre)
    return _Placement(cards, frames, strays, table_centre, deck)


def _seat_frame(
    cards: list[_Card], g: list[int], toward: np.ndarray | None, scale: float, cfg: GeometryConfig,
    one_deck: bool,
) -> SeatFrame:
    """A seat's first frame; with one deck, its same-named corners merged where the frame says they
    are one card's (two decks: `pair_copies`, once the photo's corner offset is known)."""
    fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    if one_deck and _merge_in_seat(cards, g, fr, cfg):
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    return fr
