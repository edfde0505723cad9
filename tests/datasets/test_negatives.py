"""Scene-aware background boxes: where the scene says no index is, and half indices."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.crops import _overlaps
from datasets.negatives import KINDS, crops_of_scene, half_boxes, negative_boxes
from tests.datasets.conftest import procedural
from vision.crops import CROP_SIZE


@pytest.mark.parametrize(
    ("up", "rank", "pip"),
    [
        ((0.0, -1.0), [0, 0, 10, 10], [0, 10, 10, 20]),  # upright: rank on top
        ((0.0, 1.0), [0, 10, 10, 20], [0, 0, 10, 10]),  # upside down: rank at the bottom
        ((-1.0, 0.0), [0, 0, 5, 20], [5, 0, 10, 20]),  # turned left: rank on the left
        ((1.0, 0.0), [5, 0, 10, 20], [0, 0, 5, 20]),  # turned right
    ],
)
def test_half_boxes_put_the_rank_half_first(up, rank, pip):
    got = half_boxes(np.array([0, 0, 10, 20.0]), np.array(up))
    assert [b.tolist() for b in got] == [rank, pip]


def _in_quad(p: np.ndarray, quad: np.ndarray) -> bool:
    """Point in a convex polygon (either winding)."""
    def cross(a: np.ndarray, b: np.ndarray) -> float:
        return float(a[0] * b[1] - a[1] * b[0])

    signs = [cross(quad[(k + 1) % len(quad)] - quad[k], p - quad[k]) for k in range(len(quad))]
    return all(s >= -1e-6 for s in signs) or all(s <= 1e-6 for s in signs)


@pytest.fixture(scope="module")
def scenes():
    out = []
    for i in range(30):
        s = procedural(11, i, size=960, kind="table")
        if s.meta["back_quads"]:
            out.append(s)
        if len(out) == 2:
            break
    assert out, "no generated table with face-down cards among 30"
    return out


def test_each_kind_lies_where_the_scene_says_and_never_on_a_whole_index(scenes):
    for s in scenes:
        every = np.array([i["box"] for c in s.meta["cards"] for i in c["indices"]], float)
        faces = [np.array(c["quad"]) for c in s.meta["cards"]]
        backs = [np.array(q) for q in s.meta["back_quads"]]
        got = negative_boxes(s.meta, np.random.default_rng(0), per_kind=6)
        kinds = {KINDS[k] for _, k in got}
        assert {"face", "half", "back", "cloth"} <= kinds
        occluders = [np.array(o["poly"], float) for o in s.meta.get("occluders", [])]
        for box, k in got:
            centre = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
            if KINDS[k] == "half":  # inside one visible index, half its area
                inside = [b for b in every if b[0] <= box[0] + 1e-6 and box[2] <= b[2] + 1e-6
                          and b[1] <= box[1] + 1e-6 and box[3] <= b[3] + 1e-6]
                assert inside
                area = (box[2] - box[0]) * (box[3] - box[1])
                full = (inside[0][2] - inside[0][0]) * (inside[0][3] - inside[0][1])
                assert area == pytest.approx(full / 2)
                continue
            assert not _overlaps(box, every)
            if KINDS[k] == "face":
                assert any(_in_quad(centre, q) for q in faces)
            if KINDS[k] == "back":
                assert any(_in_quad(centre, q) for q in backs)
            if KINDS[k] == "cloth":  # on the bare table: in the photo, on nothing laid there
                assert 0 <= box[0] and 0 <= box[1]
                assert box[2] <= s.meta["width"] and box[3] <= s.meta["height"]
                points = [centre, *(np.array([x, y]) for x in box[::2] for y in box[1::2])]
                assert not any(_in_quad(p, q) for p in points for q in faces + backs)
                polys = [o.astype(np.float32).reshape(-1, 1, 2) for o in occluders]
                assert not any(cv2.pointPolygonTest(o, (float(p[0]), float(p[1])), False) >= 0
                               for p in points for o in polys)


def test_crops_have_the_classifier_size(scenes):
    xs, kinds = crops_of_scene(scenes[0].image, scenes[0].meta, np.random.default_rng(1), per_kind=2)
    assert xs and len(xs) == len(kinds)
    assert all(x.shape == (CROP_SIZE, CROP_SIZE, 3) and x.dtype == np.uint8 for x in xs)
