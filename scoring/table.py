"""The table as input: players' rows, the rules, the banker; parsed from the JSON contract.

```json
{"rules": "taiwan", "options": {...}, "banker": "A",
 "players": [{"name": "A", "head": "As 8d 6c", "middle": "...", "tail": "...", "declare": true}]}
```

Everything a player can get wrong is checked here, before any scoring, and reported as a
`ScoringError` that says what and where: unknown keys, rows of the wrong size, a card in no
notation we know, a card seen twice (naming both places), an unknown preset or option.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, format_cards, parse_cards
from scoring.categories import ROWS
from scoring.errors import TableError, excerpt
from scoring.options import preset, with_options
from scoring.rules import PRESETS, RuleSet
from scoring.validity import check_deck, check_row_sizes

TABLE_KEYS = {"rules", "options", "banker", "players"}
PLAYER_KEYS = {"name", "head", "middle", "tail", "declare"}
IGNORED_KEYS = {"comment", "meta", "seat", "id", "problems"}
"""Keys other tools may attach (the vision layer's seat index, notes); they do not affect a score."""
MIN_PLAYERS = 2
MAX_NAME = 40
"""The longest player name: a seat label, not a paragraph (it is repeated in every answer)."""


@dataclass(frozen=True)
class Hand:
    """One player's arrangement.  `declare`: None = declare a special if the hand makes one;
    False = play it as a normal hand; True = declare (the same as None when there is none)."""

    name: str
    head: tuple[Card, ...]
    middle: tuple[Card, ...]
    tail: tuple[Card, ...]
    declare: bool | None = None

    @property
    def rows(self) -> dict[str, tuple[Card, ...]]:
        return {"head": self.head, "middle": self.middle, "tail": self.tail}

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.head + self.middle + self.tail

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        out.update({row: format_cards(cards) for row, cards in self.rows.items()})
        if self.declare is not None:
            out["declare"] = self.declare
        return out


@dataclass(frozen=True)
class Table:
    """A validated table: rules resolved, every hand 3/5/5 and consistent with the deck."""

    rules: RuleSet
    hands: tuple[Hand, ...]

    @property
    def banker(self) -> str | None:
        return self.rules.banker

    @property
    def names(self) -> list[str]:
        return [h.name for h in self.hands]


def _unknown(keys: Any, allowed: set[str], where: str) -> None:
    extra = sorted(str(k) for k in keys if k not in allowed and k not in IGNORED_KEYS)
    if extra:
        more = f" and {len(extra) - 5:,} more" if len(extra) > 5 else ""
        shown = ", ".join(map(excerpt, extra[:5])) + more
        raise TableError(f"{where}: unknown key{'s' * (len(extra) > 1)} {shown} "
                         f"(expected {', '.join(sorted(allowed))})")


def _name(value: Any, what: str) -> str:
    """A player's name as text: a non-empty string (or a number) of valid Unicode, not too long.

    A lone surrogate (`"\\ud800"` in JSON) is refused here: it cannot be written back out as UTF-8."""
    if not isinstance(value, str | int) or isinstance(value, bool) or str(value).strip() == "":
        raise TableError(f"{what} must be a non-empty text, not {excerpt(value)}")
    name = str(value)
    if len(name) > MAX_NAME:
        raise TableError(f"{what} is {len(name):,} characters long, at most {MAX_NAME}: {excerpt(name)}")
    if any("\ud800" <= ch <= "\udfff" for ch in name):
        raise TableError(f"{what} {excerpt(name)} holds a lone surrogate, which is not a character: "
                         "write the name as plain Unicode text")
    return name


def _parse_hand(i: int, data: Any) -> Hand:
    if not isinstance(data, Mapping):
        raise TableError(f"player {i + 1} must be an object with name, head, middle, tail; "
                         f"got {excerpt(data)}")
    name = _name(data.get("name", f"P{i + 1}"), f"player {i + 1}: 'name'")
    _unknown(data.keys(), PLAYER_KEYS, f"player {name}")
    rows: dict[str, tuple[Card, ...]] = {}
    for row in ROWS:
        if row not in data:
            raise TableError(f"player {name} has no {row} row", player=name, row=row)
        rows[row] = tuple(parse_cards(data[row], player=name, row=row))
    check_row_sizes(name, rows)
    declare = data.get("declare")
    if declare is not None and not isinstance(declare, bool):
        raise TableError(f"player {name}: 'declare' must be true or false, not {excerpt(declare)}",
                         player=name)
    return Hand(name, rows["head"], rows["middle"], rows["tail"], declare)


def _resolve_rules(data: Mapping[str, Any]) -> RuleSet:
    rules = data.get("rules")
    options = data.get("options")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise TableError(f"'options' must be an object of rule options, not {excerpt(options)}")
    if isinstance(rules, RuleSet):
        return with_options(rules, options)
    if rules is None:
        raise TableError(f"the table has no 'rules': name a preset ({', '.join(PRESETS)})")
    if isinstance(rules, Mapping):  # a whole custom rule set given as options
        return with_options(RuleSet(), {**rules, **options})
    if not isinstance(rules, str):
        raise TableError(f"'rules' must be a preset name, not {excerpt(rules)}")
    return preset(rules, options)


def load_json(text: str | bytes, source: str = "the input") -> Any:
    """Parse JSON text with a message a player can act on (line and column), never a traceback."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno}, column {e.colno}"
        raise TableError(f"malformed JSON in {source}: {e.msg} at {where}") from None
    except (UnicodeDecodeError, RecursionError):
        raise TableError(f"{source} is not readable JSON text") from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise TableError(f"{source} holds a number too long to be read: no table needs one") from None


def parse_table(data: Mapping[str, Any] | Table | str) -> Table:
    """Validate a table given as the JSON contract's object, or its JSON text (or pass a `Table`)."""
    if isinstance(data, Table):
        return data
    if isinstance(data, str | bytes):
        data = load_json(data)
    if not isinstance(data, Mapping):
        raise TableError(
            f"a table must be a JSON object with 'rules' and 'players', not {type(data).__name__}"
        )
    _unknown(data.keys(), TABLE_KEYS, "table")
    rules = _resolve_rules(data)
    players = data.get("players")
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise TableError("the table needs 'players': a list of objects with name, head, middle, tail")
    hands = tuple(_parse_hand(i, p) for i, p in enumerate(players))
    if not MIN_PLAYERS <= len(hands) <= rules.max_players:
        raise TableError(f"a table has {MIN_PLAYERS} to {rules.max_players} players, not {len(hands)}")
    names = [h.name for h in hands]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise TableError(f"two players are called {dupes[0]!r}: give every player a different name",
                         player=dupes[0])
    banker = data.get("banker", rules.banker)
    if banker is not None:
        banker = _name(banker, "'banker'")
        if banker not in names:
            raise TableError(f"the banker {banker!r} is not one of the players ({', '.join(names)})")
        rules = with_options(rules, banker=banker)
    if 13 * len(hands) > rules.deck_size:
        raise TableError(f"{len(hands)} players hold {13 * len(hands)} cards but this table's deck has "
                         f"{rules.deck_size}: five players play with 65 cards (option \"deck\": 65)")
    check_deck([(h.name, h.rows) for h in hands], rules)
    return Table(rules, hands)
