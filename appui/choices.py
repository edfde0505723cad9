"""What a card chip offers instead of its card: the reader's next guesses and the deck's unseen cards.

The reader's guesses come from the per-class probabilities it already computed for that card
(`vision.ReadCard.scores`, in `CLASS_NAMES` order), so a misread is usually fixed by the second
or third most likely card. The unseen cards are what the deck holds that no seat shows: at a
four-seat table with one misread, exactly the card it should have been.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from appui import engine
from vision.classes import CLASS_NAMES, JOKERS

#: How many of the reader's guesses a chip offers, and the least probability worth offering.
TOP_GUESSES = 3
MIN_GUESS = 0.005


def guesses(card: str, scores: Any, top: int = TOP_GUESSES) -> list[tuple[str, float]]:
    """The reader's most likely other cards for this one, best first, as (card, probability).

    Empty without scores (a card the player typed, a reader without per-class scores)."""
    if scores is None:
        return []
    probs = np.asarray(scores, dtype=np.float64).ravel()
    if probs.shape[0] != len(CLASS_NAMES):
        return []
    out: list[tuple[str, float]] = []
    for idx in np.argsort(-probs, kind="stable"):
        name = CLASS_NAMES[int(idx)]
        if name == card:
            continue
        if probs[idx] < MIN_GUESS or len(out) == top:
            break
        out.append((name, round(float(probs[idx]), 4)))
    return out


def unseen(table_cards: Iterable[str], rules: Any) -> list[str]:
    """The deck's cards no seat shows, in the picker's order (spades first, A high).

    The deck is the table's: 52 cards, the added suit twice in the 65-card deck, jokers when the
    table plays them (never more jokers than it plays)."""
    seen = Counter(table_cards)
    jokers_left = max(0, _jokers(rules) - sum(seen[j] for j in JOKERS))
    out = []
    for card in CLASS_NAMES:
        if card in JOKERS:
            if jokers_left and not seen[card]:
                out.append(card)
        elif seen[card] < engine.copies_allowed(card, rules):
            out.append(card)
    return out


def _jokers(rules: Any) -> int:
    value = getattr(rules, "jokers", 0) if rules is not None else 0
    return int(value) if isinstance(value, int) else 0


def offers(current: str | None, guessed: Sequence[tuple[str, float]], free: Sequence[str]) -> list[str]:
    """One chip's buttons, without repeats: the reader's guesses first, then the unseen cards."""
    out: list[str] = []
    for card in [g for g, _ in guessed] + list(free):
        if card != current and card not in out:
            out.append(card)
    return out
