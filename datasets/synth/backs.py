"""Card backs: face-down cards (the undealt deck, a folded hand) that must never be labelled.

Real photos show them next to face-up cards, and a plain dark back looks much like the dark
decks some players use, so the detector has to see them as negatives.
"""

from __future__ import annotations

import cv2
import numpy as np

FACE_H = 512


class BackDeck:
    """A deck whose every card is the same back; same interface as the face decks, no indices."""

    def __init__(self, rng: np.random.Generator, aspect: float):
        self.name = "back"
        self._img = draw_back(rng, round(FACE_H * aspect))

    def has(self, card: str) -> bool:
        return True

    def face(self, card: str) -> np.ndarray:
        return self._img

    def mip(self, card: str, level: int) -> np.ndarray:
        k = 0.5**level
        return (
            self._img if level == 0 else cv2.resize(self._img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        )

    def boxes(self, card: str) -> list[tuple[int, int, int, int]]:
        return []


def draw_back(rng: np.random.Generator, w: int) -> np.ndarray:
    """A BGRA back: white border (usually), coloured field with a lattice, dots or nothing."""
    h = FACE_H
    dark = rng.random() < 0.25
    col = (
        np.array([rng.integers(10, 50)] * 3, np.float32)
        if dark
        else np.array(
            [(150, 60, 20), (30, 30, 170), (40, 110, 40), (90, 30, 90), (20, 20, 20)][int(rng.integers(5))],
            np.float32,
        )
    )
    img = np.full((h, w, 3), 245, np.uint8)
    border = int(w * rng.uniform(0.04, 0.09)) if rng.random() < 0.75 else 0
    field = np.empty((h - 2 * border, w - 2 * border, 3), np.float32)
    field[:] = col
    fh, fw = field.shape[:2]
    kind = rng.integers(3)
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    period = rng.uniform(10, 30)
    if kind == 0:  # diamond lattice
        m = (np.abs(np.sin((xx + yy) * np.pi / period)) < 0.15) | (
            np.abs(np.sin((xx - yy) * np.pi / period)) < 0.15
        )
    elif kind == 1:  # dots
        m = (np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)) > 0.7
    else:
        m = np.zeros_like(xx, bool)
    light = np.clip(col + rng.uniform(60, 140), 0, 255) if not dark else col + rng.uniform(10, 30)
    field[m] = light
    img[border : h - border, border : w - border] = field.astype(np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    r = int(w * rng.uniform(0.03, 0.08))
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return np.dstack([img, alpha])
