"""A cascaded hand is a line with one step, down to an eighth of a card, as players spread a hand; a
five-seat table is dealt from the rules' 65 cards."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from datasets.synth.layout import CASCADE_STEP, cascade_pose, deal, rot2
from datasets.synth.procedural import ProceduralDeck, random_style

WH = (63.0, 88.0)  # a poker card's face, width x height
H = 100.0  # card height on the canvas, px


@pytest.mark.parametrize("base", [0.0, 30.0, 180.0, 271.0])
@pytest.mark.parametrize("step_x", [CASCADE_STEP[0], 0.3, CASCADE_STEP[1]])
def test_cascade_cards_are_evenly_spaced_along_one_line(base: float, step_x: float) -> None:
    rng = np.random.default_rng(3)
    n, centre = 13, np.array([320.0, 240.0])
    poses = [cascade_pose(rng, j, n, WH, H, centre, base, (step_x, 0.05)) for j in range(n)]
    pos = np.array([p for p, _ in poses])
    # in the line's own frame every card is one step further along than the one before it
    local = (pos - centre) @ rot2(base)  # rot2 is orthonormal: this undoes the turn
    gaps = np.diff(local, axis=0)
    want = np.array([step_x * WH[0] / WH[1] * H, 0.05 * H])
    np.testing.assert_allclose(gaps, np.tile(want, (n - 1, 1)), atol=0.07 * H)  # jitter: 0.01 H a card
    assert np.all(gaps[:, 0] > 0)  # never out of order: each card covers the right of the last
    np.testing.assert_allclose(local.mean(axis=0), [0.0, 0.0], atol=0.02 * H)  # centred on the line
    angles = np.array([a for _, a in poses])
    assert np.all(np.abs(angles - base) < 10)


def test_five_seats_are_dealt_from_65_cards() -> None:
    """A five-seat table holds all 65 cards of the rules' five-player deck: the 52 and a fifth copy of
    one suit's 13 (the same suit twice for every rank), and no joker."""
    deck = ProceduralDeck(random_style(np.random.default_rng(1), exotic=False))
    for seed in range(4):
        cards, size, decks = deal(np.random.default_rng(seed), 65, True, deck)
        twice = {c for c, n in Counter(cards).items() if n == 2}
        assert (len(cards), size, decks) == (65, 65, 1)
        assert len(twice) == 13 and len({c[1] for c in twice}) == 1 and max(Counter(cards).values()) == 2
        assert not {"BJ", "SJ"} & set(cards)
    cards, size, _ = deal(np.random.default_rng(0), 52, True, deck)
    assert size == 54 and len(set(cards)) == 52
