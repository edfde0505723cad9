"""Second stage: classify each detected corner index from its own crop (onnxruntime, no torch).

Why a second stage: the 54-way YOLO head learns boxes quickly but its classification lags far behind
on a CPU budget. A small CNN that only ever sees one index, square and at a fixed size, learns the
55-way question (54 cards + "not an index") from the same synthetic data in minutes, and its
"background" answer lets the detector run at a low box threshold and still reject false boxes.

The crop geometry (`crop_box`) is shared with `datasets.crops`, so training and runtime crops match
exactly: the box's longer side plus `CONTEXT` on each side, as a square centred on the box, resized
to `CROP_SIZE`; whatever falls outside the image is filled with grey (114, like the YOLO letterbox).

The ONNX model takes `crops` N x 3 x S x S float32 RGB in 0..1 and returns N x 55 logits; its
metadata holds `names` (the 55 class names, background last) and `crop_size`.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASS_NAMES
from .int8 import check_int8

CROP_SIZE = 56  # the shipped classifier's input (its ONNX metadata says so too); 40 until run 10
CONTEXT = 0.15  # of the box's longer side, added on each side: the glyph edges survive a loose box
BACKGROUND = "bg"
CLASSIFIER_NAMES: tuple[str, ...] = (*CLASS_NAMES, BACKGROUND)
FILL = (114, 114, 114)
REFINE_CONTEXTS = (0.1, 0.2)  # second and third reads of a likely index (see `probabilities`)
REFINE_BELOW_BG = 0.5
REFINE_BELOW_TOP = 0.9  # ... and only while its first read is unsure (no card as likely as this)

DEFAULT_CLASSIFIER = Path(__file__).resolve().parent.parent / "models" / "index_classifier.onnx"
CLASSIFIER_ENV = "CARDS_CLASSIFIER"  # another classifier file instead of the one beside the model


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


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def resolve_classifier(option: str | Path, model_path: Path | None = None) -> Path | None:
    """Which classifier file a detector uses (the caller says what a missing file means).

    - a path: that file.
    - "auto": `$CARDS_CLASSIFIER` when set, else `index_classifier.onnx` beside the detector's own
      model file when there is one (else None). A classifier is paired with the detector it sits
      beside, so a detector loaded from elsewhere (a test fixture, a candidate checkpoint) is not
      silently combined with an unrelated classifier.
    """
    if str(option) != "auto":
        return Path(option)
    env = os.environ.get(CLASSIFIER_ENV, "")
    if env:
        return Path(env)
    if model_path is None:
        return None
    sibling = Path(model_path).parent / DEFAULT_CLASSIFIER.name
    return sibling if sibling.exists() else None


class IndexClassifier:
    """Reads the card of each box from its crop; create once (the ONNX session loads once).

    `session` may be any object with onnxruntime's `get_inputs()` / `run()` (tests pass fakes).
    """

    def __init__(self, model: str | Path | None = None, *, session=None, threads: int = 2, batch: int = 256):
        if session is None:
            path = Path(model or DEFAULT_CLASSIFIER)
            if not path.exists():
                raise FileNotFoundError(f"index classifier not found: {path}")
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
            session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            check_int8(session, path)
            self.model_path: Path | None = path
        else:
            self.model_path = None
        self.session = session
        inp = session.get_inputs()[0]
        self.input_name = inp.name
        size = inp.shape[-1]
        self.names, meta_size = self._metadata(session)
        self.size = int(size) if isinstance(size, int) else (meta_size or CROP_SIZE)
        self.context = CONTEXT
        self.refine_contexts: tuple[float, ...] = REFINE_CONTEXTS
        self.batch = batch
        if list(self.names[:-1]) != list(CLASS_NAMES) or self.names[-1] != BACKGROUND:
            raise ValueError("index classifier classes are not CLASS_NAMES + background")

    @staticmethod
    def _metadata(session) -> tuple[tuple[str, ...], int | None]:
        try:
            meta = session.get_modelmeta().custom_metadata_map
        except AttributeError:
            return CLASSIFIER_NAMES, None
        names = tuple(ast.literal_eval(meta["names"])) if meta.get("names") else CLASSIFIER_NAMES
        size = int(meta["crop_size"]) if str(meta.get("crop_size", "")).isdigit() else None
        return names, size

    def probabilities(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """N x 55 softmax probabilities (background last) for xyxy `boxes` in `image` pixels.

        Boxes that may be an index (P(background) < `REFINE_BELOW_BG`) and whose first read is unsure
        (top card < `REFINE_BELOW_TOP`) are read again from crops with a little less and a little
        more context (`REFINE_CONTEXTS`) and the probabilities averaged: the detector's box is never
        exact, and one crop whose edge cuts a stroke can flip a rank. Most proposals are plain
        background or read surely the first time and are read once (run 10 on the decision sets:
        re-reading every likely index instead gave the same cards, for ~40% more classifier time).
        """
        if len(boxes) == 0:
            return np.zeros((0, len(self.names)), np.float32)
        p = self._run(image, boxes, self.context)
        if self.refine_contexts:
            idx = np.flatnonzero((p[:, -1] < REFINE_BELOW_BG) & (p[:, :-1].max(1) < REFINE_BELOW_TOP))
            if len(idx):
                more = [self._run(image, boxes[idx], c) for c in self.refine_contexts]
                p[idx] = (p[idx] + sum(more)) / (1 + len(more))
        return p

    def _run(self, image: np.ndarray, boxes: np.ndarray, context: float) -> np.ndarray:
        crops = [crop_box(image, b, self.size, context) for b in boxes]
        out = []
        for i in range(0, len(crops), self.batch):
            logits = self.session.run(None, {self.input_name: crops_to_blob(crops[i : i + self.batch])})[0]
            out.append(softmax(np.asarray(logits, np.float64)))
        return np.concatenate(out).astype(np.float32)
