"""Labelled boxes over the photo: colour by seat, shade by row, doubtful reads standing out.

Why opencv and not supervision's annotators: opencv is already a runtime dependency and this is
rectangles and text; supervision would bring the GUI opencv build (clashing with the headless one).

The app shows the result as is, so the choices are for a player glancing at a phone:
- each seat has its own hue; head, middle and tail are light, medium and dark shades of it;
- a low-confidence, changed or inferred card gets a thick red frame and a red label;
- cards in no seat are grey.

>>> import numpy as np
>>> from vision.types import Detection
>>> out = draw_detections(np.zeros((60, 80, 3), np.uint8), [Detection("As", (5, 5, 25, 35), 0.9)])
>>> out.shape, bool(out.any())
((60, 80, 3), True)
"""

from __future__ import annotations

import colorsys

import cv2
import numpy as np

from .types import ROWS, Detection, ReadCard, TableRead

ALERT = (0, 0, 230)  # BGR red
ORPHAN = (150, 150, 150)
SEAT_HUES = (0.58, 0.33, 0.08, 0.83, 0.15)  # blue, green, orange, purple, yellow
ROW_VALUE = {"head": 1.0, "middle": 0.78, "tail": 0.55}


def seat_colour(seat: int, row: str = "middle") -> tuple[int, int, int]:
    """BGR colour for a seat's row: the seat's hue, lighter for the head, darker for the tail."""
    r, g, b = colorsys.hsv_to_rgb(SEAT_HUES[seat % len(SEAT_HUES)], 0.85, ROW_VALUE.get(row, 0.78))
    return int(b * 255), int(g * 255), int(r * 255)


def _style(img: np.ndarray) -> tuple[int, float]:
    side = max(img.shape[:2])
    return max(1, round(side / 700)), max(0.35, side / 2200)


def _label(img: np.ndarray, text: str, x: float, y: float, colour, thick: int, font: float) -> None:
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
    x, y = int(max(0, x)), int(max(th + base, y))
    cv2.rectangle(img, (x, y - th - base), (x + tw + 2, y), colour, -1)
    lum = 0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2]
    ink = (0, 0, 0) if lum > 150 else (255, 255, 255)
    cv2.putText(img, text, (x + 1, y - base + 1), cv2.FONT_HERSHEY_SIMPLEX, font, ink, thick, cv2.LINE_AA)


def _card(img, c: ReadCard, text: str, colour, doubtful: bool, thick: int, font: float, k: float = 1.0):
    if doubtful:
        colour = ALERT
    boxes = c.boxes or [(c.center[0] - 10, c.center[1] - 14, c.center[0] + 10, c.center[1] + 14)]
    boxes = [tuple(v * k for v in b) for b in boxes]
    for x1, y1, x2, y2 in boxes:
        cv2.rectangle(img, (int(x1), int(y1)), (int(x2), int(y2)), colour, thick * (3 if doubtful else 1))
    x1, y1 = boxes[0][0], boxes[0][1]
    _label(img, text, x1, y1 - 2, colour, max(1, thick // 2 + (1 if doubtful else 0)), font)


def draw_table(image: np.ndarray, table: TableRead, *, low_confidence: float = 0.5) -> np.ndarray:
    """A copy of the BGR `image` with every card of `table` labelled.

    `image` may be the photo at any size (e.g. shrunk for display): boxes, which are in original
    pixels (`table.width` x `table.height`), are scaled to it.
    """
    img = image.copy()
    thick, font = _style(img)
    k = img.shape[1] / table.width if table.width else 1.0
    for seat in table.seats:
        for row in ROWS:
            for c in getattr(seat, row):
                doubtful = c.confidence < low_confidence or c.changed_from is not None or not c.boxes
                name = f"{c.changed_from}>{c.card}" if c.changed_from else c.card
                text = f"{seat.seat + 1}{row[0].upper()} {name} {c.confidence:.2f}"
                _card(img, c, text, seat_colour(seat.seat, row), doubtful, thick, font, k)
    for c in table.orphans:
        _card(img, c, f"? {c.card} {c.confidence:.2f}", ORPHAN, False, thick, font, k)
    for c in table.left_out:
        _card(img, c, f"x {c.card} {c.confidence:.2f}", ORPHAN, True, thick, font, k)
    return img


def draw_detections(image: np.ndarray, dets: list[Detection], *, low_confidence: float = 0.5) -> np.ndarray:
    """Raw detections (before geometry): one colour, low confidence in red."""
    img = image.copy()
    thick, font = _style(img)
    for d in dets:
        rc = ReadCard(d.card, d.center, d.confidence, [d.box])
        low = d.confidence < low_confidence
        _card(img, rc, f"{d.card} {d.confidence:.2f}", seat_colour(0), low, thick, font)
    return img
