"""Special hands (报到): which of a table's specials a player's 13 cards make.

Each `Special` of `RuleSet.specials` names a `SpecialTest`; this module is those tests. Most judge
the 13 cards; seed 004's 三同花 / 三顺子 judge the rows as laid out (the player chose them), the
apps' (and 三同花顺) ask whether some 3 + 5 + 5 split exists, and `special_layout` finds one, so a
declared hand can be shown laid out as what it is. A hand holding a wild card passes only the tests
that count wild cards (六同); the table says in `specials_with_wilds` which it may declare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.cards import ACE, Card
from scoring.categories import ROWS, Category
from scoring.hands import HandValue
from scoring.rules import RuleSet, Wheel
from scoring.special_hands import Special, SpecialTest

_STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
_JACK = 11
_EIGHT = 8
_WINDOWS3 = (*(tuple(range(lo, lo + 3)) for lo in range(2, 13)), (ACE, 2, 3))
"""3-card straights of RULES.md's specials: 2-3-4 .. Q-K-A, and A-2-3."""


@dataclass(frozen=True)
class _Hand:
    rows: Mapping[str, Sequence[Card]]
    values: Mapping[str, HandValue]
    rules: RuleSet
    cards: tuple[Card, ...]
    counts: Counter[int]          # natural cards by rank
    wild: int

    @property
    def suits(self) -> set[str]:
        return {c.suit for c in self.cards}


def _hand(rows: Mapping[str, Sequence[Card]], values: Mapping[str, HandValue], rules: RuleSet) -> _Hand:
    cards = tuple(c for row in ROWS for c in rows[row])
    natural = [c for c in cards if not rules.is_wild(c)]
    return _Hand(rows, values, rules, cards, Counter(c.rank for c in natural), len(cards) - len(natural))


def _head_consecutive(head: Sequence[Card]) -> bool:
    """Three consecutive ranks; A-2-3 and Q-K-A both count (seed 004's 三顺子)."""
    return tuple(sorted(c.rank for c in head)) in {tuple(sorted(w)) for w in _WINDOWS3}


def _one_suit(cards: Iterable[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


# ------------------------------------------------------------------ "some 3 + 5 + 5 split exists"

Patterns = tuple[tuple[Counter, ...], tuple[Counter, ...]]
"""Shapes a head may take and shapes a 5-card row may take, as counts of a card key."""


def _windows5(rules: RuleSet) -> list[tuple[int, ...]]:
    out = [tuple(range(lo, lo + 5)) for lo in range(2, 11)]
    return out if rules.wheel == Wheel.NONE else [*out, (ACE, 2, 3, 4, 5)]


def _straights(rules: RuleSet) -> tuple[Callable[[Card], Hashable], Patterns]:
    return (lambda c: c.rank), (tuple(Counter(w) for w in _WINDOWS3),
                                tuple(Counter(w) for w in _windows5(rules)))


def _flushes(rules: RuleSet) -> tuple[Callable[[Card], Hashable], Patterns]:
    suits = "shdc"
    return (lambda c: c.suit), (tuple(Counter({s: 3}) for s in suits), tuple(Counter({s: 5}) for s in suits))


def _straight_flushes(rules: RuleSet) -> tuple[Callable[[Card], Hashable], Patterns]:
    suits = "shdc"
    heads = tuple(Counter((r, s) for r in w) for w in _WINDOWS3 for s in suits)
    rows = tuple(Counter((r, s) for r in w) for w in _windows5(rules) for s in suits)
    return (lambda c: (c.rank, c.suit)), (heads, rows)


_SPLITS = {
    SpecialTest.SPLIT_STRAIGHTS: _straights,
    SpecialTest.SPLIT_FLUSHES: _flushes,
    SpecialTest.SPLIT_STRAIGHT_FLUSHES: _straight_flushes,
}


def _contains(have: Counter, want: Counter) -> bool:
    return all(have[k] >= n for k, n in want.items())


def _split_shapes(keys: Counter, patterns: Patterns) -> tuple[Counter, Counter, Counter] | None:
    heads, rows = patterns
    for head in heads:
        if not _contains(keys, head):
            continue
        rest = keys - head
        for middle in rows:
            if _contains(rest, middle) and (rest - middle) in rows:
                return head, middle, rest - middle
    return None


def _take(cards: list[Card], shape: Counter, key: Callable[[Card], Hashable]) -> list[Card]:
    want, out = Counter(shape), []
    for c in list(cards):
        if want[key(c)] > 0:
            want[key(c)] -= 1
            out.append(c)
            cards.remove(c)
    return out


def special_layout(cards: Sequence[Card], special: Special, rules: RuleSet) -> tuple[list[Card], ...] | None:
    """Head, middle, tail of `cards` that show a split special (三同花顺, the apps' 三顺子 / 三同花),
    or None if no split makes it (or the special is not judged on a split)."""
    build = _SPLITS.get(special.test)
    if build is None or any(rules.is_wild(c) for c in cards):
        return None
    key, patterns = build(rules)
    shapes = _split_shapes(Counter(key(c) for c in cards), patterns)
    if shapes is None:
        return None
    left = list(cards)
    return tuple(_take(left, shape, key) for shape in shapes)


def _split_exists(test: SpecialTest) -> Callable[[_Hand], bool]:
    def check(h: _Hand) -> bool:
        key, patterns = _SPLITS[test](h.rules)
        return _split_shapes(Counter(key(c) for c in h.cards), patterns) is not None
    return check


# ------------------------------------------------------------------ the tests


def _dragon(h: _Hand) -> bool:
    return len(h.counts) == 13


def _rows_straights(h: _Hand) -> bool:
    return (_head_consecutive(h.rows["head"]) and h.values["middle"].category in _STRAIGHTS
            and h.values["tail"].category in _STRAIGHTS)


TESTS: dict[SpecialTest, Callable[[_Hand], bool]] = {
    SpecialTest.DRAGON: _dragon,
    SpecialTest.SUPREME_DRAGON: lambda h: _dragon(h) and len(h.suits) == 1,
    SpecialTest.MIXED_DRAGON: lambda h: _dragon(h) and len(h.suits) > 1,
    SpecialTest.COURT_CARDS: lambda h: min(h.counts) >= _JACK,
    SpecialTest.THREE_QUADS: lambda h: sum(n // 4 for n in h.counts.values()) == 3,
    SpecialTest.ALL_EIGHT_UP: lambda h: min(h.counts) >= _EIGHT,
    SpecialTest.ALL_EIGHT_DOWN: lambda h: max(h.counts) <= _EIGHT,
    SpecialTest.ONE_COLOR: lambda h: len({c.is_red for c in h.cards}) == 1,
    SpecialTest.FOUR_TRIPS: lambda h: sum(n // 3 for n in h.counts.values()) == 4,
    SpecialTest.FIVE_PAIRS_TRIPS: lambda h: sorted(h.counts.values()) == [2, 2, 2, 2, 2, 3],
    SpecialTest.SIX_PAIRS: lambda h: sum(n // 2 for n in h.counts.values()) == 6,
    SpecialTest.SIX_PAIRS_NO_TRIPS: lambda h: sum(n // 2 for n in h.counts.values() if n != 3) == 6,
    SpecialTest.ROWS_FLUSHES: lambda h: all(_one_suit(h.rows[r]) for r in ROWS),
    SpecialTest.ROWS_STRAIGHTS: _rows_straights,
    SpecialTest.SPLIT_FLUSHES: _split_exists(SpecialTest.SPLIT_FLUSHES),
    SpecialTest.SPLIT_STRAIGHTS: _split_exists(SpecialTest.SPLIT_STRAIGHTS),
    SpecialTest.SPLIT_STRAIGHT_FLUSHES: _split_exists(SpecialTest.SPLIT_STRAIGHT_FLUSHES),
    SpecialTest.SIX_OF_A_KIND: lambda h: h.wild + max(h.counts.values(), default=0) >= 6,
    SpecialTest.ADDED_SUIT: lambda h: h.rules.extra_suit is not None and h.suits == {h.rules.extra_suit},
}
"""Each test on a hand; every one but 六同 sees a hand without wild cards (see `qualifies`)."""

COUNTS_WILD_CARDS = frozenset({SpecialTest.SIX_OF_A_KIND})


def _qualifies(special: Special, h: _Hand) -> bool:
    if h.wild and special.test not in COUNTS_WILD_CARDS:
        return False  # every other special is judged on natural cards only
    return TESTS[special.test](h)


def detect_specials(
    rows: Mapping[str, Sequence[Card]], values: Mapping[str, HandValue], rules: RuleSet
) -> list[Special]:
    """Every special of this table the hand makes, strongest first, before asking whether a hand
    with a wild card may declare it.

    `rows`: head/middle/tail cards as laid out; `values`: their evaluations under `rules` (the
    straights of seed 004's 三顺子 follow the table's `wheel`)."""
    h = _hand(rows, values, rules)
    found = [sp for sp in rules.specials if _qualifies(sp, h)]
    return sorted(found, key=lambda sp: -rules.special_rank_of(sp))  # stable: equal ranks keep order


def best_special(
    rows: Mapping[str, Sequence[Card]], values: Mapping[str, HandValue], rules: RuleSet
) -> Special | None:
    """The strongest special this table plays that the hand makes and may declare, or None.

    A hand holding a wild card may only declare the specials in `rules.specials_with_wilds`."""
    has_wild = any(rules.is_wild(c) for row in rows.values() for c in row)
    for sp in detect_specials(rows, values, rules):
        if not has_wild or sp.key in rules.specials_with_wilds:
            return sp
    return None


def compare_specials(a: Special, b: Special, rules: RuleSet) -> int:
    """+1 if `a` beats `b` at this table, -1 if `b` beats `a`, 0 for a tie."""
    ra, rb = rules.special_rank_of(a), rules.special_rank_of(b)
    return (ra > rb) - (ra < rb)
