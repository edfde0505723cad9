"""Small indices proposed again from the photo's sharper view.

The proposer reads the photo at 1440 px, where the seat far from a tilted phone's camera has its
indices 14-20 px tall, near the bottom of what it was trained on: it misses some and boxes others
loosely. When the photo was shrunk, its decode before the last shrink (`Photo.detail`, up to 2x)
holds those indices at up to twice that. So after the first pass, the places where its sure proposals are
small are read again from the detail view, and what it finds there joins the first pass's
proposals (one NMS over both): the second look adds boxes and tightens them, and takes none away.
A photo no larger than the working size has no such view; its windows are read enlarged instead.

>>> import numpy as np
>>> boxes = np.array([[100, 100, 110, 114], [130, 100, 140, 114], [160, 100, 170, 114],
...                   [600, 400, 640, 450]], np.float32)
>>> zoom_windows(boxes, np.array([0.9, 0.8, 0.7, 0.9]), (960, 1280))
[(58, 58, 213, 157)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .proposer import nms

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 in working pixels, x1/y1 exclusive


@dataclass(frozen=True)
class ZoomConfig:
    """When and where the detail view is read again.

    - `small_px`: a proposal whose box's longer side is under this (working pixels) is small:
      the far seat's smallest indices (14-20 px at 1440), not the near seats' (~33 px).
    - `sure`: only proposals at least this sure say how big the indices are (weak ones are noise).
    - `pad`: a window reaches this many index sides around each small proposal.
    - `min_boxes`: a window is read only around at least this many small proposals (a seat's
      worth of cards, not one stray glyph).
    - `max_share`: the windows read again cover at most this share of the working image, those
      with the smallest indices first: a far seat (~4% of a phone photo) is read again, a whole
      table photographed from afar (every seat small) only in part, so the second look costs at
      most ~15% of the first pass's time.
    - `min_score`: the second look's proposals below this are not kept (the first pass keeps
      boxes down to 0.001 so that no index is lost; here each extra box is one more crop to name).
    - `upscale`: how much a window is enlarged when the photo has no detail view (a photo no larger
      than the working size).
    """

    enabled: bool = True
    small_px: float = 18.0
    sure: float = 0.3
    pad: float = 3.0
    min_boxes: int = 3
    max_share: float = 0.06
    min_score: float = 0.01
    upscale: float = 2.0


def zoom_windows(boxes: np.ndarray, scores: np.ndarray, shape: tuple[int, int],
                 cfg: ZoomConfig = ZoomConfig()) -> list[Rect]:
    """Rectangles (working pixels) around the groups of sure, small proposals; ``shape`` is (H, W)."""
    if not cfg.enabled or len(boxes) == 0:
        return []
    side = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    pick = (scores >= cfg.sure) & (side < cfg.small_px)
    if pick.sum() < cfg.min_boxes:
        return []
    H, W = shape
    mask = np.zeros((H, W), np.uint8)
    for b, s in zip(boxes[pick], side[pick], strict=True):
        p = cfg.pad * s
        cv2.rectangle(mask, (int(b[0] - p), int(b[1] - p)), (int(b[2] + p), int(b[3] + p)), 255, -1)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    cx, cy = (boxes[pick, 0] + boxes[pick, 2]) / 2, (boxes[pick, 1] + boxes[pick, 3]) / 2
    found = []
    for x, y, w, h, _ in stats[1:n]:
        inside = (cx >= x) & (cx < x + w) & (cy >= y) & (cy < y + h)
        if inside.sum() >= cfg.min_boxes:
            found.append((float(np.median(side[pick][inside])), (int(x), int(y), int(x + w), int(y + h))))
    out, area = [], 0
    for _, r in sorted(found):
        a = (r[2] - r[0]) * (r[3] - r[1])
        if area + a <= cfg.max_share * H * W:
            out.append(r)
            area += a
    return sorted(out)


def rezoom(
    infer: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], image: np.ndarray,
    detail: np.ndarray | None, boxes: np.ndarray, scores: np.ndarray, iou: float,
    cfg: ZoomConfig = ZoomConfig(),
) -> tuple[np.ndarray, np.ndarray]:
    """The first pass's proposals and what ``infer`` (the proposer on one image) finds inside each
    `zoom_windows` rectangle of the working ``image``, after one NMS; boxes in working pixels, best
    first. Each window is read from ``detail`` (the same view, larger) or, for a photo that was not
    shrunk (its working image is all there is), from the window enlarged `cfg.upscale` times: the
    proposer finds an index of 12 px at 24 px that it misses at 12, though no detail is added.
    """
    shape = image.shape[:2]
    windows = zoom_windows(boxes, scores, shape, cfg)
    if not windows:
        return boxes, scores
    new_b, new_s = [boxes], [scores]
    for x0, y0, x1, y1 in windows:
        if detail is not None:
            kx, ky = detail.shape[1] / shape[1], detail.shape[0] / shape[0]
            X0, Y0, X1, Y1 = int(x0 * kx), int(y0 * ky), int(np.ceil(x1 * kx)), int(np.ceil(y1 * ky))
            view = detail[Y0:Y1, X0:X1]
        else:
            kx = ky = cfg.upscale
            X0, Y0 = int(x0 * kx), int(y0 * ky)
            view = cv2.resize(image[y0:y1, x0:x1], None, fx=kx, fy=ky, interpolation=cv2.INTER_CUBIC)
        b, s = infer(view)
        b = (b + np.array([X0, Y0, X0, Y0], np.float32)) / np.array([kx, ky, kx, ky], np.float32)
        bx, by = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
        core = (bx >= x0) & (bx < x1) & (by >= y0) & (by < y1) & (s >= cfg.min_score)
        new_b.append(b[core].astype(boxes.dtype))
        new_s.append(s[core].astype(scores.dtype))
    boxes, scores = np.concatenate(new_b), np.concatenate(new_s)
    keep = nms(boxes, scores, iou)
    return boxes[keep], scores[keep]
