"""The first stage: where the corner indices are, found by a one-class YOLO cut for whole photos.

The model is `models/cards.onnx` (or `$CARDS_MODEL`): a YOLOv8 trained `single_cls` (its one class is
Ultralytics' "item": an index, whatever its card) and cut before its head's post-processing by
`python -m vision.whole_photo --model M`, so it takes any input size (a multiple of 32) and returns
the head's raw `box_dist` and `cls_logits`; the anchors and boxes are decoded in numpy
(`vision.yolo_head`). It takes `images` 1x3xHxW float32 RGB in 0..1. Any other model is refused with
the command that makes one. The cards are named by the second stage (`vision.detector`).

Why this scale: the model was trained on 640-pixel crops of photos whose long side is ~1280, where a
corner index is 12-40 px tall. A 4000x3000 photo squeezed into one 640 input would make the indices
4-13 px, below what the model can read. So the photo is brought to a working scale a little above
the trained one (long side 1440, never enlarged: `ScaleConfig`), and read there in one pass per part
with detail: the seat far from the camera, whose indices are the smallest of the photo, then stands
at 14-20 px instead of 12-18, where the finder misses fewer.

Only the parts of the photo with detail are read (`vision.regions`: the table between the seats is
not), each padded to a multiple of 32, and each keeps the boxes centred in its own core; one NMS
(opencv's `dnn.NMSBoxes`) then merges them. The benchmark's four-seat photo costs 48% of its pixels.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .imageio import ImageSource, Photo, open_photo
from .regions import RegionConfig, detail_regions, region_keeps
from .sessions import open_session
from .yolo_head import OUTPUTS, STRIDES, decode_raw

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "cards.onnx"
MODEL_ENV = "CARDS_MODEL"  # another detector model instead of DEFAULT_MODEL (the CLI, the app)
PROPOSER_NAMES = ("item",)  # Ultralytics' name for the one class of a `single_cls` model
CUT_COMMAND = "python -m vision.whole_photo --model M"
# The box threshold: a proposal threshold, not a decision. At 0.001 the boxes cover 97.1% of the real
# finetune half's indices (0.01: 94.4%) and 89% of generated whole tables', ~130 boxes a 640 photo;
# the classifier's background class rejects the rest.
DEFAULT_BOX_CONF = 0.001


class ModelMissingError(FileNotFoundError):
    """A model file is not there (trained separately, or a path that does not exist)."""


class ModelMismatchError(ValueError):
    """The ONNX model is not a one-class index finder cut for whole photos."""


def model_class_names(session) -> list[str] | None:
    """The class names in the ONNX metadata (Ultralytics writes "{0: 'item'}"), or None."""
    try:
        meta = session.get_modelmeta().custom_metadata_map
    except AttributeError:
        return None
    raw = meta.get("names")
    if not raw:
        return None
    names = ast.literal_eval(raw)
    return [str(names[k]) for k in sorted(names)] if isinstance(names, dict) else [str(n) for n in names]


def model_strides(session) -> tuple[int, ...]:
    """The head's strides from the metadata `vision.whole_photo` writes ("8,16,32"), else YOLOv8's."""
    try:
        raw = session.get_modelmeta().custom_metadata_map.get("strides", "")
    except AttributeError:
        return STRIDES
    parts = [p.strip() for p in str(raw).split(",")]
    return tuple(int(p) for p in parts) if parts and all(p.isdigit() for p in parts) else STRIDES


def check_proposer(session, name: str = "the detector model") -> None:
    """Refuse a model this runtime cannot read, saying what it is and what to do instead.

    It must be cut for whole photos (outputs `box_dist`, `cls_logits`) and have the one class "item":
    a model trained on the 54 cards would have every proposal named by its first class.
    """
    outputs = tuple(o.name for o in session.get_outputs())
    if outputs != OUTPUTS:
        raise ModelMismatchError(
            f"{name} has outputs {list(outputs)}, not {list(OUTPUTS)}: it is not cut for whole photos "
            f"(make it so with `{CUT_COMMAND}`)")
    names = model_class_names(session)
    if tuple(names or ()) != PROPOSER_NAMES:
        raise ModelMismatchError(
            f"{name} has classes {names}, not {list(PROPOSER_NAMES)}: the runtime reads a one-class index "
            f"finder (`python -m vision.train --single-cls`, then `{CUT_COMMAND}`); the index classifier "
            f"names the cards")


@dataclass(frozen=True)
class ScaleConfig:
    """The working scale a photo is read at.

    - `long_side`: the working long side in pixels: 1440, an eighth above the ~1280 the model was
      trained at, so a far seat's small indices are larger; a photo no larger is read as it is.
    - `max_upscale`: how much a small photo may be enlarged (1.0 = never).
    """

    long_side: int = 1440
    max_upscale: float = 1.0

    def factor(self, w: int, h: int) -> float:
        """Working pixels per pixel of a w x h image.

        >>> ScaleConfig().factor(4000, 3000), ScaleConfig().factor(640, 480)
        (0.36, 1.0)
        """
        return round(min(self.max_upscale, self.long_side / max(w, h)), 6)


def working_image(photo: Photo, cfg: ScaleConfig) -> tuple[np.ndarray, float]:
    """The image the model reads (`photo` at `cfg`'s scale) and its pixels per original pixel."""
    h, w = photo.image.shape[:2]
    s = cfg.factor(w, h)
    img = photo.image
    if s != 1.0:
        size = (max(1, round(w * s)), max(1, round(h * s)))
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    return img, photo.scale * s


def to_photo(boxes: np.ndarray, total_scale: float, photo: Photo) -> np.ndarray:
    """Working-image boxes in pixels of the original photo (`working_image`'s scale undone), clipped."""
    boxes = boxes / total_scale
    np.clip(boxes, 0, [photo.width, photo.height, photo.width, photo.height], out=boxes)
    return boxes


def tile_blob(image_bgr: np.ndarray, input_hw: tuple[int, int]) -> np.ndarray:
    """A BGR image (<= `input_hw`) padded bottom-right with grey as the model's 1x3xHxW RGB 0..1 input.

    Shared with `vision.quantize`, so int8 calibration sees exactly what the runtime feeds.
    """
    th, tw = input_hw
    h, w = image_bgr.shape[:2]
    if (h, w) != (th, tw):
        pad = (0, th - h, 0, tw - w)
        image_bgr = cv2.copyMakeBorder(image_bgr, *pad, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return cv2.dnn.blobFromImage(image_bgr, 1 / 255.0, swapRB=True)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by non-maximum suppression (opencv), best first."""
    if len(boxes) == 0:
        return np.zeros(0, int)
    xywh = np.column_stack([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]]).astype(np.float32)
    keep = cv2.dnn.NMSBoxes(xywh.tolist(), scores.astype(np.float32).tolist(), 0.0, iou)
    keep = np.asarray(keep, int).reshape(-1)
    return keep[np.argsort(-scores[keep], kind="stable")]


class Proposer:
    """Boxes that may be corner indices, best first: the one-class model over a photo's regions.

    `session` may be any object with onnxruntime's `get_inputs()` / `get_outputs()` / `run()` and
    the metadata (`get_modelmeta()`) of a cut one-class model (tests pass fakes). `conf` is the
    model's box threshold (a proposal threshold: the classifier decides), `iou` the NMS overlap.
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        session=None,
        threads: int = 2,
        conf: float = DEFAULT_BOX_CONF,
        iou: float = 0.5,
        scale: ScaleConfig | None = None,
        regions: RegionConfig | None = None,
    ) -> None:
        self.model_path: Path | None = None
        if session is None:
            path = Path(model or os.environ.get(MODEL_ENV) or DEFAULT_MODEL)
            if not path.exists():
                raise ModelMissingError(f"detector model not found: {path} (train it or set {MODEL_ENV})")
            session = open_session(path, threads)
            self.model_path = path
        check_proposer(session, str(self.model_path or "the detector model"))
        self.session = session
        self.input_name = session.get_inputs()[0].name
        self.strides = model_strides(session)
        self.conf, self.iou = conf, iou
        self.scale = scale or ScaleConfig()
        # each region keeps the photo's anchors only when its cell grid is a multiple of the largest stride
        self.regions = regions or RegionConfig()
        if self.regions.cell % max(self.strides):
            raise ValueError(f"RegionConfig.cell {self.regions.cell} is not a multiple of the model's "
                             f"largest stride {max(self.strides)}")

    def infer_whole(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One pass over `image`, padded to the largest stride: boxes (clipped to it) and scores."""
        H, W = image.shape[:2]
        step = max(self.strides)
        hw = (-(-H // step) * step, -(-W // step) * step)
        box_dist, cls_logits = self.session.run(list(OUTPUTS), {self.input_name: tile_blob(image, hw)})[:2]
        b, s, _ = decode_raw(box_dist, cls_logits, hw, self.strides, self.conf)
        np.clip(b, 0, [W, H, W, H], out=b)
        return b, s

    def propose_working(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (xyxy, pixels of the BGR working `image`) and scores after NMS, best first."""
        parts = []
        for region in detail_regions(image, self.regions):
            x0, y0, x1, y1 = region.window
            b, s = self.infer_whole(image[y0:y1, x0:x1])
            b += np.array([x0, y0, x0, y0], np.float32)
            own = region_keeps(region, b, image.shape[1], image.shape[0])
            parts.append((b[own], s[own]))
        if not parts:  # no detail anywhere: an empty table, a blank photo
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
        boxes, scores = (np.concatenate(a) for a in zip(*parts, strict=True))
        # each index is kept from the one window whose core holds its centre: one NMS merges them
        keep = nms(boxes, scores, self.iou)
        return boxes[keep], scores[keep]

    def propose(self, image: ImageSource) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (xyxy, pixels of the original EXIF-rotated image) and scores, best first."""
        photo = open_photo(image, long_side=self.scale.long_side)
        work, total = working_image(photo, self.scale)
        boxes, scores = self.propose_working(work)
        return to_photo(boxes, total, photo), scores
