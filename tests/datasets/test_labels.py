"""The labels describe what was drawn: each box holds index ink of the card's colour."""

from __future__ import annotations

import numpy as np

from vision.classes import CLASS_NAMES

from .conftest import procedural, yolo_to_px


def ink_redness(img: np.ndarray, box: tuple[int, int, int, int]) -> tuple[float, float] | None:
    """(share of ink pixels, mean redness of the ink) in a box; ink = clearly darker than paper."""
    x1, y1, x2, y2 = box
    crop = img[max(0, y1) : y2, max(0, x1) : x2].astype(np.float32)
    if crop.size == 0:
        return None
    lum = crop.mean(axis=2)
    paper = np.percentile(lum, 95)
    ink = lum < paper - 45
    if ink.sum() < 4:
        return float(ink.mean()), 0.0
    b, g, r = crop[..., 0][ink], crop[..., 1][ink], crop[..., 2][ink]
    return float(ink.mean()), float(np.mean(r - (g + b) / 2))


def _check(scenes) -> tuple[int, int]:
    good = total = 0
    for s in scenes:
        h, w = s.image.shape[:2]
        covered = {}
        for c in s.meta["cards"]:
            for ix in c["indices"]:
                if ix["visible"]:
                    covered[tuple(round(v) for v in ix["box"])] = ix["covered"]
        for lab in s.labels:
            card = CLASS_NAMES[lab[0]]
            if card in ("BJ", "SJ"):
                continue
            box = yolo_to_px(lab, w, h)
            if max(box[2] - box[0], box[3] - box[1]) < 10:
                continue
            res = ink_redness(s.image, box)
            if res is None:
                continue
            share, red = res
            total += 1
            is_red = card[1] in "hd"
            ok = share > 0.04 and (red > 25 if is_red else red < 25)
            good += ok
    return good, total


def test_closeup_boxes_hold_ink_of_the_right_colour(closeups):
    good, total = _check(closeups)
    assert total >= 20
    assert good / total >= 0.85, (good, total)


def test_table_boxes_hold_ink_of_the_right_colour(table_scenes):
    good, total = _check(table_scenes)
    assert total >= 60
    assert good / total >= 0.8, (good, total)


def test_background_outside_cards_is_not_labelled():
    """A negative photo has no labels at all."""
    s = procedural(9, 0, size=480, kind="negative")
    assert s.labels == [] and s.meta["cards"] == []
