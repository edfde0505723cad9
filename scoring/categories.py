"""Names of the hand categories and the rows, shared by rules, rows and specials.

They live apart from the evaluator so that `RuleSet` (which names categories in its royalty and
row-value tables) does not need to import the evaluator, and vice versa. The special hands (报到)
are data of their own, `scoring.special_hands`.
"""

from __future__ import annotations

from enum import IntEnum


class Category(IntEnum):
    """Row categories in their usual order.  The value is the natural strength; `hands.strength`
    moves five of a kind below the straight flush when a table says so."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    FIVE_KIND = 9

    @property
    def label(self) -> str:
        return _LABELS[self][0]

    @property
    def zh(self) -> str:
        return _LABELS[self][1]

    @classmethod
    def parse(cls, name: str | int | Category) -> Category:
        """From JSON options: `"quads"`, `"straight_flush"`, `"四梅"`, or the number."""
        if isinstance(name, Category):
            return name
        if isinstance(name, int):
            return cls(name)
        key = str(name).strip().lower().replace(" ", "_").replace("-", "_")
        for cat, (label, zh) in _LABELS.items():
            if key in (cat.name.lower(), label.replace(" ", "_"), zh) or name in _ALIASES.get(cat, ()):
                return cat
        if key in _EXTRA:
            return _EXTRA[key]
        raise ValueError(f"unknown hand category {name!r}")


_LABELS = {
    Category.HIGH_CARD: ("high card", "乌龙"),
    Category.PAIR: ("pair", "对子"),
    Category.TWO_PAIR: ("two pair", "两对"),
    Category.TRIPS: ("trips", "三条"),
    Category.STRAIGHT: ("straight", "顺子"),
    Category.FLUSH: ("flush", "同花"),
    Category.FULL_HOUSE: ("full house", "葫芦"),
    Category.QUADS: ("quads", "铁支"),
    Category.STRAIGHT_FLUSH: ("straight flush", "同花顺"),
    Category.FIVE_KIND: ("five of a kind", "五同"),
}
_ALIASES = {Category.QUADS: ("四梅", "四条", "鐵支"), Category.HIGH_CARD: ("烏龍", "散牌")}
_EXTRA = {"high": Category.HIGH_CARD, "three_of_a_kind": Category.TRIPS, "four_of_a_kind": Category.QUADS,
          "five_of_a_kind": Category.FIVE_KIND}


ROWS = ("head", "middle", "tail")
"""Row names, in laying-out order; row sizes are 3, 5, 5."""
ROW_SIZES = {"head": 3, "middle": 5, "tail": 5}
