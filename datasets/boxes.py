"""Box overlap and YOLO label rows in pixels, in one place for the tools that match boxes to labels.

`datasets.proposals` labels a detector's proposals by it and `benchmarks.metrics` counts a detection
as found by it, so "IoU >= 0.5" means the same in both (benchmarks may import datasets, not the
other way round); the benchmarks read generated sets' labels with `yolo_to_xyxy`.
"""

from __future__ import annotations

import numpy as np


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in a (n,4) against every box in b (m,4), xyxy."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


def yolo_to_xyxy(rows: np.ndarray, w: float, h: float) -> np.ndarray:
    """N x 4 boxes x1 y1 x2 y2 in pixels of a w x h image from N x 5 YOLO rows (class, then centre and
    size as fractions of the image).

    >>> yolo_to_xyxy(np.array([[3, 0.5, 0.25, 0.1, 0.5]]), 200, 100).tolist()
    [[90.0, 0.0, 110.0, 50.0]]
    """
    rows = np.asarray(rows, np.float64).reshape(-1, 5)
    cx, cy, bw, bh = rows[:, 1] * w, rows[:, 2] * h, rows[:, 3] * w, rows[:, 4] * h
    return np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)
