"""A photo of a few loose cards (no hand laid out): each card lies its own way, so no seat frame says
where its second corner must be; a card's two corners, paired by distance, stay one card."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.classes import CLASS_NAMES
from vision.geometry import read_table
from vision.types import Detection

SIDE = 20.0  # index height, px
# card, top-left index centre, turn (degrees): the bottom-right index lies (1.9, 3.0) index heights
# below and right of the top-left in the card's own frame
LOOSE = [("9s", (200.0, 200.0), 0.0), ("Kd", (520.0, 260.0), 180.0), ("4h", (330.0, 560.0), 90.0),
         ("Tc", (700.0, 620.0), 215.0)]


def _corners(card: str, tl: tuple[float, float], turn: float) -> list[Detection]:
    a = math.radians(turn)
    dx, dy = 1.9 * SIDE, 3.0 * SIDE
    br = (tl[0] + dx * math.cos(a) - dy * math.sin(a), tl[1] + dx * math.sin(a) + dy * math.cos(a))
    h = SIDE / 2
    return [Detection(card, (x - h, y - h, x + h, y + h), 0.95) for x, y in (tl, br)]


@pytest.mark.parametrize("n", [1, 2, 4])
def test_loose_cards_read_once_each(n: int) -> None:
    dets = [d for card, tl, turn in LOOSE[:n] for d in _corners(card, tl, turn)]
    t = read_table(dets, width=1000, height=800)
    shown = [c for s in t.seats for c in s.cards] + list(t.orphans)
    assert sorted(c.card for c in shown) == sorted(card for card, _, _ in LOOSE[:n])
    assert not any(c.changed_from for c in shown)  # no corner renamed into a card not on the photo


def _scored(card: str, center: tuple[float, float], p: float = 0.95) -> Detection:
    """A read whose runner-up classes are all unlikely (the rest of its score spread thin)."""
    scores = np.full(len(CLASS_NAMES), (1 - p) / (len(CLASS_NAMES) - 1), np.float32)
    scores[CLASS_NAMES.index(card)] = p
    x, y, h = center[0], center[1], SIDE / 2
    return Detection(card, (x - h, y - h, x + h, y + h), p, scores)


def test_a_loose_card_read_twice_is_not_renamed_into_an_unseen_card() -> None:
    """Six loose cards in a row, one index read by two boxes a little apart (too near to be its two
    corners): the second read is that card seen twice. Renaming it would show a card that is not on
    the photo; it is left out as a false read instead, and said so."""
    names = ["9s", "Kd", "4h", "Tc", "Ah", "7c"]
    dets = [_scored(card, (150.0 + 90.0 * k, 300.0)) for k, card in enumerate(names)]
    dets.append(_scored("Ah", (150.0 + 90.0 * 4 + 0.7 * SIDE, 300.0), 0.9))
    t = read_table(dets, width=1000, height=800)
    assert len(t.seats) == 1
    assert sorted(c.card for c in t.seats[0].cards) == sorted(names)
    assert not any(c.changed_from for s in t.seats for c in s.cards)
    assert [p.kind for p in t.problems if p.card == "Ah"] == ["false_read"]
