"""Small builders shared by the scoring tests: tables from compact strings, random deals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from scoring.cards import JOKERS, STANDARD_DECK, Card, format_cards

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / ".." / "shared" / "rules" / "golden-tables.json"


def player(name: str, head: str, middle: str, tail: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "head": head, "middle": middle, "tail": tail, **extra}


def table(rules: str, *players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"rules": rules, "players": list(players), **extra}


def deck(jokers: int = 0, extra_suit: str | None = None) -> list[Card]:
    cards = list(STANDARD_DECK)
    if extra_suit:
        cards += [c for c in STANDARD_DECK if c.suit == extra_suit]
    cards += list(JOKERS.values())[:jokers]
    return cards


def random_hands(rng: random.Random, n: int, *, jokers: int = 0, extra_suit: str | None = None,
                 sorted_rows: bool = True) -> list[dict[str, str]]:
    """`n` players' rows from one shuffled deck.  `sorted_rows`: the weakest cards go to the head and
    the strongest to the tail (mostly legal); otherwise rows are cut at random (mostly 相公)."""
    cards = deck(jokers, extra_suit)
    rng.shuffle(cards)
    out = []
    for i in range(n):
        hand = cards[13 * i: 13 * i + 13]
        if sorted_rows:
            hand.sort(key=lambda c: c.rank or 15)
        out.append({"name": f"P{i + 1}", "head": format_cards(hand[:3]), "middle": format_cards(hand[3:8]),
                    "tail": format_cards(hand[8:])})
    return out
