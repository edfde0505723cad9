"""Pick the deck a scene is dealt from: a fetched real design or a freshly styled procedural one."""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import numpy as np

from datasets.faces import load, stored_names

from .holdout import Split, check_designs, designs_for
from .procedural import ProceduralDeck, random_style


class Deck(Protocol):
    """What the renderer needs from a deck: faces and where their corner indices are."""

    name: str

    def has(self, card: str) -> bool: ...

    def face(self, card: str) -> np.ndarray: ...

    def boxes(self, card: str) -> list[tuple[int, int, int, int]]: ...

    def mip(self, card: str, level: int) -> np.ndarray: ...


def choose_deck(
    rng: np.random.Generator,
    designs: tuple[str, ...] | None,
    p_procedural: float = 0.4,
    exotic: bool = True,
    split: Split = Split.TRAIN,
    four_corners: bool = False,
) -> Deck:
    """A procedural deck with probability ``p_procedural`` (always when no design is cached).

    ``four_corners``: a deck printing its index in all four corners: procedural, or one of the named
    ``designs`` that does (`StoredDeck.four_corners`). Without it, no such design is dealt.

    ``designs`` limits the fetched designs to choose from (None: all of ``split`` in the cache, ():
    none; a design outside ``split`` is refused); procedural faces use ``split``'s fonts only.
    ``exotic`` False keeps procedural decks to red/black ink on light paper (for colour tests).
    """
    names = list(designs_for(split, _stored()) if designs is None else check_designs(split, designs))
    # drawn whenever a design could be dealt, so that a seed's scenes stay as they were
    procedural = bool(names) and rng.random() < p_procedural
    if four_corners and not designs:
        names = []  # four-corner tables of no named design: procedural faces
    else:
        names = [n for n in names if load(n).four_corners == four_corners]
    if not names or procedural:
        name = "procedural-4" if four_corners else "procedural"
        return ProceduralDeck(random_style(rng, exotic=exotic, split=split), name, four_corners)
    return load(names[int(rng.integers(len(names)))])


@lru_cache(maxsize=1)
def _stored() -> tuple[str, ...]:
    """The cached designs, listed once per process (the cache does not change during a run)."""
    return tuple(stored_names())


def index_height_frac(deck: Deck, cards: list[str]) -> float:
    """Median index height as a fraction of the face height: turns a wanted index size into a card size."""
    fr = []
    for c in cards[:6]:
        if deck.has(c):
            x1, y1, x2, y2 = deck.boxes(c)[0]
            fr.append((y2 - y1) / deck.face(c).shape[0])
    return float(np.median(fr)) if fr else 0.2
