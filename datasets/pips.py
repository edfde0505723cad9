"""Suit pips drawn from a few shape parameters, so the namer meets more pip shapes than fonts have.

Printed decks draw their own pips: hearts with rounder or narrower lobes, spades with a long or a
flared stem, clubs with three touching or overlapping leaves, diamonds with straight or bowed sides.
The font glyphs the procedural faces use come from one font family, so every training pip of a
suit looked alike; a stranger's deck then reads clubs as spades. `PipShape` is one deck's choice of
those parameters and `draw_pip` renders a suit in it as an 8-bit mask.

>>> import numpy as np
>>> shape = random_pip_shape(np.random.default_rng(0))
>>> m = draw_pip("c", shape, 64)
>>> m.shape[0] == 64 and m.dtype == np.uint8 and m.max() == 255
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_SS = 4  # supersampling factor: shapes are drawn large and shrunk with area interpolation


@dataclass(frozen=True)
class PipShape:
    """One deck's pip geometry; lengths are fractions of the pip's height.

    lobe: radius of a heart's or spade's two lobes. point: how far below the lobes' centres the
    point lies. leaf: radius of a club's three leaves; spread: how far apart they sit. stem_w,
    stem_flare: the stem's width at the top and at its foot (spades and clubs). bow: how far a
    diamond's sides curve inwards (0: straight). aspect: width over height of the whole pip.
    """

    lobe: float
    point: float
    leaf: float
    spread: float
    stem_w: float
    stem_flare: float
    bow: float
    stretch: float


def random_pip_shape(rng: np.random.Generator) -> PipShape:
    """A plausible printed pip geometry (every draw is a readable suit)."""
    return PipShape(
        lobe=float(rng.uniform(0.24, 0.31)),
        point=float(rng.uniform(0.45, 0.62)),
        leaf=float(rng.uniform(0.19, 0.25)),
        spread=float(rng.uniform(0.85, 1.15)),
        stem_w=float(rng.uniform(0.04, 0.12)),
        stem_flare=float(rng.uniform(1.5, 4.0)),
        bow=float(rng.uniform(0.0, 0.14)),
        stretch=float(rng.uniform(0.82, 1.15)),
    )


def _heart(canvas: np.ndarray, s: PipShape, cx: float, top: float, h: float, up: bool) -> None:
    """Two lobes and a point; `up` turns it into a spade's blade (point on top)."""
    r = s.lobe * h
    ly = top + r if not up else top + h - r
    dx = r * 0.92
    py = ly + s.point * h * (1 if not up else -1) + r * 0.35 * (1 if not up else -1)
    for x in (cx - dx, cx + dx):
        cv2.circle(canvas, (round(x), round(ly)), round(r), 255, -1, cv2.LINE_AA)
    # the point: tangents from the lobes' outer sides down to one vertex
    side = r * 0.95
    poly = np.array([[cx - dx - side, ly + (0.25 * r if not up else -0.25 * r)], [cx, ly],
                     [cx + dx + side, ly + (0.25 * r if not up else -0.25 * r)], [cx, py]])
    cv2.fillPoly(canvas, [np.round(poly).astype(np.int32)], 255, cv2.LINE_AA)


def _stem(canvas: np.ndarray, s: PipShape, cx: float, y0: float, y1: float, h: float) -> None:
    """A stem from y0 (under the blade or leaves) widening to its foot at y1."""
    wt, wb = s.stem_w * h / 2, s.stem_w * s.stem_flare * h / 2
    poly = np.array([[cx - wt, y0], [cx + wt, y0], [cx + wb, y1], [cx - wb, y1]])
    cv2.fillPoly(canvas, [np.round(poly).astype(np.int32)], 255, cv2.LINE_AA)


def _diamond(canvas: np.ndarray, s: PipShape, cx: float, top: float, w: float, h: float) -> None:
    """Four vertices joined by sides bowed inwards by `bow`."""
    pts = [(cx, top), (cx + w / 2, top + h / 2), (cx, top + h), (cx - w / 2, top + h / 2)]
    centre = np.array([cx, top + h / 2])
    poly = []
    for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
        a, b = np.array(a), np.array(b)
        for t in np.linspace(0, 1, 12, endpoint=False):
            p = a + (b - a) * t
            p = p + (centre - p) * s.bow * 4 * t * (1 - t)  # bow peaks at the side's middle
            poly.append(p)
    cv2.fillPoly(canvas, [np.round(np.array(poly)).astype(np.int32)], 255, cv2.LINE_AA)


def _club(canvas: np.ndarray, s: PipShape, cx: float, top: float, h: float) -> None:
    r = s.leaf * h
    d = r * 1.05 * s.spread
    ty = top + r
    by = ty + d * 1.3
    for x, y in ((cx, ty), (cx - d * 1.05, by), (cx + d * 1.05, by)):
        cv2.circle(canvas, (round(x), round(y)), round(r), 255, -1, cv2.LINE_AA)
    cv2.circle(canvas, (round(cx), round((ty + by) / 2 + r * 0.3)), round(r * 0.6), 255, -1, cv2.LINE_AA)
    _stem(canvas, s, cx, by, top + h, h)


def draw_pip(suit: str, shape: PipShape, height: int) -> np.ndarray:
    """The pip of ``suit`` (s h d c) as a tight uint8 mask ``height`` px tall (255 = ink)."""
    h = height * _SS
    canvas = np.zeros((h + 8 * _SS, 2 * h), np.uint8)
    cx, top = canvas.shape[1] / 2, 4.0 * _SS
    if suit == "h":
        _heart(canvas, shape, cx, top, h, up=False)
    elif suit == "s":
        blade = h * 0.78
        _heart(canvas, shape, cx, top, blade, up=True)
        _stem(canvas, shape, cx, top + blade * 0.8, top + h, h)
    elif suit == "d":
        _diamond(canvas, shape, cx, top, h * 0.72, h)
    elif suit == "c":
        _club(canvas, shape, cx, top, h)
    else:
        raise ValueError(f"unknown suit {suit!r} (one of s h d c)")
    ys, xs = np.nonzero(canvas)
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / canvas.shape[0]
    out_w = max(1, round(canvas.shape[1] * scale * shape.stretch))
    return cv2.resize(canvas, (out_w, height), interpolation=cv2.INTER_AREA)
