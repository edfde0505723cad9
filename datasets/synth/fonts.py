"""System fonts for procedural faces (found once; the list is sorted so seeds pick the same font)."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_FONT_DIRS = [Path("/usr/share/fonts"), Path("/usr/local/share/fonts")]
# Fonts with glyphs that do not look like card indices (symbols, maths, CJK fallbacks) are skipped.
_SKIP = ("Math", "Symbol", "Emoji", "ExtraLight", "Oblique", "Italic")


@lru_cache(maxsize=1)
def rank_fonts() -> tuple[str, ...]:
    """Latin TrueType fonts usable for rank glyphs (A K Q J 10 ...)."""
    paths: set[str] = set()
    try:
        out = subprocess.run(
            ["fc-list", ":lang=en", "file"], capture_output=True, text=True, check=True
        ).stdout
        paths |= {line.split(":")[0].strip() for line in out.splitlines() if line.strip()}
    except (OSError, subprocess.CalledProcessError):
        for d in _FONT_DIRS:
            paths |= {str(p) for p in d.rglob("*.ttf")}
    good = [p for p in paths if p.endswith((".ttf", ".otf")) and not any(s in p for s in _SKIP)]
    return tuple(sorted(good))


@lru_cache(maxsize=1)
def suit_fonts() -> tuple[str, ...]:
    """Fonts that have the four suit glyphs (DejaVu does); may be empty, then pips are drawn as shapes."""
    out = []
    for p in rank_fonts():
        try:
            f = ImageFont.truetype(p, 40)
        except OSError:
            continue
        # a font without the glyphs draws its "notdef" box (or nothing) for each of them
        notdef = bytes(f.getmask("\uf8ff"))
        masks = [bytes(f.getmask(ch)) for ch in "♠♥♦♣"]
        if all(m and m != notdef for m in masks) and len(set(masks)) == 4:
            out.append(p)
    return tuple(out)


@lru_cache(maxsize=256)
def font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)
