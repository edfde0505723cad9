"""`RuleSet`: every house rule of RULES.md as plain data, and the five named presets.

Tables disagree on almost everything (row points, wheel, royalties, what a foul costs), so no code
may ask "which preset is this?": it reads the option instead.  A preset is only a `RuleSet` value;
`scoring.options.preset(name, **overrides)` starts from one and changes options, which is also how
the JSON `"options"` object of a table is applied.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scoring.cards import RANK_CHARS, Card
from scoring.categories import ROWS, Category
from scoring.special_hands import (
    APP_SPECIALS,
    SEED_ORDER,
    Special,
    SpecialRank,
    seed_specials,
)


class Wheel(StrEnum):
    """Where A-2-3-4-5 stands among straights (AKQJT is always the top)."""

    LOW = "low"          # the lowest straight (seed 003; default)
    SECOND = "second"    # second only to AKQJT (seed 004)
    NONE = "none"        # not a straight; A is only high (seed 001)


class Foul(StrEnum):
    """What a 相公 (rows out of order) costs."""

    LOSE_ALL = "lose_all"   # loses every row to every clean hand (seed 000)
    PENALTY = "penalty"     # pays `foul_penalty` to each clean hand, no rows compared (seed 001)
    REJECT = "reject"       # the table is refused until the hand is re-arranged (seeds 003, 004)


class Tie(StrEnum):
    """How two equal rows settle (apart from banker mode, where the banker takes them)."""

    ZERO = "zero"   # a tie scores 0 (every preset)
    SUIT = "suit"   # seed 000 variant: the suit of the highest card decides, ♠ > ♥ > ♦ > ♣


class RoyaltyMode(StrEnum):
    ON_WIN = "on_win"   # paid by the opponent whose row it beats
    ALWAYS = "always"   # paid by every opponent (seed 001 各家加)


@dataclass(frozen=True)
class Royalty:
    """A bonus (怪物) for a row of `category` in `row` ("head", "middle", "tail" or "any").

    Added after the scoop and home-run multipliers and never multiplied.  Each qualifying row earns
    it separately (quads in both middle and tail earn it twice)."""

    row: str
    category: Category
    points: int
    mode: RoyaltyMode = RoyaltyMode.ON_WIN

    def applies_to(self, row: str, category: Category) -> bool:
        return (self.row == "any" or self.row == row) and self.category == category


@dataclass(frozen=True)
class RowValue:
    """With `row_values`, the winner of `row` holding `category` scores `points` instead of the
    row's `row_points` (seed 004's 倍率表)."""

    row: str
    category: Category
    points: int


@dataclass(frozen=True)
class RuleSet:
    """All options of RULES.md.  Frozen so a rule set can be shared, hashed and used as a cache key."""

    name: str = "custom"
    row_points: tuple[int, int, int] = (1, 1, 1)
    row_values: tuple[RowValue, ...] = ()
    wheel: Wheel = Wheel.LOW
    scoop_factor: int = 2
    home_run_factor: int = 2
    home_run_min_players: int = 3
    royalties: tuple[Royalty, ...] = ()
    specials: tuple[Special, ...] = seed_specials(dragon=36)
    """The specials this table plays, each with its value; in its order where `special_rank` is ORDER."""
    special_rank: SpecialRank = SpecialRank.VALUE
    specials_with_wilds: tuple[str, ...] = ("six_of_a_kind",)
    """Keys of the specials a hand holding a wild card may still declare (seed 004: only 六同)."""
    foul: Foul = Foul.LOSE_ALL
    foul_penalty: int = 6
    strict_order: bool = False
    tie: Tie = Tie.ZERO
    natural_wins_ties: bool = True
    """Of two equal rows the one with fewer wild cards wins (seed 004: 同牌型同点数, 无鬼的大)."""
    jokers: int = 0
    wild_rank: str | None = None
    """A rank character (`"6"`) whose four cards are all wild (seed 004's 百变)."""
    extra_suit: str | None = None
    """The suit added for the five-player 65-card deck (seed 004), or None for a single deck."""
    five_kind_above_sf: bool = True
    flush_pairs_first: bool | None = None
    """None: on exactly when the deck has an added suit, as seed 004's five-player game says."""
    banker: str | None = None
    banker_cap: int | None = None
    max_players: int = 5

    def __post_init__(self) -> None:
        # One special per key; ranked by value, one canonical order, so equal rule sets compare (and
        # hash) equal however built (the order then only picks the name of two equal-valued ones).
        unique = tuple({sp.key: sp for sp in self.specials}.values())
        if self.special_rank == SpecialRank.VALUE:
            unique = tuple(sorted(unique, key=lambda sp: SEED_ORDER.get(sp.key, len(SEED_ORDER))))
        object.__setattr__(self, "specials", unique)

    # ----- derived facts, so callers never re-derive them differently -----
    @property
    def deck_size(self) -> int:
        return 52 + self.jokers + (13 if self.extra_suit else 0)

    @property
    def pairs_first(self) -> bool:
        return self.extra_suit is not None if self.flush_pairs_first is None else self.flush_pairs_first

    @property
    def wild_rank_value(self) -> int | None:
        return None if self.wild_rank is None else RANK_CHARS.index(self.wild_rank) + 2

    def is_wild(self, card: Card) -> bool:
        return card.is_joker or (self.wild_rank is not None and card.rank == self.wild_rank_value)

    def copies_allowed(self, card: Card) -> int:
        """How many times `card` may appear at one table under this deck."""
        if card.is_joker:
            return 1 if self.jokers >= 1 else 0
        return 2 if card.suit == self.extra_suit else 1

    def special(self, key: str) -> Special | None:
        """This table's special called `key`, or None if it does not play one."""
        return next((sp for sp in self.specials if sp.key == key), None)

    def special_value(self, key: str) -> int | None:
        sp = self.special(key)
        return None if sp is None else sp.points

    def special_rank_of(self, special: Special) -> int:
        """Higher is the stronger special at this table (by value, or by place in its order)."""
        if self.special_rank == SpecialRank.VALUE:
            return special.points
        return -next(i for i, sp in enumerate(self.specials) if sp.key == special.key)

    def row_win_points(self, row: str, category: Category) -> int:
        """Points the winner of `row` scores when its winning hand is of `category`."""
        for rv in self.row_values:
            if rv.row == row and rv.category == category:
                return rv.points
        return self.row_points[ROWS.index(row)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (the inverse of `preset(**options)`), for showing a table's rules."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name == "specials":
                v = [dataclasses.asdict(sp) for sp in v]
            elif f.name in ("royalties", "row_values"):
                v = [{k: (str(x.name).lower() if isinstance(x, Category) else x)
                      for k, x in dataclasses.asdict(r).items()} for r in v]
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


def _royalties(head_trips: int, quads: int, straight_flush: int, mode: RoyaltyMode) -> tuple[Royalty, ...]:
    return (
        Royalty("head", Category.TRIPS, head_trips, mode),
        Royalty("any", Category.QUADS, quads, mode),
        Royalty("any", Category.STRAIGHT_FLUSH, straight_flush, mode),
    )


SHISANSHUI_ROW_VALUES: tuple[RowValue, ...] = (
    RowValue("head", Category.TRIPS, 3),
    RowValue("middle", Category.FIVE_KIND, 20),
    RowValue("middle", Category.STRAIGHT_FLUSH, 10),
    RowValue("middle", Category.QUADS, 8),
    RowValue("middle", Category.FULL_HOUSE, 2),
    RowValue("tail", Category.FIVE_KIND, 10),
    RowValue("tail", Category.STRAIGHT_FLUSH, 5),
    RowValue("tail", Category.QUADS, 4),
)

APP_ROW_VALUES: tuple[RowValue, ...] = (
    RowValue("head", Category.TRIPS, 3),
    RowValue("middle", Category.STRAIGHT_FLUSH, 10),
    RowValue("middle", Category.QUADS, 8),
    RowValue("middle", Category.FULL_HOUSE, 2),
    RowValue("tail", Category.STRAIGHT_FLUSH, 5),
    RowValue("tail", Category.QUADS, 4),
)
"""Preset `app`: the winner's category sets a row's points (a tail full house scores 1)."""

PRESETS: dict[str, RuleSet] = {
    "luosong": RuleSet(
        name="luosong", row_points=(1, 1, 1), wheel=Wheel.LOW,
        royalties=_royalties(3, 4, 5, RoyaltyMode.ON_WIN),
        specials=seed_specials(dragon=36), foul=Foul.REJECT,
    ),
    "weighted": RuleSet(
        name="weighted", row_points=(1, 2, 3), wheel=Wheel.LOW,
        royalties=_royalties(6, 8, 10, RoyaltyMode.ON_WIN),
        specials=seed_specials(dragon=36), foul=Foul.LOSE_ALL,
    ),
    "taiwan": RuleSet(
        name="taiwan", row_points=(1, 1, 1), wheel=Wheel.NONE,
        royalties=_royalties(3, 4, 5, RoyaltyMode.ALWAYS),
        specials=seed_specials(dragon=25), foul=Foul.PENALTY, foul_penalty=6,
        five_kind_above_sf=False,
    ),
    "shisanshui": RuleSet(
        name="shisanshui", row_points=(1, 1, 1), row_values=SHISANSHUI_ROW_VALUES, wheel=Wheel.SECOND,
        royalties=(),
        specials=seed_specials(supreme_dragon=72, dragon=36, one_suit=30, six_of_a_kind=20,
                               three_flushes=5, three_straights=5, six_pairs=5, four_trips=5,
                               same_color=5),
        foul=Foul.REJECT, five_kind_above_sf=True, banker_cap=7,
    ),
    "app": RuleSet(
        name="app", row_points=(1, 1, 1), row_values=APP_ROW_VALUES, wheel=Wheel.SECOND,
        royalties=(), specials=APP_SPECIALS, special_rank=SpecialRank.ORDER, specials_with_wilds=(),
        home_run_min_players=4, foul=Foul.REJECT, max_players=4,
    ),
}


__all__ = [
    "PRESETS", "Foul", "Royalty", "RoyaltyMode", "RowValue", "RuleSet", "Tie", "Wheel", "APP_ROW_VALUES",
    "SHISANSHUI_ROW_VALUES",
]
