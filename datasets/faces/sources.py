"""Per-design loaders: turn each upstream package layout into ``{card: BGRA image}``.

Every package names and packs its cards differently (one SVG per card, PNG sets, sprite sheets),
so each gets a small loader; the rest of the pipeline only sees our class names.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.classes import RANKS, SUITS

from .fetch import KDE_DIR, RAW

CARDS52 = [r + s for s in SUITS for r in RANKS]
_SUIT_WORD = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}
_RANK_NUM = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}
_RANK_WORD = {"J": "jack", "Q": "queen", "K": "king"}

Loader = Callable[[int], Iterator[tuple[str, np.ndarray]]]


def render_svg(data: bytes, height: int) -> np.ndarray:
    """Render SVG bytes to a BGRA array of the given height (cairosvg keeps the aspect).

    cairosvg (and the cairo library under it) is imported here, not with the module: only fetching
    a design renders SVG, and rendering scenes from the stored designs runs where cairo is absent."""
    import cairosvg

    png = cairosvg.svg2png(bytestring=data, output_height=height)
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def _read_png(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


@dataclass(frozen=True)
class Design:
    """One deck design: where it comes from, its licence, and how to read its faces.

    ``region`` is the part of the face (fractions x1, y1, x2, y2) that holds the top-left index
    and nothing else that is fully inside it; ``joker_region`` the same for jokers, whose
    vertical "JOKER" runs further down. Both were set after looking at the renders. ``hairline``:
    the width in pixels (at the stored 512 px face) of a thin frame line that touches the index's
    pip, left out when the index is measured (`datasets.faces.measure`). ``four_corners``: the design
    prints its index in all four corners (all four are measured and labelled; the generator deals it
    only where four-corner decks are asked for).
    """

    name: str
    package: str
    licence: str
    url: str
    loader: Loader
    region: tuple[float, float, float, float] = (0.0, 0.0, 0.2, 0.3)
    joker_region: tuple[float, float, float, float] = (0.0, 0.0, 0.2, 0.55)
    note: str = ""
    jokers: tuple[str, ...] = field(default=("BJ", "SJ"))
    hairline: int = 0
    four_corners: bool = False


# ---- npm packages ---------------------------------------------------------------------------


def _cardsjs(height: int) -> Iterator[tuple[str, np.ndarray]]:
    base = RAW / "cardsjs" / "package" / "dist" / "cards"
    for card in CARDS52:
        rank = "10" if card[0] == "T" else card[0]
        yield card, render_svg((base / f"{rank}{card[1].upper()}.svg").read_bytes(), height)


def _svg_cards(height: int) -> Iterator[tuple[str, np.ndarray]]:
    base = RAW / "svg-cards" / "package" / "png" / "2x"
    for card in CARDS52:
        rank = _RANK_WORD.get(card[0], str(_RANK_NUM[card[0]]))
        yield card, _read_png(base / f"{_SUIT_WORD[card[1]]}_{rank}.png")
    yield "BJ", _read_png(base / "joker_red.png")
    yield "SJ", _read_png(base / "joker_black.png")


def _younestouati(height: int) -> Iterator[tuple[str, np.ndarray]]:
    base = RAW / "younestouati" / "package" / "cards"
    for card in CARDS52:
        yield card, render_svg((base / f"{_RANK_NUM[card[0]]}{card[1]}.svg").read_bytes(), height)
    yield "BJ", render_svg((base / "joker.svg").read_bytes(), height)


def _letele(height: int) -> Iterator[tuple[str, np.ndarray]]:
    """@letele/playing-cards ships React components only: print them to SVG with node first."""
    pkg = RAW / "letele" / "package"
    svgs = RAW / "letele" / "svg"
    if not (svgs / "Sa.svg").is_file():
        script = Path(__file__).with_name("react_svg.js")
        subprocess.run(["node", str(script), str(pkg), str(svgs)], check=True, capture_output=True)
    for card in CARDS52:
        rank = "10" if card[0] == "T" else card[0]
        name = card[1].upper() + (rank if rank.isdigit() else rank.lower())
        yield card, render_svg((svgs / f"{name}.svg").read_bytes(), height)


# ---- gnome-cards-data (aisleriot) sprite sheets ---------------------------------------------
# Every theme is a 13 x 5 grid: rows club, diamond, heart, spade (columns A, 2..10, J, Q, K),
# then black joker, red joker, back.

_GNOME_ROWS = {"c": 0, "d": 1, "h": 2, "s": 3}
_GNOME_COLS = {r: _RANK_NUM[r] - 1 for r in RANKS}


def gnome_sheet(theme: str) -> Path:
    return RAW / "gnome" / "usr" / "share" / "aisleriot" / "cards" / f"{theme}.svgz"


def _gnome(theme: str, with_jokers: bool) -> Loader:
    def load(height: int) -> Iterator[tuple[str, np.ndarray]]:
        sheet = render_svg(gzip.open(gnome_sheet(theme)).read(), height * 5)
        h, w = sheet.shape[:2]
        ch, cw = h / 5, w / 13

        def cell(row: int, col: int) -> np.ndarray:
            return sheet[
                round(row * ch) : round((row + 1) * ch), round(col * cw) : round((col + 1) * cw)
            ].copy()

        for card in CARDS52:
            yield card, cell(_GNOME_ROWS[card[1]], _GNOME_COLS[card[0]])
        if with_jokers:
            yield "SJ", cell(4, 0)
            yield "BJ", cell(4, 1)

    return load


_GNOME_URL = "https://packages.debian.org/gnome-cards-data"
_STAR = (0.0, 0.0, 0.3, 0.2)  # jokers whose corner index is a star in a circle
_ACROSS = (0.0, 0.0, 0.8, 0.15)  # jokers with JOKER written across the top
# (theme, jokers usable, note, region overrides). Themes whose indices are not A K Q J (German
# K D B, French R D V, Russian, Swiss/Italian suits), that have no court indices, or that put the
# suit beside the rank, are left out: players of 十三张 use Anglo-American indices. `dondorf` is
# taken from KDE's package instead (`KDE_DECKS`).

GNOME_THEMES: list[tuple[str, bool, str, dict]] = [
    ("anglo", True, "", {}),
    ("anglo_bitmap", True, "", {}),
    ("anglo_modern", True, "", {"joker_region": _STAR}),
    ("anglo_modern_4_color", True, "four-colour deck", {"joker_region": _STAR}),
    ("anglo_poker", True, "", {"joker_region": _STAR}),
    ("atlasnye", True, "", {"joker_region": (0.0, 0.0, 0.2, 0.6)}),
    ("bellot", True, "", {"joker_region": _ACROSS}),
    ("gnomangelo", False, "jokers are GNOME logos without text: not used", {}),
    ("gnomangelo_bitmap", True, "", {"joker_region": _ACROSS}),
    ("neoclassical", True, "", {"joker_region": _STAR}),
    ("neoclassical_4_color", True, "four-colour deck", {"joker_region": _STAR}),
    ("orell", False, "jokers are pictures without text: not used", {}),
    ("ornamental", True, "cartoon deck with very large indices", {"region": (0.0, 0.0, 0.3, 0.5)}),
    ("plastic", True, "", {"region": (0.0, 0.0, 0.28, 0.36), "joker_region": _STAR}),
    ("simplistic", True, "", {"joker_region": _STAR}),
    ("tigullio", True, "", {}),
]

# ---- kdegames-card-data-kf5 (KDE's card decks) -------------------------------------------------
# Each deck is one SVG in which every card is an element named "1_club" .. "10_club", "jack_club",
# "queen_club", "king_club", and so for each suit, drawn mostly through <use> of shared parts.
# resvg resolves those: it lists every element's box on the rendered canvas (`--query-all`) and
# renders the canvas once; each card is cut from it.

_KDE_RANK = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def resvg() -> str:
    """The resvg renderer (the `resvg-cli` package of the `train` extra puts it beside Python)."""
    found = shutil.which("resvg") or str(Path(sys.executable).with_name("resvg"))
    if not Path(found).is_file():
        raise FileNotFoundError("resvg not found: pip install -e '.[train]' brings it (resvg-cli)")
    return found


def element_boxes(svg: Path) -> dict[str, tuple[float, float, float, float]]:
    """Every named element's box (x, y, w, h) on the canvas resvg renders at zoom 1."""
    out = subprocess.run([resvg(), "--query-all", str(svg)], check=True, capture_output=True,
                         text=True).stdout
    boxes = {}
    for line in out.splitlines():
        name, *nums = line.rsplit(",", 4)
        if len(nums) == 4:
            boxes[name] = tuple(float(v) for v in nums)
    return boxes


def _kde(deck: str, renamed: dict[str, str]) -> Loader:
    """`renamed`: cards drawn by another element than their usual name (the usual one a <use>
    moved off the canvas)."""

    def load(height: int) -> Iterator[tuple[str, np.ndarray]]:
        ids = {card: renamed.get(card, f"{_KDE_RANK.get(card[0], card[0])}_{_SUIT_WORD[card[1]]}")
               for card in CARDS52}
        with tempfile.TemporaryDirectory() as tmp:
            svg, png = Path(tmp) / "deck.svg", Path(tmp) / "deck.png"
            svg.write_bytes(gzip.open(KDE_DIR / deck).read())
            boxes = element_boxes(svg)
            zoom = height / float(np.median([boxes[i][3] for i in ids.values()]))
            subprocess.run([resvg(), "--zoom", f"{zoom:.6f}", str(svg), str(png)], check=True,
                           capture_output=True)
            sheet = _read_png(png)
        for card, name in ids.items():
            x, y, w, h = (v * zoom for v in boxes[name])
            yield card, sheet[max(0, round(y)) : round(y + h), max(0, round(x)) : round(x + w)].copy()

    return load


_KDE_URL = "https://packages.debian.org/kdegames-card-data-kf5"
# (name, deck file under usr/share/carddecks, licence, `Design` overrides, cards drawn by another
# element, see `_kde`). Decks whose indices are
# not A K Q J (xskat: German letters and suits), that put rank and suit apart (the oxygen decks),
# that colour the suits other than red and black (konqi-modern), or whose artwork is a GNOME theme
# trained on (nicu-ornamental, tigullio) are left out. `dondorf` prints its index in all four corners.
KDE_DECKS: list[tuple[str, str, str, dict, dict[str, str]]] = [
    ("standard", "svg-standard/standard.svgz", "GPL-2+ (Debian copyright)", {}, {}),
    ("penguins", "svg-penguins/penguins.svgz", "GPL-3+ (Debian copyright; Tux by Larry Ewing et al.)",
     {}, {}),
    ("jolly-royal", "svg-jolly-royal/jolly-royal.svgz", "GPL-2+ (Debian copyright, Files: *)",
     {"region": (0.0, 0.0, 0.26, 0.36), "hairline": 4}, {}),
    ("ancient-egyptians", "svg-ancient-egyptians/Ancient_Egyptians.svgz",
     "GPL-2+ (Debian copyright, Files: *)", {"region": (0.0, 0.0, 0.26, 0.36), "hairline": 6},
     {"Ad": "clone"}),
    ("dondorf", "svg-dondorf/dondorf.svgz", "GPL-2+ (Debian copyright, Files: *)",
     {"four_corners": True}, {}),
    ("gm-paris", "svg-gm-paris/paris.svgz", "GPL-2+ (Debian copyright, Files: *)", {}, {}),
]

DESIGNS: list[Design] = (
    [
        Design(
            "cardsjs",
            "npm cardsJS 1.1.1",
            "MIT",
            "https://www.npmjs.com/package/cardsJS",
            _cardsjs,
            jokers=(),
            note="no jokers",
        ),
        Design(
            "svg-cards",
            "npm svg-cards 4.0.2 (png/2x)",
            "LGPL-2.1",
            "https://www.npmjs.com/package/svg-cards",
            _svg_cards,
            joker_region=_ACROSS,
        ),
        Design(
            "younestouati",
            "npm @younestouati/playing-cards-standard-deck 3.0.0",
            "LGPL-3.0",
            "https://www.npmjs.com/package/@younestouati/playing-cards-standard-deck",
            _younestouati,
            joker_region=(0.0, 0.0, 0.25, 0.2),
            jokers=("BJ",),
            note="one (colour) joker, used as BJ",
        ),
    ]
    + [
        Design(
            "letele",
            "npm @letele/playing-cards 0.1.0 (React components printed to SVG)",
            "CC0-1.0",
            "https://www.npmjs.com/package/@letele/playing-cards",
            _letele,
            jokers=(),
            note="jokers have no corner index: not used",
        ),
    ]
    + [
        Design(
            f"gnome-{theme}",
            f"Debian gnome-cards-data ({theme}.svgz)",
            "GPL-3+ (Debian copyright, Files: *)",
            _GNOME_URL,
            _gnome(theme, jok),
            jokers=("BJ", "SJ") if jok else (),
            note=note,
            **over,
        )
        for theme, jok, note, over in GNOME_THEMES
    ]
    + [
        Design(f"kde-{name}", f"Debian kdegames-card-data-kf5 ({deck.split('/')[-1]})", licence, _KDE_URL,
               _kde(deck, renamed), jokers=(), note="no jokers", **over)
        for name, deck, licence, over, renamed in KDE_DECKS
    ]
)


def design_available(d: Design) -> bool:
    """Whether the raw files of a design are in the cache (so it can be normalised)."""
    if d.name.startswith("gnome-"):
        return gnome_sheet(d.name[len("gnome-") :]).is_file()
    if d.name.startswith("kde-"):
        return any((KDE_DIR / deck).is_file() for name, deck, *_ in KDE_DECKS if d.name == f"kde-{name}")
    return (RAW / d.name / "package").is_dir()  # npm designs are unpacked under their own name
