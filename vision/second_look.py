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
    if not boxes:
        return []
    scan = np.array(boxes, np.float64).reshape(-1, 4)
    held = np.array([d.box for d in (*reads.sure, *reads.unsure)], np.float64).reshape(-1, 4)
    if len(held):
        scan = scan[~overlaps_between(scan, held).any(axis=1)]
    if not len(scan):
        return []
    work, total = working_image(photo, det.scale)
    found = (scan * total).astype(np.float32)
    kept, conf, scores, _ = det.reclassify(work, found, photo.detail)
    return [Detection(CLASS_NAMES[int(q.argmax())], tuple(float(v) for v in b), float(c), q)
            for b, c, q in zip(to_photo(kept.astype(np.float64), total, photo), conf, scores, strict=True)]


def looking_again(det: Detector, image: ImageSource, reads: IndexReads) -> SecondLook:
    """`look_again` at the photo `image` that `reads` were read from, as `vision.table_of` asks it;
    the photo is opened only when there are boxes to look at (a benchmark's reads kept from before)."""
    def look(boxes: list[Box]) -> list[Detection]:
        return look_again(det, open_photo(image, long_side=det.scale.long_side, detail=True), reads, boxes)
    return look
