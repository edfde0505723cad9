"""Photographic degradations applied to the finished photo: light, glare, blur, noise, colour.

Phone and webcam photos of a table are unevenly lit, a bit blurred and noisy, and tinted by the
room light; the real test photos are all of these. JPEG quality is chosen here but applied when
the file is written.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_BANK_SIZE = 2560


def _noise_bank() -> np.ndarray:
    """A fixed tile of unit Gaussian noise, cut at random offsets: far cheaper than drawing fresh
    noise for every megapixel, and just as good for a detector. Same in every process."""
    global _BANK
    if _BANK is None:
        _BANK = np.random.default_rng(12345).standard_normal((_BANK_SIZE, _BANK_SIZE), dtype=np.float32)
    return _BANK


_BANK: np.ndarray | None = None


def noise_field(rng: np.random.Generator, h: int, w: int, channels: int) -> np.ndarray:
    """Unit noise of shape (h, w, channels), each channel cut from the bank at its own offset."""
    bank = _noise_bank()
    if h > _BANK_SIZE // 2 or w > _BANK_SIZE // 2:  # rare huge canvases: fresh noise
        return rng.standard_normal((h, w, channels), dtype=np.float32)
    chans = []
    for _ in range(channels):
        oy, ox = int(rng.integers(0, _BANK_SIZE - h)), int(rng.integers(0, _BANK_SIZE - w))
        chans.append(bank[oy : oy + h, ox : ox + w])
    return chans[0][..., None] if channels == 1 else np.dstack(chans)


def lighting(img: np.ndarray, rng: np.random.Generator, gains: np.ndarray | None = None) -> np.ndarray:
    """Linear light gradient across a random direction plus a soft vignette, times per-channel
    white-balance ``gains``: one pass over the image (float32 in/out)."""
    H, W = img.shape[:2]
    h, w = max(2, H // 8), max(2, W // 8)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    u = ((xx - w / 2) * np.cos(ang) + (yy - h / 2) * np.sin(ang)) / max(w, h)
    g = 1 + u * rng.uniform(0, 0.7)
    if rng.random() < 0.6:
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        g *= 1 - rng.uniform(0, 0.35) * r2
    g *= rng.uniform(0.65, 1.15)
    g3 = g[..., None] * (np.ones(3, np.float32) if gains is None else gains)
    g3 = cv2.resize(g3.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(img, g3)


def soft_shadow(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The shadow of a phone or an arm: a big blurred dark blob."""
    h, w = img.shape[:2]
    m = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
    c = (int(rng.uniform(0, w / 4)), int(rng.uniform(0, h / 4)))
    axes = (int(rng.uniform(w / 64, w / 20)), int(rng.uniform(h / 64, h / 16)))  # mask is 1/4 size
    cv2.ellipse(m, c, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(4, 15))
    m = cv2.resize(m, (w, h))
    return img * (1 - rng.uniform(0.2, 0.5) * m[..., None])


def glare(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A specular highlight from a lamp: bright, slightly warm, soft-edged."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    ax, ay = rng.uniform(w / 60, w / 12), rng.uniform(h / 60, h / 10)
    blur = rng.uniform(4, 16)
    ang = rng.uniform(0, 180)
    strength = rng.uniform(0.3, 0.8)
    r = max(ax, ay) + 3 * blur
    x1, y1, x2, y2 = int(max(0, cx - r)), int(max(0, cy - r)), int(min(w, cx + r)), int(min(h, cy + r))
    if x2 <= x1 or y2 <= y1:
        return img
    m = np.zeros((y2 - y1, x2 - x1), np.float32)  # only the glare's neighbourhood is touched
    cv2.ellipse(m, (int(cx - x1), int(cy - y1)), (int(ax), int(ay)), ang, 0, 360, 1.0, -1)
    m = cv2.GaussianBlur(m, (0, 0), blur)[..., None] * strength
    tint = np.array([235, 245, 255], np.float32)
    img[y1:y2, x1:x2] = img[y1:y2, x1:x2] * (1 - m) + tint * m
    return img


def white_balance_gains(rng: np.random.Generator) -> np.ndarray:
    """Per-channel (B, G, R) gains of a warm or cold room light."""
    warm = rng.normal(0, 0.08)
    return np.array([1 - warm, 1 + rng.normal(0, 0.03), 1 + warm], np.float32)


@dataclass(frozen=True)
class Blur:
    """The blur a photo was given: `kind` "none", "defocus" or "shake", and its extent in photo pixels
    (the Gaussian's sigma, or the length of the shake's line). Written to the scene's meta, so a
    benchmark can tell a seat the reader missed from one no reader could read."""

    kind: str = "none"
    px: float = 0.0


def blur(img: np.ndarray, rng: np.random.Generator, scale: float) -> tuple[np.ndarray, Blur]:
    """Defocus or a short camera shake (uint8 in/out: filtering 8-bit images is much faster)."""
    r = rng.random()
    if r < 0.4:
        sigma = rng.uniform(0.3, 1.3) * max(0.5, scale)
        return cv2.GaussianBlur(img, (0, 0), sigma), Blur("defocus", float(sigma))
    if r < 0.52:  # motion blur: a short line kernel
        k = int(rng.integers(3, 8) * max(0.5, scale)) | 1
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0
        M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        ker = cv2.warpAffine(ker, M, (k, k))
        return cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6)), Blur("shake", float(k))
    return img, Blur()


def noise(img: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Sensor noise, luminance and sometimes chroma (float32 in/out)."""
    h, w = img.shape[:2]
    n = noise_field(rng, h, w, 1) * sigma
    if rng.random() < 0.3:  # chroma noise
        n = n + noise_field(rng, h, w, 3) * (sigma * 0.5)
    return img + n


def photo(img: np.ndarray, rng: np.random.Generator, scale: float) -> tuple[np.ndarray, int, Blur]:
    """Apply the photo chain to a uint8 BGR image; return it, the JPEG quality to save with and the
    blur it was given."""
    f = img.astype(np.float32)
    f = lighting(f, rng, white_balance_gains(rng))
    if rng.random() < 0.25:
        f = soft_shadow(f, rng)
    if rng.random() < 0.25:
        f = glare(f, rng)
    out = np.clip(f, 0, 255).astype(np.uint8)
    out, blurred = blur(out, rng, scale)
    sigma = rng.uniform(0, 7)
    if sigma >= 0.5:
        out = np.clip(noise(out.astype(np.float32), rng, sigma), 0, 255).astype(np.uint8)
    return out, int(rng.integers(45, 96)), blurred
