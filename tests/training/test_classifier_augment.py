"""The index classifier's batch augmentation turns crops by every angle only when asked (`wide`)."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the [train] extra")


def bar_angles(wide: float, n: int = 200) -> np.ndarray:
    """Angle (degrees, 0..90 from the nearest axis) of a thin dark bar after augmentation."""
    import torch

    from vision.train_classifier import augment

    crop = np.ones((3, 40, 40), np.float32)
    crop[:, 8:32, 19:21] = 0.0  # a vertical bar through the centre
    x = torch.from_numpy(np.repeat(crop[None], n, 0))
    out = augment(x, torch.Generator().manual_seed(3), wide).numpy().mean(1)  # n x 40 x 40 grey
    angles = []
    yy, xx = np.mgrid[0:40, 0:40]
    for im in out:
        w = np.clip(im.mean() - im, 0, None)  # darker than the crop's mean: the bar
        w = w * (np.hypot(xx - 19.5, yy - 19.5) < 12)  # away from the grey fill at the corners
        m = w.sum()
        cx, cy = (w * xx).sum() / m, (w * yy).sum() / m
        dx, dy = xx - cx, yy - cy
        mxx, myy, mxy = (w * dx**2).sum(), (w * dy**2).sum(), (w * dx * dy).sum()
        theta = 0.5 * math.degrees(math.atan2(2 * mxy, mxx - myy))  # principal axis
        a = abs(theta) % 90
        angles.append(min(a, 90 - a))
    return np.array(angles)


def test_default_turns_stay_near_a_quarter_turn() -> None:
    assert bar_angles(0.0).max() < 20  # +-15 degrees, measured through blur and noise


def test_wide_share_reaches_the_diagonals() -> None:
    a = bar_angles(0.5)
    assert (a > 25).mean() > 0.15  # about a third of the wide half lies beyond 25 degrees
    assert (a > 25).mean() < 0.45  # ... and the other half stays near the axes
