"""benchmarks.metrics.CardScore: distinct cards read against labelled ones, unlabelled cards aside."""

from __future__ import annotations

import pytest

from benchmarks.metrics import CardScore


@pytest.mark.parametrize(
    ("predicted", "truth", "unlabelled", "counts"),
    [
        (["As", "Kh", "As"], ["As", "Kh", "2c"], (), (2, 0, 1)),  # a card read twice counts once
        (["As", "7d"], ["As"], (), (1, 1, 0)),  # a card the labels do not list is false
        (["As", "7d"], ["As"], ("7d",), (1, 0, 0)),  # unless the photo shows it unlabelled
        (["As", "7s"], ["As"], ("7d",), (1, 1, 0)),  # another card read on it still is
        (["As"], ["As"], ("7d",), (1, 0, 0)),  # an unlabelled card not read is no miss
        (["Kh"], ["Kh", "As"], ("Kh",), (1, 0, 1)),  # a labelled card stays labelled
    ],
)
def test_cards_counted_with_unlabelled_ones_aside(predicted, truth, unlabelled, counts):
    score = CardScore()
    score.add(predicted, truth, unlabelled)
    assert (score.tp, score.fp, score.fn) == counts
