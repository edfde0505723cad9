"""The blur of an index crop over its height (`vision.sharpness`): known blurs in, the same out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import CONTEXT, CROP_SIZE
from vision.sharpness import INDEX_SIDE, crop_blur, index_blur


def _glyph(size: int = CROP_SIZE) -> np.ndarray:
    """A dark "index" on white: a ring and a bar, edges in every direction and strokes as thick as a
    printed rank's, filling the index's share of a crop (`INDEX_SIDE` of `size`)."""
    img = np.full((size, size), 235.0, np.float32)
    k = size / CROP_SIZE
    cv2.circle(img, (round(28 * k), round(20 * k)), round(11 * k), 30.0, max(1, round(8 * k)))
    cv2.rectangle(img, (round(14 * k), round(38 * k)), (round(42 * k), round(44 * k)), 30.0, -1)
    return img


def _index_box(x: float, y: float, side: float) -> tuple[float, float, float, float]:
    """The index box whose namer's crop is the square of `side` at (x, y)."""
    m = side * CONTEXT / (1 + 2 * CONTEXT)
    return (x + m, y + m, x + side - m, y + side - m)


def _shaken(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """A shake: the image smeared uniformly along a line of `length` pixels at `angle` degrees."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(img, -1, kernel / kernel.sum())


@pytest.mark.parametrize(("sigma", "low", "high"), [
    (0.0, 0.0, 0.03),     # sharp: only the pixel grid's own softness
    (1.3, 0.02, 0.045),   # 3% of the index height
    (2.6, 0.05, 0.075),   # 6%: where seats start to be misread
    (4.3, 0.085, 0.115),  # 10%
])
def test_a_defocus_measures_as_its_sigma_over_the_index_height(sigma, low, high):
    img = _glyph() if sigma == 0 else cv2.GaussianBlur(_glyph(), (0, 0), sigma)
    assert low <= crop_blur(img.astype(np.uint8)) <= high
    assert sigma / INDEX_SIDE == pytest.approx(sigma / 43.08, rel=1e-3)


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0, 135.0])
def test_a_shake_counts_along_its_own_direction(angle):
    """A shake leaves edges across it sharp; the most smeared direction is the one measured."""
    shaken = _shaken(_glyph(), 13, angle).astype(np.uint8)
    spread = 13 / np.sqrt(12) / INDEX_SIDE  # a uniform smear's standard deviation, 0.087
    # a uniform smear's steepest slope is contrast / length: the edge model reads it as sigma
    # length / sqrt(2 pi), 1.4 times its standard deviation; sampled along a diagonal, a little less
    assert 0.8 * spread <= crop_blur(shaken) <= 1.5 * spread
    assert crop_blur(shaken) > crop_blur(_glyph().astype(np.uint8)) + 0.04


def test_a_flat_crop_has_no_edges_to_measure():
    assert crop_blur(np.full((CROP_SIZE, CROP_SIZE, 3), 128, np.uint8)) == 0.0


def test_the_same_blur_reads_the_same_at_any_index_size():
    """Measured over the index height: an index photographed twice as large with twice the blur (the
    same photo nearer) reads the same; with the same blur in pixels it reads half as blurred."""
    small = cv2.GaussianBlur(_glyph(100), (0, 0), 3.5)
    large = cv2.GaussianBlur(_glyph(200), (0, 0), 7.0)
    sharper = cv2.GaussianBlur(_glyph(200), (0, 0), 3.5)
    photo = np.full((300, 500, 3), 235, np.uint8)
    for img, x in ((small, 20), (large, 150), (sharper, 290)):
        photo[50:50 + img.shape[0], x:x + img.shape[1]] = np.dstack([img.astype(np.uint8)] * 3)
    # each box is its glyph's index: the namer's crop adds CONTEXT round it, so the crop is the glyph
    boxes = [_index_box(x, 50, img.shape[0]) for img, x in ((small, 20), (large, 150), (sharper, 290))]
    b_small, b_large, b_sharper = index_blur(photo, boxes)
    assert b_small == pytest.approx(b_large, rel=0.15)
    # less the pixel grid's own softness (a sharp glyph's reading), which adds in quadrature
    sharp = cv2.resize(_glyph(200), (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_AREA)
    grid = crop_blur(sharp.astype(np.uint8))
    assert np.sqrt(b_sharper**2 - grid**2) == pytest.approx(b_large / 2, rel=0.2)
    assert b_large == pytest.approx(7.0 / (200 / 1.3), rel=0.2)  # sigma over the index's 154 px
