"""The labels describe what was drawn: each box holds index ink of the card's colour."""

from __future__ import annotations

import numpy as np

from datasets.synth.holdout import Split
from datasets.synth.procedural import draw_face, random_style
from datasets.synth.scene import generate
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


def test_four_corner_faces_print_and_label_every_corner():
    """A four-corner face has four index boxes, each holding ink (the top-right one upright, the
    bottom-left turned); a two-corner face of the same style has only the first two, and no ink
    where the others would be."""
    style = random_style(np.random.default_rng(7), exotic=False, split=Split.TRAIN)
    four, boxes4 = draw_face(style, "7h", four_corners=True)
    two, boxes2 = draw_face(style, "7h")
    assert len(boxes4) == 4 and boxes4[:2] == boxes2 and len(boxes2) == 2
    for box in boxes4:
        share, red = ink_redness(four[..., :3], box)
        assert share > 0.04 and red > 25
    for box in boxes4[2:]:
        assert ink_redness(two[..., :3], box)[0] < 0.01


def test_a_four_corner_table_labels_the_extra_corners():
    """Scenes dealt with `four_corners` label more indices than cards shown twice would: the fanned
    cards' bottom-left corners and the rows' last top-right ones."""
    scene = generate(5, 0, size=960, kind="table", designs=(), exotic=False, four_corners=True)
    cards = [c for c in scene.meta["cards"] if c["seat"] is not None]
    assert {c["design"] for c in cards} == {"procedural-4"}
    assert all(len(c["indices"]) == 4 for c in cards)
    shown = [sum(ix["visible"] for ix in c["indices"]) for c in cards]
    assert sum(n >= 3 for n in shown) >= 3  # a row's last card shows three or four corners
    assert len(scene.labels) == sum(shown)
