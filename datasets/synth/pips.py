"""Suit pips drawn as shapes with a deck's own proportions, instead of a font's one glyph.

The system's fonts give the procedural faces a handful of suit glyphs, all of one family (DejaVu's),
so the namer meets few ways of drawing a club or a spade; on decks it has never seen it then reads a
club drawn with rounder or more spread lobes as a spade. Each deck draws its four pips from one
`PipShape`: lobe size and spread, stem width and flare, a heart's cleft and point, a diamond's
waist. Drawn at four times the size and shrunk, so the edges are smooth like a printed pip.

>>> rng = np.random.default_rng(0)
>>> im = draw_pip("c", random_pip_shape(rng), 40, (0, 0, 0))
>>> im.height, im.mode
(40, 'RGBA')
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
SUPER = 4  # drawn this many times larger, then shrunk: anti-aliased edges


@dataclass(frozen=True)
class PipShape:
    """One deck's way of drawing the suits, as fractions of the pip's height."""

    lobe: float  # club lobe radius / height
    spread: float  # club side lobes' distance from the centre line / height
    stem: float  # stem width at its top / height
    flare: float  # stem width at its foot / its width at the top
    cleft: float  # depth of a heart's (and a spade's) notch / height
    point: float  # a heart's point: how far its sides run straight (0 round, 1 sharp)
    waist: float  # a diamond's sides: > 0 bowed in, < 0 bowed out
    aspect: float  # width / height of hearts, spades and diamonds


def random_pip_shape(rng: np.random.Generator) -> PipShape:
    return PipShape(
        lobe=float(rng.uniform(0.2, 0.29)),
        spread=float(rng.uniform(0.19, 0.3)),
        stem=float(rng.uniform(0.05, 0.16)),
        flare=float(rng.uniform(1.0, 3.5)),
        cleft=float(rng.uniform(0.08, 0.25)),
        point=float(rng.uniform(0.2, 1.0)),
        waist=float(rng.uniform(-0.08, 0.14)),
        aspect=float(rng.uniform(0.72, 1.02)),
    )


def _bezier(p0: tuple[float, float], c: tuple[float, float], p1: tuple[float, float], n: int = 16
            ) -> list[tuple[float, float]]:
    return [((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * c[0] + t ** 2 * p1[0],
             (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * c[1] + t ** 2 * p1[1]) for t in np.linspace(0, 1, n)]


def _heart(d: ImageDraw.ImageDraw, w: float, h: float, s: PipShape, flip: bool) -> None:
    """A heart filling w x h, pointing down (`flip`: pointing up, a spade's body). Larger lobes
    overlap more and leave a shallower notch between them."""
    r = w * (0.25 + 0.25 * (0.25 - s.cleft))
    tip = (w / 2, h)
    straight = ((r * 0.2 + w / 4) / 2, (r + h) / 2)  # on the line from the lobe's side to the tip
    bowed = (0.0, r + (h - r) * 0.6)
    k = s.point
    ctrl = (straight[0] * k + bowed[0] * (1 - k), straight[1] * k + bowed[1] * (1 - k))
    left = _bezier((0.0, r), ctrl, tip)
    right = [(w - x, y) for x, y in reversed(left)]
    notch = (w / 2, r * 1.05)
    poly = [*left, *right, (w - r, r), notch, (r, r)]

    def f(y: float) -> float:
        return h - y if flip else y

    d.polygon([(x, f(y)) for x, y in poly], fill=255)
    for cx in (r, w - r):
        d.ellipse((cx - r, f(r) - r, cx + r, f(r) + r), fill=255)


def _stem(d: ImageDraw.ImageDraw, cx: float, y0: float, y1: float, top_w: float, foot_w: float) -> None:
    """A stem from y0 (its top, `top_w` wide) to y1 (its foot, `foot_w` wide), the sides curved."""
    n = 12
    left = [(cx - (top_w + (foot_w - top_w) * t ** 2) / 2, y0 + (y1 - y0) * t) for t in np.linspace(0, 1, n)]
    right = [(2 * cx - x, y) for x, y in reversed(left)]
    d.polygon([*left, *right], fill=255)


def _mask(suit: str, s: PipShape, height: int) -> Image.Image:
    h = height * SUPER
    w = h * (s.aspect if suit in "hsd" else 1.0)
    if suit == "c":
        w = h * max(1.0, 2 * (s.spread + s.lobe) + 0.02)
    img = Image.new("L", (int(math.ceil(w)), h), 0)
    d = ImageDraw.Draw(img)
    if suit == "h":
        _heart(d, w, h, s, flip=False)
    elif suit == "s":
        body = h * 0.78
        _heart(d, w, body, s, flip=True)
        _stem(d, w / 2, body * 0.6, h, s.stem * h, s.stem * h * s.flare)
    elif suit == "d":
        k = s.waist
        pts = []
        corners = [(w / 2, 0), (w, h / 2), (w / 2, h), (0, h / 2), (w / 2, 0)]
        for (x0, y0), (x1, y1) in zip(corners, corners[1:], strict=False):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            # bow each side toward (waist > 0) or away from the centre
            bx, by = mx + (w / 2 - mx) * k * 2, my + (h / 2 - my) * k * 2
            pts += [((1 - t) ** 2 * x0 + 2 * (1 - t) * t * bx + t ** 2 * x1,
                     (1 - t) ** 2 * y0 + 2 * (1 - t) * t * by + t ** 2 * y1) for t in np.linspace(0, 1, 12)]
        d.polygon(pts, fill=255)
    else:  # club: three lobes and a stem (large lobes hide most of it: a squat club)
        r = s.lobe * h
        cx = w / 2
        side_y = r + r * 1.35
        for x, y in ((cx, r), (cx - s.spread * h, side_y), (cx + s.spread * h, side_y)):
            d.ellipse((x - r, y - r, x + r, y + r), fill=255)
        d.polygon([(cx, r), (cx - s.spread * h, side_y), (cx + s.spread * h, side_y)], fill=255)
        _stem(d, cx, side_y, h, s.stem * h, s.stem * h * s.flare)
    box = img.getbbox()
    return img.crop(box) if box else img


def draw_pip(suit: str, shape: PipShape, height: int, colour: RGB) -> Image.Image:
    """An RGBA pip of `suit` (s, h, d or c) whose ink is `height` px tall, in `colour`."""
    m = _mask(suit, shape, max(4, height))
    width = max(1, round(m.width * height / max(1, m.height)))
    alpha = m.resize((width, max(1, height)), Image.LANCZOS)
    out = Image.new("RGBA", alpha.size, colour + (0,))
    out.putalpha(alpha)
    return out
