"""The namer's crop of one index: what `vision.classifier` reads, `datasets` trains on and
`vision.sharpness` measures, cut by one function so that the three always see the same pixels.

A box's longer side plus `CONTEXT` on each side, as a square centred on the box, resized to
`CROP_SIZE`; whatever falls outside the image is filled with grey (114, like the YOLO letterbox).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

CROP_SIZE = 56  # the shipped namers' input (their ONNX metadata says so too)
CONTEXT = 0.15  # of the box's longer side, added on each side: the glyph edges survive a loose box
FILL = (114, 114, 114)


def crop_matrix(box: Sequence[float], size: int = CROP_SIZE, context: float = CONTEXT) -> np.ndarray:
    """The 2x3 affine map from image pixel indices to crop pixel indices for one xyxy box.

    A square of side `max(w, h) * (1 + 2 * context)` centred on the box maps onto size x size, so a
    tall upright index and a wide sideways one keep their aspect ratio (the CNN sees the glyph, not
    a stretched one). Box edges are continuous coordinates (pixel i spans i..i+1), so a crop of a
    photo turned by a quarter is exactly the quarter-turned crop.

    >>> m = crop_matrix((10, 20, 30, 60), size=52, context=0.15)   # 20 x 40 box -> 52 px square
    >>> [round(float(v), 3) for v in m @ np.array([19.5, 39.5, 1.0])]  # centre -> centre (indices)
    [25.5, 25.5]
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * context)
    s = size / side
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    tx, ty = size / 2 - 0.5 + s * (0.5 - cx), size / 2 - 0.5 + s * (0.5 - cy)
    return np.array([[s, 0, tx], [0, s, ty]], np.float64)


def crop_box(
    image: np.ndarray, box: Sequence[float], size: int = CROP_SIZE, context: float = CONTEXT
) -> np.ndarray:
    """The size x size BGR crop of one box (see `crop_matrix`), grey outside the image.

    Area interpolation is not available to warpAffine, so a large box (a close-up) is first
    shrunk with INTER_AREA to avoid aliasing the thin glyph strokes.
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * context)
    f = size / side
    if f < 0.5:  # shrink the surrounding region first, then warp at a moderate factor
        pad = side  # enough around the box for the square and a little more
        ix1, iy1 = max(0, int(x1 - pad)), max(0, int(y1 - pad))
        ix2, iy2 = min(image.shape[1], int(x2 + pad) + 1), min(image.shape[0], int(y2 + pad) + 1)
        if ix2 > ix1 and iy2 > iy1:
            k = 2 * f
            region = image[iy1:iy2, ix1:ix2]
            rw, rh = max(1, round((ix2 - ix1) * k)), max(1, round((iy2 - iy1) * k))
            small = cv2.resize(region, (rw, rh), interpolation=cv2.INTER_AREA)
            kx, ky = rw / (ix2 - ix1), rh / (iy2 - iy1)
            box = ((x1 - ix1) * kx, (y1 - iy1) * ky, (x2 - ix1) * kx, (y2 - iy1) * ky)
            m = crop_matrix(box, size, context)  # kx ~= ky: rounding costs well under a crop pixel
            return cv2.warpAffine(
                small, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                borderValue=FILL,
            )
    m = crop_matrix(box, size, context)
    return cv2.warpAffine(
        image, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=FILL
    )


def crops_to_blob(crops: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops to the model's N x 3 x S x S float32 RGB 0..1 input."""
    arr = np.stack(crops).astype(np.float32) / 255.0
    return np.ascontiguousarray(arr[..., ::-1].transpose(0, 3, 1, 2))
