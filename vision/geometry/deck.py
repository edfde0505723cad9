"""The one-deck constraints: how often a card may appear, the most probable consistent reading,
and false reads left out of an over-full seat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..assign import assign
from ..classes import CLASS_INDEX, CLASS_NAMES, JOKERS
from ..types import ReadCard, SeatRead
from .parts import _Card


@dataclass(frozen=True)
class FalseReadSlots:
    """A seat's cards that may be taken as false reads (`fix_with_deck`), by their ids, and how many.

    `must`: the seat holds more than 13, so exactly `count` of them go; then a card outside
    `preferred` (the cards of its rows that are over-full) costs `ROW_PRIOR` more to leave out.
    `below`: leaving a card out costs what a rename to a card of this score would (None: the
    caller's `false_read_below`)."""

    ids: set[int]
    count: int
    must: bool = False
    preferred: set[int] = field(default_factory=set)
    below: float | None = None


#: What leaving out a card of a row of the right length costs beyond one of an over-full row (in
#: log-probability): between two equally sure reads the one that makes its row too long goes, while a
#: read that repeats a card elsewhere (a rename to something unlikely costs several units) still can.
ROW_PRIOR = 0.5


def deck_capacity(deck: int, extra_suit: str | None = None) -> dict[str, int]:
    """How often each card may appear: once in 52 or 54 (jokers once); in a 65-card deck (52 and a
    fifth copy of one suit, no jokers) twice for that suit's cards where `extra_suit` names it, else
    twice for every card; twice in two whole decks (104; 108 with two jokers of each colour)."""
    if deck == FIVE_PLAYER_DECK:
        return {c: (0 if c in JOKERS else 2 if extra_suit in (None, c[-1]) else 1) for c in CLASS_NAMES}
    cap = 2 if deck > 54 else 1
    jokers = 2 if deck >= 108 else 1
    return {c: (jokers if c in JOKERS else cap) for c in CLASS_NAMES}


FIVE_PLAYER_DECK = 65
#: A 65-card table's added suit shows as this many of its names read twice, at least twice as many as
#: any other suit's (a full five-seat table shows all 13 twice; a misread makes a stray repeat).
ADDED_SUIT_MIN = 4


def added_suit(names: list[str], deck: int) -> str | None:
    """The suit a 65-card deck holds twice, as the reads show it: the suit with the most names read
    more than once, where it has `ADDED_SUIT_MIN` and twice any other suit's; None otherwise (or for
    another deck). The players choose the suit; the reads tell it as surely as the count of seats
    tells the deck.

    >>> added_suit(["2h", "2h", "5h", "5h", "9h", "9h", "Kh", "Kh", "As", "As", "3c"], 65)
    'h'
    >>> added_suit(["2h", "2h", "5h", "5h", "As", "As"], 65) is None
    True
    """
    if deck != FIVE_PLAYER_DECK:
        return None
    twice = Counter(n[-1] for n, k in Counter(names).items() if k >= 2 and n not in JOKERS)
    (suit, most), (_, next_most) = [*twice.most_common(2), ("", 0), ("", 0)][:2]
    return suit if most >= ADDED_SUIT_MIN and most >= 2 * next_most else None


def one_copy_each(deck: int) -> bool:
    """Whether every card exists at most once (52 or 54 cards): then two reads of a card are one."""
    return max(deck_capacity(deck).values()) == 1


def counts_known(deck: int, extra_suit: str | None) -> bool:
    """Whether the reads know how often the deck holds each card: one copy each, or the 65-card deck
    with its added suit (told, or shown by the reads: `added_suit`)."""
    return one_copy_each(deck) or (deck == FIVE_PLAYER_DECK and extra_suit is not None)


def fix_with_deck(
    cards: list[_Card], deck: int, overfull: list[FalseReadSlots] | None = None,
    false_read_below: float = 0.1, extra_suit: str | None = None,
    folds: Sequence[tuple[_Card, _Card]] = (),
) -> tuple[list[_Card], list[_Card]]:
    """Re-read cards so no card appears more often than the deck holds, most probable first; returns
    the cards renamed and the cards taken as false reads.

    One assignment maximises the summed log scores (each read's class score times how probable it is
    a card at all, `_card_mass`), so a card keeps its top class unless another card has a stronger
    claim to it. `overfull` lists the seats that may give up cards as false reads
    (`FalseReadSlots`): a seat of more than 13 must give up its extra ones (no hand holds 14: a half
    box on an index, a glyph in the card art), a seat of a few loose cards may give up any, a hand
    may give up the repeat of a card read twice in it (`read._false_read_slots`); each false read
    costs what a rename to a card of its slots' score (`FalseReadSlots.below`, else
    `false_read_below`) would. So of two reads of one card, the one that makes a seat 14 is left out
    rather than the other renamed to something unlikely, and a seat of 14 with no card read twice
    leaves out its least probable read, from its over-full row when the reads are alike; a hand of
    13 or fewer gives up nothing but such a repeat. Without a conflict or a seat that must give up a
    card, nothing is run. `extra_suit`: a 65-card deck's added suit (`added_suit`), the only one
    whose cards it holds twice.

    `folds`: (corner, card) pairs where a read may be that card's second corner
    (`pairs.second_corner_reads`). A folded corner leaves the table as a false read and its scores
    join the card's: the card is named by both reads, so a misread top-left index whose second
    corner reads its card right takes that name, as a misread second corner takes its card's. Which
    corners fold is a search over the same assignment's total (`_fold_search`).
    """
    cap = deck_capacity(deck, extra_suit)
    counts = Counter(c.card for c in cards)
    seats = overfull or []
    if all(n <= cap[k] for k, n in counts.items()) and not any(s.must for s in seats):
        return [], []
    scored = [i for i, c in enumerate(cards) if c.scores is not None]
    held = Counter(c.card for c in cards if c.scores is None)  # unscored cards keep their class
    slots = [name for name in CLASS_NAMES for _ in range(max(0, cap[name] - held[name]))]
    if not scored:
        return [], []
    row = {id(cards[i]): k for k, i in enumerate(scored)}
    pairs = [(row[id(r)], row[id(c)]) for r, c in folds if id(r) in row and id(c) in row]
    problem = _Assignment.build([cards[i] for i in scored], slots, seats, false_read_below, pairs)
    if len(scored) > problem.cost.shape[1]:  # more reads than slots of any kind
        return [], []
    cols = _fold_search(problem)
    changed, false = [], []
    for i, col in zip(scored, cols, strict=True):
        c = cards[i]
        if col >= len(slots):
            false.append(c)
            continue
        new = slots[int(col)]
        if new != c.card:
            c.changed_from, c.card = c.card, new
            c.confidence = float(c.scores[CLASS_INDEX[new]])
            changed.append(c)
    return changed, false


#: A class score under this is no opinion of the namer's: renaming a read to any such card costs the
#: same. A sure misread gives every other card next to nothing (a 6s read as 3c at 0.98), and the
#: differences among those tails are noise; taken at face value they make the fix rename the misread
#: to whichever card its tail favours, though a copy of that card is read surely elsewhere, and then
#: leave that right read out, rather than name the misread the card no seat shows.
NO_OPINION = 1e-4
#: A card of another seat cannot fill this seat's false-read slot; a folded corner is no card of its own.
NEVER = 1e6
#: A slot that must be filled is, by the cards whose own names are least probable.
MUST_BONUS = 1e3
#: What a fold costs beyond the two reads' scores where it renames the card it folds into: the card's
#: own read is then overruled too, and two sure reads of different cards in corner positions are
#: more often two cards (a four-corner deck's other corners) than one card misread.
FOLD_RENAME = 1.0


@dataclass(frozen=True)
class _Assignment:
    """`fix_with_deck`'s cost matrix: a row a scored card, a column a deck slot, then each false-read
    slot, then one column a fold candidate's corner (where it goes when folded). `own[k]` is what
    leaving card k out costs in each false-read column (the part a fold makes free); `names` the
    slots' class indices; `scores` each card's class scores floored at `NO_OPINION`; `pairs` the
    (corner row, card row) fold candidates and `corners` theirs, in the order of the fold columns."""

    cost: np.ndarray
    own: np.ndarray
    names: np.ndarray
    scores: np.ndarray
    own_name: np.ndarray
    pairs: list[tuple[int, int]]
    corners: tuple[int, ...]

    @classmethod
    def build(cls, cards: list[_Card], slots: list[str], seats: list[FalseReadSlots], below: float,
              pairs: list[tuple[int, int]]) -> _Assignment:
        names = np.array([CLASS_INDEX[s] for s in slots])
        scores = np.clip(np.stack([c.scores for c in cards]).astype(np.float64), NO_OPINION, 1.0)
        cost = -np.log(scores[:, names]) - np.log([_card_mass(c) for c in cards])[:, None]
        false_cols, own_cols = [], []
        for seat in seats:
            leave = -np.log(below if seat.below is None else seat.below)
            inside = np.array([id(c) in seat.ids for c in cards])
            prior = np.array([ROW_PRIOR if seat.must and id(c) not in seat.preferred else 0.0 for c in cards])
            col = np.where(inside, leave - (MUST_BONUS if seat.must else 0.0) + prior, NEVER)
            false_cols += [col] * seat.count
            own_cols += [np.where(inside, leave, 0.0)] * seat.count
        n = len(cards)
        own = np.array(own_cols, float).T.reshape(n, -1)
        corners = tuple(sorted({r for r, _ in pairs}))
        fold_cols = np.full((n, len(corners)), NEVER)
        cost = np.hstack([cost, np.array(false_cols, float).T.reshape(n, -1), fold_cols])
        own_name = np.array([CLASS_INDEX.get(c.card, -1) for c in cards])
        return cls(cost, own, names, scores, own_name, list(pairs), corners)

    def solve(self, folded: Sequence[tuple[int, int]]) -> tuple[float, np.ndarray]:
        """The least total cost of an assignment with the corners of `folded` folded into their
        cards, and the column of each row in it."""
        cost = self.with_folds(folded)
        cols = assign(cost)
        return float(cost[np.arange(len(cols)), cols].sum()), cols

    def with_folds(self, folded: Sequence[tuple[int, int]]) -> np.ndarray:
        """The cost matrix with each (corner, card) of `folded` one card: the card's slots cost what
        the corner's scores say of them too, and it is no false read (the corner's fold says it is
        seen twice); the corner is no card of its own (its deck slots barred), and leaves the table
        free of its own leaving cost, in its fold column or a false-read slot (a fold is the card an
        over-full seat must give up)."""
        cost = self.cost.copy()
        n_slots, n_false = len(self.names), self.own.shape[1]
        for r, c in folded:
            cost[c, :n_slots] -= np.log(self.scores[r, self.names])  # floored at NO_OPINION
            cost[c, :n_slots][self.names != self.own_name[c]] += FOLD_RENAME
            cost[c, n_slots:] = NEVER
            cost[r, :n_slots] = NEVER
            cost[r, n_slots:n_slots + n_false] -= self.own[r]
            cost[r, n_slots + n_false + self.corners.index(r)] = 0.0
        return cost


def _fold_search(problem: _Assignment) -> np.ndarray:
    """The column of each row in the assignment of the folds kept: greedily, the fold candidate that
    lowers the assignment's total most, while any does; a corner folds into one card, a card takes one
    corner, and a folded card is no corner."""
    folded: list[tuple[int, int]] = []
    best, cols = problem.solve(folded)
    while True:
        used = {k for pair in folded for k in pair}
        trials = [(*problem.solve([*folded, p]), p) for p in problem.pairs if not set(p) & used]
        if not trials:
            return cols
        total, trial_cols, pair = min(trials, key=lambda t: (t[0], t[2]))
        if total >= best - 1e-9:
            return cols
        folded.append(pair)
        best, cols = total, trial_cols


def _card_mass(c: _Card) -> float:
    """How probable it is that `c` is a card at all: its read's probability with background counted
    (`confidence`) over its share among the cards (`scores`, background left out). A glyph in the card
    art read as a joker can be sure which card it would be and still be half background."""
    share = float(c.scores[CLASS_INDEX[c.card]]) if c.scores is not None and c.card in CLASS_INDEX else 0.0
    return float(np.clip(c.confidence / share, 1e-3, 1.0)) if share > 0 else 1.0


def _leave_out_false_reads(
    seat_reads: list[SeatRead], false: list[_Card], seat_of: dict[int, tuple[int, str]],
    read_of: dict[int, ReadCard],
) -> list[tuple[_Card, tuple[int, str, int]]]:
    """Take the false reads (`fix_with_deck`) out of their seats: each leaves its row and `seat_of`,
    and is returned with where it was and how many cards its seat had, to be reported as read."""
    out: list[tuple[_Card, tuple[int, str, int]]] = []
    for c in false:
        if id(c) not in seat_of:
            continue
        s, row = seat_of[id(c)]
        n = len(seat_reads[s].cards)
        cards = getattr(seat_reads[s], row)
        cards.pop(next(k for k, r in enumerate(cards) if r is read_of[id(c)]))
        del seat_of[id(c)]
        out.append((c, (s, row, n)))
    return out


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
