"""Validity of what players laid out: row sizes, cards against the deck, and 相公 (rows out of order).

Sizes and duplicates are input errors (`TableError`, naming the card and both places); 相公 is a
game fact the settlement prices by the table's `foul` option, so it is returned, not raised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.cards import Card
from scoring.categories import ROW_SIZES, ROWS
from scoring.errors import TableError
from scoring.hands import HandValue, row_exceeds
from scoring.rules import RuleSet


def check_row_sizes(player: str, rows: Mapping[str, Sequence[Card]]) -> None:
    """3 / 5 / 5, with a message that shows the row as it was read."""
    for row in ROWS:
        cards = rows[row]
        need = ROW_SIZES[row]
        if len(cards) != need:
            shown = " ".join(map(str, cards)) or "nothing"
            raise TableError(
                f"player {player}: the {row} row has {len(cards)} card{'s' * (len(cards) != 1)}, "
                f"it needs {need} (read: {shown})",
                player=player, row=row,
            )


def check_deck(hands: Sequence[tuple[str, Mapping[str, Sequence[Card]]]], rules: RuleSet) -> None:
    """Every card at most as often as the deck holds it: once in a 52-card deck, twice for the added
    suit of the 65-card deck, jokers only when the table plays them."""
    check_cards([(f"player {player}'s {row} row (card {i + 1})", card, player, row)
                 for player, rows in hands for row in ROWS for i, card in enumerate(rows[row])], rules)


def check_hand(rows: Mapping[str, Sequence[Card]] | Sequence[Card], rules: RuleSet) -> None:
    """`check_deck` for one player's cards alone (the solver's commands): the same refusals with the
    same words, each card named by its row, or by its place among the 13 when not laid out."""
    if isinstance(rows, Mapping):
        placed = [(f"the {row} row (card {i + 1})", card, None, row)
                  for row in ROWS for i, card in enumerate(rows.get(row, ()))]
    else:
        placed = [(f"card {i + 1}", card, None, None) for i, card in enumerate(rows)]
    check_cards(placed, rules)


def check_cards(placed: Sequence[tuple[str, Card, str | None, str | None]], rules: RuleSet) -> None:
    """The deck check over `(place, card, player, row)`: a `TableError` naming the card and every
    place it was seen when it is seen more often than the deck holds it."""
    seen: dict[Card, list[str]] = {}
    for place, card, player, row in placed:
        allowed = rules.copies_allowed(card)
        if allowed == 0:
            raise TableError(
                f"{place} holds a joker {card}, but this table plays without jokers "
                f"(set the option \"jokers\": 1 or 2)",
                player=player, row=row, token=str(card),
            )
        places = seen.setdefault(card, [])
        places.append(place)
        if len(places) > allowed:
            copies = {1: "once", 2: "twice"}.get(allowed, f"{allowed} times")
            raise TableError(
                f"card {card} is seen {len(places)} times but the {rules.deck_size}-card deck "
                f"holds it {copies}: {', '.join(places[:-1])} and {places[-1]}",
                player=player, row=row, token=str(card),
            )
    jokers = [p for card, places in seen.items() if card.is_joker for p in places]
    if len(jokers) > rules.jokers:
        raise TableError(
            f"{len(jokers)} jokers at the table but it plays with {rules.jokers}: {', '.join(jokers)}"
        )


def out_of_order(values: Mapping[str, HandValue], rules: RuleSet) -> list[str]:
    """The 相公 descriptions for one arrangement, e.g. `["middle > tail"]`; empty when legal.

    Adjacent rows only (head/middle, middle/tail): head <= middle <= tail implies head <= tail.
    Under `strict_order` an equal pair of rows is named with `=`."""
    problems = []
    for low, high in (("head", "middle"), ("middle", "tail")):
        if row_exceeds(values[low], values[high]):
            problems.append(f"{low} > {high}")
        elif row_exceeds(values[low], values[high], strict=rules.strict_order):
            problems.append(f"{low} = {high}")
    return problems


def is_legal(values: Mapping[str, HandValue], rules: RuleSet) -> bool:
    return not out_of_order(values, rules)
