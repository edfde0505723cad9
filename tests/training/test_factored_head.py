"""The factored head adds a rank term, a suit term and a class term into each card's logit."""

from __future__ import annotations

import importlib.util

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the [train] extra")


@pytest.mark.parametrize(("part", "classes"), [
    (0, ["As", "Ah", "Ad", "Ac"]),  # the ace term reaches the four aces and nothing else
    (12, ["2s", "2h", "2d", "2c"]),
    (13, [r + "s" for r in "AKQJT98765432"]),  # the spade term reaches the thirteen spades
    (16, [r + "c" for r in "AKQJT98765432"]),
    (17 + 52, ["BJ"]),  # jokers and background have only their own term
    (17 + 54, ["bg"]),
])
def test_each_part_reaches_exactly_its_classes(part: int, classes: list[str]) -> None:
    import torch

    from vision.classifier import CLASSIFIER_NAMES
    from vision.index_nets import FactoredHead

    head = FactoredHead(4).eval()
    with torch.no_grad():
        head.linear.weight.zero_()
        head.linear.bias.zero_()
        head.linear.bias[part] = 1.0
        logits = head(torch.zeros(1, 4))[0]
    assert sorted(CLASSIFIER_NAMES[j] for j in torch.nonzero(logits).flatten().tolist()) == sorted(classes)


def test_a_card_logit_is_the_sum_of_its_three_terms() -> None:
    import torch

    from vision.classifier import CLASSIFIER_NAMES
    from vision.index_nets import FactoredHead

    head = FactoredHead(4).eval()
    with torch.no_grad():
        head.linear.weight.zero_()
        head.linear.bias.copy_(torch.arange(head.mix.shape[0], dtype=torch.float32))
        logits = head(torch.zeros(1, 4))[0]
    qh = CLASSIFIER_NAMES.index("Qh")
    assert logits[qh].item() == pytest.approx(2 + (13 + 1) + (17 + qh))  # Q is rank 2, h suit 1
