"""The one measure the geometry's choices are made by: what a reading of the cards costs.

A hypothesis (a seat's frame and rows, or a whole table's seats) is described by how far it departs
from a clean table, each departure counted in `Hypothesis`; `score` weighs them with `Weights` and
the lowest score wins. The counts come first (a card off its row's 3/5/5, a card in no seat, a corner
pair no card could make): those are what the player sees flagged. The small weights only order
readings whose counts tie (in a two-deck pairing: the fewest pairs whose second corner would be
covered, then the fewest lone corners that could be one card, then the least off the corner offset).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import ROW_SIZES, SEAT_SIZE, name_rows


@dataclass(frozen=True)
class Weights:
    """What each departure costs, in units of one card off its row's count."""

    count: float = 1.0  # one card more or fewer than its row's 3/5/5 (or its seat's 13)
    # one sure read in no seat: as much as a card its seat lacks (`count_error` counts that card off
    # its row and off its seat's 13), since a sure read the table cannot place is rarer than a hidden
    # card: a far seat's cards in view make a short seat rather than strays
    stray: float = 2.0
    impossible: float = 2.0  # a two-corner card whose second corner lies where no card's could
    # a pair whose second corner the next card of its row would lie over (only a row's last card, or
    # a card of a row spread wider than a card, shows it): more likely two copies than one card
    covered: float = 0.2
    # two decks: two lone same-named corners left apart though they sit like one card's two corners
    # (copies in neighbouring rows often do): below `covered`, so a pair the next card would cover
    # is split, above `deviation`, so counts that tie keep a pair
    apart: float = 0.1
    # per index height a pair's second corner lies off the deck's corner offset: breaks the last ties
    deviation: float = 0.001
    # a lone corner stepped back onto a row where its corners alone do not say it belongs (`anchors`):
    # taken only where it brings the rows closer to 3/5/5
    moves: float = 0.01
    # a lone corner left where it was seen though stepping it back puts it on a row line (a sure step
    # back undone): a close-up's perspective can make a step back learnt on far cards overshoot
    undone: float = 0.02
    # per degree a whole seat's split direction is turned from the fitted row direction (rows that
    # converge under a close-up's perspective)
    turn: float = 0.001
    # a row direction other than the projection profile's best peak (a rival peak)
    rival: float = 0.005
    # choosing seats: one card beyond a seat's 13 and the false read it may hold (`place.EXTRA_READS`),
    # on top of `count`. A seat can show fewer cards than it holds (covered by a chip or paper, out of
    # the photo, unread) but never more, so a table read with one seat over-full (a half-hidden
    # neighbour's cards taken in) costs more than the same cards read as that neighbour, short
    excess: float = 1.0


WEIGHTS = Weights()


@dataclass(frozen=True)
class Hypothesis:
    """The departures of one reading from a clean table (see `Weights` for what each one is)."""

    count: int = 0
    stray: int = 0
    impossible: int = 0
    covered: int = 0
    apart: int = 0
    deviation: float = 0.0
    moves: int = 0
    undone: int = 0
    turn: float = 0.0
    rival: bool = False
    excess: int = 0


def score(h: Hypothesis, w: Weights = WEIGHTS) -> float:
    """The cost of a reading: lower is better."""
    return (w.count * h.count + w.stray * h.stray + w.impossible * h.impossible
            + w.covered * h.covered + w.apart * h.apart + w.deviation * h.deviation + w.moves * h.moves
            + w.undone * h.undone + w.turn * h.turn + w.rival * h.rival + w.excess * h.excess)


def named_counts(counts: list[int]) -> dict[str, int]:
    """A seat's cards by row name (head, middle, tail), its rows (far to near) named by their counts
    (`name_rows`)."""
    got = dict.fromkeys(ROW_SIZES, 0)
    for name, n in zip(name_rows(counts), counts, strict=True):
        got[name] += n
    return got


def count_error(counts: list[int]) -> int:
    """How far a seat's row counts (far to near) are from 3/5/5, and from 13 in all."""
    got = named_counts(counts)
    return sum(abs(got[r] - n) for r, n in ROW_SIZES.items()) + abs(sum(got.values()) - SEAT_SIZE)


__all__ = ["WEIGHTS", "Hypothesis", "Weights", "count_error", "named_counts", "score"]
