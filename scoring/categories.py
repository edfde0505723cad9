"""Names of the hand categories and the special hands (报到), shared by rules, rows and specials.

They live apart from the evaluator so that `RuleSet` (which names categories in its royalty and
row-value tables) does not need to import the evaluator, and vice versa.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


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


class Special(StrEnum):
    """Special hands (报到): they do not compare rows but win a fixed value from each opponent."""

    DRAGON = "dragon"                    # 一条龙: A to 2, one of each rank, any suits
    SUPREME_DRAGON = "supreme_dragon"    # 至尊青龙: the dragon in one suit
    THREE_FLUSHES = "three_flushes"      # 三同花: head 3 of a suit, middle and tail flushes (as laid out)
    THREE_STRAIGHTS = "three_straights"  # 三顺子: head 3 consecutive, middle and tail straights (as laid out)
    SIX_PAIRS = "six_pairs"              # 六对半: six pairs and a single
    FOUR_TRIPS = "four_trips"            # 四套三条: four trips and a single
    SAME_COLOR = "same_color"            # 清一色: all 13 red or all 13 black
    SIX_OF_A_KIND = "six_of_a_kind"      # 六同: six cards of one rank (wild cards count)
    ONE_SUIT = "one_suit"                # 清一花: all 13 of the added suit (65-card deck)

    @property
    def zh(self) -> str:
        return _SPECIAL_ZH[self]


_SPECIAL_ZH = {
    Special.DRAGON: "一条龙",
    Special.SUPREME_DRAGON: "至尊青龙",
    Special.THREE_FLUSHES: "三同花",
    Special.THREE_STRAIGHTS: "三顺子",
    Special.SIX_PAIRS: "六对半",
    Special.FOUR_TRIPS: "四套三条",
    Special.SAME_COLOR: "清一色",
    Special.SIX_OF_A_KIND: "六同",
    Special.ONE_SUIT: "清一花",
}

ROWS = ("head", "middle", "tail")
"""Row names, in laying-out order; row sizes are 3, 5, 5."""
ROW_SIZES = {"head": 3, "middle": 5, "tail": 5}
