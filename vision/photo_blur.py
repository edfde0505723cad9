"""A photo's defocus or shake, applied to a batch of index crops in training (`vision.train_classifier`).

Why it exists: the namer's rendered training crops come from 640 px scenes, whose blur is at most a
few hundredths of an index's height, while a phone photo of a whole table blurs its far seat's
indices by 0.06-0.12 of their height (a slightly defocused or shaken shot); there the namer named
about one index in four wrong. So a share of each batch is blurred as such a photo blurs it: a
Gaussian (defocus) or a short line at any angle (shake), its extent drawn as a share of the index's
height in the crop (`vision.crops.crop_box` cuts 1 + 2 * CONTEXT box heights, so an index
fills `INDEX_SHARE` of the crop's side).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from vision.crops import CONTEXT

INDEX_SHARE = 1 / (1 + 2 * CONTEXT)  # of a crop's side, the index's longer side
RATIO_RANGE = (0.02, 0.13)  # blur over index height: the spread of a phone photo's far seats
SHAKE_SHARE = 0.3  # of the blurred crops, shaken (a line) rather than defocused


def gaussian_kernels(sigma: torch.Tensor, k: int) -> torch.Tensor:
    """m x k one-dimensional Gaussians (each summing to 1) of the given sigmas, in pixels."""
    t = torch.arange(k, dtype=sigma.dtype, device=sigma.device) - (k - 1) / 2
    w = torch.exp(-0.5 * (t[None, :] / sigma[:, None].clamp(min=1e-3)) ** 2)
    return w / w.sum(1, keepdim=True)


def line_kernels(length: torch.Tensor, angle: torch.Tensor, k: int) -> torch.Tensor:
    """m x k x k kernels of a line `length` pixels long at `angle` (radians) through the centre,
    anti-aliased across (half a pixel) and at its ends, each summing to 1."""
    t = torch.arange(k, dtype=length.dtype, device=length.device) - (k - 1) / 2
    yy, xx = torch.meshgrid(t, t, indexing="ij")
    c, s = torch.cos(angle)[:, None, None], torch.sin(angle)[:, None, None]
    along = xx[None] * c + yy[None] * s
    across = -xx[None] * s + yy[None] * c
    w = torch.exp(-0.5 * (across / 0.5) ** 2) * torch.sigmoid((length[:, None, None] / 2 - along.abs()) / 0.3)
    return w / w.sum((1, 2), keepdim=True).clamp(min=1e-6)


def _depthwise(x: torch.Tensor, kernels: torch.Tensor) -> torch.Tensor:
    """Each of the m crops (m x 3 x S x S) filtered by its own m x kh x kw kernel, edges replicated."""
    m, ch, h, w = x.shape
    kh, kw = kernels.shape[1:]
    xp = F.pad(x.reshape(1, m * ch, h, w), (kw // 2, kw // 2, kh // 2, kh // 2), mode="replicate")
    weight = kernels.repeat_interleave(ch, 0)[:, None]
    return F.conv2d(xp, weight, groups=m * ch).reshape(m, ch, h, w)


def photo_blur(
    x: torch.Tensor,
    g: torch.Generator,
    share: float,
    ratio_range: tuple[float, float] = RATIO_RANGE,
    shake_share: float = SHAKE_SHARE,
) -> torch.Tensor:
    """Blur `share` of a batch of N x 3 x S x S crops as a blurred photo would (module docstring);
    the rest are returned unchanged. Blur over index height is drawn uniformly in `ratio_range`;
    `shake_share` of the blurred crops are shaken, along a line sqrt(12) sigmas long (a uniform
    line's spread), the rest defocused."""
    n, _, size, _ = x.shape
    dev = x.device
    picked = torch.nonzero(torch.rand(n, generator=g, device=dev) < share).flatten()
    if len(picked) == 0:
        return x
    lo, hi = ratio_range
    ratio = torch.rand(len(picked), generator=g, device=dev) * (hi - lo) + lo
    sigma = ratio * size * INDEX_SHARE
    shaken = torch.rand(len(picked), generator=g, device=dev) < shake_share
    angle = torch.rand(len(picked), generator=g, device=dev) * math.pi
    out = x.clone()
    if (~shaken).any():
        idx, s = picked[~shaken], sigma[~shaken]
        k = 2 * math.ceil(3 * float(s.max())) + 1
        g1 = gaussian_kernels(s, k)
        y = _depthwise(x[idx], g1[:, None, :])  # along x, then along y
        out[idx] = _depthwise(y, g1[:, :, None])
    if shaken.any():
        idx, length = picked[shaken], sigma[shaken] * math.sqrt(12)
        k = 2 * math.ceil(float(length.max()) / 2) + 3
        out[idx] = _depthwise(x[idx], line_kernels(length, angle[shaken], k))
    return out
