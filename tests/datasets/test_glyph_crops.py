"""Drawn pips are four distinct suits; glyph crops are labelled, centred, seeded and held-out-safe."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets import glyph_crops
from datasets.glyph_crops import build, index_crop, random_index_style
from datasets.pips import draw_pip, random_pip_shape
from datasets.synth.holdout import HeldOutError, Split, fonts_for, is_held_out_font
from vision.classes import CLASS_NAMES

SHAPES = [random_pip_shape(np.random.default_rng(s)) for s in range(8)]


def _square(mask: np.ndarray, n: int = 32) -> np.ndarray:
    return cv2.resize(mask, (n, n), interpolation=cv2.INTER_AREA) > 127


@pytest.mark.parametrize("shape", SHAPES)
def test_the_four_drawn_suits_differ_from_each_other(shape) -> None:
    masks = {s: _square(draw_pip(s, shape, 60)) for s in "shdc"}
    for a in "shdc":
        for b in "shdc":
            if a < b:
                iou = (masks[a] & masks[b]).sum() / (masks[a] | masks[b]).sum()
                assert iou < 0.95, (a, b, iou)


@pytest.mark.parametrize("shape", SHAPES)
def test_each_drawn_suit_has_its_outline(shape) -> None:
    h = 80
    heart, spade, diamond, club = (draw_pip(s, shape, h) > 127 for s in "hsdc")
    width = lambda m, frac: m[int(frac * (h - 1))].sum()  # noqa: E731 - ink across one row
    # a heart: two lobes with a notch between them on top, one point at the bottom
    top = heart[int(0.08 * h)]
    mid = heart.shape[1] // 2
    assert not top[mid - 1 : mid + 2].any() and top[: mid - 2].any() and top[mid + 2 :].any()
    assert width(heart, 0.97) < 0.25 * width(heart, 0.3)
    # a spade: a point on top, a foot at the bottom that is wider than the stem above it
    assert width(spade, 0.02) < 0.25 * width(spade, 0.5)
    assert width(spade, 0.98) > width(spade, 0.85)
    # a club: a round leaf on top where a spade has its point (the two are alike below it)
    assert width(club, 0.04) > 2 * width(spade, 0.04)
    # a diamond: points at top and bottom, widest at the middle
    assert max(width(diamond, 0.03), width(diamond, 0.97)) < 0.25 * width(diamond, 0.5)


def test_an_unknown_suit_is_refused() -> None:
    with pytest.raises(ValueError, match="'x'"):
        draw_pip("x", SHAPES[0], 40)


def test_same_seed_same_crops_and_every_card_dealt_evenly() -> None:
    x1, y1 = build(108, seed=4, size=40, progress=False)
    x2, y2 = build(108, seed=4, size=40, progress=False)
    assert np.array_equal(x1, x2) and np.array_equal(y1, y2)
    assert x1.shape == (108, 40, 40, 3) and x1.dtype == np.uint8
    assert np.bincount(y1, minlength=len(CLASS_NAMES)).tolist() == [2] * len(CLASS_NAMES)
    assert not np.array_equal(build(108, seed=5, size=40, progress=False)[0], x1)


def test_the_index_lies_in_the_middle_of_its_crop() -> None:
    rng = np.random.default_rng(2)
    offsets = []
    for card in ("Ks", "7h", "Td", "2c"):
        for _ in range(10):
            crop = index_crop(card, rng, size=56).astype(np.float32)
            # ink: far from the crop's paper colour, which the corner region of the card shows
            paper = np.median(crop[20:36, 20:36].reshape(-1, 3), axis=0)
            ink = np.abs(crop - paper).sum(-1) > 120
            ys, xs = np.nonzero(ink[6:50, 6:50])
            if len(xs):
                offsets.append(np.hypot(xs.mean() + 6 - 27.5, ys.mean() + 6 - 27.5))
    assert len(offsets) > 30 and np.median(offsets) < 8  # the jittered box moves it a little, not off


FONTS = ("/f/DejaVuSans.ttf", "/f/DejaVuSansMono.ttf", "/f/LiberationSans-Regular.ttf",
         "/f/LiberationSerif-Regular.ttf")


def test_only_the_training_split_fonts_print_an_index(monkeypatch) -> None:
    monkeypatch.setattr(glyph_crops, "rank_fonts", lambda: FONTS)
    monkeypatch.setattr(glyph_crops, "suit_fonts", lambda: FONTS[:2])
    rng = np.random.default_rng(0)
    used = set()
    for _ in range(200):
        st = random_index_style(rng)
        used |= {st.rank_font} | ({st.pip} if isinstance(st.pip, str) else set())
    assert used == set(fonts_for(Split.TRAIN, FONTS)) and not any(is_held_out_font(f) for f in used)
    monkeypatch.setattr(glyph_crops, "rank_fonts", lambda: FONTS[1:2])
    with pytest.raises(HeldOutError, match="train"):
        random_index_style(rng)
