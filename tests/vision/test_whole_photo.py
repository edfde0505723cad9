"""A detector cut before its head's post-processing reads a whole photo in one pass and gives the
uncut export's answer (`vision.whole_photo`, `vision.yolo_head`, `vision.proposer`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import DEFAULT_MODEL
from vision.proposer import Proposer
from vision.regions import RegionConfig
from vision.yolo_head import OUTPUTS, anchor_grid, decode_raw


def _decode_export(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An uncut export's 1 x (4 + nc) x N output (cx, cy, w, h, then nc sigmoid scores) as xyxy boxes,
    top scores and score rows: the reference the cut model is held to."""
    pred = raw[0].T
    cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
    boxes = np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
    return boxes, pred[:, 4:].max(axis=1), pred[:, 4:]


def test_anchor_grid_is_the_heads_order():
    pts, st = anchor_grid((64, 96), (8, 16, 32))
    assert len(pts) == 8 * 12 + 4 * 6 + 2 * 3
    assert pts[:2].tolist() == [[0.5, 0.5], [1.5, 0.5]] and pts[12].tolist() == [0.5, 1.5]  # row-major
    assert st[0] == 8 and st[96] == 16 and st[-1] == 32
    # a side that is not a multiple of the stride rounds up, as a stride-2 convolution does
    assert len(anchor_grid((70, 96), (8, 16, 32))[0]) == 9 * 12 + 5 * 6 + 3 * 3


def test_decode_raw_boxes_and_threshold():
    n = len(anchor_grid((64, 64))[0])
    box = np.zeros((1, 64, n), np.float32)
    cls = np.full((1, 2, n), -9.0, np.float32)
    # anchor 9 = cell (1, 1) of the 8x8 stride-8 grid: left 1, top 0, right 2, bottom 3 cells
    for side, cells in enumerate((1, 0, 2, 3)):
        box[0, side * 16 + cells, 9] = 40.0
    cls[0, 1, 9] = 2.0  # class 1, p = 0.881
    cls[0, 0, 70] = -1.0  # p = 0.269: under 0.5, not decoded
    b, s, p = decode_raw(box, cls, (64, 64), conf=0.5)
    assert b.shape == (1, 4) and p.shape == (1, 2)
    np.testing.assert_allclose(b[0], [4, 12, 28, 36], atol=1e-3)
    np.testing.assert_allclose(s, [1 / (1 + np.exp(-2.0))], rtol=1e-6)
    assert len(decode_raw(box, cls, (64, 64), conf=0.2)[0]) == 2
    none = decode_raw(box, cls, (64, 64), conf=0.95)  # nothing passes: empty, well-shaped
    assert none[0].shape == (0, 4) and none[1].shape == (0,) and none[2].shape == (0, 2)
    with pytest.raises(ValueError, match="anchors"):
        decode_raw(box, cls, (96, 64))


@pytest.mark.train
def test_cut_export_matches_the_uncut_one_and_takes_any_size(tmp_path, monkeypatch):
    """A real (untrained) Ultralytics export: cut, it gives the same boxes on the export's input size,
    and runs on a larger input of another shape."""
    from PIL import Image

    # importing ultralytics replaces PIL's Image.open for the whole process (a HEIC fallback that
    # would hide the app's "not an image" messages from later tests): put it back afterwards
    monkeypatch.setattr(Image, "open", Image.open)
    monkeypatch.chdir(tmp_path)  # the export is written beside the model, here the working folder
    pytest.importorskip("ultralytics")
    ort = pytest.importorskip("onnxruntime")
    from vision.train import offline_env
    from vision.whole_photo import cut_head

    offline_env()
    from ultralytics import YOLO

    model = YOLO("yolov8n.yaml")
    uncut = model.export(format="onnx", imgsz=96, opset=17, simplify=False, dynamic=False, nms=False)
    cut = cut_head(type(tmp_path)(uncut), tmp_path / "cut.onnx")
    with pytest.raises(SystemExit, match="already cut"):
        cut_head(cut)
    a = ort.InferenceSession(str(uncut), providers=["CPUExecutionProvider"])
    b = ort.InferenceSession(str(cut), providers=["CPUExecutionProvider"])
    assert tuple(o.name for o in b.get_outputs()) == OUTPUTS
    x = np.random.default_rng(0).random((1, 3, 96, 96), dtype=np.float32)
    ref_boxes, ref_top, ref_probs = _decode_export(a.run(None, {"images": x})[0])
    boxes, top, probs = decode_raw(*b.run(list(OUTPUTS), {"images": x}), (96, 96), conf=0.0)
    np.testing.assert_allclose(boxes, ref_boxes, atol=1e-3)
    np.testing.assert_allclose(probs, ref_probs, atol=1e-5)
    big = np.random.default_rng(1).random((1, 3, 128, 160), dtype=np.float32)
    box_dist, cls_logits = b.run(list(OUTPUTS), {"images": big})
    assert box_dist.shape[-1] == len(anchor_grid((128, 160))[0]) == cls_logits.shape[-1]


def test_shipped_detector_reads_whole_photos():
    finder = Proposer(DEFAULT_MODEL, regions=RegionConfig(enabled=False))  # (else only parts with detail)
    calls = []
    run = finder.session.run
    finder.session.run = lambda names, feeds: calls.append(feeds["images"].shape) or run(names, feeds)
    finder.propose_working(np.full((912, 1216, 3), 200, np.uint8))
    assert calls == [(1, 3, 928, 1216)]  # one pass, padded to a multiple of 32

