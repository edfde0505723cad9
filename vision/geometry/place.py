"""One placement of the cards: seats, each seat's frame and rows, its corner pairs checked."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..types import Detection
from .config import SEAT_SIZE, GeometryConfig
from .copies import pair_copies
from .corners import _corner_offset, _corner_offset_of, merge_corners
from .deck import FIVE_PLAYER_DECK, deck_capacity, one_copy_each
from .four_corners import fold_extra_corners, shows_four_corners
from .pairs import _merge_in_seat, _split_across_seats, _split_impossible
from .parts import SeatFrame, _Card
from .rows import _layout_error, fit_rows
from .score import Hypothesis, score
from .seats import group_seats

# A seat may hold this many reads beyond its 13 and still be a hand: a false read (a pip, half an
# index) or a corner left unpaired, which the deck fix and the pairing shed. More are a neighbour's
# cards, and cost `Weights.excess` each.
EXTRA_READS = 1


@dataclass
class _Placement:
    cards: list[_Card]
    frames: list[tuple[SeatFrame, list[int], np.ndarray]]
    strays: list[int]
    table_centre: np.ndarray | None
    deck: int

    @property
    def error(self) -> float:
        """The placement's `score`: its seats' distance from 3/5/5 each, a card too many weighing more
        than a card too few (`Weights.excess`), and its stray cards (an unsure read in no seat is no
        card missed)."""
        counts = sum(_layout_error(fr) for fr, _, _ in self.frames)
        excess = sum(max(0, sum(map(len, fr.rows)) - SEAT_SIZE - EXTRA_READS) for fr, _, _ in self.frames)
        return score(Hypothesis(count=counts, excess=excess,
                                stray=sum(not self.cards[i].unsure for i in self.strays)))


def _place(
    cards: list[_Card], k: int, deck: int | None, width: int, height: int, scale: float, cfg: GeometryConfig,
    four_corners: bool = False, extra_suit: str | None = None,
) -> _Placement:
    """Seats (k of them), their frames and rows, corner pairs checked against each seat's frame; with
    `four_corners` (the deck prints its index in every corner), each card's extra corners folded.
    `extra_suit`: the 65-card deck's added suit where the table's rules name it: its other cards are
    held once, so their two reads are never two copies."""
    centers = np.array([c.center for c in cards]).reshape(-1, 2)
    deck = deck or _deck_for(k)
    one_deck = one_copy_each(deck)
    cap = deck_capacity(deck, extra_suit)
    twice = frozenset(name for name, n in cap.items() if n >= 2)
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
        fr = _seat_frame(cards, g, toward(centre), scale, cfg, one_deck, twice, four_corners)
        frames.append((fr, g, centre))

    # Same-card pairs must sit like the two corners of one card in the seat's frame (down and to the
    # right, the same way on every card). With two decks two copies of a card can sit like one card's
    # corners: each seat's pairs are then chosen by the reading they give (`pair_copies`).
    offset = _corner_offset(cards, [(fr, g) for fr, g, _ in frames])
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


def _deck_for(seats: int) -> int:
    """The deck a table of `seats` plays, unless told: 65 cards for five (the rules' five-player
    deck), else 52. A suit read twice at fewer seats is not taken for the 65: at four seats it is
    far more often one suit misread as another (clubs as spades on a strange deck) than a five-seat
    table with a seat out of the photo, and taken for the 65 it would let those misreads stand
    unflagged; a five-player table photographed in part is read as such when told its added suit
    (`read_table(extra_suit=...)`, the app's five-player setting)."""
    return FIVE_PLAYER_DECK if seats >= 5 else 52


def best_placement(
    dets: list[Detection], seats: int | None, deck: int | None, width: int, height: int, scale: float,
    cfg: GeometryConfig, unsure: frozenset[int] = frozenset(), extra_suit: str | None = None,
) -> _Placement:
    """The placement of lowest score (`_Placement.error`) over the corner reaches and seat counts
    worth trying; the first tried wins a tie. `unsure`: the ids of detections read under the namer's
    operating threshold: a card made of those only is unsure (`_Card.unsure`), and left out of seats
    costs nothing. `extra_suit`: the 65-card deck's added suit, where told (`_place`)."""
    near = _marked(merge_corners(dets, scale, cfg), unsure)
    four = shows_four_corners(dets, cfg)

    def variants():
        yield near
        # Farther corners may pair too (small indices on a large card). With two decks such a pair may
        # be two copies: the placement nearer 3/5/5 wins, and each seat splits a pair that cannot be
        # one card. (Not made when the near pairs already place every card: nothing can score lower.)
        far = _marked(merge_corners(dets, scale, cfg, cfg.pair_max_far), unsure)
        if len(far) < len(near):
            yield far

    best: _Placement | None = None
    for n, merged in enumerate(variants()):
        # How many seats: the number of 13s in the cards, unless told. When the count falls between
        # two (unmerged corners, hidden cards), both are tried and the one closer to 3/5/5 seats wins.
        # A four-corner deck's cards are read two to four times each: there only the names count, and
        # 52 names are four seats of the 52 or five of the 65 (its added suit's names twice): both tried.
        # Every count from there up to five is tried too: names lost take seats' worth of names away,
        # not of cards (a suit read as another, a strange deck's clubs as spades; a five-seat table's
        # hidden and misread cards, whose names then count four seats or fewer).
        distinct = len({c.card for c in merged}) / SEAT_SIZE  # unpaired corners count once (one deck)
        est = distinct if four else len(merged) / SEAT_SIZE
        more = range(round(distinct) + 1, 6) if four else range(0)
        ks = [seats] if seats else sorted({min(5, max(1, v)) for v in (
            round(est), math.floor(est + 0.2), math.ceil(est - 0.2), round(distinct), *more)})
        for k in ks:
            if n and deck is None and k >= 5:  # five seats of an unknown deck: far pairs would pair copies
                continue
            trial = _place([replace(c, points=list(c.points), boxes=list(c.boxes)) for c in merged], k,
                           deck, width, height, scale, cfg, four, extra_suit)
            if best is None or trial.error < best.error:
                best = trial
            if best.error == 0:  # nothing scores lower, and the first tried wins a tie
                return best
    assert best is not None
    return best


def _marked(cards: list[_Card], unsure: frozenset[int]) -> list[_Card]:
    """`cards`, those made of unsure detections only marked unsure."""
    for c in cards:
        c.unsure = bool(unsure) and all(id(d) in unsure for d in c.dets)
    return cards


def _seat_frame(
    cards: list[_Card], g: list[int], toward: np.ndarray | None, scale: float, cfg: GeometryConfig,
    one_deck: bool, twice: frozenset[str], four_corners: bool = False,
) -> SeatFrame:
    """A seat's first frame; a four-corner deck's extra corners folded into their cards
    (`fold_extra_corners`: on the 65-card deck too, whose two copies of a name in `twice` fold into a
    card each) and, with one deck, same-named corners merged where the frame says they are one card's
    (two decks: `pair_copies`, once the photo's corner offset is known)."""
    fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    if four_corners and fold_extra_corners(cards, g, fr, cfg, twice):
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    if one_deck and _merge_in_seat(cards, g, fr, cfg):
        fr = fit_rows([cards[i] for i in g], scale, toward, cfg)
    return fr
