"""Neighbouring indices pasted beside a labelled one, as a tightly fanned row shows them.

A row of cards fanned tightly puts the next card's index within a third of an index width of this
one, and the namer's square crop (`vision.crops`: the box's longer side plus a margin) of a tall,
narrow index then holds two or three indices side by side. The namer must name the one in the
middle. Rendered scenes rarely fan so tightly, so `crowd` makes such crops from any labelled image:
it pastes other indices of the same image, turned to lie as the labelled one does, beside it along
its narrow axis, leaving the labelled box itself untouched.

    >>> import numpy as np
    >>> img = np.full((200, 200, 3), 255, np.uint8)
    >>> img[90:110, 95:105] = 0                          # the index to name: tall, 10 px wide
    >>> img[20:30, 20:40] = 100                          # another index, lying on its side
    >>> boxes = np.array([[95.0, 90, 105, 110], [20, 20, 40, 30]])
    >>> out = crowd(img, 0, boxes, np.random.default_rng(0))
    >>> bool((out[90:110, 95:105] == 0).all())           # the labelled index is untouched
    True
    >>> changed = np.argwhere((out != img).any(axis=2))  # the paste, turned tall, beside it
    >>> int(np.ptp(changed[:, 0])) > int(np.ptp(changed[:, 1])), bool(abs(changed[:, 1].mean() - 100) < 25)
    (True, True)
"""

from __future__ import annotations

import cv2
import numpy as np

#: gap between the labelled index and a pasted one, as a share of the labelled index's narrow side
GAP = (0.05, 0.6)
#: a pasted patch keeps this much of its source around the source's box (share of each side)
MARGIN = 0.08


def _patch(img: np.ndarray, box: np.ndarray, tall: bool, size: tuple[int, int],
           rng: np.random.Generator) -> np.ndarray:
    """The source box's pixels with a small margin, turned to lie as the target does (tall or
    wide, either way round) and resized to `size` (width, height)."""
    x1, y1, x2, y2 = box
    mx, my = (x2 - x1) * MARGIN, (y2 - y1) * MARGIN
    H, W = img.shape[:2]
    a, b = max(0, int(x1 - mx)), max(0, int(y1 - my))
    c, d = min(W, int(np.ceil(x2 + mx))), min(H, int(np.ceil(y2 + my)))
    patch = img[b:d, a:c]
    if (patch.shape[0] >= patch.shape[1]) != tall:
        patch = np.rot90(patch, 1 if rng.random() < 0.5 else -1)
    return cv2.resize(np.ascontiguousarray(patch), size, interpolation=cv2.INTER_AREA)


def crowd(img: np.ndarray, target: int, boxes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A copy of `img` with one or two other labelled indices (rows of `boxes`, xyxy pixels) pasted
    beside `boxes[target]` along its narrow axis; `img` itself if it has no other index to paste.

    Each pasted patch is the target's size times 0.9-1.1 with `MARGIN` around it, its near edge a
    `GAP` share of the target's narrow side from the target box, shifted along the long axis by up
    to a sixth of the target's length; a second one goes on the other side half the time.
    """
    others = [i for i in range(len(boxes)) if i != target]
    if not others:
        return img
    x1, y1, x2, y2 = boxes[target]
    w, h = x2 - x1, y2 - y1
    if w < 2 or h < 2:
        return img
    tall = h >= w
    out = img.copy()
    H, W = img.shape[:2]
    sides = [1, -1] if rng.random() < 0.5 else [1 if rng.random() < 0.5 else -1]
    for side in sides:
        s = rng.uniform(0.9, 1.1)
        pw, ph = max(2, round(w * s * (1 + 2 * MARGIN))), max(2, round(h * s * (1 + 2 * MARGIN)))
        patch = _patch(img, boxes[others[int(rng.integers(len(others)))]], tall, (pw, ph), rng)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        if tall:
            cx += side * (w / 2 + rng.uniform(*GAP) * w + pw / 2)
            cy += rng.uniform(-1, 1) * h / 6
        else:
            cy += side * (h / 2 + rng.uniform(*GAP) * h + ph / 2)
            cx += rng.uniform(-1, 1) * w / 6
        a, b = round(cx - pw / 2), round(cy - ph / 2)
        ia, ib, ic, id_ = max(0, a), max(0, b), min(W, a + pw), min(H, b + ph)
        if ic > ia and id_ > ib:
            out[ib:id_, ia:ic] = patch[ib - b:id_ - b, ia - a:ic - a]
    return out
