"""Cards and their notation: the one thing the vision layer and the rules engine share.

Canonical form (docs/ARCHITECTURE.md): rank then lowercase suit, `T` for ten, jokers `BJ` (big/red)
and `SJ` (small/black): `As Kh Td 2c BJ SJ`.  Input is forgiving because people type cards in many
ways (`As`, `AS`, `A♠`, `10h`, `Th`, `th`, `♥10`, `RJ`), but anything else is refused with a message
that quotes the token and says where it was, so a player can fix exactly that card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.errors import CardError, excerpt

RANK_CHARS = "23456789TJQKA"
"""Rank characters in ascending order; a rank's value is its index + 2 (2..14, A = 14)."""
SUITS = "shdc"
"""Suits in descending tie-break order (♠ > ♥ > ♦ > ♣, seed 001); only used where `tie` says so."""
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")

ACE = 14
JOKER_RANK = 0
BIG_JOKER = "BJ"
SMALL_JOKER = "SJ"

_SYMBOL_TO_SUIT = {
    "♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c",
}
_RANK_ALIASES = {"10": "T", "1": None}
_JOKER_ALIASES = {"BJ": BIG_JOKER, "RJ": BIG_JOKER, "SJ": SMALL_JOKER}
_SPLIT = re.compile(r"[\s,;]+")
MAX_CARDS = 65
"""The most cards one call may hold (a whole 65-card deck); a row has 3 or 5, a hand 13."""
MAX_TEXT = 16 * MAX_CARDS
"""The longest text of cards read: 16 characters a card leaves room for any spacing (`♥10\ufe0f, `)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card.  `rank` is 2..14 (A = 14) or 0 for a joker; `suit` is one of `shdc`, or for a
    joker `B` (big) / `S` (small).  Frozen and hashable so cards can be counted and used as keys."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def rank_char(self) -> str:
        return "" if self.is_joker else RANK_CHARS[self.rank - 2]

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS or (self.is_joker and self.suit == "B")

    def __str__(self) -> str:
        if self.is_joker:
            return BIG_JOKER if self.suit == "B" else SMALL_JOKER
        return self.rank_char + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """With a suit symbol (`A♠`), for explanations shown to players."""
        if self.is_joker:
            return str(self)
        return self.rank_char + SUIT_SYMBOLS[self.suit]


def _where(player: str | None, row: str | None, position: int | None) -> str:
    parts = []
    if player is not None:
        parts.append(f"player {player}")
    if row is not None:
        parts.append(f"{row} row")
    if position is not None:
        parts.append(f"card {position + 1}")
    return f" ({', '.join(parts)})" if parts else ""


def _parse_rank(text: str) -> int | None:
    text = text.upper()
    text = _RANK_ALIASES.get(text, text) or ""
    if len(text) == 1 and text in RANK_CHARS:
        return RANK_CHARS.index(text) + 2
    return None


def parse_card(
    token: str | Card,
    *,
    player: str | None = None,
    row: str | None = None,
    position: int | None = None,
) -> Card:
    """Parse one card in any accepted notation; `player`/`row`/`position` only shape the error.

    Accepted: rank then suit letter (`As`, `AS`, `10h`, `Th`, `th`), rank then suit symbol (`A♠`),
    suit symbol then rank (`♥10`), jokers `BJ`, `SJ`, `RJ` (= `BJ`) in any case.
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(
            f"card {excerpt(token)}{_where(player, row, position)} is not text: "
            "write cards like 'As' or '10h'",
            player=player, row=row, token=excerpt(token),
        )
    text = token.strip().replace("\ufe0f", "")
    upper = text.upper()
    if upper in _JOKER_ALIASES:
        return JOKERS[_JOKER_ALIASES[upper]]
    rank = suit = None
    if len(text) >= 2:
        if text[0] in _SYMBOL_TO_SUIT:
            suit, rank = _SYMBOL_TO_SUIT[text[0]], _parse_rank(text[1:])
        elif text[-1] in _SYMBOL_TO_SUIT:
            suit, rank = _SYMBOL_TO_SUIT[text[-1]], _parse_rank(text[:-1])
        elif text[-1].lower() in SUITS:
            suit, rank = text[-1].lower(), _parse_rank(text[:-1])
    if rank is None or suit is None:
        raise CardError(
            f"unknown card {excerpt(token)}{_where(player, row, position)}: write a rank "
            "(A K Q J T/10 9 8 7 6 5 4 3 2) and a suit (s h d c or ♠ ♥ ♦ ♣), e.g. 'As', '10h', '♥10', "
            "or a joker BJ / SJ",
            player=player, row=row, token=token,
        )
    return Card(rank, suit)


def parse_cards(
    cards: str | Iterable[str | Card],
    *,
    player: str | None = None,
    row: str | None = None,
) -> list[Card]:
    """Parse a row or hand given as text (`"As 8d 6c"`, commas allowed) or as a list of tokens.

    More than `MAX_CARDS` cards (or `MAX_TEXT` characters) is refused before anything is split, so
    a row of millions of tokens costs neither the memory to split it nor a message that lists it."""
    if isinstance(cards, str):
        if len(cards) > MAX_TEXT:
            raise _too_many(f"{len(cards):,} characters", cards, player, row)
        tokens: list[str | Card] = [t for t in _SPLIT.split(cards.strip()) if t]
    elif isinstance(cards, Sequence) and not isinstance(cards, bytes | bytearray):
        tokens = list(cards[: MAX_CARDS + 1])
    elif isinstance(cards, Iterable) and not isinstance(cards, bytes | bytearray | dict):
        tokens = [t for _, t in zip(range(MAX_CARDS + 1), cards, strict=False)]
    else:
        raise CardError(
            f"cards{_where(player, row, None)} must be text like 'As Kh 10d' or a list of card strings, "
            f"not {type(cards).__name__}",
            player=player, row=row,
        )
    if len(tokens) > MAX_CARDS:
        raise _too_many(f"more than {MAX_CARDS} cards", cards, player, row)
    return [parse_card(t, player=player, row=row, position=i) for i, t in enumerate(tokens)]


def _too_many(what: str, cards: object, player: str | None, row: str | None) -> CardError:
    return CardError(
        f"cards{_where(player, row, None)}: {what} is far more than a row (3 or 5) or a hand (13) "
        f"holds (read: {excerpt(cards)})",
        player=player, row=row,
    )


def format_cards(cards: Sequence[Card]) -> str:
    """Canonical space-separated form, in the order given."""
    return " ".join(str(c) for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """High to low by rank, then ♠ ♥ ♦ ♣, jokers first: the order players lay cards out."""
    return sorted(cards, key=lambda c: (-(c.rank or 99), SUITS.find(c.suit)))


STANDARD_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(ACE, 1, -1))
"""The 52 cards, ♠ A..2 then ♥, ♦, ♣ (the vision class order)."""
JOKERS: dict[str, Card] = {BIG_JOKER: Card(JOKER_RANK, "B"), SMALL_JOKER: Card(JOKER_RANK, "S")}
