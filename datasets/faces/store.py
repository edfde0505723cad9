"""Read normalised designs back: a memory-mapped deck of faces with their index boxes."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .normalise import DESIGNS_DIR


class StoredDeck:
    """One normalised design. ``face`` returns a read-only BGRA view; nothing is copied until drawn."""

    def __init__(self, path: Path):
        meta = json.loads((path / "meta.json").read_text())
        self.name: str = meta["name"]
        self.licence: str = meta["licence"]
        self.cards: tuple[str, ...] = tuple(meta["cards"])
        self._row = {c: i for i, c in enumerate(self.cards)}
        self._boxes = {c: [tuple(b) for b in bb] for c, bb in meta["boxes"].items()}
        self.four_corners: bool = bool(meta.get("four_corners", False))
        self._faces = np.load(path / "faces.npy", mmap_mode="r")
        self._path = path
        self._mips: dict[int, np.ndarray] = {}

    def has(self, card: str) -> bool:
        return card in self._row

    def face(self, card: str) -> np.ndarray:
        return self._faces[self._row[card]]

    def mip(self, card: str, level: int) -> np.ndarray:
        """The face shrunk by 2**level (area-averaged), memory-mapped from ``faces_<level>.npy``.

        Made once per design on first use and shared by all processes through the page cache:
        shrinking faces again for every card drawn was the generator's largest cost.
        """
        if level == 0:
            return self.face(card)
        arr = self._mips.get(level)
        if arr is None:
            f = self._path / f"faces_{level}.npy"
            if not f.is_file():
                k = 0.5**level
                small = np.stack(
                    [
                        cv2.resize(np.asarray(x), None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
                        for x in self._faces
                    ]
                )
                tmp = self._path / f".faces_{level}.{os.getpid()}.npy"
                np.save(tmp, small)
                os.replace(tmp, f)  # atomic: concurrent workers may race to write the same file
            arr = self._mips[level] = np.load(f, mmap_mode="r")
        return arr[self._row[card]]

    def boxes(self, card: str) -> list[tuple[int, int, int, int]]:
        """Top-left and bottom-right index boxes in face pixels (x1, y1, x2, y2), then top-right and
        bottom-left on a four-corner design."""
        return self._boxes[card]


def stored_names(root: Path = DESIGNS_DIR) -> list[str]:
    """Names of the designs normalised into the cache, sorted (so choices by seed are stable)."""
    if not root.is_dir():
        return []
    return sorted(
        p.name for p in root.iterdir() if (p / "meta.json").is_file() and (p / "faces.npy").is_file()
    )


@lru_cache(maxsize=64)
def load(name: str, root: Path = DESIGNS_DIR) -> StoredDeck:
    return StoredDeck(root / name)
