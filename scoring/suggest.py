"""A legal arrangement of 13 cards, offered when a hand is refused for 相公.

The suggestion is the solver's best arrangement (`scoring.arrange`, without specials: the hand
is re-arranged, not declared), so the app's suggestions and these agree.  `fallback_arrangement`
is the greedy search alone, kept for the case the solver returns nothing.

Why greedy works first time almost always: the best five of 13 cards as the tail, the best five of
the rest as the middle, the last three as the head is in order (a row chosen later is never better
than one chosen from a superset), except under `strict_order` when two rows come out equal; then the
search goes through tails from the best down.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from scoring.arrange import arrange
from scoring.cards import Card, parse_cards, sort_cards
from scoring.errors import TableError
from scoring.hands import HandValue, evaluate
from scoring.rules import RuleSet
from scoring.validity import is_legal

Rows = tuple[list[Card], list[Card], list[Card]]


def _best_five(cards: Sequence[Card], rules: RuleSet) -> list[tuple[HandValue, tuple[Card, ...]]]:
    """Every 5-card subset with its value, best first (by value only, deterministic on ties)."""
    scored = [(evaluate(combo, rules), combo) for combo in combinations(cards, 5)]
    scored.sort(key=lambda vc: vc[0].sort_key, reverse=True)
    return scored


def _legal(head: Sequence[Card], middle: Sequence[Card], tail: Sequence[Card], rules: RuleSet) -> bool:
    values = {"head": evaluate(head, rules), "middle": evaluate(middle, rules), "tail": evaluate(tail, rules)}
    return is_legal(values, rules)


def suggest_arrangement(cards: Sequence[Card | str] | str, rules: RuleSet) -> Rows:
    """One legal (head, middle, tail) of exactly these 13 cards, each row sorted high to low."""
    hand = parse_cards(cards)
    if len(hand) != 13:
        raise TableError(f"an arrangement needs 13 cards, not {len(hand)}")
    found = arrange(hand, rules, top=1, specials=False)  # best by expected score, checked legal
    if found:
        return list(found[0].head), list(found[0].middle), list(found[0].tail)
    return fallback_arrangement(hand, rules)


def fallback_arrangement(cards: Sequence[Card | str] | str, rules: RuleSet) -> Rows:
    """The greedy search alone (no solver): best tail first, then best middle of the rest."""
    hand = parse_cards(cards)
    if len(hand) != 13:
        raise TableError(f"an arrangement needs 13 cards, not {len(hand)}")
    tails = _best_five(hand, rules)
    for _, tail in tails:
        rest = list(hand)
        for c in tail:
            rest.remove(c)
        for _, middle in _best_five(rest, rules):
            head = list(rest)
            for c in middle:
                head.remove(c)
            if _legal(head, middle, tail, rules):
                return sort_cards(head), sort_cards(middle), sort_cards(tail)
    raise TableError("these 13 cards have no legal arrangement under these rules")  # pragma: no cover
