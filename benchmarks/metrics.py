"""Detection metrics shared by the benchmarks: box mAP50 and card-level precision / recall / F1.

Card level is what a player feels: per photo, the set of distinct cards read against the set of
cards labelled (one card has up to two corner boxes; it counts once). Box mAP50 is the usual
detector figure, computed here in numpy (all-point interpolated AP per class, IoU 0.5, averaged
over the classes that appear in the labels) so no training stack is needed to measure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from datasets.boxes import iou_matrix  # the IoU the proposal labels use too

Box = tuple[float, float, float, float]


@dataclass
class CardScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, predicted: Iterable[str], truth: Iterable[str], unlabelled: Iterable[str] = ()) -> None:
        """One photo's cards read against its labelled ones; a read of an `unlabelled` card (one the
        photo shows that its labels leave out, `datasets.real_labels.UnlabelledCard`) counts neither way."""
        t = set(truth)
        p = set(predicted) - (set(unlabelled) - t)
        self.tp += len(p & t)
        self.fp += len(p - t)
        self.fn += len(t - p)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def line(self) -> str:
        counts = f"(tp {self.tp}, fp {self.fp}, fn {self.fn})"
        return f"P {self.precision:.3f}  R {self.recall:.3f}  F1 {self.f1:.3f}  {counts}"


class BoxMAP:
    """Accumulates predictions and labels image by image; `map50()` at the end."""

    def __init__(self) -> None:
        self._preds: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        self._npos: dict[str, int] = defaultdict(int)

    def add(self, predicted: list[tuple[str, Box, float]], truth: list[tuple[str, Box]]) -> None:
        for cls in {c for c, _ in truth} | {c for c, _, _ in predicted}:
            gt = np.array([b for c, b in truth if c == cls], dtype=float).reshape(-1, 4)
            pr = sorted(((s, b) for c, b, s in predicted if c == cls), key=lambda t: -t[0])
            self._npos[cls] += len(gt)
            used = np.zeros(len(gt), bool)
            if pr:
                ious = iou_matrix(np.array([b for _, b in pr], dtype=float), gt)
            for i, (score, _) in enumerate(pr):
                hit = False
                if len(gt):
                    order = np.argsort(-ious[i])
                    for j in order:
                        if ious[i, j] < 0.5:
                            break
                        if not used[j]:
                            used[j] = hit = True
                            break
                self._preds[cls].append((score, hit))

    def map50(self) -> float:
        aps = []
        for cls, npos in self._npos.items():
            if npos == 0:
                continue
            preds = sorted(self._preds[cls], key=lambda t: -t[0])
            hits = np.array([h for _, h in preds], dtype=float)
            if len(hits) == 0:
                aps.append(0.0)
                continue
            tp = np.cumsum(hits)
            fp = np.cumsum(1 - hits)
            recall = tp / npos
            precision = tp / np.maximum(tp + fp, 1e-9)
            mrec = np.concatenate([[0.0], recall, [1.0]])
            mpre = np.concatenate([[1.0], precision, [0.0]])
            mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
            idx = np.where(mrec[1:] != mrec[:-1])[0]
            aps.append(float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1])))
        return float(np.mean(aps)) if aps else 0.0


def _boxes(reads: list[tuple[str, Box]]) -> np.ndarray:
    return np.array([b for _, b in reads], dtype=float).reshape(-1, 4)


def reads_on(predicted: list[tuple[str, Box]], truth: list[tuple[str, Box]]) -> list[int]:
    """For each labelled box, the read that lies on it (its centre inside the box, or IoU >= 0.3;
    of several, the one overlapping most), as an index into `predicted`, or -1 where none does."""
    if not predicted or not truth:
        return [-1] * len(truth)
    tb, pb = _boxes(truth), _boxes(predicted)
    ious = iou_matrix(tb, pb)
    cx, cy = (pb[:, 0] + pb[:, 2]) / 2, (pb[:, 1] + pb[:, 3]) / 2
    inside = ((cx >= tb[:, :1]) & (cx <= tb[:, 2:3]) & (cy >= tb[:, 1:2]) & (cy <= tb[:, 3:]))
    there = np.where(inside | (ious >= 0.3), ious, -1.0)
    best = there.argmax(axis=1)
    return [int(j) if there[i, j] >= 0 else -1 for i, j in enumerate(best)]


@dataclass
class IndexScore:
    """Per labelled index box: does the read kept there carry the right card?

    A labelled box is *found* when a kept detection lies there: its centre inside the labelled box or
    IoU >= 0.3 (people draw an index box looser or tighter than the reader's: on the real finetune
    half a third of the right reads overlap their label under IoU 0.5). Of those, the one overlapping
    most counts; the box is *named right* when it carries its card. Kept detections that overlap no
    labelled box at IoU >= 0.1 are *false boxes* (a pip, a figure, a chip read as an index).
    """

    labelled: int = 0
    found: int = 0
    right: int = 0
    false_boxes: int = 0
    photos: int = 0

    def add(self, predicted: list[tuple[str, Box]], truth: list[tuple[str, Box]]) -> None:
        self.photos += 1
        self.labelled += len(truth)
        if not predicted:
            return
        if not truth:
            self.false_boxes += len(predicted)
            return
        for (card, _), j in zip(truth, reads_on(predicted, truth), strict=True):
            if j >= 0:
                self.found += 1
                self.right += predicted[j][0] == card
        ious = iou_matrix(_boxes(truth), _boxes(predicted))
        self.false_boxes += int((ious.max(axis=0) < 0.1).sum())

    def line(self) -> str:
        n = max(1, self.labelled)
        return (f"labelled indices named right {self.right}/{self.labelled} ({100 * self.right / n:.1f}%), "
                f"found {100 * self.found / n:.1f}%; false boxes {self.false_boxes} "
                f"({self.false_boxes / max(1, self.photos):.2f} a photo)")


@dataclass
class MissKinds:
    """What lies on each labelled index that no sure read names right: a sure read of another card
    (*misnamed*), else an unsure read (*unsure*; *unsure_right* of them name the card), else a faint
    read (`vision.detector.IndexReads`), else nothing (*unread*). It says which stage to improve: a
    missing box is the proposer's, a right card under the bar is the namer's confidence."""

    misnamed: int = 0
    unsure: int = 0
    unsure_right: int = 0
    faint: int = 0
    unread: int = 0

    def add(self, sure: list[tuple[str, Box]], unsure: list[tuple[str, Box]],
            faint: list[tuple[str, Box]], truth: list[tuple[str, Box]]) -> None:
        on_sure, on_unsure, on_faint = (reads_on(r, truth) for r in (sure, unsure, faint))
        for i, (card, _) in enumerate(truth):
            if on_sure[i] >= 0:
                self.misnamed += sure[on_sure[i]][0] != card
            elif on_unsure[i] >= 0:
                self.unsure += 1
                self.unsure_right += unsure[on_unsure[i]][0] == card
            elif on_faint[i] >= 0:
                self.faint += 1
            else:
                self.unread += 1

    def line(self) -> str:
        return (f"indices not named right: misnamed {self.misnamed}; not read surely: an unsure read "
                f"there {self.unsure} ({self.unsure_right} naming the card), a faint one {self.faint}, "
                f"none {self.unread}")


@dataclass(frozen=True)
class ReadOn:
    """The read lying on one labelled index: the group it is in (e.g. sure, unsure, faint), its card and
    confidence; printed as "group card confidence"."""

    group: str
    card: str
    confidence: float

    def __str__(self) -> str:
        return f"{self.group} {self.card} {self.confidence:.2f}"


def read_on(box: Box, groups: dict[str, list[tuple[str, Box, float]]]) -> ReadOn | None:
    """What the reader has on one labelled index box: the read of the first group (in order, e.g. sure,
    unsure, faint) with a read lying on it (`reads_on`), or None where no read does."""
    for name, reads in groups.items():
        j = reads_on([(c, b) for c, b, _ in reads], [("", box)])[0]
        if j >= 0:
            card, _, conf = reads[j]
            return ReadOn(name, card, conf)
    return None
