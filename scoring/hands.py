"""Row evaluation: a 3- or 5-card row becomes a `HandValue` that compares with `<`, `==`, `>`.

Two orders matter and they differ on purpose:

* `HandValue.key` is the category strength, then the ranks that decide within it.  It is what
  RULES.md calls the row's value, and what the 相公 (foul) check compares: a head is measured
  against the middle's first cards only (`row_exceeds`).
* `HandValue.sort_key` is `key` plus the tie-breakers a table may use between two players' rows:
  fewer wild cards wins (`natural_wins_ties`), a flush in the added suit of the 65-card deck loses,
  and under `tie: suit` the suit of the highest card.  Comparing two `HandValue`s uses it.

Wild cards (jokers, a `wild_rank`) take the best value they can: every way of choosing their ranks
is tried (order does not matter, so that is a multiset of ranks: 91 ways for two wilds), and when
the natural cards share a suit the wilds take it too, so a flush or straight flush is found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement

from scoring.cards import ACE, RANK_CHARS, SUITS, Card, parse_cards
from scoring.categories import Category
from scoring.errors import CardError
from scoring.options import preset
from scoring.rules import RuleSet, Tie, Wheel

DEFAULT_RULES = RuleSet()
_RANKS_DESC = tuple(range(ACE, 1, -1))
_WHEEL = (ACE, 5, 4, 3, 2)


def strength(category: Category, five_kind_above_sf: bool = True) -> int:
    """Position of `category` in the row order: five of a kind is above the straight flush unless a
    table puts it between quads and the straight flush (seed 001)."""
    if not five_kind_above_sf:
        if category == Category.FIVE_KIND:
            return int(Category.STRAIGHT_FLUSH)
        if category == Category.STRAIGHT_FLUSH:
            return int(Category.FIVE_KIND)
    return int(category)


def straight_order(ranks_desc: Sequence[int], wheel: Wheel) -> int | None:
    """The comparison value of five distinct ranks as a straight, or None.

    Normal straights score twice their top rank; the wheel A-2-3-4-5 scores 10 (`low`, below 6-high
    at 12) or 27 (`second`, between K-high at 26 and A-high at 28)."""
    if len(set(ranks_desc)) != 5:
        return None
    if ranks_desc[0] - ranks_desc[4] == 4:
        return 2 * ranks_desc[0]
    if tuple(ranks_desc) == _WHEEL:
        if wheel == Wheel.LOW:
            return 10
        if wheel == Wheel.SECOND:
            return 27
    return None


def _grouped(ranks: Iterable[int]) -> list[tuple[int, int]]:
    """(rank, count) pairs, most copies first, then higher rank first."""
    return sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)


def _expand(groups: list[tuple[int, int]]) -> tuple[int, ...]:
    return tuple(r for r, c in groups for _ in range(c))


@lru_cache(maxsize=65536)
def _natural5(
    ranks: tuple[int, ...], suited: bool, wheel: Wheel, pairs_first: bool
) -> tuple[Category, tuple[int, ...], tuple[int, ...]]:
    """Category, comparison tail and display ranks of five ranks (sorted high to low).

    `suited`: all five share a suit.  Any multiset is accepted, since wild cards and the 65-card
    deck make a flush with a pair, and five of a kind, possible."""
    groups = _grouped(ranks)
    shape = tuple(c for _, c in groups)
    ordered = _expand(groups)
    top = groups[0][0]
    straight = straight_order(ranks, wheel)
    if straight is not None:
        shown = (5, 4, 3, 2, ACE) if ranks == _WHEEL else ranks
        cat = Category.STRAIGHT_FLUSH if suited else Category.STRAIGHT
        return cat, (straight,), shown
    if shape[0] == 5:
        return Category.FIVE_KIND, (top,), ordered
    if shape[0] == 4:
        return Category.QUADS, (top, groups[1][0]), ordered
    if shape == (3, 2):
        return Category.FULL_HOUSE, (top, groups[1][0]), ordered
    if suited:
        if pairs_first:
            pairs = sum(1 for c in shape if c >= 2)
            return Category.FLUSH, (pairs, *ordered), ordered
        return Category.FLUSH, ranks, ranks
    if shape[0] == 3:
        return Category.TRIPS, (top, *ordered[3:]), ordered
    if shape[:2] == (2, 2):
        return Category.TWO_PAIR, (groups[0][0], groups[1][0], groups[2][0]), ordered
    if shape[0] == 2:
        return Category.PAIR, (top, *ordered[2:]), ordered
    return Category.HIGH_CARD, ranks, ranks


@lru_cache(maxsize=4096)
def _natural3(ranks: tuple[int, ...]) -> tuple[Category, tuple[int, ...], tuple[int, ...]]:
    """A head has only high card, pair and trips: never a straight or a flush."""
    groups = _grouped(ranks)
    ordered = _expand(groups)
    if groups[0][1] == 3:
        return Category.TRIPS, (groups[0][0],), ordered
    if groups[0][1] == 2:
        return Category.PAIR, (groups[0][0], groups[1][0]), ordered
    return Category.HIGH_CARD, ranks, ranks


@dataclass(frozen=True, order=True)
class HandValue:
    """The value of one row.  Ordered by `sort_key`; see the module docstring for `key`."""

    sort_key: tuple[tuple[int, ...], int, int, int]
    category: Category = field(compare=False)
    key: tuple[int, ...] = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)
    """The ranks as played (wild cards replaced), most significant first, for explanations."""
    wilds: int = field(compare=False, default=0)
    cards: tuple[Card, ...] = field(compare=False, default=())

    def describe(self) -> str:
        """Short words for explanations: `pair of K`, `straight 5-high`, `flush A K 9 5 3`."""
        names = [RANK_CHARS[r - 2] for r in self.ranks]
        cat = self.category
        if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            text = f"{cat.label} {names[0]}-high"
        elif cat in (Category.HIGH_CARD, Category.FLUSH):
            text = f"{cat.label} {' '.join(names)}"
        elif cat == Category.PAIR:
            text = f"pair of {names[0]}, {' '.join(names[2:])}"
        elif cat == Category.TWO_PAIR:
            text = f"two pair {names[0]} and {names[2]}, {' '.join(names[4:])}"
        elif cat == Category.TRIPS:
            text = f"trips {names[0]}" + (f", {' '.join(names[3:])}" if len(names) > 3 else "")
        elif cat == Category.FULL_HOUSE:
            text = f"full house {names[0]} over {names[3]}"
        elif cat == Category.QUADS:
            text = f"quads {names[0]}, {names[4]}"
        else:
            text = f"five {names[0]}"
        if self.wilds:
            text += f" (with {self.wilds} wild)"
        return text


def _flush_suit(naturals: Sequence[Card], rules: RuleSet) -> str | None:
    suits = {c.suit for c in naturals}
    if len(suits) > 1:
        return None
    if suits:
        return suits.pop()
    # all wild: any suit but the added one, which loses ties
    return next(s for s in SUITS if s != rules.extra_suit)


def _top_suit(cards: Sequence[Card], top_rank: int, rules: RuleSet) -> int:
    """Suit weight (♠ 4 .. ♣ 1) of the best natural card of the row's most significant rank."""
    weights = [4 - SUITS.index(c.suit) for c in cards if c.rank == top_rank and not rules.is_wild(c)]
    return max(weights, default=0)


def evaluate(cards: Sequence[Card | str] | str, rules: RuleSet | str = DEFAULT_RULES) -> HandValue:
    """Evaluate a row of 3 (head) or 5 (middle, tail) cards under `rules` (a RuleSet or preset name).

    Wild cards take their best value; the result records how many there were, so equal rows can
    go to the natural one."""
    if isinstance(rules, str):
        rules = preset(rules)
    row = tuple(parse_cards(cards))
    if len(row) not in (3, 5):
        raise CardError(f"a row has 3 or 5 cards, not {len(row)}: {' '.join(map(str, row))}")
    naturals = [c for c in row if not rules.is_wild(c)]
    wilds = len(row) - len(naturals)
    base = sorted((c.rank for c in naturals), reverse=True)
    flush_suit = _flush_suit(naturals, rules) if len(row) == 5 else None
    pairs_first = rules.pairs_first
    five_above = rules.five_kind_above_sf

    best: tuple[tuple[int, ...], Category, tuple[int, ...]] | None = None
    fills = combinations_with_replacement(_RANKS_DESC, wilds) if wilds else ((),)
    for fill in fills:
        ranks = tuple(sorted((*base, *fill), reverse=True))
        if len(row) == 3:
            cat, tail, shown = _natural3(ranks)
        else:
            cat, tail, shown = _natural5(ranks, flush_suit is not None, rules.wheel, pairs_first)
        key = (strength(cat, five_above), *tail)
        if best is None or key > best[0]:
            best = (key, cat, shown)
    assert best is not None
    key, cat, shown = best

    natural_tb = -wilds if rules.natural_wins_ties else 0
    added_tb = 0
    is_flush = cat in (Category.FLUSH, Category.STRAIGHT_FLUSH)
    if rules.extra_suit and is_flush and flush_suit == rules.extra_suit:
        added_tb = -1
    suit_tb = _top_suit(row, shown[0], rules) if rules.tie == Tie.SUIT else 0
    return HandValue((key, natural_tb, added_tb, suit_tb), cat, key, shown, wilds, row)


def row_exceeds(lower: HandValue, upper: HandValue, *, strict: bool = False) -> bool:
    """True when `lower` (the row that should be smaller) is out of order against `upper`: 相公.

    Compares `key` only (category, then ranks) — wild cards and suits decide ties between players,
    not the order of one player's rows.  A head is compared with the middle's first cards only, so
    a head equal to them is not above the middle (RULES.md).  `strict`: equal rows are a foul too."""
    upper_key = upper.key[: len(lower.key)] if len(lower.cards) < len(upper.cards) else upper.key
    if lower.key > upper_key:
        return True
    return strict and lower.key == upper_key and len(lower.cards) == len(upper.cards)


def compare(a: HandValue, b: HandValue) -> int:
    """1 if `a` beats `b`, -1 if `b` beats `a`, 0 for a tie (all tie-breakers included)."""
    return (a.sort_key > b.sort_key) - (a.sort_key < b.sort_key)
