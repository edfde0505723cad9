"""`Arrangement`: 13 cards laid out as head, middle and tail (a suggestion, or the solver's answer)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.cards import format_cards
from scoring.categories import ROWS


@dataclass(frozen=True)
class Arrangement:
    """A way to lay out 13 cards (a suggestion for a fouled hand; the solver's answers extend it)."""

    head: tuple
    middle: tuple
    tail: tuple

    def to_json(self) -> dict[str, str]:
        return {row: format_cards(getattr(self, row)) for row in ROWS}
