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


def restyled(n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """A red 4 px bar on light paper, and each copy after `restyle_ink` with every crop picked."""
    import torch

    from vision.train_classifier import restyle_ink

    crop = np.full((3, 24, 24), 0.9, np.float32)
    crop[0, 4:20, 10:14], crop[1:, 4:20, 10:14] = 0.8, 0.1  # RGB: red ink
    x = torch.from_numpy(np.repeat(crop[None], n, 0))
    return crop, restyle_ink(x, torch.Generator().manual_seed(5), 1.0).numpy()


def test_restyle_ink_prints_every_picked_crop_in_another_ink() -> None:
    crop, out = restyled()
    ink_px = (out.min(1) < 0.5).sum(axis=(1, 2))  # pixels with a dark channel
    grey = np.abs(out - out.mean(1, keepdims=True)).max(axis=(1, 2, 3)) < 1e-6
    rolled = np.array([any(np.allclose(o, np.roll(crop, k, axis=0)) for k in (1, 2)) for o in out])
    bolder, thinner = ink_px > 64, (ink_px < 64) & ~grey
    assert not any(np.allclose(o, crop) for o in out)  # nothing left as it was
    for kind in (grey, rolled, bolder, thinner):
        assert 0.05 < kind.mean() < 0.45  # each of the four styles occurs, none takes over
    assert (grey | rolled | bolder | thinner).all()


def test_no_restyle_leaves_the_batch_and_the_generator_alone() -> None:
    import torch

    from vision.train_classifier import augment

    x = torch.rand(16, 3, 24, 24, generator=torch.Generator().manual_seed(1))
    a = augment(x, torch.Generator().manual_seed(9), 0.2)
    b = augment(x, torch.Generator().manual_seed(9), 0.2, ink=0.0)
    assert torch.equal(a, b)
