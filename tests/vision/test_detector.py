"""Detector plumbing without a trained model: tiling, decode, NMS, coordinates back to the photo.

`SquareSession` stands in for onnxruntime: it "detects" pure-red squares in each input tile and
reads the class id from the green channel, so the right answer for any photo we paint is known.
"""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.classes import CLASS_NAMES
from vision.detector import Detector, ModelMissingError, TileConfig, nms, plan_scale, tile_origins

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"


class SquareSession:
    def __init__(self, hw=(640, 640), n_out=200):
        self.hw, self.n_out, self.calls = hw, n_out, 0

    def get_inputs(self):
        return [SimpleNamespace(name="images", shape=[1, 3, *self.hw])]

    def run(self, _names, feeds):
        self.calls += 1
        x = feeds["images"][0]  # 3xHxW RGB 0..1
        assert x.shape[1:] == self.hw and x.dtype == np.float32
        r, g, b = x[0], x[1], x[2]
        mask = ((r > 0.8) & (b < 0.2)).astype(np.uint8)
        n, _, stats, cents = cv2.connectedComponentsWithStats(mask)
        out = np.zeros((1, 4 + len(CLASS_NAMES), self.n_out), np.float32)
        for k in range(1, min(n, self.n_out + 1)):
            x0, y0, w, h, area = stats[k]
            if area < 20:
                continue
            cx, cy = cents[k]
            cls = int(round(g[int(cy), int(cx)] * 255 / 4))
            out[0, :4, k - 1] = [x0 + w / 2, y0 + h / 2, w, h]
            out[0, 4 + cls, k - 1] = 0.9
            out[0, 4 + (cls + 1) % len(CLASS_NAMES), k - 1] = 0.3
        return [out]


def paint(w, h, squares):
    """White photo with red squares (x, y, side, cls) in BGR."""
    img = np.full((h, w, 3), 255, np.uint8)
    for x, y, side, cls in squares:
        img[y : y + side, x : x + side] = (0, cls * 4, 255)
    return img


def check(dets, squares, tol):
    assert len(dets) == len(squares), [d.card for d in dets]
    for x, y, side, cls in squares:
        d = min(dets, key=lambda d: abs(d.center[0] - x - side / 2) + abs(d.center[1] - y - side / 2))
        assert d.card == CLASS_NAMES[cls]
        assert np.allclose(d.box, (x, y, x + side, y + side), atol=tol), (d.box, (x, y, side))
        assert d.scores is not None and d.scores.shape == (len(CLASS_NAMES),)
        assert d.confidence == pytest.approx(0.9)


def test_tile_plan_covers_with_overlap():
    for length in (100, 640, 641, 1000, 1216, 1280, 3000):
        o = tile_origins(length, 640, 64)
        assert o[0] == 0 and o[-1] + min(640, length) == length
        assert all(b - a <= 640 - 64 for a, b in zip(o, o[1:], strict=False))
    assert plan_scale(640, 480, (640, 640), TileConfig()) == (1.0, False)  # close-up: one tile, as is
    assert plan_scale(320, 240, (640, 640), TileConfig(max_upscale=1.5)) == (1.5, False)


def test_large_photo_tiled_and_mapped_back():
    rng = np.random.default_rng(1)
    squares = [(int(x), int(y), 110, int(c)) for x, y, c in zip(rng.integers(0, 3850, 18),
               rng.integers(0, 2850, 18), rng.integers(0, 54, 18), strict=True)]
    # keep them apart so each is one detection, and put some right on the tile seams
    squares = [s for i, s in enumerate(squares) if all(abs(s[0] - t[0]) > 130 or abs(s[1] - t[1]) > 130
                                                      for t in squares[:i])]
    seam = 576 / 0.304  # a tile seam of the 2x2 plan, in original pixels
    squares += [(int(seam) - 55, 1400, 110, 7), (2000, int(seam) - 50, 110, 9)]
    sess = SquareSession()
    det = Detector(session=sess)
    dets = det.detect(paint(4000, 3000, squares))
    assert sess.calls == 4  # 1216x912 working size -> 2x2 tiles of 640
    check(dets, squares, tol=8)


def test_portrait_photo_rotated_for_landscape_input():
    squares = [(100, 200, 60, 3), (700, 1500, 60, 30), (1000, 100, 60, 53)]
    sess = SquareSession(hw=(960, 1280))
    dets = Detector(session=sess).detect(paint(1200, 1600, squares))
    assert sess.calls == 1
    check(dets, squares, tol=4)


def test_close_up_is_one_tile_at_native_scale():
    squares = [(10, 10, 40, 0), (300, 200, 80, 51)]
    sess = SquareSession()
    dets = Detector(session=sess).detect(paint(640, 480, squares))
    assert sess.calls == 1
    check(dets, squares, tol=1.01)


def test_encoded_jpeg_with_exif_rotation():
    squares = [(100, 100, 60, 5)]
    rgb = paint(900, 600, squares)[:, :, ::-1]
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways; viewer rotates 90 cw
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(np.rot90(rgb, 1))).save(buf, "JPEG", quality=98, exif=exif)
    dets = Detector(session=SquareSession()).detect(buf.getvalue())
    check(dets, squares, tol=3)


def test_nms_agnostic_and_class_aware():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], np.float32)
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    assert nms(boxes, scores, 0.5).tolist() == [0, 2]
    assert nms(boxes, scores, 0.5, np.array([0, 1, 0])).tolist() == [0, 1, 2]


def test_real_onnx_file_loads_and_decodes():
    det = Detector(DATA / "tiny_det.onnx")
    assert det.input_hw == (64, 96)
    dets = det.detect(np.zeros((64, 96, 3), np.uint8))
    assert [(d.card, round(d.confidence, 2)) for d in dets] == [("As", 0.9), ("Kh", 0.8)]
    assert dets[0].box == pytest.approx((15, 22, 25, 38))
    assert dets[1].box == pytest.approx((64, 31, 76, 49))


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(ModelMissingError, match="not found"):
        Detector(tmp_path / "nope.onnx")


def test_working_scale_from_model_metadata():
    assert Detector(DATA / "tiny_det.onnx").tiles == TileConfig()
    det = Detector(DATA / "tiny_det_832.onnx")
    assert (det.tiles.long_side, det.tiles.overlap) == (832, 48)


def test_model_with_other_class_order_is_refused():
    from vision.detector import ModelMismatchError, check_class_names

    class Meta:
        custom_metadata_map = {"names": str({i: n for i, n in enumerate(reversed(CLASS_NAMES))})}

    class Sess(SquareSession):
        def get_modelmeta(self):
            return Meta()

    with pytest.raises(ModelMismatchError, match="index 0"):
        Detector(session=Sess())
    Meta.custom_metadata_map = {"names": str(dict(enumerate(CLASS_NAMES)))}
    check_class_names(Sess())  # the right order passes
