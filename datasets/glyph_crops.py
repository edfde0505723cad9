"""``python -m datasets.glyph_crops --out F.npz --n N --seed S [--size 56]``

Namer training crops of corner indices drawn straight onto a card corner, in many more index styles
than whole scenes can afford: every crop gets its own rank font, stroke weight, width, slant, pip
shape (a font glyph or a `datasets.pips` shape), pip size and alignment, ink and paper. The namer
learns a card from the crops of rendered scenes (`datasets.crops`), where each deck keeps one style
for 52 cards; on a design it never saw it misreads the pip (clubs as spades) or a rank in an
unfamiliar font. These crops are the same kind of input as the runtime's (`vision.classifier.crop_box`
of a detector-like jittered box around the index, on the card's corner with its edge, a neighbouring
card or the table beside it), so they can be mixed into training with ``--extra``.

Only the ``train`` split's fonts are used (`datasets.synth.holdout`): held-out fonts stay held out.
Output: ``x`` N x S x S x 3 uint8 BGR, ``y`` int64 class ids (`vision.classes`), no background class.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw
from tqdm import tqdm

from datasets.crops import jitter
from datasets.pips import PipShape, draw_pip, random_pip_shape
from datasets.synth.fonts import font, rank_fonts, suit_fonts
from datasets.synth.holdout import HeldOutError, Split, fonts_for
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.classifier import CROP_SIZE, crop_box

SUIT_GLYPH = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class IndexStyle:
    """How one index is printed. Lengths are fractions of the rank glyph's height."""

    rank_font: str
    stroke: float  # extra stroke weight (0: the font's own)
    squeeze: float  # horizontal scale of the rank glyph
    slant: float  # horizontal shear of the whole index
    pip: PipShape | str  # a drawn shape, or the path of a font with suit glyphs
    pip_scale: float
    gap: float
    left: bool  # pip aligned with the rank's left edge instead of centred under it
    ink: dict[str, RGB]  # by suit, and "j" for the big joker
    paper: RGB


def random_index_style(rng: np.random.Generator, split: Split = Split.TRAIN) -> IndexStyle:
    """An index style from ``split``'s fonts (refused when the split has none)."""
    rf = fonts_for(split, rank_fonts())
    if not rf:
        raise HeldOutError(f"no {split.value} font among the system's fonts {rank_fonts()}")
    sf = fonts_for(split, suit_fonts())
    dark = rng.random() < 0.15
    if dark:  # black decks with gold or silver ink
        g = int(rng.integers(10, 50))
        paper: RGB = (g, g, g + int(rng.integers(0, 10)))
        gold = (int(rng.integers(190, 235)), int(rng.integers(150, 195)), int(rng.integers(40, 100)))
        silver = (int(rng.integers(190, 240)),) * 3
        red, black = (gold if rng.random() < 0.6 else (220, 50, 45)), (silver if rng.random() < 0.5 else gold)
    else:
        t = int(rng.integers(222, 256))
        paper = (t, max(0, t - int(rng.integers(0, 12))), max(0, t - int(rng.integers(0, 30))))
        red = (int(rng.integers(150, 235)), int(rng.integers(0, 50)), int(rng.integers(0, 60)))
        k = int(rng.integers(0, 60))
        black = (k, k, k + int(rng.integers(0, 25)))
    ink = {"s": black, "c": black, "h": red, "d": red, "j": red}
    if not dark and rng.random() < 0.1:  # four-colour deck
        ink["c"] = (int(rng.integers(0, 50)), int(rng.integers(100, 170)), int(rng.integers(0, 70)))
        ink["d"] = (int(rng.integers(0, 50)), int(rng.integers(60, 130)), int(rng.integers(160, 235)))
    use_font_pip = bool(sf) and rng.random() < 0.5
    return IndexStyle(
        rank_font=rf[int(rng.integers(len(rf)))],
        stroke=float(rng.choice([0.0, 0.0, rng.uniform(0.02, 0.07)])),
        squeeze=float(rng.uniform(0.72, 1.25)),
        slant=float(rng.uniform(-0.12, 0.12)) if rng.random() < 0.2 else 0.0,
        pip=sf[int(rng.integers(len(sf)))] if use_font_pip else random_pip_shape(rng),
        pip_scale=float(rng.uniform(0.5, 1.0)),
        gap=float(rng.uniform(0.04, 0.35)),
        left=bool(rng.random() < 0.3),
        ink=ink,
        paper=paper,
    )


@lru_cache(maxsize=2048)
def _glyph_mask(text: str, path: str, height: int, stroke: int) -> np.ndarray:
    """Tight uint8 mask of ``text`` in ``path`` whose ink is ``height`` px tall."""
    f = font(path, 100)
    x0, y0, x1, y1 = f.getbbox(text, stroke_width=stroke)
    size = max(4, round(100 * height / max(1, y1 - y0)))
    f = font(path, size)
    x0, y0, x1, y1 = f.getbbox(text, stroke_width=stroke * size // 100)
    img = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    ImageDraw.Draw(img).text((2 - x0, 2 - y0), text, font=f, fill=255, stroke_width=stroke * size // 100,
                             stroke_fill=255)
    m = np.asarray(img)
    ys, xs = np.nonzero(m)
    if len(ys) == 0:
        return np.zeros((height, max(1, height // 2)), np.uint8)
    return m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _stack(parts: list[np.ndarray], gap: int, left: bool) -> np.ndarray:
    w = max(p.shape[1] for p in parts)
    out = np.zeros((sum(p.shape[0] for p in parts) + gap * (len(parts) - 1), w), np.uint8)
    y = 0
    for p in parts:
        x = 0 if left else (w - p.shape[1]) // 2
        out[y : y + p.shape[0], x : x + p.shape[1]] = p
        y += p.shape[0] + gap
    return out


def index_mask(card: str, st: IndexStyle, rank_h: int) -> np.ndarray:
    """The index of ``card`` (rank over pip, or a vertical JOKER) as a uint8 ink mask."""
    stroke = round(st.stroke * 100)
    if card in ("BJ", "SJ"):
        letters = [_glyph_mask(ch, st.rank_font, max(4, int(rank_h * 0.6)), stroke) for ch in "JOKER"]
        mask = _stack(letters, max(1, int(rank_h * 0.08)), left=False)
    else:
        text = "10" if card[0] == "T" else card[0]
        rank = _glyph_mask(text, st.rank_font, rank_h, stroke)
        rank = cv2.resize(rank, (max(1, round(rank.shape[1] * st.squeeze)), rank.shape[0]),
                          interpolation=cv2.INTER_AREA)
        ph = max(4, round(rank_h * st.pip_scale))
        suit = card[1]
        pip = draw_pip(suit, st.pip, ph) if isinstance(st.pip, PipShape) else _glyph_mask(
            SUIT_GLYPH[suit], st.pip, ph, 0)
        mask = _stack([rank, pip], max(1, round(rank_h * st.gap)), st.left)
    if st.slant:
        h, w = mask.shape
        pad = int(abs(st.slant) * h) + 1
        m = np.float32([[1, -st.slant, pad + (st.slant * h if st.slant > 0 else 0)], [0, 1, 0]])
        mask = cv2.warpAffine(mask, m, (w + 2 * pad, h))
    return mask


def _table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table (or a neighbouring card's print) behind the card: a colour, a gradient and grain."""
    base = rng.integers(20, 200, 3).astype(np.float32)
    yy, xx = np.ogrid[0:h, 0:w]
    tilt = (xx * rng.uniform(-1, 1) + yy * rng.uniform(-1, 1)).astype(np.float32)
    grad = tilt / max(h, w) * rng.uniform(0, 60)
    grain = rng.normal(0, rng.uniform(2, 14), (h, w, 1)).astype(np.float32)
    return base[None, None, :] + grad[..., None] + grain


def index_crop(card: str, rng: np.random.Generator, size: int = CROP_SIZE,
               split: Split = Split.TRAIN) -> np.ndarray:
    """One ``size`` px BGR crop of ``card``'s index in a fresh style, cut as the runtime cuts it."""
    st = random_index_style(rng, split)
    rank_h = int(rng.integers(20, 64))  # the crop is cut down to `size` anyway; larger only costs time
    mask = index_mask(card, st, rank_h).astype(np.float32) / 255
    ih, iw = mask.shape
    mx, my = int(iw * rng.uniform(0.15, 0.7)) + 2, int(ih * rng.uniform(0.06, 0.35)) + 2
    side = int(0.85 * max(iw, ih)) + 4  # the crop (1.3x the box, jittered) stays inside
    H, W = ih + 2 * side, iw + 2 * side
    x0, y0 = side, side  # the index's top-left corner
    ox, oy = x0 - mx, y0 - my  # the card's corner
    img = _table(rng, H, W)
    card_mask = np.zeros((H, W), np.uint8)
    radius = int(rng.uniform(0.2, 0.9) * max(iw, ih))
    cv2.rectangle(card_mask, (ox + radius, oy), (W, H), 255, -1)
    cv2.rectangle(card_mask, (ox, oy + radius), (W, H), 255, -1)
    cv2.circle(card_mask, (ox + radius, oy + radius), radius, 255, -1, cv2.LINE_AA)
    cm = card_mask.astype(np.float32)[..., None] / 255
    grain = rng.normal(0, rng.uniform(0.5, 4), (H, W, 1)).astype(np.float32)
    paper = np.array(st.paper[::-1], np.float32) + grain
    img = img * (1 - cm) + paper * cm
    ink = np.array(st.ink["j" if card == "BJ" else ("s" if card == "SJ" else card[1])][::-1], np.float32)
    region = img[y0 : y0 + ih, x0 : x0 + iw]
    img[y0 : y0 + ih, x0 : x0 + iw] = region * (1 - mask[..., None]) + ink * mask[..., None]
    if rng.random() < 0.3:  # the next card of a fan lies over the far side of this one
        x = x0 + iw + int(rng.uniform(0.2, 1.2) * iw)
        if x < W:
            shade = rng.uniform(0.6, 0.95)
            img[:, x : x + 2] *= shade
            img[:, x + 2 :] = np.array(st.paper[::-1], np.float32) * rng.uniform(0.85, 1.05)
    light = rng.uniform(0.55, 1.15) + np.linspace(0, rng.uniform(-0.25, 0.25), W)[None, :, None]
    img = np.clip(img * light, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    box = jitter(np.array([x0, y0, x0 + iw, y0 + ih], np.float64), rng)
    return crop_box(img, box, size)


def build(n: int, seed: int, size: int = CROP_SIZE, progress: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``n`` crops, cards dealt evenly over the 54 classes; the same seed gives the same bytes."""
    rng = np.random.default_rng(seed)
    cards = [CLASS_NAMES[i % len(CLASS_NAMES)] for i in rng.permutation(n)]
    x = np.empty((n, size, size, 3), np.uint8)
    for i, card in enumerate(tqdm(cards, desc="glyph crops", unit="crop", disable=not progress)):
        x[i] = index_crop(card, rng, size)
    return x, np.array([CLASS_INDEX[c] for c in cards], np.int64)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=CROP_SIZE)
    args = ap.parse_args(argv)
    t0 = time.time()
    x, y = build(args.n, args.seed, args.size)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, x=x, y=y)
    print(f"{len(y)} crops in {time.time() - t0:.0f}s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
