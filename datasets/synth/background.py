"""Table surfaces: felt, wood, cloth patterns, plain desks, knitted blankets.

Textures are built at low resolution and upscaled (cheap) with a little full-resolution grain,
which is all a detector working on 12-px indices can tell apart anyway.
"""

from __future__ import annotations

import cv2
import numpy as np

from .effects import noise_field

Colour = tuple[int, int, int]

_FELT = [
    (40, 110, 30),
    (30, 80, 25),
    (120, 60, 20),
    (40, 40, 140),
    (30, 30, 30),
    (90, 90, 90),
    (20, 70, 110),
    (60, 30, 90),
    (35, 25, 20),
]  # BGR
_DESK = [(235, 235, 235), (210, 210, 215), (200, 205, 200), (180, 180, 180), (220, 225, 230), (60, 60, 60)]


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1], ``cells`` blobs across the long side."""
    s = max(2, cells)
    gw, gh = (s, max(2, round(s * h / w))) if w >= h else (max(2, round(s * w / h)), s)
    g = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _jitter(rng: np.random.Generator, c: Colour, amount: int) -> np.ndarray:
    return np.clip(np.array(c, np.float32) + rng.uniform(-amount, amount, 3), 0, 255)


def felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _jitter(rng, _FELT[int(rng.integers(len(_FELT)))], 25)
    n = _smooth_noise(rng, w, h, int(rng.integers(3, 12))) * rng.uniform(4, 18)
    img = base[None, None, :] + n[..., None]
    return img


def desk(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _jitter(rng, _DESK[int(rng.integers(len(_DESK)))], 15)
    n = _smooth_noise(rng, w, h, 3) * rng.uniform(3, 12)
    return base[None, None, :] + n[..., None]


def wood(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Grain as warped sine stripes along a random direction, in brown tones."""
    sw, sh = max(8, w // 4), max(8, h // 4)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    warp = _smooth_noise(rng, sw, sh, int(rng.integers(2, 6))) * rng.uniform(5, 25)
    freq = rng.uniform(0.08, 0.35)
    g = 0.5 + 0.5 * np.sin((u + warp) * freq) * np.sin((u + warp) * freq * 0.13 + rng.uniform(0, 6))
    g = cv2.resize(g, (w, h), interpolation=cv2.INTER_LINEAR)
    light = _jitter(rng, (120, 170, 210) if rng.random() < 0.6 else (60, 90, 130), 25)
    dark = light * rng.uniform(0.55, 0.8)
    return dark[None, None, :] + (light - dark)[None, None, :] * g[..., None]


def cloth(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Checks, stripes or dots: table cloths and patterned mats."""
    c1 = _jitter(rng, tuple(int(v) for v in rng.integers(30, 230, 3)), 0)
    c2 = np.clip(c1 * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40, 3), 0, 255)
    period = rng.uniform(12, 60)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    kind = rng.integers(3)
    if kind == 0:
        m = ((np.floor(u / period) + np.floor(v / period)) % 2).astype(np.float32)
    elif kind == 1:
        m = (np.sin(u * 2 * np.pi / period) > 0).astype(np.float32)
    else:
        m = ((np.sin(u * 2 * np.pi / period) * np.sin(v * 2 * np.pi / period)) > 0.5).astype(np.float32)
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.6, 2.0))
    return c1[None, None, :] * (1 - m[..., None]) + c2[None, None, :] * m[..., None]


def knit(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Blanket/sofa-like texture: bright with high-frequency bumps (as in some real photos)."""
    base = _jitter(rng, (200, 205, 215), 30)
    n1 = _smooth_noise(rng, w, h, max(20, w // int(rng.integers(8, 20))))
    n2 = _smooth_noise(rng, w, h, 6)
    return base[None, None, :] * (1 + 0.12 * n1[..., None] + 0.05 * n2[..., None])


KINDS = {"felt": felt, "wood": wood, "cloth": cloth, "desk": desk, "knit": knit}
_WEIGHTS = {"felt": 0.3, "wood": 0.25, "cloth": 0.12, "desk": 0.25, "knit": 0.08}


def table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A random table surface as uint8 BGR (w x h), with fine grain.

    The texture is made at half resolution and upscaled: the detector never looks at the cloth
    closely, and this keeps the background from costing more than all the cards together.
    """
    names = list(_WEIGHTS)
    p = np.array([_WEIGHTS[n] for n in names])
    kind = names[int(rng.choice(len(names), p=p / p.sum()))]
    hw, hh = max(8, w // 2), max(8, h // 2)
    img = KINDS[kind](rng, hw, hh)
    img = img + noise_field(rng, hh, hw, 1) * rng.uniform(1, 6)
    small = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
