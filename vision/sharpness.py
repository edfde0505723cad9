"""How blurred each read index is, over its own height.

The namers read a sharp index almost always right, and an index smeared over a tenth of its height
(a far seat of a defocused or shaken phone photo) about half the time: such a seat is cheaper to
photograph again, closer and steadier, than to correct card by card. The geometry warns of it
(`vision.geometry.problems`); this module only measures.

The measure is an edge's: a step of contrast C blurred by a Gaussian of sigma s is steepest at
C / (s sqrt(2 pi)), so s follows from an index crop's contrast and its steepest slopes. The slope is
taken along four directions and the most blurred one kept, because a shake smears edges across its
direction only. Crops are the namer's (`vision.classifier.crop_box`), in which the index's longer
side is `CROP_SIZE / (1 + 2 CONTEXT)` pixels whatever its size in the photo, so s over that is the
blur over the index height, the ratio `benchmarks.holdout.blur_over_index` takes from a rendered
scene's truth.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from .classifier import CONTEXT, CROP_SIZE, crop_box

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
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    grey = grey.astype(np.float32)
    lo, hi = np.percentile(grey, CONTRAST_PERCENTILES)
    contrast = float(hi - lo)
    if contrast <= 0:
        return 0.0
    # a 3x3 Sobel is 8 times the slope per pixel
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    along = np.abs(np.cos(ANGLES)[:, None] * gx.reshape(1, -1) + np.sin(ANGLES)[:, None] * gy.reshape(1, -1))
    steepest_of_blurred = max(float(np.percentile(along, SLOPE_PERCENTILE, axis=1).min()), 1e-6)
    return contrast / (math.sqrt(2 * math.pi) * steepest_of_blurred) / INDEX_SIDE


def index_blur(image: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
    """`crop_blur` of each box (x1, y1, x2, y2 in `image`'s pixels), as the namer crops it."""
    return np.array([crop_blur(crop_box(image, b)) for b in boxes], dtype=np.float32)
