"""How blurred each read index is, over its own height.

The namers read a sharp index almost always right, and an index smeared over a tenth of its height
(a far seat of a defocused or shaken phone photo) about half the time: such a seat is cheaper to
photograph again, closer and steadier, than to correct card by card. The geometry warns of it
(`vision.geometry.problems`); this module only measures.

The measure is an edge's: a step of contrast C blurred by a Gaussian of sigma s is steepest at
C / (s sqrt(2 pi)), so s follows from an index crop's contrast and its steepest slopes. The slope is
taken along four directions and the most blurred one kept, because a shake smears edges across its
direction only. Crops are the namer's (`vision.crops.crop_box`), in which the index's longer
side is `CROP_SIZE / (1 + 2 CONTEXT)` pixels whatever its size in the photo, so s over that is the
blur over the index height, the ratio `benchmarks.holdout.blur_over_index` takes from a rendered
scene's truth.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from .crops import CONTEXT, CROP_SIZE, crop_box

#: Directions (radians) the slope is measured along: a shake's smear shows along one of them.
ANGLES = np.radians([0.0, 45.0, 90.0, 135.0])
#: Contrast: the spread between the crop's darker and lighter tails (percentiles), not its extremes,
#: which one noisy pixel sets. Slope: a high percentile of the directional derivative, the steepest
#: stretch of the glyphs' edges.
CONTRAST_PERCENTILES = (5.0, 95.0)
SLOPE_PERCENTILE = 99.0
INDEX_SIDE = CROP_SIZE / (1 + 2 * CONTEXT)  # an index's longer side, in crop pixels


def crop_blur(crop: np.ndarray) -> float:
    """The blur (Gaussian sigma) of one index crop over the index's height; 0 for a flat crop.

    >>> pip = cv2.circle(np.full((CROP_SIZE, CROP_SIZE), 220.0, np.float32), (28, 28), 14, 40.0, -1)
    >>> sigma = 4.3  # a tenth of the index's height
    >>> round(crop_blur(cv2.GaussianBlur(pip, (0, 0), sigma).astype(np.uint8)), 2)
    0.1
    """
    return float(crops_blur([crop])[0])


def crops_blur(crops: Sequence[np.ndarray]) -> np.ndarray:
    """`crop_blur` of same-sized crops (BGR or grey), measured all at once."""
    if not len(crops):
        return np.zeros(0, np.float32)
    grey = np.stack([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) if c.ndim == 3 else c for c in crops])
    grey = grey.astype(np.float32)
    n = len(grey)
    lo, hi = np.percentile(grey.reshape(n, -1), CONTRAST_PERCENTILES, axis=1)
    # 3x3 Sobel slopes per pixel inside each crop: a difference across two pixels, weighted 1 2 1
    # across it (a Sobel is 8 times the slope)
    dx = grey[:, :, 2:] - grey[:, :, :-2]
    dy = grey[:, 2:, :] - grey[:, :-2, :]
    gx = (dx[:, :-2] + 2 * dx[:, 1:-1] + dx[:, 2:]).reshape(n, -1) / 8.0
    gy = (dy[:, :, :-2] + 2 * dy[:, :, 1:-1] + dy[:, :, 2:]).reshape(n, -1) / 8.0
    cos, sin = np.cos(ANGLES).astype(np.float32), np.sin(ANGLES).astype(np.float32)
    along = np.abs(cos[None, :, None] * gx[:, None] + sin[None, :, None] * gy[:, None])
    steepest_of_blurred = np.maximum(np.percentile(along, SLOPE_PERCENTILE, axis=2).min(axis=1), 1e-6)
    blur = (hi - lo) / (math.sqrt(2 * math.pi) * steepest_of_blurred) / INDEX_SIDE
    return np.where(hi > lo, blur, 0.0).astype(np.float32)


def index_blur(image: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
    """`crop_blur` of each box (x1, y1, x2, y2 in `image`'s pixels), as the namer crops it."""
    return crops_blur([crop_box(image, b) for b in boxes])
