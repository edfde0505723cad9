"""Find where a face's corner index is, from the pixels (no per-card hand annotation).

The index is the ink that lies wholly inside a design's corner region: picture frames, borders
and centre pips cross the region's edge, so dropping every ink blob that touches the inner
(right or bottom) edge of the region leaves only the rank glyph and the suit pip under it. Where a
design runs a hairline frame from under the pip (`Design.hairline`), the ink is first opened by
that many pixels, so the line goes and the pip stays.
"""

from __future__ import annotations

import cv2
import numpy as np


def on_paper(face: np.ndarray, paper: tuple[int, int, int] | None = None) -> np.ndarray:
    """BGR image of a BGRA face composited over its own paper colour (transparent corners)."""
    bgr = face[..., :3].astype(np.float32)
    a = face[..., 3:4].astype(np.float32) / 255.0
    if paper is None:
        paper = paper_colour(face)
    return (bgr * a + np.array(paper, np.float32) * (1 - a)).astype(np.uint8)


def paper_colour(face: np.ndarray) -> tuple[int, int, int]:
    """The card's background colour: the median of the opaque pixels of its left margin strip."""
    h, w = face.shape[:2]
    strip = face[int(0.35 * h) : int(0.65 * h), int(0.03 * w) : int(0.09 * w)]
    opaque = strip[strip[..., 3] > 200][:, :3]
    if len(opaque) == 0:
        return (255, 255, 255)
    med = np.median(opaque, axis=0)
    return (int(med[0]), int(med[1]), int(med[2]))


def ink_mask(bgr: np.ndarray, paper: tuple[int, int, int], thresh: float = 60.0) -> np.ndarray:
    """Pixels that differ clearly from the paper (any hue, so red, black and gold ink all count)."""
    diff = np.abs(bgr.astype(np.int16) - np.array(paper, np.int16)).max(axis=2)
    return (diff > thresh).astype(np.uint8)


def index_box(
    face: np.ndarray, region: tuple[float, float, float, float], min_area_frac: float = 4e-5,
    hairline: int = 0,
) -> tuple[int, int, int, int] | None:
    """Tight ink box (x1, y1, x2, y2, exclusive end) of the top-left index of a BGRA face; lines up
    to `hairline` pixels wide are left out of the ink."""
    h, w = face.shape[:2]
    paper = paper_colour(face)
    x1, y1 = int(region[0] * w), int(region[1] * h)
    x2, y2 = int(region[2] * w), int(region[3] * h)
    # skip the outermost margin, where card outlines run
    mx, my = max(x1, int(0.025 * w)), max(y1, int(0.02 * h))
    crop = on_paper(face[my:y2, mx:x2], paper)
    # transparent pixels (rounded corner) count as paper
    mask = ink_mask(crop, paper)
    if hairline:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((hairline + 1, hairline + 1), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    ch, cw = mask.shape
    keep: list[np.ndarray] = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < min_area_frac * h * w:
            continue
        if x + bw >= cw - 1 or y + bh >= ch - 1:  # crosses the inner edge: not index ink
            continue
        if x <= 0 and y <= 0 and (bw > 0.5 * cw or bh > 0.5 * ch):  # an outline in the corner
            continue
        keep.append(stats[i])
    if not keep:
        return None
    k = np.array(keep)
    bx1 = int(k[:, 0].min()) + mx
    by1 = int(k[:, 1].min()) + my
    bx2 = int((k[:, 0] + k[:, 2]).max()) + mx
    by2 = int((k[:, 1] + k[:, 3]).max()) + my
    return bx1, by1, bx2, by2


def corner_boxes(
    face: np.ndarray, region: tuple[float, float, float, float], hairline: int = 0, four: bool = False
) -> list[tuple[int, int, int, int]] | None:
    """Top-left and bottom-right index boxes, the latter measured on the face turned 180°; with `four`
    (a design that prints its index in every corner) then the top-right and bottom-left ones too,
    measured on the face mirrored (a box's place does not care which way its glyph faces)."""
    tl = index_box(face, region, hairline=hairline)
    if tl is None:
        return None
    h, w = face.shape[:2]

    def other(flipped: np.ndarray, flip_x: bool, flip_y: bool) -> tuple[int, int, int, int]:
        b = index_box(np.ascontiguousarray(flipped), region, hairline=hairline)
        bx1, by1, bx2, by2 = tl if b is None else b  # most designs are symmetric: mirror the top-left one
        x1, x2 = (w - bx2, w - bx1) if flip_x else (bx1, bx2)
        y1, y2 = (h - by2, h - by1) if flip_y else (by1, by2)
        return x1, y1, x2, y2

    boxes = [tl, other(face[::-1, ::-1], True, True)]
    if four:
        boxes += [other(face[:, ::-1], True, False), other(face[::-1, :], False, True)]
    return boxes
