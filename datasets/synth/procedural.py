"""Procedurally drawn card faces: many fonts, index sizes, colours and paper tones.

These exist so the detector never learns one printed design: every scene can get a freshly
styled deck, and the index box is known exactly because the index is drawn on its own layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw

from .fonts import font, rank_fonts, suit_fonts
from .holdout import HeldOutError, Split, fonts_for

FACE_H = 512
SUIT_GLYPH = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_TEXT = {"T": "10"}
RGB = tuple[int, int, int]

# pip positions (fractions of the centre area) for the number cards
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}
_NUM = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}


@dataclass(frozen=True)
class FaceStyle:
    """Everything that makes one procedural deck look like itself."""

    width: int
    radius: int
    paper: RGB
    red: RGB
    black: RGB
    suit_colour: dict[str, RGB]
    rank_font: str
    suit_font: str
    rank_h: int  # rank glyph height in pixels
    pip_scale: float  # index pip height relative to rank height
    margin_x: int
    margin_y: int
    gap: int  # between rank glyph and pip
    bold_ten: bool  # "10" squeezed narrow like many printed decks
    frame: RGB | None  # inner frame line colour (None: no frame)
    centre: str  # "pips" | "blob" | "plain"
    joker_colour: RGB
    dark: bool


def random_style(rng: np.random.Generator, exotic: bool = True, split: Split = Split.TRAIN) -> FaceStyle:
    """Draw a deck style from ``split``'s fonts; ``exotic`` allows dark decks with gold ink and four-colour
    decks."""
    aspect = rng.uniform(0.63, 0.73)
    w = round(FACE_H * aspect)
    dark = exotic and rng.random() < 0.12  # black decks with gold ink are common in the real photos
    if dark:
        g = int(rng.integers(10, 45))
        paper: RGB = (g, g, g + int(rng.integers(0, 10)))
        gold = (int(rng.integers(190, 235)), int(rng.integers(150, 190)), int(rng.integers(40, 90)))
        ink_r = gold if rng.random() < 0.6 else (int(rng.integers(200, 240)), 40, 40)
        ink_b = gold if ink_r == gold or rng.random() < 0.5 else (235, 235, 235)
        red, black = ink_r, ink_b
    else:
        t = int(rng.integers(228, 256))
        paper = (t, max(0, t - int(rng.integers(0, 10))), max(0, t - int(rng.integers(0, 28))))
        red = (int(rng.integers(160, 235)), int(rng.integers(0, 45)), int(rng.integers(0, 55)))
        k = int(rng.integers(0, 45))
        black = (k, k, k + int(rng.integers(0, 20)))
    colours = {"s": black, "c": black, "h": red, "d": red}
    if exotic and not dark and rng.random() < 0.1:  # four-colour deck
        colours["c"] = (int(rng.integers(0, 40)), int(rng.integers(110, 160)), int(rng.integers(0, 60)))
        colours["d"] = (int(rng.integers(0, 40)), int(rng.integers(60, 120)), int(rng.integers(170, 230)))
    rank_h = int(FACE_H * rng.uniform(0.07, 0.14))
    rf = fonts_for(split, rank_fonts())
    if not rf:  # never borrow the other split's fonts: that would leak held-out glyphs into training
        raise HeldOutError(f"no {split.value} font among the system's fonts {rank_fonts()}")
    sf = fonts_for(split, suit_fonts()) or rf
    return FaceStyle(
        width=w,
        radius=int(w * rng.uniform(0.03, 0.09)),
        paper=paper,
        red=red,
        black=black,
        suit_colour=colours,
        rank_font=rf[int(rng.integers(len(rf)))],
        suit_font=sf[int(rng.integers(len(sf)))],
        rank_h=rank_h,
        pip_scale=float(rng.uniform(0.55, 1.0)),
        margin_x=int(w * rng.uniform(0.035, 0.08)),
        margin_y=int(FACE_H * rng.uniform(0.03, 0.06)),
        gap=int(rank_h * rng.uniform(0.05, 0.3)),
        bold_ten=bool(rng.random() < 0.5),
        frame=(None if rng.random() < 0.6 else (red if rng.random() < 0.5 else black)),
        centre=str(rng.choice(["pips", "pips", "pips", "blob", "plain"])),
        joker_colour=red
        if rng.random() < 0.7
        else (int(rng.integers(0, 80)), int(rng.integers(60, 160)), 200),
        dark=dark,
    )


@lru_cache(maxsize=1024)
def _text_layer(text: str, path: str, height: int, colour: RGB, squeeze: float = 1.0) -> Image.Image:
    """Tight RGBA image of ``text`` whose ink is ``height`` px tall (font size found by measuring).

    Cached: a deck reuses 13 rank glyphs and 4 pips over and over; callers must not mutate it.
    """
    f = font(path, 100)
    bb = f.getbbox(text)
    size = max(4, round(100 * height / max(1, bb[3] - bb[1])))
    f = font(path, size)
    bb = f.getbbox(text)
    img = Image.new("RGBA", (bb[2] - bb[0] + 4, bb[3] - bb[1] + 4), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((2 - bb[0], 2 - bb[1]), text, font=f, fill=colour + (255,))
    img = img.crop(img.getbbox())
    if squeeze != 1.0:
        img = img.resize((max(1, round(img.width * squeeze)), img.height), Image.LANCZOS)
    return img


class ProceduralDeck:
    """A deck drawn on demand in one style; same interface as ``datasets.faces.StoredDeck``."""

    cards_all = None

    def __init__(self, style: FaceStyle, name: str = "procedural", four_corners: bool = False):
        self.style = style
        self.name = name
        self.four_corners = four_corners
        self.licence = "generated"
        self._cache: dict[str, tuple[np.ndarray, list[tuple[int, int, int, int]]]] = {}
        self._mips: dict[str, np.ndarray] = {}

    def has(self, card: str) -> bool:
        return True

    def face(self, card: str) -> np.ndarray:
        return self._get(card)[0]

    def boxes(self, card: str) -> list[tuple[int, int, int, int]]:
        return self._get(card)[1]

    def mip(self, card: str, level: int) -> np.ndarray:
        """The face shrunk by 2**level, cached with the deck (it lives for one scene)."""
        if level == 0:
            return self.face(card)
        key = f"{card}@{level}"
        if key not in self._mips:
            k = 0.5**level
            self._mips[key] = cv2.resize(self.face(card), None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        return self._mips[key]

    def _get(self, card: str) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
        if card not in self._cache:
            self._cache[card] = draw_face(self.style, card, self.four_corners)
        return self._cache[card]


def _index_layer(st: FaceStyle, card: str) -> Image.Image:
    """The corner index (rank over pip, or vertical JOKER) as a tight RGBA image."""
    if card in ("BJ", "SJ"):
        col = st.joker_colour if card == "BJ" else st.black
        letters = [_text_layer(ch, st.rank_font, int(st.rank_h * 0.62), col) for ch in "JOKER"]
        wmax = max(im.width for im in letters)
        gap = max(1, int(st.rank_h * 0.08))
        out = Image.new("RGBA", (wmax, sum(im.height for im in letters) + gap * 4), (0, 0, 0, 0))
        y = 0
        for im in letters:
            out.alpha_composite(im, ((wmax - im.width) // 2, y))
            y += im.height + gap
        return out
    rank, suit = card[0], card[1]
    col = st.suit_colour[suit]
    text = RANK_TEXT.get(rank, rank)
    rank_img = _text_layer(
        text, st.rank_font, st.rank_h, col, squeeze=0.72 if (text == "10" and st.bold_ten) else 1.0
    )
    pip = _text_layer(SUIT_GLYPH[suit], st.suit_font, int(st.rank_h * st.pip_scale), col)
    w = max(rank_img.width, pip.width)
    out = Image.new("RGBA", (w, rank_img.height + st.gap + pip.height), (0, 0, 0, 0))
    out.alpha_composite(rank_img, ((w - rank_img.width) // 2, 0))
    out.alpha_composite(pip, ((w - pip.width) // 2, rank_img.height + st.gap))
    return out


@lru_cache(maxsize=8)
def _card_mask(w: int, h: int, r: int) -> Image.Image:
    m = Image.new("L", (w, h), 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, w - 1, h - 1), radius=r, fill=255)
    return m


def draw_face(st: FaceStyle, card: str, four_corners: bool = False
              ) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """Draw one face; return BGRA array and its index boxes: top-left and bottom-right, and with
    `four_corners` (a design that prints the index in every corner, as many poker decks do) then
    top-right, upright like the top-left one, and bottom-left, turned half round."""
    w, h = st.width, FACE_H
    img = Image.new("RGBA", (w, h), st.paper + (255,))
    d = ImageDraw.Draw(img)
    idx = _index_layer(st, card)
    x0, y0 = st.margin_x, st.margin_y
    inner = (
        x0 + idx.width + int(0.03 * w),
        int(0.06 * h),
        w - x0 - idx.width - int(0.03 * w),
        h - int(0.06 * h),
    )
    if st.frame is not None and card[0] in "JQK" or card in ("BJ", "SJ"):
        d.rectangle(inner, outline=(st.frame or st.black) + (255,), width=max(1, w // 120))
    _draw_centre(img, st, card, inner)
    img.alpha_composite(idx, (x0, y0))
    img.alpha_composite(idx.rotate(180), (w - x0 - idx.width, h - y0 - idx.height))
    tr = (w - x0 - idx.width, y0, w - x0, y0 + idx.height)
    bl = (x0, h - y0 - idx.height, x0 + idx.width, h - y0)
    if four_corners:
        img.alpha_composite(idx, tr[:2])
        img.alpha_composite(idx.rotate(180), bl[:2])
    img.putalpha(_card_mask(w, h, st.radius))
    # (np.asarray on a PIL image then fancy indexing is ~30x slower than this)
    arr = cv2.cvtColor(np.frombuffer(img.tobytes(), np.uint8).reshape(h, w, 4), cv2.COLOR_RGBA2BGRA)
    tl = (x0, y0, x0 + idx.width, y0 + idx.height)
    br = (w - x0 - idx.width, h - y0 - idx.height, w - x0, h - y0)
    return arr, [tl, br, tr, bl] if four_corners else [tl, br]


def _draw_centre(img: Image.Image, st: FaceStyle, card: str, inner: tuple[int, int, int, int]) -> None:
    """Centre art: pip layouts, a big ace pip, or a coloured 'picture' for courts and jokers."""
    x1, y1, x2, y2 = inner
    cw, ch = x2 - x1, y2 - y1
    d = ImageDraw.Draw(img)
    seed = sum(map(ord, card)) * 7919 + st.rank_h * 31 + st.width
    rng = np.random.default_rng(seed)
    if card in ("BJ", "SJ") or card[0] in "JQK":
        if st.centre == "plain" and card[0] in "JQK":
            letter = _text_layer(card[0], st.rank_font, int(ch * 0.35), st.suit_colour[card[1]])
            img.alpha_composite(letter, (x1 + (cw - letter.width) // 2, y1 + (ch - letter.height) // 2))
            return
        palette = [st.red, st.black, (230, 190, 40), (40, 80, 190), (40, 140, 70)]
        for _ in range(int(rng.integers(6, 14))):
            c = palette[int(rng.integers(len(palette)))]
            bx, by = x1 + rng.uniform(0.05, 0.7) * cw, y1 + rng.uniform(0.05, 0.45) * ch
            bw, bh = rng.uniform(0.1, 0.4) * cw, rng.uniform(0.05, 0.25) * ch
            box = (bx, by, min(x2 - 3, bx + bw), min(y2 - 3, by + bh))
            if rng.random() < 0.5:
                d.ellipse(box, fill=c + (255,))
            else:
                d.rectangle(box, fill=c + (255,))
            # courts are point-symmetric: mirror every blob
            mb = (x1 + x2 - box[2], y1 + y2 - box[3], x1 + x2 - box[0], y1 + y2 - box[1])
            (d.ellipse if rng.random() < 0.5 else d.rectangle)(mb, fill=c + (255,))
        return
    suit = card[1]
    col = st.suit_colour[suit]
    n = _NUM[card[0]]
    if n == 1 or st.centre == "plain":
        pip = _text_layer(SUIT_GLYPH[suit], st.suit_font, int(ch * (0.3 if n == 1 else 0.2)), col)
        img.alpha_composite(pip, (x1 + (cw - pip.width) // 2, y1 + (ch - pip.height) // 2))
        return
    ph = int(min(ch / 5.2, cw / 2.6))
    pip = _text_layer(SUIT_GLYPH[suit], st.suit_font, ph, col)
    flipped = pip.rotate(180)
    for fx, fy in _PIPS[n]:
        px = x1 + int(fx * (cw - pip.width))
        py = y1 + int(fy * (ch - pip.height))
        img.alpha_composite(flipped if fy > 0.55 else pip, (px, py))
