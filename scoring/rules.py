"""`RuleSet`: every house rule of RULES.md as plain data, and the five named presets.

Tables disagree on almost everything (row points, wheel, royalties, what a foul costs), so no code
may ask "which preset is this?": it reads the option instead.  A preset is only a `RuleSet` value;
`preset(name, **overrides)` starts from one and changes options, which is also how the JSON
`"options"` object of a table is applied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scoring.cards import RANK_CHARS, SUITS, Card
from scoring.categories import ROWS, Category
from scoring.errors import RulesError, excerpt
from scoring.special_hands import (
    APP_SPECIALS,
    CATALOGUE,
    SEED_ORDER,
    Special,
    SpecialRank,
    SpecialTest,
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


# ----- building rule sets from names and JSON options -----

_FIELDS = {f.name: f for f in dataclasses.fields(RuleSet)}


def _enum(cls: type[StrEnum], name: str, value: Any) -> Any:
    try:
        return cls(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in cls)
        raise RulesError(f"option {name!r} must be one of {choices}, not {excerpt(value)}") from None


MAX_OPTION_NUMBER = 1_000_000
"""No option number above this: every table's points are small, and a 4,000-digit scoop factor
would make scores too long to print."""


def _int(name: str, value: Any, *, minimum: int | None = None, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"option {name!r} must be a whole number, not {excerpt(value)}")
    if minimum is not None and value < minimum:
        raise RulesError(f"option {name!r} must be at least {minimum}, not {excerpt(value)}")
    if value > MAX_OPTION_NUMBER:
        raise RulesError(f"option {name!r} must be at most {MAX_OPTION_NUMBER:,}, not {excerpt(value)}")
    return value


def _bool(name: str, value: Any, *, optional: bool = False) -> bool | None:
    if value is None and optional:
        return None
    if not isinstance(value, bool):
        raise RulesError(f"option {name!r} must be true or false, not {excerpt(value)}")
    return value


def _row(name: str, value: Any, *, allow_any: bool) -> str:
    allowed = (*ROWS, "any") if allow_any else ROWS
    if value not in allowed:
        raise RulesError(f"option {name!r}: row must be one of {', '.join(allowed)}, not {value!r}")
    return value


def _category(name: str, value: Any) -> Category:
    if isinstance(value, bool) or not isinstance(value, str | int | Category):
        raise RulesError(f"option {name!r}: category must be a name like 'quads', not {excerpt(value)}")
    try:
        return Category.parse(value)
    except ValueError as e:
        raise RulesError(f"option {name!r}: {e}") from None


def _special_entry(name: str, item: Any, base: RuleSet) -> Special:
    """One entry of a `specials` list: a `Special`, a [key, points] pair, or an object with `key`
    and any of zh, en, test, points (a key neither the table nor the catalogue knows needs them all)."""
    if isinstance(item, Special):
        return item
    if isinstance(item, list | tuple) and len(item) == 2:
        return _special(name, item[0], base).worth(_int(name, item[1], minimum=0))
    if not isinstance(item, Mapping) or not isinstance(item.get("key"), str):
        raise RulesError(f"option {name!r}: each entry must be [key, points] or an object with a 'key'")
    unknown = set(item) - {"key", "zh", "en", "test", "points"}
    if unknown:
        raise RulesError(f"option {name!r}: unknown key(s) {sorted(unknown)}")
    key = item["key"]
    known = base.special(key) or CATALOGUE.get(key)
    fields = {**(dataclasses.asdict(known) if known else {}), **item}
    missing = sorted({"zh", "en", "test", "points"} - set(fields))
    if missing:
        raise RulesError(f"option {name!r}: the new special {key!r} needs {', '.join(missing)}")
    return Special(key, str(fields["zh"]), str(fields["en"]), _enum(SpecialTest, name, fields["test"]),
                   _int(name, fields["points"], minimum=0))


def _special(name: str, value: Any, base: RuleSet) -> Special:
    """The special called `value`: the table's own, else the catalogue's (to add one)."""
    if isinstance(value, Special):
        return value
    found = base.special(value) if isinstance(value, str) else None
    if found is None and isinstance(value, str):
        found = CATALOGUE.get(value)
    if found is None:
        choices = ", ".join(dict.fromkeys([*(sp.key for sp in base.specials), *CATALOGUE]))
        raise RulesError(f"option {name!r}: unknown special {value!r} (known: {choices})")
    return found


def _entries(name: str, value: Any) -> Iterable[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        raise RulesError(f"option {name!r} must be a list of objects")
    for item in value:
        if not isinstance(item, Mapping | Royalty | RowValue):
            raise RulesError(f"option {name!r}: each entry must be an object, not {item!r}")
        yield dataclasses.asdict(item) if isinstance(item, Royalty | RowValue) else item


def _coerce(name: str, value: Any, base: RuleSet) -> Any:
    """Turn a JSON option value into the field's type, with a message naming the option."""
    match name:
        case "name":
            if not isinstance(value, str):
                raise RulesError(f"option 'name' must be text, not {excerpt(value)}")
            return value
        case "row_points":
            if not isinstance(value, list | tuple) or len(value) != 3:
                raise RulesError("option 'row_points' must be three numbers: head, middle, tail")
            return tuple(_int(name, v, minimum=0) for v in value)
        case "row_values":
            if value is None:
                return ()
            out = []
            for e in _entries(name, value):
                unknown = set(e) - {"row", "category", "points"}
                if unknown:
                    raise RulesError(f"option 'row_values': unknown key(s) {sorted(unknown)}")
                out.append(RowValue(_row(name, e.get("row"), allow_any=False),
                                    _category(name, e.get("category")),
                                    _int(name, e.get("points"), minimum=0)))
            return tuple(out)
        case "royalties":
            if value is None:
                return ()
            out = []
            for e in _entries(name, value):
                unknown = set(e) - {"row", "category", "points", "mode"}
                if unknown:
                    raise RulesError(f"option 'royalties': unknown key(s) {sorted(unknown)}")
                out.append(Royalty(_row(name, e.get("row"), allow_any=True),
                                   _category(name, e.get("category")),
                                   _int(name, e.get("points"), minimum=0),
                                   _enum(RoyaltyMode, name, e.get("mode", "on_win"))))
            return tuple(out)
        case "specials":
            # A mapping is merged into the preset's specials (null removes one; a new one joins at the
            # end of the table's order); a list replaces them, in its order.
            if isinstance(value, Mapping):
                merged = {sp.key: sp for sp in base.specials}
                for k, v in value.items():
                    sp = _special(name, k, base)
                    if v is None:
                        merged.pop(sp.key, None)
                    else:
                        merged[sp.key] = sp.worth(_int(name, v, minimum=0))
                return tuple(merged.values())
            if isinstance(value, list | tuple):
                return tuple(_special_entry(name, item, base) for item in value)
            raise RulesError("option 'specials' must be an object {name: points} or a list of specials")
        case "special_rank":
            return _enum(SpecialRank, name, value)
        case "specials_with_wilds":
            if not isinstance(value, list | tuple):
                raise RulesError("option 'specials_with_wilds' must be a list of special names")
            return tuple(_special(name, v, base).key for v in value)
        case "wheel":
            return _enum(Wheel, name, value)
        case "foul":
            return _enum(Foul, name, value)
        case "tie":
            return _enum(Tie, name, value)
        case "scoop_factor" | "home_run_factor":
            return _int(name, value, minimum=1)
        case "home_run_min_players" | "foul_penalty":
            return _int(name, value, minimum=0)
        case "max_players":
            return _int(name, value, minimum=2)
        case "jokers":
            v = _int(name, value, minimum=0)
            if v > 2:
                raise RulesError(f"option 'jokers' must be 0, 1 or 2, not {v}")
            return v
        case "banker_cap":
            return _int(name, value, minimum=0, optional=True)
        case "strict_order" | "natural_wins_ties" | "five_kind_above_sf":
            return _bool(name, value)
        case "flush_pairs_first":
            return _bool(name, value, optional=True)
        case "wild_rank":
            if value is None:
                return None
            rank = str(value).strip().upper()
            rank = "T" if rank == "10" else rank
            if len(rank) != 1 or rank not in RANK_CHARS:
                raise RulesError(f"option 'wild_rank' must be a rank like '6' or 'T', not {value!r}")
            return rank
        case "extra_suit":
            if value is None:
                return None
            if not isinstance(value, str) or value.lower() not in SUITS:
                raise RulesError(f"option 'extra_suit' must be one of s, h, d, c, not {value!r}")
            return value.lower()
        case "banker":
            if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
                raise RulesError(f"option 'banker' must be a player's name, not {excerpt(value)}")
            return None if value is None else str(value)
    raise RulesError(f"unknown option {name!r}")  # pragma: no cover - guarded by the caller


def with_options(base: RuleSet, options: Mapping[str, Any] | None = None, **overrides: Any) -> RuleSet:
    """`base` with options changed; unknown names and bad values raise `RulesError`.

    Besides the fields, `deck` is accepted as a shorthand: 52, 54 (two jokers) or 65 (an added
    suit, spades unless `extra_suit` says otherwise)."""
    opts = dict(options or {})
    opts.update(overrides)
    if "deck" in opts:
        deck = opts.pop("deck")
        if isinstance(deck, bool) or not isinstance(deck, int):
            raise RulesError(f"option 'deck' must be 52, 54 or 65, not {excerpt(deck)}")
        if deck == 52:
            opts.setdefault("jokers", 0)
        elif deck == 54:
            opts.setdefault("jokers", 2)
        elif deck == 65:
            opts.setdefault("extra_suit", "s")
        else:
            raise RulesError(f"option 'deck' must be 52, 54 or 65, not {deck!r}")
    unknown = sorted(set(opts) - set(_FIELDS))
    if unknown:
        known = ", ".join(sorted([*_FIELDS, "deck"]))
        raise RulesError(f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                         f"(known options: {known})")
    changes = {k: _coerce(k, v, base) for k, v in opts.items()}
    return dataclasses.replace(base, **changes)


def preset(
    name: str | RuleSet = "taiwan", options: Mapping[str, Any] | None = None, **overrides: Any
) -> RuleSet:
    """A named preset (`luosong`, `weighted`, `taiwan`, `shisanshui`, `app`) with options changed."""
    if isinstance(name, RuleSet):
        base = name
    else:
        key = str(name).strip().lower()
        if key not in PRESETS:
            raise RulesError(f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}")
        base = PRESETS[key]
    return with_options(base, options, **overrides)


__all__ = [
    "PRESETS", "Foul", "Royalty", "RoyaltyMode", "RowValue", "RuleSet", "Tie", "Wheel", "preset",
    "with_options", "APP_ROW_VALUES", "SHISANSHUI_ROW_VALUES",
]
