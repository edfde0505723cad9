"""When two boxes are one index: the rule the second stage's dedupe keeps one read by, and the rule
the geometry passes an unsure read over by (`vision.geometry.fill`), so the two never disagree on
what "that index read again" means: boxes overlapping by IoU, or one lying mostly inside the other
(half an index, a box on its pip: `vision.detector.drop_contained` says why both).
"""

from __future__ import annotations

import numpy as np

from .types import Box

DEDUPE_IOU = 0.3  # two reads this close after the second stage: one index read twice (any names)
DEDUPE_CONTAINED = 0.5  # ... or this much of the smaller read's box inside the surer one's


def overlaps(boxes: np.ndarray) -> np.ndarray:
    """N x N: two boxes the second stage's dedupe would call one index (IoU >= `DEDUPE_IOU`, or
    `DEDUPE_CONTAINED` of the smaller one inside the other); the diagonal is True."""
    x1 = np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    y1 = np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    x2 = np.minimum(boxes[:, None, 2], boxes[None, :, 2])
    y2 = np.minimum(boxes[:, None, 3], boxes[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1)
    union = area[:, None] + area[None, :] - inter
    small = np.minimum(area[:, None], area[None, :])
    return (inter >= DEDUPE_IOU * union) | (inter >= DEDUPE_CONTAINED * small) & (inter > 0)


def one_index(a: Box, b: Box) -> bool:
    """Whether boxes `a` and `b` are one index by `overlaps`' rule.

    >>> one_index((0, 0, 10, 10), (6, 6, 8, 8)), one_index((0, 0, 10, 10), (6, 0, 16, 10))
    (True, False)
    """
    return bool(overlaps(np.array([a, b], np.float64))[0, 1])
