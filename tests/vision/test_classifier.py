"""Second-stage index classifier: crop geometry, ONNX runtime, detector integration, crop dataset.

`tiny_cls.onnx` (tests/data/vision/make_tiny_cls.py) reads only a crop's mean colour: a red index on
white is "Ah", a blue one "As", white or grey "bg"; so the right answer for any painted photo is known.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.classes import CLASS_NAMES
from vision.classifier import (
    CLASSIFIER_NAMES,
    CROP_SIZE,
    FILL,
    IndexClassifier,
    crop_box,
    crop_matrix,
    resolve_classifier,
)
from vision.detector import Detector

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "vision"
TINY = DATA / "tiny_cls.onnx"


# -- crop geometry ---------------------------------------------------------------------------------
def test_crop_holds_the_box_centred_with_context():
    img = np.full((200, 300, 3), 255, np.uint8)
    img[50:130, 100:140] = (0, 0, 255)  # a 40 x 80 red box
    crop = crop_box(img, (100, 50, 140, 130), size=52, context=0.15)
    assert crop.shape == (52, 52, 3)
    # the box's long side spans 80 / (80 * 1.3) of the crop: rows 6..46, columns 13..39
    assert (crop[8:44, 16:36] == (0, 0, 255)).all()
    assert (crop[:, :10] == 255).all() and (crop[:, 43:] == 255).all()
    assert (crop[:4] == 255).all() and (crop[-4:] == 255).all()
    m = crop_matrix((100, 50, 140, 130), 52, 0.15)
    # box corners (continuous) land on crop corners 16, 6 and 36, 46 (continuous): -0.5 for indices
    assert np.allclose(m @ [99.5, 49.5, 1], [15.5, 5.5], atol=0.01)
    assert np.allclose(m @ [139.5, 129.5, 1], [35.5, 45.5], atol=0.01)


def test_crop_outside_the_image_is_grey():
    img = np.zeros((100, 100, 3), np.uint8)
    crop = crop_box(img, (-30, -30, -10, -10))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and (crop == FILL).all()
    half = crop_box(img, (-10, 40, 10, 60))
    assert (half[:, :8] == FILL).all() and (half[:, -8:] == 0).all()


def test_crop_commutes_with_quarter_turns():
    rng = np.random.default_rng(0)
    blocks = rng.integers(0, 255, (30, 40, 3), dtype=np.uint8)
    img = cv2.resize(blocks, (400, 300), interpolation=cv2.INTER_NEAREST)
    box = (120.0, 80.0, 150.0, 140.0)
    crop = crop_box(img, box).astype(int)
    H = img.shape[0]
    rot = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)  # (x, y) -> (H - y, x)
    rbox = (H - box[3], box[0], H - box[1], box[2])
    rcrop = crop_box(rot, rbox).astype(int)
    assert np.abs(np.rot90(crop, -1) - rcrop).max() <= 1


def test_big_box_is_shrunk_without_aliasing():
    img = np.zeros((2000, 2000, 3), np.uint8)
    img[:, ::2] = 255  # one-pixel stripes: a plain warp would alias them to solid colours
    crop = crop_box(img, (500, 500, 900, 1300))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert abs(float(crop.mean()) - 127.5) < 10 and crop.std() < 20


# -- runtime ---------------------------------------------------------------------------------------
def test_tiny_model_reads_crops_in_batches():
    clf = IndexClassifier(TINY, batch=2)
    assert clf.names == CLASSIFIER_NAMES and clf.size == 40
    img = np.full((100, 200, 3), 255, np.uint8)
    img[20:60, 20:40] = (0, 0, 255)  # red
    img[20:60, 120:140] = (255, 0, 0)  # blue
    boxes = np.array([[20, 20, 40, 60], [120, 20, 140, 60], [60, 60, 80, 99]], float)
    p = clf.probabilities(img, boxes)
    assert p.shape == (3, 55) and np.allclose(p.sum(1), 1, atol=1e-5)
    assert [CLASSIFIER_NAMES[i] for i in p.argmax(1)] == ["Ah", "As", "bg"]
    assert clf.probabilities(img, np.zeros((0, 4))).shape == (0, 55)


def test_wrong_class_list_is_refused():
    class Sess:
        def get_inputs(self):
            return [SimpleNamespace(name="crops", shape=["batch", 3, 40, 40])]

        def get_modelmeta(self):
            return SimpleNamespace(custom_metadata_map={"names": repr(list(CLASS_NAMES)), "crop_size": "40"})

    with pytest.raises(ValueError, match="background"):
        IndexClassifier(session=Sess())


def test_resolve_classifier(tmp_path, monkeypatch):
    monkeypatch.delenv("CARDS_CLASSIFIER", raising=False)
    model = tmp_path / "cards.onnx"
    assert resolve_classifier("auto", model) is None
    (tmp_path / "index_classifier.onnx").write_bytes(b"x")
    assert resolve_classifier("auto", model) == tmp_path / "index_classifier.onnx"
    assert resolve_classifier("auto", None) is None  # a fake session is never paired
    assert resolve_classifier(None, model) is None and resolve_classifier("off", model) is None
    assert resolve_classifier(TINY, model) == TINY
    monkeypatch.setenv("CARDS_CLASSIFIER", "off")
    assert resolve_classifier("auto", model) is None
    monkeypatch.setenv("CARDS_CLASSIFIER", str(TINY))
    assert resolve_classifier("auto", model) == TINY


# -- detector integration --------------------------------------------------------------------------
class RedSquares:
    """Fake YOLO: one box per red square (class from the green channel, score 0.9), plus one weak
    false box (score 0.08) on blank card at a fixed place, which only a low box threshold lets through."""

    def __init__(self, false_box=(500, 400, 530, 450)):
        self.false_box = false_box

    def get_inputs(self):
        return [SimpleNamespace(name="images", shape=[1, 3, 640, 640])]

    def run(self, _names, feeds):
        x = feeds["images"][0]
        mask = ((x[0] > 0.8) & (x[2] < 0.2)).astype(np.uint8)
        n, _, stats, cents = cv2.connectedComponentsWithStats(mask)
        out = np.zeros((1, 4 + len(CLASS_NAMES), 50), np.float32)
        for k in range(1, n):
            x0, y0, w, h, _ = stats[k]
            cls = int(round(x[1][int(cents[k][1]), int(cents[k][0])] * 255 / 4))
            out[0, :4, k] = [x0 + w / 2, y0 + h / 2, w, h]
            out[0, 4 + cls, k] = 0.9
        x1, y1, x2, y2 = self.false_box
        out[0, :4, 0] = [(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1]
        out[0, 4 + 7, 0] = 0.08
        return [out]


def painted():
    img = np.full((480, 640, 3), 255, np.uint8)
    for x, cls in ((50, 2), (200, 5)):
        img[100:160, x : x + 30] = (0, cls * 4, 255)
    return img


def test_detector_without_classifier_keeps_yolo_classes():
    dets = Detector(session=RedSquares()).detect(painted())
    assert sorted(d.card for d in dets) == sorted([CLASS_NAMES[2], CLASS_NAMES[5]])


def test_detector_with_classifier_rereads_and_drops_background():
    det = Detector(session=RedSquares(), classifier=TINY, box_conf=0.05)
    assert det.decode_conf == 0.05
    dets = det.detect(painted())
    assert [d.card for d in dets] == ["Ah", "Ah"]  # the false box at 0.08 is read as background
    for d in dets:
        assert d.scores is not None and d.scores.shape == (54,)
        assert d.scores.sum() == pytest.approx(1, abs=1e-4)
        assert 0.9 < d.confidence <= 1.0
    boxes = sorted(d.box for d in dets)
    assert np.allclose(boxes, [(50, 100, 80, 160), (200, 100, 230, 160)], atol=1)


class OneClassSquares(RedSquares):
    """The same fake as a one-class index finder (`single_cls`): 4 + 1 rows, metadata names 'item'."""

    def get_modelmeta(self):
        return SimpleNamespace(custom_metadata_map={"names": "{0: 'item'}"})

    def run(self, _names, feeds):
        out = super().run(_names, feeds)[0]
        return [np.concatenate([out[:, :4], out[:, 4:].max(axis=1, keepdims=True)], axis=1)]


def test_one_class_finder_is_named_by_the_classifier():
    det = Detector(session=OneClassSquares(), classifier=TINY, box_conf=0.05)
    assert det.proposer
    dets = det.detect(painted())
    assert [d.card for d in dets] == ["Ah", "Ah"]  # named by the classifier; the false box dropped
    assert all(d.scores.shape == (54,) for d in dets)


def test_one_class_finder_without_classifier_is_refused_unless_asked():
    from vision.detector import ModelMismatchError

    with pytest.raises(ModelMismatchError, match="needs the index classifier"):
        Detector(session=OneClassSquares(), classifier=None)
    with pytest.raises(ValueError, match="54 card scores"):
        Detector(session=OneClassSquares(), classifier=TINY, fuse="product")
    boxes = Detector(session=OneClassSquares(), classifier=None, unnamed_ok=True, conf=0.05).detect(painted())
    assert len(boxes) == 3  # proposal mining: every box, the weak false one included


def test_false_box_on_a_red_area_is_kept_and_read():
    """Proof that the low threshold lets the weak box through: on red it is an index, not background."""
    img = painted()
    img[400:450, 500:530] = (0, 0, 255)
    dets = Detector(session=RedSquares(), classifier=TINY).detect(img)
    assert len(dets) == 3 and all(d.card == "Ah" for d in dets)
    # ...and without the classifier the 0.08 box stays below YOLO's own 0.25 threshold
    assert len(Detector(session=RedSquares()).detect(img)) == 3  # the painted square itself is found


def test_env_switch_turns_the_stage_off(monkeypatch):
    monkeypatch.setenv("CARDS_CLASSIFIER", "off")
    det = Detector(DATA / "tiny_det.onnx")
    assert det.classifier is None
    monkeypatch.setenv("CARDS_CLASSIFIER", str(TINY))
    assert Detector(DATA / "tiny_det.onnx").classifier is not None


# -- the crop dataset ------------------------------------------------------------------------------
def _yolo_set(root: Path, n: int, rng: np.random.Generator) -> None:
    for sub in ("images", "labels"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img = np.full((160, 160, 3), 230, np.uint8)
        rows = []
        for k in range(2):
            x, y = 20 + 70 * k, int(rng.integers(10, 100))
            img[y : y + 40, x : x + 20] = (0, 0, 200)
            rows.append(f"{13 + k} {(x + 10) / 160:.5f} {(y + 20) / 160:.5f} {20 / 160:.5f} {40 / 160:.5f}")
        cv2.imwrite(str(root / "images" / f"t{i}.jpg"), img)
        (root / "labels" / f"t{i}.txt").write_text("\n".join(rows) + "\n")


def test_crops_cli_on_a_handful_of_images(tmp_path):
    rng = np.random.default_rng(3)
    synth = tmp_path / "synth"
    _yolo_set(synth / "train", 4, rng)
    _yolo_set(synth / "val", 2, rng)
    out = tmp_path / "crops"
    cmd = [sys.executable, "-m", "datasets.crops", "--out", str(out), "--train", "30", "--val", "6",
           "--seed", "1", "--synth", str(synth)]
    subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)
    tr = np.load(out / "train.npz")
    assert tr["x"].shape == (30, CROP_SIZE, CROP_SIZE, 3) and tr["x"].dtype == np.uint8
    assert set(tr["y"].tolist()) <= {13, 14, 54} and {13, 14} <= set(tr["y"].tolist())
    fg = tr["x"][tr["y"] != 54]
    assert (fg[:, 15:25, 17:23, 2] > 150).all()  # the red index sits in the middle of every crop
    info = json.loads((out / "info.json").read_text())
    assert info["val"]["crops"] == 6 and info["names"][-1] == "bg"


def test_crops_refuse_the_real_test_half(tmp_path, monkeypatch):
    from datasets import crops
    from vision import holdout

    monkeypatch.setattr(holdout, "REAL_ROOT", tmp_path)
    monkeypatch.setattr(holdout, "split_of", lambda p: "test")
    (tmp_path / "x.jpg").write_bytes(b"")
    with pytest.raises(SystemExit, match="test half"):
        crops.refuse_test_half([(tmp_path / "x.jpg", np.zeros((0, 5)))])


# -- training (extra `train`, in a subprocess) -----------------------------------------------------
@pytest.mark.train
@pytest.mark.timeout(300)
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="training needs torch ([train] extra)")
def test_a_few_training_steps_export_a_loadable_onnx(tmp_path):
    rng = np.random.default_rng(0)
    data = tmp_path / "crops"
    data.mkdir()
    for split, n in (("train", 64), ("val", 16)):
        np.savez(data / f"{split}.npz", x=rng.integers(0, 255, (n, 40, 40, 3), dtype=np.uint8),
                 y=rng.integers(0, 55, n), src=np.zeros(n, np.int8))
    pt, onnx_path = tmp_path / "c.pt", tmp_path / "c.onnx"
    cmd = [sys.executable, "-m", "vision.train_classifier", "--data", str(data), "--steps", "3",
           "--batch", "8", "--width", "8", "--out", str(pt), "--onnx", str(onnx_path)]
    subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)
    clf = IndexClassifier(onnx_path)
    p = clf.probabilities(np.zeros((80, 80, 3), np.uint8), np.array([[10, 10, 30, 50], [40, 40, 60, 60]]))
    assert p.shape == (2, 55) and np.allclose(p.sum(1), 1, atol=1e-5)


def test_a_read_mostly_inside_a_surer_one_is_the_same_index():
    """Found on the app's sample photo (run 10): a sideways index read as Th (its whole box) and as
    Td (a box half inside it, IoU 0.29, below the 0.3 dedupe). A read with half or more of its box
    inside a surer read's box is that index again and goes; neighbours that only touch stay."""
    from vision.classifier import CLASSIFIER_NAMES

    det = Detector(session=RedSquares(), classifier=TINY)

    def probs(card: str, p: float) -> np.ndarray:
        v = np.full(55, (1 - p) / 54, np.float32)
        v[CLASSIFIER_NAMES.index(card)] = p
        return v

    table = np.stack([probs("Th", 0.98), probs("Td", 0.9), probs("9c", 0.95), probs("8c", 0.93)])
    det.classifier = SimpleNamespace(probabilities=lambda image, boxes: table)
    det.skip_sure = None  # every box read (the half box would not be, behind a sure Th: next test)
    boxes = np.array([[269, 445, 312, 470], [293, 450, 312, 482],  # Th, and a half box on it
                      [400, 445, 443, 470], [440, 445, 483, 470]], float)  # 9c and 8c touching
    kept, conf, _ = det.reclassify(np.zeros((600, 600, 3), np.uint8), boxes, np.ones(4), np.zeros((4, 54)))
    assert sorted(map(tuple, kept.tolist())) == sorted(map(tuple, boxes[[0, 2, 3]].tolist()))
    assert np.allclose(sorted(conf), [0.93, 0.95, 0.98], atol=1e-4)


def test_a_box_behind_a_sure_read_is_not_read_again():
    """`skip_sure`: boxes come best YOLO score first; one that the dedupe would merge with a better box
    read as a sure card is not cropped at all, one behind an unsure or background read is."""
    from vision.classifier import CLASSIFIER_NAMES

    det = Detector(session=RedSquares(), classifier=TINY, skip_sure=0.8)
    reads = {269: ("Th", 0.98), 293: ("Td", 0.99), 400: ("9c", 0.5), 410: ("9c", 0.95),
             600: ("bg", 0.99), 605: ("8c", 0.9)}
    asked: list[int] = []

    def probabilities(image, boxes):
        out = []
        for b in boxes:
            card, p = reads[int(b[0])]
            asked.append(int(b[0]))
            v = np.full(55, (1 - p) / 54, np.float32)
            v[CLASSIFIER_NAMES.index(card)] = p
            out.append(v)
        return np.stack(out)

    det.classifier = SimpleNamespace(probabilities=probabilities)
    boxes = np.array([[269, 445, 312, 470], [293, 450, 312, 482],  # sure Th, a half box on it
                      [400, 445, 443, 470], [410, 445, 453, 470],  # unsure 9c, a shifted box on it
                      [600, 445, 643, 470], [605, 447, 648, 472]], float)  # background, a box on it
    kept, conf, rows = det.reclassify(np.zeros((700, 700, 3), np.uint8), boxes, np.ones(6), np.zeros((6, 54)))
    assert sorted(asked) == [269, 400, 410, 600, 605]  # the Td box behind the sure Th was never read
    names = sorted(CLASSIFIER_NAMES[int(r.argmax())] for r in rows)
    assert names == ["8c", "9c", "Th"]
