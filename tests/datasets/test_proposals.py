"""Hard-example mining labels proposals against the truth: cards, background, or left out."""

from __future__ import annotations

import numpy as np

from datasets.crops import BG
from datasets.proposals import label_proposals

TRUTH = np.array([[100, 100, 120, 140], [300, 100, 320, 140]], float)
CLS = np.array([3, 40])


def test_a_proposal_on_an_index_is_that_card_and_one_far_away_is_background():
    props = np.array([[101, 102, 121, 141], [500, 500, 520, 540], [299, 99, 321, 139]], float)
    idx, y = label_proposals(props, TRUTH, CLS, max_bg=10)
    assert idx.tolist() == [0, 1, 2]
    assert y.tolist() == [3, BG, 40]


def test_half_an_index_is_neither_card_nor_background():
    half = np.array([[100, 100, 120, 118]], float)  # the rank glyph without the suit: IoU 0.45
    idx, y = label_proposals(half, TRUTH, CLS, max_bg=10)
    assert idx.tolist() == [] and y.tolist() == []


def test_background_is_capped_keeping_the_best_scored_first():
    far = np.array([[500 + 30 * i, 500, 520 + 30 * i, 540] for i in range(6)], float)
    idx, y = label_proposals(far, TRUTH, CLS, max_bg=2)
    assert idx.tolist() == [0, 1]
    assert (y == BG).all()


def test_an_image_without_cards_gives_only_background():
    props = np.array([[0, 0, 10, 20], [50, 50, 60, 70]], float)
    idx, y = label_proposals(props, np.zeros((0, 4)), np.zeros(0, int), max_bg=5)
    assert idx.tolist() == [0, 1] and (y == BG).all()


def test_parts_are_written_with_a_real_only_copy_of_the_training_crops(tmp_path):
    """The trainer weighs real photos by being given their crops more than once: the real rows of the
    training file are written beside it (`<out>_real.npz`); the held-out real crops go to `-val`."""
    import numpy as np

    from datasets.proposals import write_parts

    crop = np.zeros((8, 8, 3), np.uint8)
    parts = {"train": ([crop] * 4, [1, 54, 3, 54], [0, 1, 1, 0]), "val": ([crop], [2], [1])}
    info = write_parts(parts, tmp_path / "hard.npz")
    real = np.load(tmp_path / "hard_real.npz")
    assert real["y"].tolist() == [54, 3] and real["src"].tolist() == [1, 1]
    assert real["x"].shape == (2, 8, 8, 3)
    assert np.load(tmp_path / "hard.npz")["y"].tolist() == [1, 54, 3, 54]
    assert np.load(tmp_path / "hard-val.npz")["y"].tolist() == [2]
    assert info["train"]["real"] == 2 and info["train_real"]["crops"] == 2 and info["val"]["crops"] == 1
