"""Crowded crops: other indices pasted beside a labelled one, along its narrow axis, never on it."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.crops import crops_of_image
from datasets.crowding import GAP, crowd


def _scene(tall: bool) -> tuple[np.ndarray, np.ndarray]:
    """A grey table with a black target index (tall 12 x 30, or wide 30 x 12) and a red one elsewhere."""
    img = np.full((240, 240, 3), 90, np.uint8)
    target = np.array([114.0, 105, 126, 135]) if tall else np.array([105.0, 114, 135, 126])
    x1, y1, x2, y2 = target.astype(int)
    img[y1:y2, x1:x2] = 0
    img[10:40, 10:22] = (30, 30, 220)  # a tall red index
    return img, np.array([target, [10.0, 10, 22, 40]])


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.argwhere((a != b).any(axis=2))


@pytest.mark.parametrize(("tall", "axis"), [(True, 1), (False, 0)])
def test_pastes_lie_beside_the_target_along_its_narrow_axis(tall, axis):
    img, boxes = _scene(tall)
    x1, y1, x2, y2 = boxes[0].astype(int)
    narrow = 12
    for seed in range(20):
        out = crowd(img, 0, boxes, np.random.default_rng(seed))
        assert (out[y1:y2, x1:x2] == 0).all(), f"seed {seed}: the labelled index was painted over"
        moved = _changed(out, img)
        assert len(moved), f"seed {seed}: nothing was pasted"
        lo, hi = (x1, x2) if axis == 1 else (y1, y2)
        along = moved[:, axis]
        gap = np.where(along < lo, lo - along, along - (hi - 1))
        assert gap.min() >= 1, f"seed {seed}: a paste overlaps the target's span"
        assert gap.min() <= GAP[1] * narrow + 2, f"seed {seed}: the nearest paste is not beside the target"
        red = out[moved[:, 0], moved[:, 1]].astype(int)
        assert ((red[:, 2] - red[:, 0]) > 100).any(), f"seed {seed}: the pasted pixels are not the red index"


def test_an_image_with_one_index_is_left_as_it_is():
    img, boxes = _scene(True)
    assert crowd(img, 0, boxes[:1], np.random.default_rng(0)) is img


def test_crowded_crops_keep_their_label_and_centre(tmp_path):
    """With every index crowded, each crop still centres on its own index's ink, and some crops of
    the black index now also hold red ink from a pasted neighbour."""
    import cv2

    img, boxes = _scene(True)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), img)
    c = (boxes[:, :2] + boxes[:, 2:]) / 2
    wh = boxes[:, 2:] - boxes[:, :2]
    labels = np.column_stack([[0, 13], c[:, 0] / 240, c[:, 1] / 240, wh[:, 0] / 240, wh[:, 1] / 240])
    red_beside = 0
    for seed in range(10):
        xs, ys = crops_of_image(path, labels, np.random.default_rng(seed), bg_share=0.0, size=40,
                                crowded=1.0)
        assert sorted(ys) == [0, 13]
        black = xs[ys.index(0)].astype(int)
        assert black[17:23, 17:23].mean() < 80, f"seed {seed}: the black index's crop is off its ink"
        red_beside += bool(((black[..., 2] - black[..., 0]) > 100).any())
    assert red_beside >= 5
