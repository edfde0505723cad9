"""Errors the rules engine raises for bad input.

Every error a player can cause (a mistyped card, a row of four, a card seen twice, an unknown
preset) is a `ScoringError`, so callers (the CLI, the app) catch one type and show its message;
anything else escaping is a bug.  The message always says *what* and *where*, in words a player
understands; `.player`, `.row` and `.token` carry the same facts for programs.
"""

from __future__ import annotations

import reprlib


class ScoringError(ValueError):
    """Base of every input error: the message is ready to show to a player."""

    def __init__(
        self,
        message: str,
        *,
        player: str | None = None,
        row: str | None = None,
        token: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.player = player
        self.row = row
        self.token = token

    def __str__(self) -> str:
        return self.message


class CardError(ScoringError):
    """A token that is not a card in any notation we accept (or not allowed by the deck)."""


class TableError(ScoringError):
    """A table that cannot be settled as given: row sizes, duplicates, players, options, JSON."""


class RulesError(TableError):
    """An unknown preset, an unknown option, or an option value out of range."""



EXCERPT_CHARS = 40
"""How much of a bad value an error message quotes: enough to find it, never the whole of a huge one."""

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = EXCERPT_CHARS
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6
_REPR.maxlevel = 3


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """`repr(value)` cut to about `limit` characters with `…`, so a 5,000-character token or a list
    of millions of cards is named by its start and a message stays one line (`reprlib` cuts a huge
    container before it becomes text, which could otherwise take gigabytes)."""
    try:
        text = _REPR.repr(value)
    except ValueError:  # an int too long to print
        text = f"<a {type(value).__name__} too long to show>"
    return text if len(text) <= limit else text[: limit - 1] + "…"
