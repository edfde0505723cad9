"""When two boxes are one index: the rule the second stage's dedupe keeps one read by, and the rule
the geometry passes an unsure read over by (`vision.geometry.fill`), so the two never disagree on
what "that index read again" means: boxes overlapping by IoU, or one lying mostly inside the other
(half an index, a box on its pip: `vision.detector.drop_contained` says why both).
"""

from __future__ import annotations

import numpy as np

DEDUPE_IOU = 0.3  # two reads this close after the second stage: one index read twice (any names)
DEDUPE_CONTAINED = 0.5  # ... or this much of the smaller read's box inside the surer one's


def overlaps(boxes: np.ndarray) -> np.ndarray:
    """N x N: two boxes the second stage's dedupe would call one index (IoU >= `DEDUPE_IOU`, or
    `DEDUPE_CONTAINED` of the smaller one inside the other); the diagonal is True."""
    return overlaps_between(boxes, boxes)


def overlaps_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """N x M: box `a[i]` and box `b[j]` are one index by `overlaps`' rule.

    >>> overlaps_between(np.array([[0, 0, 10, 10]]), np.array([[6, 6, 8, 8], [6, 0, 16, 10]]))
    array([[ True, False]])
    """
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = np.prod(np.clip(a[:, 2:] - a[:, :2], 0, None), axis=1)
    area_b = np.prod(np.clip(b[:, 2:] - b[:, :2], 0, None), axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    small = np.minimum(area_a[:, None], area_b[None, :])
    return (inter >= DEDUPE_IOU * union) | (inter >= DEDUPE_CONTAINED * small) & (inter > 0)
