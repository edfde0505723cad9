"""The reader's second look: the namer reads again where the table as read says a card lies unread.

A seat of a hand laid out that reads 10-12 cards has a row short of one; the line of that row's
other indices says where it lies (`vision.geometry.look_again.row_scan`). The namer reads boxes
along that line that no read lies on yet (the one-index rule, `vision.one_index`), and what it
keeps there (`Detector.reclassify`: not background, at least the unsure floor sure, one read an
index) becomes an unsure read: the geometry takes it only where the row still lacks a card, and
flags it (`vision.geometry.fill`). Only the crops are cut again: the photo is read once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .classes import CLASS_NAMES
from .detector import Detector, IndexReads
from .imageio import ImageSource, Photo, open_photo
from .one_index import overlaps_between
from .proposer import to_photo, working_image
from .types import Box, Detection

#: the namer's second look at boxes of one photo, as `vision.table_of` asks it
SecondLook = Callable[[list[Box]], list[Detection]]


def look_again(det: Detector, photo: Photo, reads: IndexReads, boxes: list[Box]) -> list[Detection]:
    """The namer's reads of `boxes` (pixels of the photo) that lie on no index `reads` holds a sure
    or unsure read of, as unsure reads, surest first."""
    return _named(det, photo, scan) if len(scan := _unheld(reads, boxes)) else []


def looking_again(det: Detector, image: ImageSource, reads: IndexReads) -> SecondLook:
    """`look_again` at the photo `image` that `reads` were read from, as `vision.table_of` asks it;
    the photo is opened only when a box lies on no read (a benchmark's reads kept from before)."""
    def look(boxes: list[Box]) -> list[Detection]:
        if not len(scan := _unheld(reads, boxes)):
            return []
        return _named(det, open_photo(image, long_side=det.scale.long_side, detail=True), scan)
    return look


def _unheld(reads: IndexReads, boxes: list[Box]) -> np.ndarray:
    """`boxes` (N x 4) less those on an index that `reads` hold a sure or unsure read of."""
    scan = np.array(boxes, np.float64).reshape(-1, 4)
    held = np.array([d.box for d in (*reads.sure, *reads.unsure)], np.float64).reshape(-1, 4)
    return scan[~overlaps_between(scan, held).any(axis=1)] if len(held) and len(scan) else scan


def _named(det: Detector, photo: Photo, scan: np.ndarray) -> list[Detection]:
    """What the detector's namer keeps of the photo-pixel boxes `scan` (`Detector.reclassify`)."""
    work, total = working_image(photo, det.scale)
    kept, conf, scores, _ = det.reclassify(work, (scan * total).astype(np.float32), photo.detail)
    return [Detection(CLASS_NAMES[int(q.argmax())], tuple(float(v) for v in b), float(c), q)
            for b, c, q in zip(to_photo(kept.astype(np.float64), total, photo), conf, scores, strict=True)]
