"""The rules engine for 十三张 / 十三水: cards, rows, specials, 相公, settlement, CLI.

Public API (see docs/ARCHITECTURE.md, "scoring contract"):

- `parse_card`, `parse_cards`, `Card`: every card notation in, canonical `str(card)` out.
- `RuleSet`, `PRESETS`, `preset(name, **overrides)`: all house rules as data.
- `evaluate(row, rules) -> HandValue`: comparable row values.
- `settle(table) -> Settlement`: zero-sum totals with an itemised explanation per pair.
- `arrange(cards, rules, top=3)`: the solver's best arrangements (module `scoring.arrange`; the
  package attribute of that name is the function, `from scoring.arrange import ...` the module).
- `ScoringError` (base), `CardError`, `TableError`: bad input, with a message for players.
"""

from scoring.arrange import arrange
from scoring.cards import Card, format_cards, parse_card, parse_cards, sort_cards
from scoring.categories import ROWS, Category
from scoring.errors import CardError, RulesError, ScoringError, TableError
from scoring.hands import HandValue, compare, evaluate, row_exceeds
from scoring.options import preset
from scoring.rules import PRESETS, Foul, RowValue, Royalty, RoyaltyMode, RuleSet, Tie, Wheel
from scoring.settlement import Arrangement, Item, PairResult, Settlement, settle
from scoring.special_hands import Special, SpecialRank, SpecialTest
from scoring.specials import best_special, detect_specials
from scoring.suggest import suggest_arrangement
from scoring.table import Hand, Table, parse_table

__all__ = [
    "ROWS", "PRESETS", "Card", "CardError", "Category", "Foul", "HandValue", "Royalty", "RoyaltyMode",
    "RowValue", "RuleSet", "RulesError", "ScoringError", "Special", "SpecialRank", "SpecialTest",
    "TableError", "Tie", "Wheel",
    "compare", "evaluate", "format_cards", "parse_card", "parse_cards", "preset", "row_exceeds",
    "sort_cards", "Arrangement", "Item", "PairResult", "Settlement", "settle", "best_special",
    "detect_specials", "suggest_arrangement", "Hand", "Table", "parse_table", "arrange",
]
