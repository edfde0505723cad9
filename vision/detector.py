"""Corner-index detection with onnxruntime: resize, run (parts with detail or tiles), decode, merge. No torch.

The model (an Ultralytics ONNX export, no NMS inside) takes `images` 1x3xHxW float32 RGB in 0..1 and
returns either 1x(4+nc)xN (cx, cy, w, h in input pixels, then nc sigmoid class scores: a standard
fixed-size export) or the head's raw `box_dist` and `cls_logits` (a model cut by `vision.whole_photo`).

Why this scale: the model was trained on 640-pixel crops of photos whose long side is ~1280, where a
corner index is 12-40 px tall. A 4000x3000 photo squeezed into one 640 input would make the indices
4-13 px, below what the model can read. So the photo is brought to that working scale (long side
1280, never enlarged much).

Whole photo or tiles: the shipped model is cut before its head's post-processing
(`vision.whole_photo`), so it takes any input size and the working photo is read in one pass (padded to
a multiple of 32; the anchors and boxes are decoded in numpy, `vision.yolo_head`): 1.23 Mpx of
convolutions for a 1280x960 photo, where four overlapping 640 tiles of it cost 1.64 Mpx and a merge.
Only the parts of the photo with detail are read (`vision.regions`: the table between the seats is
not), each in its own pass, and each pass keeps the boxes centred in its own core: the benchmark's
four-seat photo costs 48% of its pixels.
A standard fixed-size export (output 1x(4+nc)xN) still works: the photo is then cut into model-sized
tiles that overlap by more than an index, and the boxes from all tiles are merged.

Why not supervision's `InferenceSlicer`: it depends on `opencv-python` (the GUI build, which clashes
with the `opencv-python-headless` this project ships), matplotlib and scipy, and its per-slice NMS
drops the per-class score vectors the deck constraints need. What is left to write is ~60 lines of
arithmetic; NMS itself is opencv's `dnn.NMSBoxes`.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASS_NAMES
from .classifier import CLASSIFIER_ENV, IndexClassifier, resolve_classifier
from .imageio import ImageSource, Photo, open_photo
from .int8 import check_int8
from .regions import RegionConfig, detail_regions, region_keeps
from .types import Detection
from .yolo_head import OUTPUTS as WHOLE_PHOTO_OUTPUTS
from .yolo_head import STRIDES, decode_raw

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "cards.onnx"
MODEL_ENV = "CARDS_MODEL"  # overrides the default model path (tests, benchmarks, the app)
DEFAULT_CONF = 0.25  # operating threshold on YOLO's own class score
# ...and on the second stage's P(card): chosen on the real finetune half and a generated tuning set
# (seed 5151, not the benchmark's), never on the test half. Card F1 at 0.5 / 0.6 / 0.7: real finetune
# 0.926 / 0.942 / 0.950, generated 0.893 / 0.884 / 0.866 (classifier run 5, box_conf 0.001); run 7
# was as flat between 0.6 and 0.7 (finetune 0.942 / 0.948, generated 0.884 / 0.880).
DEFAULT_CLASSIFIER_CONF = 0.6
# YOLO's box threshold under the second stage: a proposal threshold, not a decision. At 0.001 the
# one-class YOLO's boxes cover 97.1% of the real finetune half's indices (0.01: 94.4%) and 89% of
# generated whole tables', ~130 boxes a 640 photo; the classifier's background class rejects the rest.
DEFAULT_BOX_CONF = 0.001
DEDUPE_IOU = 0.3  # two reads this close after the second stage: one index read twice (any names)
DEDUPE_CONTAINED = 0.5  # ... or this much of the smaller read's box inside the surer one's
# A proposal overlapping a better-scored one that the classifier read as a card this sure is not read
# (`Detector.read_crops`). Chosen on the real finetune half and 100 generated tables (seed 5151), whole-photo
# YOLO, refinement below P(bg) 0.5: off / 0.95 / 0.9 / 0.8 -> crops per table 451 / 382 / 351 / 336, tables
# exact 14 / 14 / 17 / 20, cards right 3608 / 3604 / 3611 / 3609 of 4147; real F1 0.964 -> 0.965 for all.
DEFAULT_SKIP_SURE = 0.8
MAX_PROPOSALS = 1000  # boxes handed to the second stage per photo (~150 a tile at box_conf 0.001)


class ModelMissingError(FileNotFoundError):
    """The ONNX model file is not there (it is trained separately and not in every checkout)."""


class ModelMismatchError(ValueError):
    """The ONNX model's class names (Ultralytics metadata) are not `CLASS_NAMES` in order."""


PROPOSER_NAMES = ("item",)  # Ultralytics' name for the one class of a `single_cls` model


def model_class_names(session) -> list[str] | None:
    """The class names in the ONNX metadata (Ultralytics writes "{0: 'As', 1: 'Ks', ...}"), or None."""
    try:
        meta = session.get_modelmeta().custom_metadata_map
    except AttributeError:
        return None
    raw = meta.get("names")
    if not raw:
        return None
    import ast

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


def is_proposer(session) -> bool:
    """A one-class model (trained `single_cls`): it finds corner indices, the classifier names them."""
    return tuple(model_class_names(session) or ()) == PROPOSER_NAMES


def check_class_names(session, expected: Sequence[str] = CLASS_NAMES) -> None:
    """Refuse a model trained on another class list or order, instead of misreading every card.

    Models without names, with bare numbers (an untrained placeholder), or a one-class index
    proposer (`is_proposer`, which only ever runs with the classifier) pass.
    """
    names = model_class_names(session)
    if not names or all(n.isdigit() for n in names) or is_proposer(session):
        return
    if list(names) != list(expected):
        pairs = enumerate(zip(names, expected, strict=False))
        bad = next((i for i, (a, b) in pairs if a != b), min(len(names), len(expected)))
        raise ModelMismatchError(
            f"model classes differ from vision.classes at index {bad} "
            f"({len(names)} names, e.g. {names[bad] if bad < len(names) else None!r})"
        )


@dataclass(frozen=True)
class TileConfig:
    """How a photo is brought to the model's scale and cut into tiles.

    - `long_side`: the working long side in pixels (the scale the model was trained at).
    - `max_upscale`: how much a small photo may be enlarged (1.0 = never).
    - `overlap`: tile overlap in working pixels; must exceed the tallest index (~40 px at 1280).
    - `shrink_to_save_tiles`: the working scale may drop by up to this fraction when that saves a
      row or column of tiles (1280x960 needs 3x2 tiles of 640 with overlap 64, 1216x912 only 2x2).
    - `rotate_to_fit`: turn a portrait photo 90 degrees for a landscape input (and back) when that
      needs fewer tiles; the model sees cards at every rotation in training.

    A whole-photo model (`vision.whole_photo`) has no tiles: it uses `long_side` and `max_upscale`
    only (at the shrunk 1216x912 it read 22 fewer of 4,147 cards on 100 generated tables).
    """

    long_side: int = 1280
    max_upscale: float = 1.0
    overlap: int = 64
    shrink_to_save_tiles: float = 0.1
    rotate_to_fit: bool = True


def tile_config_from_metadata(session) -> TileConfig:
    """The working scale the model was trained at, when the export recorded it.

    A model trained with `imgsz=416` on 640-pixel crops of 1280-pixel photos saw indices at 0.65x
    that scale, so it reads best (and 2.4x cheaper) at a working long side of 832. The export can say
    so in the ONNX metadata: `working_long_side` (pixels) and optionally `tile_overlap`.
    """
    try:
        meta = session.get_modelmeta().custom_metadata_map
    except AttributeError:
        return TileConfig()
    kw = {}
    if str(meta.get("working_long_side", "")).isdigit():
        kw["long_side"] = int(meta["working_long_side"])
    if str(meta.get("tile_overlap", "")).isdigit():
        kw["overlap"] = int(meta["tile_overlap"])
    return TileConfig(**kw)


def tile_origins(length: int, tile: int, overlap: int) -> list[int]:
    """Start offsets of tiles covering `length`, evenly spread, each overlapping by >= `overlap`.

    >>> tile_origins(500, 640, 64), tile_origins(1280, 640, 64), tile_origins(1216, 640, 64)
    ([0], [0, 320, 640], [0, 576])
    """
    if length <= tile:
        return [0]
    overlap = min(overlap, tile // 2)
    n = math.ceil((length - overlap) / (tile - overlap))
    return [round(i * (length - tile) / (n - 1)) for i in range(n)]


def _count(length: float, tile: int, overlap: int) -> int:
    overlap = min(overlap, tile // 2)
    return 1 if length <= tile else math.ceil((length - overlap) / (tile - overlap))


def plan_scale(w: int, h: int, input_hw: tuple[int, int], cfg: TileConfig) -> tuple[float, bool]:
    """Working scale for a w x h photo and whether to rotate it: fewest tiles, then largest scale.

    >>> plan_scale(4000, 3000, (640, 640), TileConfig())
    (0.304, False)
    >>> plan_scale(3000, 4000, (960, 1280), TileConfig())
    (0.32, True)
    """
    th, tw = input_hw
    base = min(cfg.max_upscale, cfg.long_side / max(w, h))
    best: tuple[int, float, bool] | None = None
    for rot in (False, True) if cfg.rotate_to_fit and th != tw else (False,):
        W, H = (h, w) if rot else (w, h)
        cands = {base}
        for n in range(1, 16):  # scales at which one fewer tile is needed along an axis
            for L, T in ((W, tw), (H, th)):
                ov = min(cfg.overlap, T // 2)
                s = (n * (T - ov) + ov if n > 1 else T) / L
                if base * (1 - cfg.shrink_to_save_tiles) - 1e-9 <= s < base:
                    cands.add(s)
        for s in cands:
            n = _count(W * s, tw, cfg.overlap) * _count(H * s, th, cfg.overlap)
            key = (n, -s, rot)
            if best is None or key < (best[0], -best[1], best[2]):
                best = (n, s, rot)
    assert best is not None
    return round(best[1], 6), best[2]


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float, classes: np.ndarray | None = None) -> np.ndarray:
    """Indices kept by non-maximum suppression (opencv), best first; class-aware if `classes`."""
    if len(boxes) == 0:
        return np.zeros(0, int)
    xywh = np.column_stack([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]]).astype(np.float32)
    if classes is None:
        keep = cv2.dnn.NMSBoxes(xywh.tolist(), scores.astype(np.float32).tolist(), 0.0, iou)
    else:
        keep = cv2.dnn.NMSBoxesBatched(
            xywh.tolist(), scores.astype(np.float32).tolist(), classes.astype(np.int32).tolist(), 0.0, iou
        )
    keep = np.asarray(keep, int).reshape(-1)
    return keep[np.argsort(-scores[keep], kind="stable")]


def overlaps(boxes: np.ndarray) -> np.ndarray:
    """N x N: two boxes the second stage's dedupe would call one index (IoU >= `DEDUPE_IOU`, or
    `DEDUPE_CONTAINED` of the smaller one inside the other); the diagonal is True."""
    x1 = np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    y1 = np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    x2 = np.minimum(boxes[:, None, 2], boxes[None, :, 2])
    y2 = np.minimum(boxes[:, None, 3], boxes[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1)
    union = area[:, None] + area[None, :] - inter
    small = np.minimum(area[:, None], area[None, :])
    return (inter >= DEDUPE_IOU * union) | (inter >= DEDUPE_CONTAINED * small) & (inter > 0)


def suppress_contained(
    boxes: np.ndarray, scores: np.ndarray, tiles: np.ndarray, ratio: float = 0.7, limit: int | None = None
) -> np.ndarray:
    """Drop a box mostly inside a better box from another tile (a cut-off copy of the same index).

    Plain IoU misses this: a half-visible index at a tile edge has IoU ~0.5 with its whole copy.
    A box is judged only against better boxes already kept, so stopping after `limit` kept boxes
    gives exactly the first `limit` of the full answer (the second stage takes no more).
    """
    order = np.argsort(-scores, kind="stable")
    n = len(order) if limit is None else min(len(order), limit)
    kept_boxes = np.empty((n, 4), np.float64)
    kept_area = np.empty(n, np.float64)
    kept_tile = np.empty(n, tiles.dtype)
    keep: list[int] = []
    area = np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1)
    for i in order:
        if len(keep) == n:
            break
        k = len(keep)
        if k:
            kb = kept_boxes[:k]
            iw = np.minimum(boxes[i, 2], kb[:, 2]) - np.maximum(boxes[i, 0], kb[:, 0])
            ih = np.minimum(boxes[i, 3], kb[:, 3]) - np.maximum(boxes[i, 1], kb[:, 1])
            hit = (kept_tile[:k] != tiles[i]) & (iw > 0) & (ih > 0)
            hit &= iw * ih >= ratio * np.minimum(area[i], kept_area[:k])
            if hit.any():
                continue
        kept_boxes[k], kept_area[k], kept_tile[k] = boxes[i], area[i], tiles[i]
        keep.append(int(i))
    return np.asarray(keep, int)


def tile_blob(tile_bgr: np.ndarray, input_hw: tuple[int, int]) -> np.ndarray:
    """A BGR tile (<= input size) padded bottom-right with grey as the model's 1x3xHxW RGB 0..1 input.

    Shared with `vision.quantize`, so int8 calibration sees exactly what the runtime feeds.
    """
    th, tw = input_hw
    h, w = tile_bgr.shape[:2]
    if (h, w) != (th, tw):
        pad = (0, th - h, 0, tw - w)
        tile_bgr = cv2.copyMakeBorder(tile_bgr, *pad, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return cv2.dnn.blobFromImage(tile_bgr, 1 / 255.0, swapRB=True)


def decode(raw: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw (4+nc, N) or (1, 4+nc, N) output to xyxy boxes, top scores and full score rows.

    >>> raw = np.zeros((1, 6, 2), np.float32); raw[0, :, 0] = [50, 40, 20, 10, 0.9, 0.1]
    >>> b, s, p = decode(raw, 0.25); b.tolist(), s.tolist(), p.shape
    ([[40.0, 35.0, 60.0, 45.0]], [0.8999999761581421], (1, 2))
    """
    pred = raw.reshape(raw.shape[-2], raw.shape[-1]).T if raw.ndim == 3 else raw.T
    probs = pred[:, 4:]
    top = probs.max(axis=1)
    m = top >= conf
    pred, probs, top = pred[m], probs[m], top[m]
    cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
    boxes = np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]).astype(np.float32)
    return boxes, top.astype(np.float32), probs.astype(np.float32)


class Detector:
    """An ONNX card-index detector; create once, call `detect` per photo.

    `session` may be any object with onnxruntime's `get_inputs()` / `run()` (tests pass fakes).

    Optional second stage (`vision.classifier`): with a `classifier` (a path, an `IndexClassifier`,
    or "auto": `$CARDS_CLASSIFIER`, else `index_classifier.onnx` beside the model file), the YOLO
    keeps boxes down to `box_conf` on its top class score, and each kept box is re-read from its crop:
    the card, the 54 scores (background removed, renormalised) and the confidence (the probability of
    that card, background included) come from the classifier, or from its product with YOLO's scores
    when `fuse="product"`; a box the classifier calls background with probability >= `bg_drop` is
    dropped, and then the operating threshold `conf` applies to the new confidence (default 0.6 with
    the classifier, 0.25 without).

    With the classifier, a proposal that overlaps a better-scored one read as a card at least
    `skip_sure` sure is not read at all (`read_crops`; None reads every proposal).

    A whole-photo model reads only the parts of the photo with detail, `regions`
    (`vision.regions.RegionConfig`; `RegionConfig(enabled=False)` reads every photo whole).

    A one-class model (`is_proposer`: YOLO trained `single_cls`, an index finder) needs the
    classifier; `unnamed_ok=True` lets it run alone for its boxes and scores only (proposal mining),
    where every detection carries the first class name.
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        session=None,
        threads: int = 2,
        conf: float | None = None,
        iou: float = 0.5,
        agnostic: bool = True,
        max_det: int = 300,
        tiles: TileConfig | None = None,
        class_names: Sequence[str] = CLASS_NAMES,
        classifier: str | Path | IndexClassifier | None = "auto",
        box_conf: float = DEFAULT_BOX_CONF,
        bg_drop: float = 0.5,
        fuse: str = "classifier",
        unnamed_ok: bool = False,
        skip_sure: float | None = DEFAULT_SKIP_SURE,
        regions: RegionConfig | None = None,
    ) -> None:
        if session is None:
            path = Path(model or os.environ.get(MODEL_ENV) or DEFAULT_MODEL)
            if not path.exists():
                raise ModelMissingError(f"detector model not found: {path} (train it or set {MODEL_ENV})")
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            check_int8(session, path)
            self.model_path: Path | None = path
        else:
            self.model_path = None
        check_class_names(session, class_names)
        self.session = session
        inp = session.get_inputs()[0]
        self.input_name = inp.name
        shape = list(inp.shape)
        h, w = shape[2], shape[3]
        self.input_hw = (h if isinstance(h, int) else 640, w if isinstance(w, int) else 640)
        # A model cut before its head's post-processing (`vision.whole_photo`) reads the whole working
        # photo in one pass; `input_hw` then only sets the working scale, as the tiles it replaced did.
        outputs = tuple(o.name for o in session.get_outputs()) if hasattr(session, "get_outputs") else ()
        self.whole_photo = outputs == WHOLE_PHOTO_OUTPUTS
        self.strides = model_strides(session) if self.whole_photo else STRIDES
        self.iou, self.agnostic, self.max_det = iou, agnostic, max_det
        self.tiles = tiles or tile_config_from_metadata(session)
        # A whole-photo model reads only the photo's regions with detail (`vision.regions`); their
        # cell grid must be a multiple of the largest stride so each region keeps the photo's anchors.
        self.regions = regions or RegionConfig()
        if self.whole_photo and self.regions.cell % max(self.strides):
            raise ValueError(f"RegionConfig.cell {self.regions.cell} is not a multiple of the model's "
                             f"largest stride {max(self.strides)}")
        self.class_names = tuple(class_names)
        if isinstance(classifier, IndexClassifier):
            self.classifier: IndexClassifier | None = classifier
        else:
            cpath = resolve_classifier(classifier, self.model_path)
            self.classifier = IndexClassifier(cpath, threads=threads) if cpath is not None else None
        self.box_conf, self.bg_drop, self.fuse = box_conf, bg_drop, fuse
        self.skip_sure = skip_sure
        self.proposer = is_proposer(session)
        if self.proposer and self.classifier is None and not unnamed_ok:
            raise ModelMismatchError(
                f"{self.model_path or 'the detector model'} is a one-class index finder: it needs the index "
                f"classifier to name the cards (index_classifier.onnx beside it, or ${CLASSIFIER_ENV})"
            )
        if self.proposer and fuse != "classifier":
            raise ValueError("fuse='product' needs the detector's 54 card scores; a one-class model has none")
        if conf is None:
            conf = DEFAULT_CLASSIFIER_CONF if self.classifier is not None else DEFAULT_CONF
        self.conf = conf

    # -- the second stage -----------------------------------------------------------------------
    def reclassify(
        self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Re-read kept boxes (working-image pixels) with the classifier; drop background boxes."""
        assert self.classifier is not None
        p = self.read_crops(image, boxes)
        bg = p[:, -1]
        cards = p[:, :-1]
        if self.fuse == "product":
            cards = cards * np.sqrt(np.clip(probs, 1e-4, 1.0))
            cards = cards / np.maximum(cards.sum(1, keepdims=True), 1e-12) * (1 - bg)[:, None]
        conf = cards.max(1)
        norm = cards / np.maximum(cards.sum(1, keepdims=True), 1e-12)
        keep = np.flatnonzero((bg < self.bg_drop) & (conf >= self.conf))
        # Two proposals on one index both survive YOLO's NMS when they overlap less than `iou`
        # (a tight box and a loose one); two readable indices never overlap this much, so the surer
        # read stays whatever the other was read as (class-aware, a 3h box beside a 3d box on one
        # index made the sample photo's seat 14 cards; real finetune half F1 0.952 -> 0.963,
        # held-out generated 0.913 -> 0.915).
        keep = keep[nms(boxes[keep], conf[keep], DEDUPE_IOU)]
        # A partial box on one index (half of it, or turned the other way on a sideways seat) can
        # overlap the whole box by IoU < 0.3 and still lie mostly inside it: the sample photo's
        # sideways Th came out as Th plus a Td box half inside it (IoU 0.29, 62% inside).
        # (each box its own "tile": every pair is compared, not only boxes from different tiles)
        inside = suppress_contained(boxes[keep], conf[keep], np.arange(len(keep)), DEDUPE_CONTAINED)
        keep = keep[inside][: self.max_det]
        return boxes[keep], conf[keep].astype(np.float32), norm[keep]

    def read_crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The classifier's probabilities for `boxes` (best YOLO score first), background last.

        With `skip_sure`, a box that overlaps a better-scored box as the dedupe would (IoU >=
        `DEDUPE_IOU` or half inside) is read only when that box did not come out a sure card (P(card)
        >= `skip_sure`): the dedupe would keep the surer read of the two, and a sure read rarely loses.
        Skipped boxes count as background.
        """
        assert self.classifier is not None
        if self.skip_sure is None or len(boxes) < 2:
            return self.classifier.probabilities(image, boxes).astype(np.float32)
        over = np.triu(overlaps(boxes), 1).T  # over[i, j]: j < i is a better box overlapping i
        first = ~over.any(axis=1)
        read = self.classifier.probabilities(image, boxes[first]).astype(np.float32)
        p = np.zeros((len(boxes), read.shape[1]), np.float32)
        p[:, -1] = 1.0
        p[first] = read
        sure = first & (p[:, -1] < self.bg_drop) & (p[:, :-1].max(axis=1) >= self.skip_sure)
        second = ~first & ~(over & sure[None, :]).any(axis=1)
        if second.any():
            p[second] = self.classifier.probabilities(image, boxes[second])
        return p

    # -- one model call -------------------------------------------------------------------------
    def infer_tile(self, tile_bgr: np.ndarray) -> np.ndarray:
        """Run the model on one tile (<= input size), return raw output."""
        return self.session.run(None, {self.input_name: tile_blob(tile_bgr, self.input_hw)})[0]

    def infer_whole(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One pass of a cut model over the whole image, padded to the largest stride: boxes, scores, rows."""
        H, W = image.shape[:2]
        step = max(self.strides)
        hw = (-(-H // step) * step, -(-W // step) * step)
        box_dist, cls_logits = self.session.run(list(WHOLE_PHOTO_OUTPUTS),
                                                {self.input_name: tile_blob(image, hw)})[:2]
        b, s, p = decode_raw(box_dist, cls_logits, hw, self.strides, self.decode_conf)
        np.clip(b, 0, [W, H, W, H], out=b)
        return b, s, p

    # -- a whole photo --------------------------------------------------------------------------
    def detect_photo(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (working-image pixels), scores, class-probability rows for a BGR working image."""
        if self.whole_photo:
            parts = []
            for region in detail_regions(image, self.regions):
                x0, y0, x1, y1 = region.window
                b, s, p = self.infer_whole(image[y0:y1, x0:x1])
                b += np.array([x0, y0, x0, y0], np.float32)
                own = region_keeps(region, b, image.shape[1], image.shape[0])
                parts.append((b[own], s[own], p[own]))
            if not parts:  # no detail anywhere: an empty table, a blank photo
                return (np.zeros((0, 4), np.float32), np.zeros(0, np.float32),
                        np.zeros((0, len(self.class_names)), np.float32))
            boxes, scores, probs = (np.concatenate(a) for a in zip(*parts, strict=True))
            # each index is kept from the one window whose core holds its centre: one NMS, no tile rules
            return self._merge(image, boxes, scores, probs, np.zeros(len(boxes), int))
        th, tw = self.input_hw
        H, W = image.shape[:2]
        ov = self.tiles.overlap
        all_b, all_s, all_p, all_t = [], [], [], []
        grid = [(y, x) for y in tile_origins(H, th, ov) for x in tile_origins(W, tw, ov)]
        for ti, (y0, x0) in enumerate(grid):
            tile = image[y0 : y0 + th, x0 : x0 + tw]
            b, s, p = decode(self.infer_tile(tile), self.decode_conf)
            h, w = tile.shape[:2]
            np.clip(b, 0, [w, h, w, h], out=b)
            # A box cut by an inner tile edge is seen whole by the neighbour when it is smaller than
            # the overlap: drop the cut copy here instead of hoping NMS catches it.
            m = 2.0
            small_w = (b[:, 2] - b[:, 0]) < ov - m
            small_h = (b[:, 3] - b[:, 1]) < ov - m
            cut = np.zeros(len(b), bool)
            if x0 > 0:
                cut |= (b[:, 0] <= m) & small_w
            if x0 + w < W:
                cut |= (b[:, 2] >= w - m) & small_w
            if y0 > 0:
                cut |= (b[:, 1] <= m) & small_h
            if y0 + h < H:
                cut |= (b[:, 3] >= h - m) & small_h
            b, s, p = b[~cut], s[~cut], p[~cut]
            b += np.array([x0, y0, x0, y0], np.float32)
            all_b.append(b)
            all_s.append(s)
            all_p.append(p)
            all_t.append(np.full(len(b), ti))
        boxes = np.concatenate(all_b) if all_b else np.zeros((0, 4), np.float32)
        scores = np.concatenate(all_s) if all_s else np.zeros(0, np.float32)
        probs = np.concatenate(all_p) if all_p else np.zeros((0, len(self.class_names)), np.float32)
        tiles = np.concatenate(all_t) if all_t else np.zeros(0, int)
        return self._merge(image, boxes, scores, probs, tiles)

    def _merge(self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray,
               tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """NMS over every tile's boxes, cut copies across tiles dropped, then the second stage."""
        keep = nms(boxes, scores, self.iou, None if self.agnostic else probs.argmax(1))
        if len(keep) and tiles.max() > 0:
            limit = MAX_PROPOSALS if self.classifier is not None else self.max_det
            keep = keep[suppress_contained(boxes[keep], scores[keep], tiles[keep], limit=limit)]
        if self.classifier is not None:
            keep = keep[:MAX_PROPOSALS]
            return self.reclassify(image, boxes[keep], scores[keep], probs[keep])
        keep = keep[: self.max_det]
        return boxes[keep], scores[keep], probs[keep]

    @property
    def decode_conf(self) -> float:
        """YOLO's own box threshold: lower with a classifier, which rejects the extra false boxes."""
        return min(self.conf, self.box_conf) if self.classifier is not None else self.conf

    def detect(self, image: ImageSource) -> list[Detection]:
        """Corner indices in `image` (path, bytes or BGR array), boxes in original-image pixels."""
        # Decoding straight to the working size lets a JPEG decode at 1/2 or 1/4 scale (fast).
        return self.detect_loaded(open_photo(image, long_side=self.tiles.long_side))

    def detect_loaded(self, photo: Photo) -> list[Detection]:
        """Like `detect` for a photo already opened (`open_photo(src, long_side=tiles.long_side)`)."""
        h, w = photo.image.shape[:2]
        if self.whole_photo:  # no tiles to save: the scale the model was trained at, never turned
            s, rot = round(min(self.tiles.max_upscale, self.tiles.long_side / max(w, h)), 6), False
        else:
            s, rot = plan_scale(w, h, self.input_hw, self.tiles)
        return self._detect_array(photo.image, photo.scale * s, s, rot, photo.width, photo.height)

    def _detect_array(self, img: np.ndarray, total_scale: float, s: float, rot: bool, w0: int, h0: int):
        h, w = img.shape[:2]
        if s != 1.0:
            size = (max(1, round(w * s)), max(1, round(h * s)))
            img = cv2.resize(img, size, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        hw = img.shape[0]
        if rot:
            img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        boxes, scores, probs = self.detect_photo(img)
        if rot:  # rotated (xr, yr) came from original (x, y) = (yr, H - xr)
            boxes = np.column_stack([boxes[:, 1], hw - boxes[:, 2], boxes[:, 3], hw - boxes[:, 0]])
        boxes = boxes / total_scale
        np.clip(boxes, 0, [w0, h0, w0, h0], out=boxes)
        names = self.class_names
        return [
            Detection(names[int(p.argmax())], tuple(float(v) for v in b), float(c), p)
            for b, c, p in zip(boxes, scores, probs, strict=True)
        ]


@functools.lru_cache(maxsize=4)
def get_detector(model: str | None = None, threads: int = 2) -> Detector:
    """One `Detector` per model path for the process: the ONNX session loads once (~0.2 s)."""
    return Detector(model, threads=threads)
