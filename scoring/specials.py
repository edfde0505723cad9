"""Special hands (报到): which of RULES.md's specials a player's 13 cards make.

Detection is pure card facts and knows nothing of points; `RuleSet.specials` says which specials
a table plays and what each is worth, and `best_special` joins the two.  三同花 and 三顺子 are
judged on the rows as laid out (the player chose them); the others on the 13 cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from scoring.cards import ACE, Card
from scoring.categories import Category, Special
from scoring.hands import HandValue
from scoring.rules import RuleSet

_STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)


def _head_consecutive(head: Sequence[Card]) -> bool:
    """Three consecutive ranks; A-2-3 and Q-K-A both count (seed 004's 三顺子)."""
    ranks = sorted(c.rank for c in head)
    if len(set(ranks)) != 3:
        return False
    return ranks[2] - ranks[0] == 2 or ranks == [2, 3, ACE]


def _one_suit(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


def detect_specials(
    rows: Mapping[str, Sequence[Card]], values: Mapping[str, HandValue], rules: RuleSet
) -> set[Special]:
    """Every special the hand qualifies for, before asking whether the table plays it.

    `rows`: head/middle/tail cards as laid out; `values`: their evaluations under `rules` (for the
    straights of 三顺子, which follow the table's `wheel`)."""
    cards = [*rows["head"], *rows["middle"], *rows["tail"]]
    wild = [c for c in cards if rules.is_wild(c)]
    natural = [c for c in cards if not rules.is_wild(c)]
    counts = Counter(c.rank for c in natural)
    found: set[Special] = set()

    if len(wild) + max(counts.values(), default=0) >= 6:
        found.add(Special.SIX_OF_A_KIND)
    if wild:
        return found  # every other special is judged on natural cards only

    if len(counts) == 13:
        found.add(Special.DRAGON)
        if _one_suit(cards):
            found.add(Special.SUPREME_DRAGON)
    if _one_suit(rows["head"]) and _one_suit(rows["middle"]) and _one_suit(rows["tail"]):
        found.add(Special.THREE_FLUSHES)
    if (_head_consecutive(rows["head"]) and values["middle"].category in _STRAIGHTS
            and values["tail"].category in _STRAIGHTS):
        found.add(Special.THREE_STRAIGHTS)
    if sum(n // 2 for n in counts.values()) == 6:
        found.add(Special.SIX_PAIRS)
    if sum(n // 3 for n in counts.values()) == 4:
        found.add(Special.FOUR_TRIPS)
    if len({c.is_red for c in cards}) == 1:
        found.add(Special.SAME_COLOR)
    if rules.extra_suit is not None and all(c.suit == rules.extra_suit for c in cards):
        found.add(Special.ONE_SUIT)
    return found


def best_special(
    rows: Mapping[str, Sequence[Card]], values: Mapping[str, HandValue], rules: RuleSet
) -> tuple[Special, int] | None:
    """The highest-valued special this table plays that the hand makes, or None.

    A hand holding a wild card may only declare the specials in `rules.specials_with_wilds`."""
    found = detect_specials(rows, values, rules)
    has_wild = any(rules.is_wild(c) for row in rows.values() for c in row)
    best: tuple[Special, int] | None = None
    for special, points in rules.specials:
        if special not in found or (has_wild and special not in rules.specials_with_wilds):
            continue
        if best is None or points > best[1]:
            best = (special, points)
    return best
