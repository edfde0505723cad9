"""The namer's photo-blur augmentation spreads an index as a defocused or shaken photo does, by the
drawn share of the index's height, and leaves the rest of the batch untouched."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the [train] extra")

SIZE = 56


def dots(n: int):
    """n crops, grey 0 with one bright pixel at the centre."""
    import torch

    x = torch.zeros(n, 3, SIZE, SIZE)
    x[:, :, SIZE // 2, SIZE // 2] = 1.0
    return x


def moments(im: np.ndarray) -> tuple[float, float, float]:
    """Total mass, and the larger and smaller principal variances (px^2) of a non-negative image."""
    yy, xx = np.mgrid[0 : im.shape[0], 0 : im.shape[1]].astype(float)
    m = im.sum()
    cx, cy = (im * xx).sum() / m, (im * yy).sum() / m
    cov = np.cov(np.stack([(xx - cx).ravel(), (yy - cy).ravel()]), aweights=im.ravel(), bias=True)
    lo, hi = np.linalg.eigvalsh(cov)
    return float(m), float(hi), float(lo)


@pytest.mark.parametrize(
    ("ratio", "shake"),
    [(0.03, 0.0), (0.06, 0.0), (0.1, 0.0), (0.04, 1.0), (0.1, 1.0)],
)
def test_spread_is_the_drawn_share_of_the_index_height(ratio: float, shake: float) -> None:
    import torch

    from vision.photo_blur import INDEX_SHARE, photo_blur

    out = photo_blur(dots(4), torch.Generator().manual_seed(1), 1.0, (ratio, ratio), shake).numpy()
    sigma = ratio * SIZE * INDEX_SHARE
    for im in out[:, 0]:
        mass, hi, lo = moments(im)
        assert mass == pytest.approx(1.0, abs=1e-4)  # kernels keep the light
        if shake:  # a line: its length's spread along it, half a pixel across
            assert hi == pytest.approx(sigma**2 + 0.25, rel=0.12)
            assert lo < 0.5
        else:  # defocus: round
            assert hi == pytest.approx(sigma**2, rel=0.05)
            assert lo == pytest.approx(sigma**2, rel=0.05)


def test_shake_angles_vary() -> None:
    import torch

    from vision.photo_blur import photo_blur

    out = photo_blur(dots(40), torch.Generator().manual_seed(2), 1.0, (0.1, 0.1), 1.0).numpy()[:, 0]
    angles = []
    for im in out:
        yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(float) - SIZE // 2
        angles.append(math.degrees(0.5 * math.atan2(2 * (im * xx * yy).sum(), (im * (xx**2 - yy**2)).sum())))
    assert np.ptp(angles) > 120  # any direction, not one


@pytest.mark.parametrize(("share", "lo", "hi"), [(0.0, 0, 0), (0.3, 90, 150), (1.0, 400, 400)])
def test_only_the_share_is_blurred(share: float, lo: int, hi: int) -> None:
    import torch

    from vision.photo_blur import photo_blur

    x = torch.rand(400, 3, SIZE, SIZE, generator=torch.Generator().manual_seed(3))
    out = photo_blur(x, torch.Generator().manual_seed(4), share)
    changed = (out - x).abs().flatten(1).amax(1) > 1e-6
    assert lo <= int(changed.sum()) <= hi
    assert torch.equal(out[~changed], x[~changed])
