"""Rule sets from names and JSON options: `preset(name, **overrides)` and `with_options`.

A table's `"options"` object (and every keyword override) is checked here once, field by field
(`COERCE`: one small coercer per `RuleSet` field), so a bad value is refused with a message naming
the option, never carried into scoring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any

from scoring.cards import RANK_CHARS, SUITS
from scoring.categories import ROWS, Category
from scoring.errors import RulesError, excerpt
from scoring.rules import PRESETS, Foul, RowValue, Royalty, RoyaltyMode, RuleSet, Tie, Wheel
from scoring.special_hands import CATALOGUE, Special, SpecialRank, SpecialTest

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


def _name(name: str, value: Any, base: RuleSet) -> str:
    if not isinstance(value, str):
        raise RulesError(f"option 'name' must be text, not {excerpt(value)}")
    return value


def _row_points(name: str, value: Any, base: RuleSet) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise RulesError("option 'row_points' must be three numbers: head, middle, tail")
    return tuple(_int(name, v, minimum=0) for v in value)


def _row_values(name: str, value: Any, base: RuleSet) -> tuple[RowValue, ...]:
    out = []
    for e in _entries(name, () if value is None else value):
        unknown = set(e) - {"row", "category", "points"}
        if unknown:
            raise RulesError(f"option 'row_values': unknown key(s) {sorted(unknown)}")
        out.append(RowValue(_row(name, e.get("row"), allow_any=False), _category(name, e.get("category")),
                            _int(name, e.get("points"), minimum=0)))
    return tuple(out)


def _royalties(name: str, value: Any, base: RuleSet) -> tuple[Royalty, ...]:
    out = []
    for e in _entries(name, () if value is None else value):
        unknown = set(e) - {"row", "category", "points", "mode"}
        if unknown:
            raise RulesError(f"option 'royalties': unknown key(s) {sorted(unknown)}")
        out.append(Royalty(_row(name, e.get("row"), allow_any=True), _category(name, e.get("category")),
                           _int(name, e.get("points"), minimum=0),
                           _enum(RoyaltyMode, name, e.get("mode", "on_win"))))
    return tuple(out)


def _specials(name: str, value: Any, base: RuleSet) -> tuple[Special, ...]:
    """A mapping is merged into the preset's specials (null removes one; a new one joins at the end of
    the table's order); a list replaces them, in its order."""
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


def _specials_with_wilds(name: str, value: Any, base: RuleSet) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise RulesError("option 'specials_with_wilds' must be a list of special names")
    return tuple(_special(name, v, base).key for v in value)


def _jokers(name: str, value: Any, base: RuleSet) -> int:
    v = _int(name, value, minimum=0)
    if v > 2:
        raise RulesError(f"option 'jokers' must be 0, 1 or 2, not {v}")
    return v


def _wild_rank(name: str, value: Any, base: RuleSet) -> str | None:
    if value is None:
        return None
    rank = str(value).strip().upper()
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in RANK_CHARS:
        raise RulesError(f"option 'wild_rank' must be a rank like '6' or 'T', not {value!r}")
    return rank


def _extra_suit(name: str, value: Any, base: RuleSet) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value.lower() not in SUITS:
        raise RulesError(f"option 'extra_suit' must be one of s, h, d, c, not {value!r}")
    return value.lower()


def _banker(name: str, value: Any, base: RuleSet) -> str | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
        raise RulesError(f"option 'banker' must be a player's name, not {excerpt(value)}")
    return None if value is None else str(value)


def _number(minimum: int, optional: bool = False) -> Coercer:
    return lambda name, value, base: _int(name, value, minimum=minimum, optional=optional)


def _flag(optional: bool = False) -> Coercer:
    return lambda name, value, base: _bool(name, value, optional=optional)


def _choice(cls: type[StrEnum]) -> Coercer:
    return lambda name, value, base: _enum(cls, name, value)


Coercer = Callable[[str, Any, RuleSet], Any]
"""Turns one JSON option value into its field's type, with a message naming the option."""

COERCE: dict[str, Coercer] = {
    "name": _name,
    "row_points": _row_points,
    "row_values": _row_values,
    "royalties": _royalties,
    "specials": _specials,
    "special_rank": _choice(SpecialRank),
    "specials_with_wilds": _specials_with_wilds,
    "wheel": _choice(Wheel),
    "foul": _choice(Foul),
    "tie": _choice(Tie),
    "scoop_factor": _number(1),
    "home_run_factor": _number(1),
    "home_run_min_players": _number(0),
    "foul_penalty": _number(0),
    "max_players": _number(2),
    "jokers": _jokers,
    "banker_cap": _number(0, optional=True),
    "strict_order": _flag(),
    "natural_wins_ties": _flag(),
    "five_kind_above_sf": _flag(),
    "flush_pairs_first": _flag(optional=True),
    "wild_rank": _wild_rank,
    "extra_suit": _extra_suit,
    "banker": _banker,
}


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
    changes = {k: COERCE[k](k, v, base) for k, v in opts.items()}
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


__all__ = ["COERCE", "MAX_OPTION_NUMBER", "preset", "with_options"]
