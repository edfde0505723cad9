"""Corner indices in a photo with onnxruntime, in two stages; no torch.

1. `vision.proposer`: the one-class index finder (`models/cards.onnx`, cut for whole photos) reads
   the working photo's parts with detail and proposes boxes down to a very low score (`box_conf`).
2. `vision.classifier`: the namer (`models/index_classifier.onnx`, with `index_classifier_2.onnx` as a
   second opinion on its unsure reads; or `$CARDS_CLASSIFIER`) reads each proposal from its own crop:
   one of the 54 cards, or background (a lone faint proposal is taken as background unread,
   `DEFAULT_LONE_FLOOR`). Background is dropped, the operating threshold `conf` applies to P(card),
   and two reads of one index become one.

The finder only knows where an index is, so the classifier is not optional: a detector without one
is refused (`ModelMissingError`). Proposals alone, without names, are `vision.proposer.Proposer`
(what `datasets.proposals` mines classifier crops from).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .classes import CLASS_NAMES
from .classifier import CLASSIFIER_ENV, CLASSIFIER_NAMES, IndexClassifier, resolve_classifier
from .dedupe import drop_contained, drop_same_card_neighbours, finders_box
from .imageio import ImageSource, Photo, open_photo
from .one_index import DEDUPE_CONTAINED, DEDUPE_IOU, overlaps
from .proposer import (
    DEFAULT_BOX_CONF,
    DEFAULT_MODEL,
    MODEL_ENV,
    ModelMismatchError,
    ModelMissingError,
    Proposer,
    ScaleConfig,
    nms,
    to_photo,
    working_image,
)
from .regions import RegionConfig
from .sharpness import index_blur
from .types import Detection
from .zoom import ZoomConfig, rezoom

__all__ = [
    "DEFAULT_MODEL", "MODEL_ENV", "Detector", "IndexReads", "ModelMismatchError", "ModelMissingError",
    "ScaleConfig", "get_detector",
]

# The operating threshold on the classifier's P(card): chosen on the real finetune half and a
# generated tuning set (seed 5151, not the benchmark's), never on the test half. Card F1 at 0.5 / 0.6 /
# 0.7: real finetune 0.926 / 0.942 / 0.950, generated 0.893 / 0.884 / 0.866.
DEFAULT_CONF = 0.6
# A proposal overlapping a better-scored one that the classifier read as a card this sure is not read
# (`Detector.read_crops`). Chosen on the real finetune half and 100 generated tables (seed 5151),
# refinement below P(bg) 0.5: off / 0.95 / 0.9 / 0.8 -> crops per table 451 / 382 / 351 / 336, tables
# exact 14 / 14 / 17 / 20, cards right 3608 / 3604 / 3611 / 3609 of 4147; real F1 0.964 -> 0.965 for all.
DEFAULT_SKIP_SURE = 0.8
# A proposal that overlaps no better one and that the finder scores under this is not read at all: a
# lone faint box in the clutter (a pip, a detail of a court figure). On the real finetune half and the
# tables of seed 6161, not one such box under 0.005 was read as the right card of an index that no
# other box read right, and they are a tenth of all the crops read.
DEFAULT_LONE_FLOOR = 0.005
MAX_PROPOSALS = 1000  # boxes handed to the second stage per photo (~150 a 640 photo at box_conf 0.001)
# A read under the operating threshold but at least this sure (and not background) is kept aside as
# unsure: the geometry takes it only where a seat's rows lack a card and it lies on a row's line
# (`vision.geometry.fill`), and flags it there. Chosen on generated held-out-design tables (seed 6161)
# and train-design ones (seed 5151), not the benchmark's.
DEFAULT_UNSURE_CONF = 0.25
# A proposal the namer keeps no read of, but calls background with less than this, is a faint read:
# weighed only among the cards no seat shows, on a full table (`IndexReads.faint`).
DEFAULT_FAINT_BG = 0.98


@dataclass(frozen=True)
class IndexReads:
    """The second stage's reads of one photo: `sure` ones (P(card) >= the operating threshold),
    `unsure` ones (`unsure_conf` <= P(card) < threshold, not background, no read of an index a sure
    read holds), each best first; and `faint` ones (`Detector.faint_reads`): proposals the namer
    would not keep, whose scores still say which of the cards no seat shows they most resemble
    (confidence: their top card's share of P(card), background left out)."""

    sure: list[Detection]
    unsure: list[Detection]
    faint: list[Detection] = field(default_factory=list)


def _load_classifier(option: str | Path | IndexClassifier, model_path: Path | None,
                     threads: int) -> IndexClassifier:
    if isinstance(option, IndexClassifier):
        return option
    paths = resolve_classifier(option, model_path)
    if paths is None:
        raise ModelMissingError(
            f"no index classifier for {model_path or 'the detector model'}: the one-class detector needs "
            f"it to name the cards (index_classifier.onnx beside the model, or ${CLASSIFIER_ENV})")
    for path in paths:
        if not path.exists():
            raise ModelMissingError(f"index classifier not found: {path} (${CLASSIFIER_ENV} names its "
                                    f"files; the detector cannot name cards without it)")
    return IndexClassifier(paths, threads=threads)


class Detector:
    """The card-index detector; create once, call `detect` per photo.

    `model`/`session`, `box_conf`, `iou`, `scale` and `regions` go to the first stage
    (`vision.proposer.Proposer`; a fake `session` for tests). `classifier` is an `IndexClassifier`,
    a path, or "auto": `$CARDS_CLASSIFIER`, else `index_classifier.onnx` beside the model file.

    Each proposal is re-read from its crop: the card, the 54 scores (background removed,
    renormalised) and the confidence (the probability of that card, background included) come from
    the classifier; a box it calls background with probability >= `bg_drop` is dropped, and then
    the operating threshold `conf` applies to the confidence (reads from `unsure_conf` up to it are
    kept aside as unsure, `read_indices`). A proposal that overlaps a
    better-scored one read as a card at least `skip_sure` sure is not read at all (`read_crops`;
    None reads every proposal, lone or not), and neither is one that overlaps no better proposal and
    scores under `lone_floor` (`read_crops`). At most `max_det` detections a photo. A photo opened with its
    detail view has small indices proposed again from it (`zoom`, `vision.zoom`).
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        session=None,
        threads: int = 2,
        conf: float = DEFAULT_CONF,
        iou: float = 0.5,
        max_det: int = 300,
        scale: ScaleConfig | None = None,
        classifier: str | Path | IndexClassifier = "auto",
        box_conf: float = DEFAULT_BOX_CONF,
        bg_drop: float = 0.5,
        skip_sure: float | None = DEFAULT_SKIP_SURE,
        lone_floor: float = DEFAULT_LONE_FLOOR,
        regions: RegionConfig | None = None,
        zoom: ZoomConfig | None = None,
        unsure_conf: float = DEFAULT_UNSURE_CONF,
        faint_bg: float = DEFAULT_FAINT_BG,
    ) -> None:
        self.zoom = zoom or ZoomConfig()
        self.proposer = Proposer(model, session=session, threads=threads, conf=box_conf, iou=iou,
                                 scale=scale, regions=regions)
        self.classifier = _load_classifier(classifier, self.proposer.model_path, threads)
        self.conf, self.max_det, self.bg_drop, self.skip_sure = conf, max_det, bg_drop, skip_sure
        self.lone_floor = lone_floor
        self.unsure_conf = min(unsure_conf, conf)
        self.faint_bg = faint_bg

    @property
    def model_path(self) -> Path | None:
        return self.proposer.model_path

    @property
    def scale(self) -> ScaleConfig:
        return self.proposer.scale

    # -- the second stage -----------------------------------------------------------------------
    def reclassify(self, image: np.ndarray, boxes: np.ndarray, detail: np.ndarray | None = None,
                   scores: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Re-read proposals (working-image pixels, best first) with the classifier: boxes, confidences,
        54-card score rows and whether each is sure (P(card) >= `conf`; else unsure, >= `unsure_conf`),
        sure reads first. With `detail` (the same view as `image`, larger) the crops are cut from it;
        with the finder's `scores`, lone faint proposals are not read (`read_crops`)."""
        return self.keep_reads(boxes, self.name_proposals(image, boxes, detail, scores), scores)

    def name_proposals(self, image: np.ndarray, boxes: np.ndarray, detail: np.ndarray | None = None,
                       scores: np.ndarray | None = None) -> np.ndarray:
        """The classifier's N x 55 probabilities of the proposals (`read_crops`), from `detail` if given."""
        return self.read_crops(*_crop_source(image, boxes, detail), scores)

    @staticmethod
    def blur_of(image: np.ndarray, boxes: np.ndarray, detail: np.ndarray | None = None) -> np.ndarray:
        """`vision.sharpness.index_blur` of proposals (working-image pixels), measured on the crops
        `name_proposals` reads."""
        return index_blur(*_crop_source(image, boxes, detail))

    def keep_reads(self, boxes: np.ndarray, p: np.ndarray, scores: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """`reclassify`'s reads from the proposals' probabilities `p`: background and reads under
        `unsure_conf` dropped, two reads of one index made one (`vision.dedupe`); with the finder's
        `scores`, a kept read may carry the better box of a read of its card folded into it."""
        cards = p[:, :-1]
        conf = cards.max(1)
        norm = cards / np.maximum(cards.sum(1, keepdims=True), 1e-12)
        top = cards.argmax(1)
        readable = keep = np.flatnonzero(self._readable(p))
        # Every dedupe keeps the surer read, so a sure read never yields to an unsure one and the sure
        # reads come out as they would alone.
        # Two proposals on one index both survive the finder's NMS when they overlap less than `iou`
        # (a tight box and a loose one); two readable indices never overlap this much, so the surer
        # read stays whatever the other was read as (class-aware, a 3h box beside a 3d box on one
        # index made the sample photo's seat 14 cards).
        keep = keep[nms(boxes[keep], conf[keep], DEDUPE_IOU)]
        # the sample photo's sideways Th came out as Th plus a Td box half inside it (IoU 0.29, 62% inside)
        keep = keep[drop_contained(boxes[keep], conf[keep], DEDUPE_CONTAINED)]
        keep = keep[drop_same_card_neighbours(boxes[keep], conf[keep], top[keep])]
        sure = conf[keep] >= self.conf
        keep = np.concatenate([keep[sure][: self.max_det], keep[~sure][: self.max_det]])
        kept = boxes[keep] if scores is None else finders_box(boxes, scores, top, keep, readable)
        return kept, conf[keep].astype(np.float32), norm[keep], conf[keep] >= self.conf

    def _readable(self, p: np.ndarray) -> np.ndarray:
        """Which proposals' probabilities `p` make a read to keep: not background (P < `bg_drop`) and
        a card at least `unsure_conf` sure. The rest are dropped, or faint reads (`faint_reads`)."""
        return (p[:, -1] < self.bg_drop) & (p[:, :-1].max(1) >= self.unsure_conf)

    def faint_reads(self, boxes: np.ndarray, p: np.ndarray, kept: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
        """Proposals the namer keeps no read of (background, or no card sure enough) that it still
        calls background with less than `faint_bg`, on no index a kept read holds (`kept`): their
        boxes and 54-card score rows, best first, one a place. Not cards to show: evidence the
        geometry weighs among the cards no seat of a full table shows (`vision.geometry.unseen`)."""
        bg = p[:, -1]
        cards = p[:, :-1]
        idx = np.flatnonzero((bg < self.faint_bg) & ~self._readable(p))
        if len(kept) and len(idx):
            both = np.concatenate([kept, boxes[idx]])
            idx = idx[~overlaps(both)[len(kept):, : len(kept)].any(axis=1)]
        idx = idx[nms(boxes[idx], 1 - bg[idx], DEDUPE_IOU)]
        norm = cards[idx] / np.maximum(cards[idx].sum(1, keepdims=True), 1e-12)
        return boxes[idx], norm

    def read_crops(self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray | None = None
                   ) -> np.ndarray:
        """The classifier's probabilities for `boxes` (best proposal first), background last.

        With `skip_sure`, a box that overlaps a better-scored box as the dedupe would (IoU >=
        `DEDUPE_IOU` or half inside) is read only when that box did not come out a sure card (P(card)
        >= `skip_sure`): the dedupe would keep the surer read of the two, and a sure read rarely loses.
        With the finder's `scores`, a box that overlaps no better one and scores under `lone_floor`
        is not read either. Skipped boxes count as background. `skip_sure` None, or fewer than two
        boxes, reads every box: both skips rest on the same overlap test, made only here.
        """
        if self.skip_sure is None or len(boxes) < 2:
            return self.classifier.probabilities(image, boxes).astype(np.float32)
        over = np.triu(overlaps(boxes), 1).T  # over[i, j]: j < i is a better box overlapping i
        first = ~over.any(axis=1)
        read_now = first if scores is None else first & (scores >= self.lone_floor)
        p = np.zeros((len(boxes), len(CLASSIFIER_NAMES)), np.float32)
        p[:, -1] = 1.0
        if read_now.any():
            p[read_now] = self.classifier.probabilities(image, boxes[read_now])
        sure = first & (p[:, -1] < self.bg_drop) & (p[:, :-1].max(axis=1) >= self.skip_sure)
        second = ~first & ~(over & sure[None, :]).any(axis=1)
        if second.any():
            p[second] = self.classifier.probabilities(image, boxes[second])
        return p

    # -- a whole photo --------------------------------------------------------------------------
    def detect_working(self, image: np.ndarray, detail: np.ndarray | None = None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (working-image pixels), confidences, 54-card score rows and the sure mask (see
        `reclassify`) for a BGR working image; the namer's crops come from `detail` when given."""
        found, scores, p = self._propose_and_name(image, detail)
        return self.keep_reads(found, p, scores)

    def propose(self, image: np.ndarray, detail: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Every proposal of a working image (the first pass and `zoom`'s second look from `detail`),
        best first, at most `MAX_PROPOSALS`: boxes in working-image pixels and the finder's scores."""
        boxes, scores = self.proposer.propose_working(image)
        boxes, scores = rezoom(self.proposer.infer_whole, image, detail, boxes, scores, self.proposer.iou,
                               self.zoom)
        return boxes[:MAX_PROPOSALS], scores[:MAX_PROPOSALS]

    def _propose_and_name(self, image: np.ndarray, detail: np.ndarray | None
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every proposal of a working image (`propose`), the finder's scores and the namer's
        probabilities."""
        boxes, scores = self.propose(image, detail)
        return boxes, scores, self.name_proposals(image, boxes, detail, scores)

    def detect(self, image: ImageSource) -> list[Detection]:
        """Corner indices in `image` (path, bytes or BGR array), boxes in original-image pixels."""
        # Decoding straight to the working size lets a JPEG decode at 1/2 or 1/4 scale (fast).
        return self.detect_loaded(open_photo(image, long_side=self.scale.long_side, detail=True))

    def detect_loaded(self, photo: Photo) -> list[Detection]:
        """Like `detect` for a photo already opened (`open_photo(src, long_side=scale.long_side,
        detail=True)`); the namer reads `photo.detail` when the photo has it."""
        return self.read_indices(photo).sure

    def read_indices(self, photo: Photo) -> IndexReads:
        """The sure reads of `detect_loaded` and, apart, the unsure and faint ones (`IndexReads`)."""
        work, total = working_image(photo, self.scale)
        found, scores, p = self._propose_and_name(work, photo.detail)
        boxes, conf, probs, sure = self.keep_reads(found, p, scores)
        def detections(boxes: np.ndarray, conf: np.ndarray, probs: np.ndarray,
                       blur: Sequence[float | None]) -> list[Detection]:
            return [Detection(CLASS_NAMES[int(q.argmax())], tuple(float(v) for v in b), float(c), q,
                              None if s is None else float(s))
                    for b, c, q, s in zip(to_photo(boxes, total, photo), conf, probs, blur, strict=True)]

        # the kept reads' blur, measured on the crops the namer read (a far seat's smear warns the
        # player off correcting it card by card); faint reads are evidence only and are not measured
        dets = detections(boxes, conf, probs, self.blur_of(work, boxes, photo.detail))
        faint_boxes, faint_probs = self.faint_reads(found, p, boxes)
        faint = detections(faint_boxes, faint_probs.max(1), faint_probs, [None] * len(faint_boxes))
        return IndexReads([d for d, s in zip(dets, sure, strict=True) if s],
                          [d for d, s in zip(dets, sure, strict=True) if not s], faint)


def _crop_source(image: np.ndarray, boxes: np.ndarray, detail: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The image the namer crops from and the boxes (working-image pixels) in its pixels: `detail`,
    the same view larger, when given."""
    if detail is not None and len(boxes):
        k = np.array([detail.shape[1] / image.shape[1], detail.shape[0] / image.shape[0]] * 2)
        return detail, boxes * k
    return image, boxes


@functools.lru_cache(maxsize=4)
def get_detector(model: str | None = None, threads: int = 2) -> Detector:
    """One `Detector` per model path for the process: the ONNX sessions load once (~0.2 s)."""
    return Detector(model, threads=threads)
